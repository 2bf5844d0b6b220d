/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preferences: defaults, round trips, bad lines, locales, and saves that
 * fail (a directory we may not write in, a file-size limit) without
 * touching the old file.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"
#include "../../src/tui/prefs.h"
#include "../tap.h"

static char tmpdir[] = "/tmp/test_prefs.XXXXXX";
static char cfgdir[512]; /* $XDG_CONFIG_HOME/scaletop */
static char cfgfile[600];

/* The file's text, or "(missing)". */
static const char *
read_text(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return "(missing)";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries of dir other than . and .., to catch left-over temporary files. */
static int
count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Points XDG_CONFIG_HOME at tmpdir/sub. */
static void
use_config_home(const char *sub)
{
	char home[256];

	snprintf(home, sizeof(home), "%s/%s", tmpdir, sub);
	setenv("XDG_CONFIG_HOME", home, 1);
	snprintf(cfgdir, sizeof(cfgdir), "%s/scaletop", home);
	snprintf(cfgfile, sizeof(cfgfile), "%s/config", cfgdir);
}

static void
test_dirs(void)
{
	char buf[1024], err[ST_ERRLEN];

	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	file_config_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/x/conf/scaletop", "XDG_CONFIG_HOME/scaletop");
	prefs_path(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/x/conf/scaletop/config", "the config file in it");
	setenv("XDG_CONFIG_HOME", "relative/conf", 1);
	setenv("HOME", "/home/someone", 1);
	file_config_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/home/someone/.config/scaletop", "a relative XDG_CONFIG_HOME is ignored");
	unsetenv("XDG_CONFIG_HOME");
	file_config_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/home/someone/.config/scaletop", "unset: HOME/.config");
	unsetenv("HOME");
	ok(file_config_dir(buf, sizeof(buf), err, sizeof(err)) == 0 && buf[0] == '/',
	   "no HOME: the password file's home (%s)", buf);
	setenv("HOME", tmpdir, 1);
	is_int(file_config_dir(buf, 10, err, sizeof(err)), -1,
	       "a path too long for the buffer fails");
}

static void
test_missing_and_roundtrip(void)
{
	struct prefs p, q;
	char err[ST_ERRLEN] = "x", parent[300];
	struct stat sb;

	use_config_home("conf/deeper");
	is_int(prefs_load(&p, err, sizeof(err)), 0, "a missing file is not an error");
	ok(strcmp(p.theme, "default") == 0 && p.interval_s == PREFS_INTERVAL_DEFAULT &&
		   p.workload[0] == '\0' && err[0] == '\0',
	   "... and gives the defaults");

	snprintf(p.theme, sizeof(p.theme), "high-contrast");
	p.interval_s = 0.125;
	snprintf(p.workload, sizeof(p.workload), "mutex");
	if (!is_int(prefs_save(&p, err, sizeof(err)), 0, "save creates the directories and file"))
		diag("%s", err);
	if (stat(cfgdir, &sb) == -1)
		sb.st_mode = 0;
	is_int(sb.st_mode & 07777, 0700, "scaletop/ is created 0700");
	snprintf(parent, sizeof(parent), "%s/conf", tmpdir);
	if (stat(parent, &sb) == -1)
		sb.st_mode = 0;
	is_int(sb.st_mode & 07777, 0700, "missing parents are created 0700");
	is_str(read_text(cfgfile),
	       "# scaletop preferences, rewritten by scaletop when they change (docs/config.md).\n"
	       "theme = high-contrast\ninterval = 0.125\nworkload = mutex\nautosave = on\n",
	       "the file is key = value lines");
	is_int(prefs_load(&q, err, sizeof(err)), 0, "it loads back cleanly");
	ok(strcmp(q.theme, "high-contrast") == 0 && q.interval_s == 0.125 &&
		   strcmp(q.workload, "mutex") == 0,
	   "round trip keeps every value");
	is_int(count_entries(cfgdir), 1, "no temporary file is left");

	p.interval_s = 0.1;
	p.workload[0] = '\0';
	prefs_save(&p, err, sizeof(err));
	prefs_load(&q, err, sizeof(err));
	ok(q.interval_s == 0.1 && q.workload[0] == '\0', "0.1 and an empty workload round-trip");
	ok(strstr(read_text(cfgfile), "interval = 0.1\n") != NULL, "0.1 is written as 0.1");

	p.autosave = 0;
	prefs_save(&p, err, sizeof(err));
	prefs_load(&q, err, sizeof(err));
	ok(q.autosave == 0 && strstr(read_text(cfgfile), "autosave = off\n") != NULL,
	   "autosave = off is written and read back");
}

/* autosave: on by default; on/off and their synonyms; a bad value keeps it on. */
static void
test_autosave(void)
{
	static const char *const offs[] = { "autosave = off\n", "autosave=No\n",
					    "autosave = false\n", "autosave = 0\n" };
	struct prefs p;
	char warn[ST_ERRLEN];
	size_t i;

	prefs_defaults(&p);
	is_int(p.autosave, 1, "autosave is on by default");
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		prefs_defaults(&p);
		prefs_parse(&p, offs[i], strlen(offs[i]), "cfg", warn, sizeof(warn));
		ok(p.autosave == 0 && warn[0] == '\0', "%.*s turns it off",
		   (int)strlen(offs[i]) - 1, offs[i]);
	}
	prefs_parse(&p, "autosave = yes\n", strlen("autosave = yes\n"), "cfg", warn, sizeof(warn));
	is_int(p.autosave, 1, "autosave = yes turns it on again");
	prefs_defaults(&p);
	is_int(prefs_parse(&p, "autosave = maybe\n", strlen("autosave = maybe\n"), "cfg", warn,
			   sizeof(warn)),
	       1, "autosave = maybe is a bad line");
	ok(strstr(warn, "cfg:1: autosave: give on or off; using on") != NULL && p.autosave == 1,
	   "naming the line and keeping it on: %s", warn);
}

static void
test_bad_lines(void)
{
	static const char text[] = "# comment\n"
				   "  theme = light  \r\n"
				   "interval = fast\n"
				   "colour = red\n"
				   "workload = fileio\n"
				   "no equals sign here\n"
				   "\n"
				   "interval=2.5\n"
				   "interval = 99\n";
	struct prefs p;
	char warn[ST_ERRLEN];

	prefs_defaults(&p);
	is_int(prefs_parse(&p, text, sizeof(text) - 1, "cfg", warn, sizeof(warn)), 1,
	       "bad lines make a warning, not a failure");
	ok(strncmp(warn, "cfg:3: interval: ", 17) == 0 && strstr(warn, "(and 3 more bad lines)") &&
		   !strchr(warn, '\n'),
	   "the first names file and line, and counts the rest: %s", warn);
	ok(strcmp(p.theme, "light") == 0 && strcmp(p.workload, "fileio") == 0 &&
		   p.interval_s == 2.5,
	   "good lines apply around them; blanks and CR trimmed");

	prefs_defaults(&p);
	prefs_parse(&p, "colour = red\n", strlen("colour = red\n"), "cfg", warn, sizeof(warn));
	ok(strstr(warn, "cfg:1: unknown key 'colour'") != NULL, "unknown key: %s", warn);
	prefs_parse(&p, "x\ninterval = 0,5\n", strlen("x\ninterval = 0,5\n"), "cfg", warn,
		    sizeof(warn));
	ok(strstr(warn, "cfg:1: expected key = value") != NULL &&
		   p.interval_s == PREFS_INTERVAL_DEFAULT,
	   "missing '=', and a decimal comma refused: %s", warn);
	prefs_parse(&p, "theme =\n", strlen("theme =\n"), "cfg", warn, sizeof(warn));
	ok(strstr(warn, "cfg:1: theme:") != NULL && strcmp(p.theme, "default") == 0,
	   "an empty theme keeps the default: %s", warn);
	is_int(prefs_parse(&p, "", 0, "cfg", warn, sizeof(warn)), 0, "an empty file is fine");
	is_str(warn, "", "... with no warning");

	use_config_home("badfile");
	snprintf(warn, sizeof(warn), "%s/badfile", tmpdir);
	mkdir(warn, 0700);
	mkdir(cfgdir, 0700);
	write_file(cfgfile, "theme = mono\nspeed = 3\n");
	is_int(prefs_load(&p, warn, sizeof(warn)), 1, "prefs_load reports a bad line");
	ok(strstr(warn, cfgfile) == warn && strstr(warn, ":2: unknown key 'speed'") != NULL &&
		   strcmp(p.theme, "mono") == 0,
	   "naming the real file and line: %s", warn);
	unlink(cfgfile);
	mkdir(cfgfile, 0700);
	is_int(prefs_load(&p, warn, sizeof(warn)), -1, "a config that cannot be read fails");
	ok(strstr(warn, cfgfile) != NULL && strcmp(p.theme, "default") == 0,
	   "with the defaults and a reason: %s", warn);
	rmdir(cfgfile);
}

/* Under a decimal-comma locale the file still says 0.25 and reads back. */
static void
test_locale(void)
{
	struct prefs p, q;
	char err[ST_ERRLEN];

	if (setlocale(LC_ALL, "de_DE.UTF-8") == NULL) {
		skip("no de_DE.UTF-8 locale installed", "numbers ignore the locale");
		return;
	}
	use_config_home("locale");
	prefs_defaults(&p);
	p.interval_s = 0.25;
	prefs_save(&p, err, sizeof(err));
	prefs_load(&q, err, sizeof(err));
	ok(strstr(read_text(cfgfile), "interval = 0.25\n") != NULL && q.interval_s == 0.25,
	   "de_DE: interval written and read as 0.25");
	setlocale(LC_ALL, "C");
}

static void
test_refused_values(void)
{
	struct prefs p;
	char err[ST_ERRLEN];

	use_config_home("refused");
	prefs_defaults(&p);
	p.interval_s = 0;
	is_int(prefs_save(&p, err, sizeof(err)), -1, "an interval out of range is not saved");
	ok(strstr(err, "interval") != NULL, "saying which: %s", err);
	prefs_defaults(&p);
	snprintf(p.workload, sizeof(p.workload), "two\nlines");
	is_int(prefs_save(&p, err, sizeof(err)), -1, "a newline in a value is not saved");
	is_str(read_text(cfgfile), "(missing)", "and nothing was written");
}

/*
 * Runs prefs_save in a child that first calls setup(); returns its result
 * and copies its error message into err.
 */
static int
save_in_child(void (*setup)(void), char *err, size_t len)
{
	struct prefs p;
	int fds[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe(fds) == -1 || (pid = fork()) == -1)
		return -2;
	if (pid == 0) {
		char msg[ST_ERRLEN] = "";

		close(fds[0]);
		setup();
		prefs_defaults(&p);
		snprintf(p.theme, sizeof(p.theme), "light");
		st = prefs_save(&p, msg, sizeof(msg));
		if (write(fds[1], msg, strlen(msg)) < 0)
			_exit(3);
		_exit(st == 0 ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], err, len - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? (WEXITSTATUS(st) == 0 ? 0 : -1) : -2;
}

/* As root, only another user is refused; as anyone else, a read-only directory is. */
static void
drop_privileges(void)
{
	if (getuid() == 0 && (setgid(65534) == -1 || setuid(65534) == -1))
		_exit(2);
}

static void
limit_file_size(void)
{
	struct rlimit rl = { 16, 16 };

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl) == -1)
		_exit(2);
}

static const char old_text[] = "theme = mono\ninterval = 2\nworkload = spinlock\n";

static void
test_failed_saves(void)
{
	char err[ST_ERRLEN], home[256];

	use_config_home("locked");
	snprintf(home, sizeof(home), "%s/locked", tmpdir);
	mkdir(home, 0755);
	mkdir(cfgdir, 0755);
	/* The test's tree must be reachable by the unprivileged child. */
	chmod(tmpdir, 0755);
	write_file(cfgfile, old_text);
	if (getuid() != 0)
		chmod(cfgdir, 0555);
	is_int(save_in_child(drop_privileges, err, sizeof(err)), -1,
	       "saving into a directory we may not write fails");
	ok(strstr(err, cfgdir) != NULL && strstr(err, "Permission denied") != NULL &&
		   !strchr(err, '\n'),
	   "naming the directory and why: %s", err);
	is_str(read_text(cfgfile), old_text, "the old file is untouched");
	is_int(count_entries(cfgdir), 1, "no temporary file is left");
	chmod(cfgdir, 0700);

	is_int(save_in_child(limit_file_size, err, sizeof(err)), -1,
	       "a write that fails half-way (file size limit) fails");
	ok(strstr(err, "write") != NULL && strstr(err, "the old file is unchanged") != NULL,
	   "saying which step: %s", err);
	is_str(read_text(cfgfile), old_text, "the old file is not truncated");
	is_int(count_entries(cfgdir), 1, "and the temporary file is removed");
	chmod(tmpdir, 0700);
}

/* A config file linked from elsewhere (a dotfile manager) stays a link. */
static void
test_symlink(void)
{
	struct prefs p;
	char err[ST_ERRLEN], real[700], target[700];
	struct stat sb;

	use_config_home("linked");
	snprintf(real, sizeof(real), "%s/linked", tmpdir);
	mkdir(real, 0700);
	mkdir(cfgdir, 0700);
	snprintf(real, sizeof(real), "%s/dotfiles", tmpdir);
	mkdir(real, 0700);
	snprintf(target, sizeof(target), "%s/dotfiles/scaletop.conf", tmpdir);
	write_file(target, old_text);
	if (symlink(target, cfgfile) == -1) {
		skip("cannot make a symbolic link", "symlinked config");
		return;
	}
	prefs_defaults(&p);
	snprintf(p.theme, sizeof(p.theme), "light");
	is_int(prefs_save(&p, err, sizeof(err)), 0, "saving through a symbolic link");
	ok(lstat(cfgfile, &sb) == 0 && S_ISLNK(sb.st_mode), "the link is still a link");
	ok(strstr(read_text(target), "theme = light\n") != NULL, "its target has the new text");
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_dirs();
	test_missing_and_roundtrip();
	test_bad_lines();
	test_autosave();
	test_locale();
	test_refused_values();
	test_failed_saves();
	test_symlink();
	remove_tree(tmpdir);
	return done_testing();
}

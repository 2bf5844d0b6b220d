/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The runs directory (store/runs.c): where it is, how a kept run is named,
 * what is worth keeping, one file per session replaced atomically, the
 * listing newest first, the summaries, pruning by age, and the failures a
 * full or read-only disk or a file in the directory's place give.
 */
#define _GNU_SOURCE /* unshare, for the read-only mount in a private namespace */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mount.h>
#endif

#include "scaletop/runs.h"
#include "scaletop/snapshot.h"
#include "scaletop/stats.h"
#include "../tap.h"

static char tmpdir[] = "/tmp/test_runs.XXXXXX";

/* A sweep over N = 1, 2, 4 ... with nsteps steps, the last one `last` (ok or interrupted). */
static void
make_session(struct session *s, const char *wl, int nsteps, enum step_status last)
{
	struct step *st;
	int i, k;

	session_init(s);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "box/1 a");
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	s->host.ncpus = 4;
	snprintf(s->wl.name, sizeof(s->wl.name), "%s", wl);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "threads");
	snprintf(s->started_utc, sizeof(s->started_utc), "2026-12-01T10:00:00Z");
	s->set.n = calloc((size_t)nsteps + 1, sizeof(int));
	for (i = 0; i < nsteps; i++) {
		s->set.n[i] = 1 << i;
		st = session_add_step(s, 1 << i, 0);
		for (k = 0; k < 8; k++)
			step_add_interval(st, 1000.0 * (i + 1) + k);
		stats_compute(&st->st, st->iv, (size_t)st->niv);
		st->status = i == nsteps - 1 ? last : STEP_OK;
		st->window_s = 1;
	}
	s->set.nn = nsteps;
	s->set.duration_s = 1;
	s->set.repeat = 1;
}

static void
age(const char *path, double days)
{
	struct timeval tv[2];

	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec -= (time_t)(days * 86400);
	tv[1] = tv[0];
	utimes(path, tv);
}

static void
test_dir_and_name(void)
{
	struct session s;
	char buf[4096], err[ST_ERRLEN];
	struct tm tm = { .tm_year = 126,
			 .tm_mon = 11,
			 .tm_mday = 1,
			 .tm_hour = 17,
			 .tm_min = 5,
			 .tm_sec = 3,
			 .tm_isdst = -1 };

	setenv("XDG_DATA_HOME", "/x/data", 1);
	runs_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/x/data/scaletop/runs", "the runs directory is under XDG_DATA_HOME");
	setenv("XDG_DATA_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	runs_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/home/u/.local/share/scaletop/runs",
	       "a relative XDG_DATA_HOME is ignored: ~/.local/share");
	unsetenv("XDG_DATA_HOME");
	runs_dir(buf, sizeof(buf), err, sizeof(err));
	is_str(buf, "/home/u/.local/share/scaletop/runs", "and so is an unset one");

	make_session(&s, "cpu", 1, STEP_OK);
	runs_name(&s, mktime(&tm), buf, sizeof(buf));
	is_str(buf, "scaletop-cpu-box_1_a-20261201-170503.json",
	       "named by workload, host and local time, no '/' or blank in it");
	session_free(&s);
}

static void
test_worth(void)
{
	struct session s;

	make_session(&s, "cpu", 0, STEP_OK);
	ok(!runs_worth_keeping(&s), "a sweep with no step is not kept");
	session_free(&s);
	make_session(&s, "cpu", 1, STEP_INTERRUPTED);
	ok(!runs_worth_keeping(&s), "nor one whose only step was cut short");
	session_free(&s);
	make_session(&s, "cpu", 2, STEP_INTERRUPTED);
	ok(runs_worth_keeping(&s), "one finished step and a stopped one is kept");
	session_free(&s);
}

static void
test_keep_and_list(void)
{
	char dir[512], path[4096], path2[4096], err[ST_ERRLEN], nr[32];
	struct session s, t;
	struct run_list l;
	struct stat sb;
	time_t when = time(NULL);

	snprintf(dir, sizeof(dir), "%s/data/scaletop/runs", tmpdir);
	is_int(runs_list(dir, &l, err, sizeof(err)), 0, "a missing runs directory lists ...");
	is_int(l.n, 0, "... no runs");
	make_session(&s, "spinlock", 3, STEP_INTERRUPTED);
	s.nsteps = 2; /* kept after two steps; the third comes later */
	path[0] = '\0';
	if (!is_int(runs_keep(dir, &s, when, path, sizeof(path), err, sizeof(err)), 0,
		    "the first keep makes the directories and the file"))
		diag("%s", err);
	ok(stat(dir, &sb) == 0 && (sb.st_mode & 0777) == 0700, "the runs directory is 0700");
	ok(strncmp(path, dir, strlen(dir)) == 0 && strstr(path, "scaletop-spinlock-") != NULL,
	   "the file is in it, named for the run: %s", path);
	snprintf(path2, sizeof(path2), "%s", path);
	s.nsteps = 3;
	is_int(runs_keep(dir, &s, when, path, sizeof(path), err, sizeof(err)), 0,
	       "a second keep of the same sweep ...");
	is_str(path, path2, "... replaces the same file");
	make_session(&t, "spinlock", 1, STEP_OK);
	path2[0] = '\0';
	runs_keep(dir, &t, when, path2, sizeof(path2), err, sizeof(err));
	ok(strcmp(path, path2) != 0 && strstr(path2, "-2.json") != NULL,
	   "another sweep of the same second gets -2: %s", path2);
	age(path2, 3);
	write_file(strcat(strcpy(err, dir), "/.scaletop-x.json.AbCdEf"), "temp");
	write_file(strcat(strcpy(err, dir), "/notes.txt"), "not a run");
	is_int(runs_list(dir, &l, err, sizeof(err)), 0, "the directory lists");
	is_int(l.n, 2, "the two runs, not the temp file or the note");
	if (l.n == 2) {
		is_str(l.v[0].path, path, "newest first");
		ok(!l.v[0].loaded, "listing reads no file");
		runs_entry_load(&l.v[0]);
		runs_entry_nrange(&l.v[0], nr, sizeof(nr));
		ok(l.v[0].loaded && l.v[0].err[0] == '\0', "a kept run reads back: %s", l.v[0].err);
		is_str(l.v[0].workload, "spinlock", "its workload");
		is_str(l.v[0].host, "box/1 a", "its host");
		is_str(nr, "1-4", "its N range");
		is_int(l.v[0].nsteps, 3, "its steps");
		ok(l.v[0].interrupted, "that it was stopped");
		ok(l.v[0].verdict[0] != '\0', "and its verdict: %s", l.v[0].verdict);
		write_file(l.v[1].path, "{ not json");
		runs_entry_load(&l.v[1]);
		ok(strstr(l.v[1].err, path2) != NULL, "a damaged file says so, named: %s",
		   l.v[1].err);
	}
	runs_list_free(&l);
	session_free(&s);
	session_free(&t);
}

static void
test_prune(void)
{
	char dir[512], path[600], err[ST_ERRLEN];
	struct run_list l;
	int removed = -1;

	snprintf(dir, sizeof(dir), "%s/prune", tmpdir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/old.json", dir);
	write_file(path, "{}");
	age(path, 10);
	snprintf(path, sizeof(path), "%s/week.json", dir);
	write_file(path, "{}");
	age(path, 5);
	snprintf(path, sizeof(path), "%s/new.json", dir);
	write_file(path, "{}");
	is_int(runs_prune(dir, 7, time(NULL), &removed, err, sizeof(err)), 0, "prune 7 days");
	is_int(removed, 1, "removes the one kept 10 days ago");
	runs_list(dir, &l, err, sizeof(err));
	is_int(l.n, 2, "and leaves the others");
	runs_list_free(&l);
	runs_prune(dir, 1, time(NULL), &removed, err, sizeof(err));
	is_int(removed, 1, "prune 1 day removes the 5-day-old one");
	snprintf(path, sizeof(path), "%s/nope", tmpdir);
	is_int(runs_prune(path, 1, time(NULL), &removed, err, sizeof(err)), 0,
	       "a missing directory prunes nothing");
	is_int(removed, 0, "... and says 0");
}

static void
test_not_a_dir(void)
{
	char data[512], dir[600], path[4096] = "", err[ST_ERRLEN];
	struct session s;

	snprintf(data, sizeof(data), "%s/file", tmpdir);
	mkdir(data, 0700);
	snprintf(dir, sizeof(dir), "%s/scaletop", data);
	write_file(dir, "a file where the directory should be");
	strcat(dir, "/runs");
	make_session(&s, "cpu", 1, STEP_OK);
	is_int(runs_keep(dir, &s, time(NULL), path, sizeof(path), err, sizeof(err)), -1,
	       "a file where the directory should be: the keep fails");
	ok(errno == ENOTDIR, "with ENOTDIR");
	snprintf(dir, sizeof(dir), "%s/scaletop: %s", data, strerror(ENOTDIR));
	is_str(err, dir, "naming the path in the way and why");
	is_str(path, "", "and no file name is kept");
	session_free(&s);
}

/* In the child, as nobody: runs_keep under a folder of root's; 0 when err says EACCES, 77: cannot.
 */
static int
not_ours_child(const char *data)
{
	char dir[600], path[4096] = "", err[ST_ERRLEN], want[700];
	struct session s;

	if (geteuid() == 0 && (setgid(65534) == -1 || setuid(65534) == -1))
		return 77;
	snprintf(dir, sizeof(dir), "%s/scaletop/runs", data);
	snprintf(want, sizeof(want), "%s/scaletop: %s", data, strerror(EACCES));
	make_session(&s, "cpu", 1, STEP_OK);
	if (runs_keep(dir, &s, time(NULL), path, sizeof(path), err, sizeof(err)) == 0 ||
	    strcmp(err, want) != 0) {
		printf("# got '%s', want '%s'\n", err, want);
		return 1;
	}
	session_free(&s);
	return 0;
}

/* XDG_DATA_HOME a folder of root's, 755, as nobody: the mkdir's EACCES, not a later ENOENT. */
static void
test_not_ours(void)
{
	char data[512];
	int status;
	pid_t pid;

	snprintf(data, sizeof(data), "%s/notours", tmpdir);
	mkdir(data, 0755);
	chmod(tmpdir, 0711);
	if (geteuid() != 0)
		chmod(data, 0555);
	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(not_ours_child(data));
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		skip("root cannot become nobody here", "a runs directory not ours");
	else
		is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
		       "a runs directory not ours: \"DATA/scaletop: Permission denied\"");
}

#ifdef __linux__
/* In a private mount namespace: a read-only tmpfs as the runs directory.  77: cannot. */
static int
rofs_child(const char *dir)
{
	char path[4096] = "", err[ST_ERRLEN], want[1024];
	struct session s;

	if (private_tmpfs(dir, MS_RDONLY, "size=64k") != 0)
		return 77;
	make_session(&s, "cpu", 1, STEP_OK);
	if (runs_keep(dir, &s, time(NULL), path, sizeof(path), err, sizeof(err)) != -1)
		return 1;
	snprintf(want, sizeof(want), "%s: %s", dir, strerror(EROFS));
	umount(dir);
	session_free(&s);
	return strcmp(err, want) == 0 && path[0] == '\0' ? 0 : 2;
}
/*
 * In a private mount namespace: a 12 KiB tmpfs as the runs directory.  A
 * small sweep is kept; a longer one does not fit, and the keep that would
 * replace the first fails with ENOSPC, leaving the first whole.  77: cannot.
 */
static int
full_child(const char *dir)
{
	char path[4096] = "", err[ST_ERRLEN], want[1024], *before = NULL, *after = NULL;
	size_t nb = 0, na = 0;
	struct session small, big;
	int r = 0;

	if (private_tmpfs(dir, 0, "size=12k") != 0)
		return 77;
	make_session(&small, "cpu", 1, STEP_OK);
	make_session(&big, "cpu", 24, STEP_OK);
	if (runs_keep(dir, &small, time(NULL), path, sizeof(path), err, sizeof(err)) != 0)
		r = 1;
	else if (snapshot_file_read(path, &before, &nb, err, sizeof(err)) != 0)
		r = 2;
	else if (runs_keep(dir, &big, time(NULL), path, sizeof(path), err, sizeof(err)) != -1)
		r = 3;
	else if (errno != ENOSPC)
		r = 4;
	snprintf(want, sizeof(want), "%s: %s", dir, strerror(ENOSPC));
	if (r == 0 && strcmp(err, want) != 0)
		r = 5;
	if (r == 0 && (snapshot_file_read(path, &after, &na, err, sizeof(err)) != 0 || na != nb ||
		       memcmp(before, after, nb) != 0))
		r = 6; /* the kept run was lost or cut */
	free(before);
	free(after);
	session_free(&small);
	session_free(&big);
	umount(dir);
	return r;
}
#endif

static void
test_full(void)
{
#ifdef __linux__
	char dir[600];
	int status;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/full", tmpdir);
	mkdir(dir, 0700);
	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(full_child(dir));
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		skip("cannot mount a small tmpfs here (needs root; the line above says why)",
		     "ENOSPC");
		return;
	}
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "a full runs directory: \"DIR: No space left on device\", the kept run whole");
#else
	skip("the full-disk test mounts a Linux tmpfs", "ENOSPC");
#endif
}

static void
test_read_only(void)
{
#ifdef __linux__
	char dir[600];
	int status;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/ro", tmpdir);
	mkdir(dir, 0700);
	fflush(stdout);
	if ((pid = fork()) == 0)
		_exit(rofs_child(dir));
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		skip("cannot mount a read-only tmpfs here (needs root; the line above says why)",
		     "EROFS");
		return;
	}
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "a read-only runs directory: \"DIR: Read-only file system\", no file");
#else
	skip("the read-only test mounts a Linux tmpfs", "EROFS");
#endif
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return 1;
	setenv("TZ", "UTC", 1);
	tzset();
	test_dir_and_name();
	test_worth();
	test_keep_and_list();
	test_prune();
	test_not_a_dir();
	test_not_ours();
	test_read_only();
	test_full();
	remove_tree(tmpdir);
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where themes are found beyond scaletop's own: btop's folders (the user's,
 * under $XDG_CONFIG_HOME or ~/.config, then the system's), the first found
 * winning a name; and that a theme never fails for what it holds: every
 * btop theme installed on this machine loads without a warning, and a bad
 * line only costs its key.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "../../src/tui/theme.h"
#include "../tap.h"

static char tmpdir[] = "/tmp/test_theme_dirs.XXXXXX";
static char local_dir[600], sys_dir[600];
static const char *btop_dirs[3];

static void
make_dirs(const char *rel)
{
	char path[1024], *s;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (s = path + strlen(tmpdir) + 1; *s != '\0'; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0700);
			*s = '/';
		}
	}
	mkdir(path, 0700);
}

/* tmpdir/rel/name.theme, whose main_fg says which copy it is. */
static void
put_theme(const char *rel, const char *name, const char *fg)
{
	char path[1024], text[128];

	snprintf(path, sizeof(path), "%s/%s/%s.theme", tmpdir, rel, name);
	snprintf(text, sizeof(text), "theme[main_fg]=\"%s\"\n", fg);
	write_file(path, text);
}

static const char *
bundled_dir(void)
{
	static char dir[2048];
	const char *top = getenv("top_srcdir");

	snprintf(dir, sizeof(dir), "%s/themes", top ? top : ".");
	return dir;
}

/* The file a name is loaded from, relative to tmpdir where it is in it. */
static const char *
found(const char *name)
{
	static char path[4096];
	char err[ST_ERRLEN];
	size_t n = strlen(tmpdir);
	int rc = theme_find(name, path, sizeof(path), err, sizeof(err));

	if (rc != 1)
		return rc == 0 ? "(built in)" : "(not found)";
	return strncmp(path, tmpdir, n) == 0 ? path + n + 1 : path;
}

struct listing {
	char text[8192]; /* "name:origin " for each theme */
};

static void
list_one(const char *name, const char *path, enum theme_origin origin, void *arg)
{
	struct listing *l = arg;
	char one[128];

	(void)path;
	snprintf(one, sizeof(one), "%s:%d ", name, (int)origin);
	strncat(l->text, one, sizeof(l->text) - strlen(l->text) - 1);
}

static void
setup(void)
{
	setenv("SCALETOP_THEMES_DIR", bundled_dir(), 1);
	snprintf(local_dir, sizeof(local_dir), "%s/local/btop/themes", tmpdir);
	snprintf(sys_dir, sizeof(sys_dir), "%s/usr/btop/themes", tmpdir);
	btop_dirs[0] = local_dir;
	btop_dirs[1] = sys_dir;
	btop_dirs[2] = NULL;
	theme_set_btop_dirs(btop_dirs);
	make_dirs("cfg/btop/themes");
	make_dirs("cfg/scaletop/themes");
	make_dirs("local/btop/themes");
	make_dirs("usr/btop/themes");
	put_theme("cfg/btop/themes", "nord", "#000001");
	put_theme("cfg/btop/themes", "light", "#000002");   /* scaletop's bundled light wins */
	put_theme("cfg/btop/themes", "default", "#000003"); /* never replaces ours */
	put_theme("cfg/scaletop/themes", "mine", "#000004");
	put_theme("local/btop/themes", "nord", "#000005"); /* the user's nord wins */
	put_theme("local/btop/themes", "local-only", "#000006");
	put_theme("usr/btop/themes", "local-only", "#000007"); /* /usr/local wins */
	put_theme("usr/btop/themes", "Sys_Only", "#000008");
}

static void
test_lookup(void)
{
	char cfg[700], want[8192];
	struct listing l;
	char err[ST_ERRLEN];

	snprintf(cfg, sizeof(cfg), "%s/cfg", tmpdir);
	setenv("XDG_CONFIG_HOME", cfg, 1);
	is_str(found("nord"), "cfg/btop/themes/nord.theme",
	       "$XDG_CONFIG_HOME/btop/themes is searched, before btop's system folders");
	is_str(found("local-only"), "local/btop/themes/local-only.theme",
	       "a system btop theme by name; the first folder listed wins");
	is_str(found("Sys_Only"), "usr/btop/themes/Sys_Only.theme",
	       "btop's names keep their capitals and '_'");
	ok(strstr(found("light"), "/themes/light.theme") && !strstr(found("light"), "btop"),
	   "scaletop's bundled theme comes before btop's of the same name: %s", found("light"));
	ok(strstr(found("default"), "btop") == NULL,
	   "btop's default.theme is never our default: %s", found("default"));
	is_str(found("mine"), "cfg/scaletop/themes/mine.theme", "the user's scaletop themes first");
	is_int(theme_find("none-such", want, sizeof(want), err, sizeof(err)), -1,
	       "a name in no folder");
	ok(strstr(err, "btop's theme folders") != NULL && strchr(err, '\n') == NULL,
	   "the message says btop's folders were searched too: %s", err);

	memset(&l, 0, sizeof(l));
	theme_list(list_one, &l);
	snprintf(want, sizeof(want),
		 "default:%d high-contrast:%d light:%d mono:%d mine:%d nord:%d local-only:%d "
		 "Sys_Only:%d ",
		 THEME_FROM_BUNDLED, THEME_FROM_BUNDLED, THEME_FROM_BUNDLED, THEME_FROM_BUNDLED,
		 THEME_FROM_USER, THEME_FROM_BTOP_USER, THEME_FROM_BTOP, THEME_FROM_BTOP);
	is_str(l.text, want,
	       "listed: scaletop's, the user's, btop's (the user's, then the system's), "
	       "each name once, by name whatever the case");
	is_str(theme_next("mine"), "nord", "t goes on from the user's themes to btop's");
	is_str(theme_next("Sys_Only"), "default", "... and wraps around after them");

	theme_use("nord", err, sizeof(err));
	is_str(theme_current(), "nord", "a btop theme is used by name");
	is_str(theme_origin_name(THEME_FROM_BTOP_USER), "btop's, yours", "origins have names");
}

/* Without XDG_CONFIG_HOME, btop's folder is ~/.config/btop/themes, as btop has it. */
static void
test_home(void)
{
	char home[700];

	snprintf(home, sizeof(home), "%s/home", tmpdir);
	make_dirs("home/.config/btop/themes");
	put_theme("home/.config/btop/themes", "homely", "#000009");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", home, 1);
	is_str(found("homely"), "home/.config/btop/themes/homely.theme",
	       "XDG_CONFIG_HOME unset: ~/.config/btop/themes");
	setenv("XDG_CONFIG_HOME", "relative/dir", 1);
	is_str(found("homely"), "home/.config/btop/themes/homely.theme",
	       "a relative XDG_CONFIG_HOME is ignored, as the XDG spec says");
}

static void
test_names(void)
{
	ok(theme_name_valid("light") && theme_name_valid("gruvbox_dark_v2") &&
		   theme_name_valid("HotPurpleTrafficLight") && theme_name_valid("/tmp/x.theme") &&
		   theme_name_valid("./x.theme"),
	   "names and paths are valid");
	ok(!theme_name_valid("") && !theme_name_valid(".hidden") && !theme_name_valid("a\tb"),
	   "empty, hidden and control characters are not");
}

/* Every theme in btop's installed folders loads with no warning. */
static void
test_installed_btop(void)
{
	static const char *const dirs[] = { "/usr/share/btop/themes",
					    "/usr/local/share/btop/themes" };
	char path[4096], err[ST_ERRLEN];
	struct dirent *de;
	struct theme t;
	size_t i, n;
	int seen = 0, clean = 0, rc;
	DIR *d;

	for (i = 0; i < 2; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			n = strlen(de->d_name);
			if (n < 7 || strcmp(de->d_name + n - 6, ".theme") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			rc = theme_load_file(&t, path, NULL, NULL, err, sizeof(err));
			seen++;
			clean += rc == 0;
			if (rc != 0)
				diag("%s: %d bad lines", path, rc);
		}
		closedir(d);
	}
	if (seen == 0) {
		skip("btop is not installed here (no /usr/share/btop/themes): apt-get install "
		     "btop",
		     "every installed btop theme loads without a warning");
		return;
	}
	is_int(clean, seen, "every installed btop theme loads without a warning");
}

/* A bad line costs its key, never the theme: the lines after it still apply. */
static void
test_tolerant(void)
{
	static const char text[] = "theme[unknown_key]=\"#123456\"\n"
				   "theme[title]=\"not a colour\"\n"
				   "theme[main_fg]=\"#0a0b0c\"\n"
				   "theme[future_btop_key]=\"#ffffff\"\n"
				   "theme[hi_fg]=\"#0d0e0f\"\n";
	char path[1024], err[ST_ERRLEN];
	struct theme t, def;

	theme_init(&def);
	is_int(theme_parse(&t, text, sizeof(text) - 1, "x.theme", NULL, NULL), 3,
	       "three bad lines counted");
	ok(t.role[ROLE_MAIN].fg == 0x0a0b0c && t.role[ROLE_HI].fg == 0x0d0e0f,
	   "the good lines after them apply");
	is_int(t.role[ROLE_TITLE].fg, def.role[ROLE_TITLE].fg, "a bad value keeps the default");
	snprintf(path, sizeof(path), "%s/unknown.theme", tmpdir);
	write_file(path, text);
	is_int(theme_use(path, err, sizeof(err)), 1, "theme_use loads it, with a warning");
	is_str(theme_current(), "unknown", "... and it is the theme in use");
	ok(strstr(err, "unknown.theme:1: unknown key theme[unknown_key]") != NULL &&
		   strstr(err, "(and 2 more bad lines)") != NULL,
	   "the warning names file, line and key: %s", err);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	setup();
	test_lookup();
	test_home();
	test_names();
	test_tolerant();
	theme_set_btop_dirs(NULL);
	test_installed_btop();
	remove_tree(tmpdir);
	return done_testing();
}

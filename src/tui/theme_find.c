/*
 * Where themes live: the user's directory, then the bundled one, and the
 * cycle of names that the 't' key walks through.  File-system code; no
 * curses.
 *
 * The bundled directory is $SCALETOP_THEMES_DIR when set (tests, odd
 * installs); else, for a binary run from the build tree, the themes/ of the
 * source tree named by the marker file the build writes beside it
 * (THEME_SRCDIR_MARKER, never installed); else the installed
 * $(pkgdatadir)/themes.  No build-tree path is compiled in.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"
#include "theme_priv.h"

#ifndef ST_THEMES_DIR
#define ST_THEMES_DIR "/usr/local/share/scaletop/themes"
#endif

/* Written by the build next to the built binary (src/tui/local.mk): the source tree's path. */
#define THEME_SRCDIR_MARKER "scaletop.srcdir"

#define THEME_FILE_MAX (1024 * 1024) /* far above any theme; stops reading a wrong file */
#define THEME_LIST_MAX 256

struct theme_entry {
	char name[THEME_NAME_MAX];
	char path[PATH_MAX];
	int user;
};

struct theme_cycle {
	struct theme_entry e[THEME_LIST_MAX];
	size_t n;
};

int
theme_load_file(struct theme *t, const char *path, theme_warn_fn warn, void *arg, char *err,
		size_t errlen)
{
	char *buf;
	size_t len;
	int bad;

	if (file_read_all(path, THEME_FILE_MAX, &buf, &len) == -1) {
		theme_init(t);
		return st_error(err, errlen,
				"theme %s: cannot read it: %s; check the path, or pick "
				"another theme",
				path,
				errno == EFBIG ? "over 1 MiB, not a theme file" : strerror(errno));
	}
	bad = theme_parse(t, buf, len, path, warn, arg);
	free(buf);
	return bad;
}

static int
theme_user_dir(char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (file_config_dir(dir, sizeof(dir), NULL, 0) == -1)
		return -1;
	if ((size_t)snprintf(buf, len, "%s/themes", dir) >= len)
		return -1;
	return 0;
}

static const char *
theme_bundled_dir(void)
{
	static char built[PATH_MAX];
	const char *env = getenv("SCALETOP_THEMES_DIR");
	char src[PATH_MAX];

	if (env != NULL && *env != '\0')
		return env;
	if (file_beside_self(THEME_SRCDIR_MARKER, src, sizeof(src)) == 0 &&
	    (size_t)snprintf(built, sizeof(built), "%s/themes", src) < sizeof(built))
		return built;
	return ST_THEMES_DIR;
}

/* dir/name.theme if it is a readable regular file. */
static int
theme_in_dir(const char *dir, const char *name, char *path, size_t len)
{
	struct stat sb;

	if ((size_t)snprintf(path, len, "%s/%s.theme", dir, name) >= len)
		return 0;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, R_OK) == 0;
}

static int
theme_name_ok(const char *name)
{
	const unsigned char *s;

	if (*name == '\0' || *name == '.' || strlen(name) >= THEME_NAME_MAX)
		return 0;
	for (s = (const unsigned char *)name; *s != '\0'; s++) {
		if (*s < 0x20 || *s == 0x7f || *s == '/')
			return 0;
	}
	return 1;
}

int
theme_find(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	char user[PATH_MAX];
	const char *bundled = theme_bundled_dir();
	int have_user = theme_user_dir(user, sizeof(user)) == 0;

	if (strchr(name, '/') != NULL) {
		if ((size_t)snprintf(path, len, "%s", name) >= len)
			return st_error(err, errlen, "theme %.60s...: path too long", name);
		return 1;
	}
	if (!theme_name_ok(name))
		return st_error(err, errlen,
				"theme '%.64s': not a theme name; use a name like "
				"'light' or a path to a .theme file",
				name);
	if (have_user && theme_in_dir(user, name, path, len))
		return 1;
	if (theme_in_dir(bundled, name, path, len))
		return 1;
	if (strcmp(name, "default") == 0)
		return 0;
	return st_error(err, errlen,
			"theme '%s' not found in %s or %s; put %s.theme in %s, "
			"or press t to cycle through the themes there are",
			name, have_user ? user : "(no home)", bundled, name,
			have_user ? user : "$XDG_CONFIG_HOME/scaletop/themes");
}

/* "default" first, then the other bundled themes, then the user's; each by name. */
static int
theme_entry_rank(const struct theme_entry *e)
{
	if (e->user)
		return 2;
	return strcmp(e->name, "default") == 0 ? 0 : 1;
}

static int
theme_entry_cmp(const void *a, const void *b)
{
	const struct theme_entry *x = a, *y = b;

	if (theme_entry_rank(x) != theme_entry_rank(y))
		return theme_entry_rank(x) - theme_entry_rank(y);
	return strcmp(x->name, y->name);
}

static struct theme_entry *
theme_cycle_get(struct theme_cycle *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (strcmp(c->e[i].name, name) == 0)
			return &c->e[i];
	}
	return NULL;
}

static void
theme_cycle_add(struct theme_cycle *c, const char *dir, const char *file, size_t stem, int user)
{
	struct theme_entry *e;
	char name[THEME_NAME_MAX], path[PATH_MAX];

	if (stem == 0 || stem >= sizeof(name))
		return;
	memcpy(name, file, stem);
	name[stem] = '\0';
	if (!theme_name_ok(name) || !theme_in_dir(dir, name, path, sizeof(path)))
		return;
	/* A user's theme of a bundled name replaces it in place. */
	if ((e = theme_cycle_get(c, name)) != NULL) {
		memcpy(e->path, path, sizeof(path));
		return;
	}
	if (c->n == THEME_LIST_MAX)
		return;
	e = &c->e[c->n++];
	memcpy(e->name, name, sizeof(name));
	memcpy(e->path, path, sizeof(path));
	e->user = user;
}

static void
theme_cycle_scan(struct theme_cycle *c, const char *dir, int user)
{
	struct dirent *de;
	size_t n;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n > 6 && strcmp(de->d_name + n - 6, ".theme") == 0)
			theme_cycle_add(c, dir, de->d_name, n - 6, user);
	}
	closedir(d);
}

/* Bundled themes, then the user's. */
static void
theme_cycle_build(struct theme_cycle *c)
{
	char user[PATH_MAX];

	/* The built-in default, until a file of that name replaces its path. */
	c->n = 1;
	strcpy(c->e[0].name, "default");
	c->e[0].path[0] = '\0';
	c->e[0].user = 0;
	theme_cycle_scan(c, theme_bundled_dir(), 0);
	if (theme_user_dir(user, sizeof(user)) == 0)
		theme_cycle_scan(c, user, 1);
	qsort(c->e, c->n, sizeof(c->e[0]), theme_entry_cmp);
}

/* Static: the cycle is too big for the TUI's stack, and rebuilt on each call anyway. */
static struct theme_cycle theme_cycle;

const char *
theme_next(const char *current)
{
	static char next[THEME_NAME_MAX];
	struct theme_entry *e;
	size_t i;

	theme_cycle_build(&theme_cycle);
	e = current != NULL ? theme_cycle_get(&theme_cycle, current) : NULL;
	i = e != NULL ? (size_t)(e - theme_cycle.e + 1) % theme_cycle.n : 0;
	memcpy(next, theme_cycle.e[i].name, sizeof(next));
	return next;
}

int
theme_list(theme_list_fn fn, void *arg)
{
	size_t i;

	theme_cycle_build(&theme_cycle);
	for (i = 0; i < theme_cycle.n; i++) {
		fn(theme_cycle.e[i].name,
		   theme_cycle.e[i].path[0] != '\0' ? theme_cycle.e[i].path : NULL,
		   theme_cycle.e[i].user, arg);
	}
	return (int)theme_cycle.n;
}

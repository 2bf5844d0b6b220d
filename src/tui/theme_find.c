/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where themes live: the user's directory, the bundled one, then btop's
 * (the user's and the system's, so that every btop theme on the machine can
 * be picked by name), and the cycle of names that the 't' key walks
 * through and the picker lists.  File-system code; no curses.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"
#include "theme_priv.h"

#ifndef ST_THEMES_DIR
#define ST_THEMES_DIR "/usr/local/share/scaletop/themes"
#endif

/*
 * The bundled directory is $SCALETOP_THEMES_DIR when set (tests, odd
 * installs); else, for a binary run from the build tree, the themes/ of the
 * source tree named by the marker file the build writes beside it
 * (THEME_SRCDIR_MARKER, never installed); else the installed
 * $(pkgdatadir)/themes.  No build-tree path is compiled in.
 */

/* Written by the build next to the built binary (src/tui/local.mk): the source tree's path. */
#define THEME_SRCDIR_MARKER "scaletop.srcdir"

#define THEME_FILE_MAX (1024 * 1024) /* far above any theme; stops reading a wrong file */
#define THEME_LIST_MAX 256
#define THEME_DIRS_MAX 8

struct theme_entry {
	char name[THEME_NAME_MAX];
	char path[PATH_MAX];
	enum theme_origin origin;
	int rank; /* its place in the cycle: a user's theme of a bundled name keeps the bundled
		     one's */
};

/* A directory to look in, in look-up order. */
struct theme_dir {
	char path[PATH_MAX];
	enum theme_origin origin;
};

static const char *const theme_btop_default[] = { "/usr/local/share/btop/themes",
						  "/usr/share/btop/themes", NULL };
static const char *const *theme_btop_dirs = theme_btop_default;

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

void
theme_set_btop_dirs(const char *const *dirs)
{
	theme_btop_dirs = dirs != NULL ? dirs : theme_btop_default;
}

const char *
theme_origin_name(enum theme_origin o)
{
	switch (o) {
	case THEME_FROM_BUILTIN:
		return "built in";
	case THEME_FROM_BUNDLED:
		return "scaletop's";
	case THEME_FROM_USER:
		return "yours";
	case THEME_FROM_BTOP_USER:
		return "btop's, yours";
	case THEME_FROM_BTOP:
		return "btop's";
	case THEME_FROM_PATH:
		return "a file";
	}
	return "?";
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

/* btop's own: $XDG_CONFIG_HOME/btop/themes, beside scaletop's configuration directory. */
static int
theme_btop_user_dir(char *buf, size_t len)
{
	char dir[PATH_MAX], *slash;

	if (file_config_dir(dir, sizeof(dir), NULL, 0) == -1 || (slash = strrchr(dir, '/')) == NULL)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/btop/themes", dir) >= len)
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

static void
theme_dir_add(struct theme_dir *d, size_t *n, const char *path, enum theme_origin o)
{
	if (*n < THEME_DIRS_MAX && strlen(path) < sizeof(d->path)) {
		strcpy(d[*n].path, path);
		d[(*n)++].origin = o;
	}
}

/*
 * Every directory themes are looked up in, first to last, and how many in
 * *n; NULL without memory.  On the heap, for the caller to free: 32 kB of
 * paths in a stack frame stayed resident for the whole session.
 */
static struct theme_dir *
theme_dirs(size_t *n)
{
	char path[PATH_MAX];
	struct theme_dir *d = calloc(THEME_DIRS_MAX, sizeof(*d));
	size_t i;

	*n = 0;
	if (d == NULL)
		return NULL;
	if (theme_user_dir(path, sizeof(path)) == 0)
		theme_dir_add(d, n, path, THEME_FROM_USER);
	theme_dir_add(d, n, theme_bundled_dir(), THEME_FROM_BUNDLED);
	if (theme_btop_user_dir(path, sizeof(path)) == 0)
		theme_dir_add(d, n, path, THEME_FROM_BTOP_USER);
	for (i = 0; theme_btop_dirs[i] != NULL; i++)
		theme_dir_add(d, n, theme_btop_dirs[i], THEME_FROM_BTOP);
	return d;
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
theme_name_valid(const char *name)
{
	if (strchr(name, '/') != NULL)
		return strlen(name) < PATH_MAX;
	return theme_name_ok(name);
}

int
theme_find(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	struct theme_dir *d;
	char user[PATH_MAX];
	const char *bundled = theme_bundled_dir();
	int have_user = theme_user_dir(user, sizeof(user)) == 0;
	int dflt = strcmp(name, "default") == 0, found = 0;
	size_t i, n;

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
	/* btop's "default" is btop's look, not ours: it never replaces the built-in one. */
	if ((d = theme_dirs(&n)) == NULL)
		return st_error(err, errlen, "theme '%s': out of memory", name);
	for (i = 0; i < n && !found; i++) {
		if (dflt && d[i].origin >= THEME_FROM_BTOP_USER)
			break;
		found = theme_in_dir(d[i].path, name, path, len);
	}
	free(d);
	if (found)
		return 1;
	if (dflt)
		return 0;
	return st_error(err, errlen,
			"theme '%s' not found in %s, %s or btop's theme folders; put "
			"%s.theme in %s, or press T to pick one of the themes there are",
			name, have_user ? user : "(no home)", bundled, name,
			have_user ? user : "$XDG_CONFIG_HOME/scaletop/themes");
}

/* "default" first, then the other bundled themes, the user's, btop's; each by name. */
static int
theme_entry_cmp(const void *a, const void *b)
{
	const struct theme_entry *x = a, *y = b;
	int c;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	/* btop's names have capitals ("HotPurpleTrafficLight"): a list a person reads. */
	return (c = strcasecmp(x->name, y->name)) != 0 ? c : strcmp(x->name, y->name);
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
theme_cycle_add(struct theme_cycle *c, const struct theme_dir *d, const char *file, size_t stem)
{
	struct theme_entry *e;
	char name[THEME_NAME_MAX], path[PATH_MAX];

	if (stem == 0 || stem >= sizeof(name))
		return;
	memcpy(name, file, stem);
	name[stem] = '\0';
	if (!theme_name_ok(name) || !theme_in_dir(d->path, name, path, sizeof(path)))
		return;
	/*
	 * The bundled directory is scanned first, though the user's comes first
	 * in look-up: a bundled file replaces the built-in default's empty path,
	 * a user's theme of a bundled name replaces it in place.  A name taken
	 * already is btop's duplicate, and the first found wins.
	 */
	if ((e = theme_cycle_get(c, name)) != NULL) {
		if (d->origin == THEME_FROM_USER || d->origin == THEME_FROM_BUNDLED) {
			snprintf(e->path, sizeof(e->path), "%s", path);
			e->origin = d->origin;
		}
		return;
	}
	if (c->n == THEME_LIST_MAX)
		return;
	e = &c->e[c->n++];
	memcpy(e->name, name, sizeof(name));
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->origin = d->origin;
	e->rank = (int)d->origin;
}

static void
theme_cycle_scan(struct theme_cycle *c, const struct theme_dir *dir)
{
	struct dirent *de;
	size_t n;
	DIR *d;

	if ((d = opendir(dir->path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n > 6 && strcmp(de->d_name + n - 6, ".theme") == 0)
			theme_cycle_add(c, dir, de->d_name, n - 6);
	}
	closedir(d);
}

/* Bundled themes, then the user's, then btop's, as theme_find looks them up. */
static void
theme_cycle_build(struct theme_cycle *c)
{
	size_t i, n;
	struct theme_dir *d = theme_dirs(&n); /* none without memory: the default alone */

	/* The built-in default, until a file of that name replaces its path. */
	c->n = 1;
	strcpy(c->e[0].name, "default");
	c->e[0].path[0] = '\0';
	c->e[0].origin = THEME_FROM_BUILTIN;
	c->e[0].rank = 0;
	for (i = 0; i < n; i++) {
		if (d[i].origin == THEME_FROM_BUNDLED)
			theme_cycle_scan(c, &d[i]);
	}
	for (i = 0; i < n; i++) {
		if (d[i].origin != THEME_FROM_BUNDLED)
			theme_cycle_scan(c, &d[i]);
	}
	free(d);
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
		   theme_cycle.e[i].origin, arg);
	}
	return (int)theme_cycle.n;
}

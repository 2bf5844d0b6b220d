/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preferences in $XDG_CONFIG_HOME/scaletop/config: read leniently (a bad
 * line costs one key, not the file), written atomically (the old file stays
 * whole until the new one is complete on disk).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"
#include "prefs.h"

#define PREFS_FILE_MAX (64 * 1024)

/*
 * Numbers are read and written by hand, not with strtod and printf: the
 * TUI runs under setlocale(LC_ALL, ""), and a German locale would write
 * "0,25" and then refuse "0.25".
 */

struct prefs_ctx {
	const char *file;
	size_t lineno;
	char *warn;
	size_t warnlen;
	int bad;
};

void
prefs_defaults(struct prefs *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->theme, "default");
	p->interval_s = PREFS_INTERVAL_DEFAULT;
	p->autosave = 1;
}

int
prefs_path(char *buf, size_t len, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (file_config_dir(dir, sizeof(dir), err, errlen) == -1)
		return -1;
	if ((size_t)snprintf(buf, len, "%s/config", dir) >= len)
		return st_error(err, errlen, "the configuration file's path is too long");
	return 0;
}

static void __attribute__((format(printf, 2, 3)))
prefs_bad(struct prefs_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->bad++ > 0 || c->warn == NULL || c->warnlen == 0)
		return;
	n = snprintf(c->warn, c->warnlen, "%s:%zu: ", c->file, c->lineno);
	if (n < 0 || (size_t)n >= c->warnlen)
		return;
	va_start(ap, fmt);
	vsnprintf(c->warn + n, c->warnlen - n, fmt, ap);
	va_end(ap);
}

static int
prefs_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* A string value: no control characters, and shorter than the field. */
static int
prefs_string_ok(const char *v, size_t n, size_t size)
{
	size_t i;

	if (n >= size)
		return 0;
	for (i = 0; i < n; i++) {
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return 0;
	}
	return 1;
}

/* "0.25", "2", "1.5": digits with an optional fraction, in any locale. */
static int
prefs_seconds(const char *v, size_t n, double *out)
{
	double x = 0, scale = 1;
	size_t i = 0, digits = 0;

	for (; i < n && v[i] >= '0' && v[i] <= '9' && digits < 6; i++, digits++)
		x = x * 10 + (v[i] - '0');
	if (i < n && v[i] == '.')
		for (i++; i < n && v[i] >= '0' && v[i] <= '9' && digits < 15; i++, digits++)
			x += (v[i] - '0') * (scale /= 10);
	if (i != n || digits == 0)
		return -1;
	*out = x;
	return 0;
}

/* autosave = on | off (also yes/no, true/false, 1/0). */
static void
prefs_autosave(struct prefs_ctx *c, struct prefs *p, const char *v, size_t vn)
{
	static const char *const on[] = { "on", "yes", "true", "1" }, *const off[] = { "off", "no",
										       "false",
										       "0" };
	size_t i;

	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (vn == strlen(on[i]) && strncasecmp(v, on[i], vn) == 0) {
			p->autosave = 1;
			return;
		}
		if (vn == strlen(off[i]) && strncasecmp(v, off[i], vn) == 0) {
			p->autosave = 0;
			return;
		}
	}
	prefs_bad(c, "autosave: give on or off; using %s", p->autosave ? "on" : "off");
}

static void
prefs_set(struct prefs_ctx *c, struct prefs *p, const char *k, size_t kn, const char *v, size_t vn)
{
	double s;

	if (kn == 5 && memcmp(k, "theme", 5) == 0) {
		if (vn == 0 || !prefs_string_ok(v, vn, sizeof(p->theme)))
			prefs_bad(c, "theme: give a theme name under %zu characters; using \"%s\"",
				  sizeof(p->theme), p->theme);
		else
			snprintf(p->theme, sizeof(p->theme), "%.*s", (int)vn, v);
	} else if (kn == 8 && memcmp(k, "interval", 8) == 0) {
		if (prefs_seconds(v, vn, &s) != 0 || s < PREFS_INTERVAL_MIN ||
		    s > PREFS_INTERVAL_MAX)
			prefs_bad(c, "interval: give seconds from %g to %g, like 0.25; using %g",
				  PREFS_INTERVAL_MIN, PREFS_INTERVAL_MAX, p->interval_s);
		else
			p->interval_s = s;
	} else if (kn == 8 && memcmp(k, "workload", 8) == 0) {
		if (!prefs_string_ok(v, vn, sizeof(p->workload)))
			prefs_bad(c, "workload: give a name under %zu characters; ignoring it",
				  sizeof(p->workload));
		else
			snprintf(p->workload, sizeof(p->workload), "%.*s", (int)vn, v);
	} else if (kn == 8 && memcmp(k, "autosave", 8) == 0) {
		prefs_autosave(c, p, v, vn);
	} else
		prefs_bad(c,
			  "unknown key '%.*s'; the keys are theme, interval, workload and autosave",
			  (int)(kn > 40 ? 40 : kn), k);
}

static void
prefs_line(struct prefs_ctx *c, struct prefs *p, const char *s, const char *e)
{
	const char *eq, *ke, *v;

	while (s < e && prefs_blank(*s))
		s++;
	while (e > s && prefs_blank(e[-1]))
		e--;
	if (s == e || *s == '#')
		return;
	if ((eq = memchr(s, '=', e - s)) == NULL) {
		prefs_bad(c, "expected key = value, like theme = light");
		return;
	}
	for (ke = eq; ke > s && prefs_blank(ke[-1]); ke--)
		;
	for (v = eq + 1; v < e && prefs_blank(*v); v++)
		;
	prefs_set(c, p, s, ke - s, v, e - v);
}

int
prefs_parse(struct prefs *p, const char *buf, size_t len, const char *name, char *warn,
	    size_t warnlen)
{
	struct prefs_ctx c = { name, 0, warn, warnlen, 0 };
	const char *s = buf, *end = buf + len, *nl;
	char more[64];

	if (warn != NULL && warnlen > 0)
		warn[0] = '\0';
	while (s < end) {
		c.lineno++;
		if ((nl = memchr(s, '\n', end - s)) == NULL)
			nl = end;
		prefs_line(&c, p, s, nl > s && nl[-1] == '\r' ? nl - 1 : nl);
		s = nl + 1;
	}
	if (c.bad > 1 && warn != NULL) {
		snprintf(more, sizeof(more), " (and %d more bad lines)", c.bad - 1);
		if (strlen(warn) + strlen(more) < warnlen)
			strcat(warn, more);
	}
	return c.bad > 0;
}

int
prefs_load(struct prefs *p, char *warn, size_t len)
{
	char path[PATH_MAX], *buf;
	size_t n;
	int rc;

	prefs_defaults(p);
	if (warn != NULL && len > 0)
		warn[0] = '\0';
	if (prefs_path(path, sizeof(path), warn, len) == -1)
		return -1;
	if (file_read_all(path, PREFS_FILE_MAX, &buf, &n) == -1) {
		if (errno == ENOENT)
			return 0;
		return st_error(warn, len,
				"%s: cannot read it: %s; fix it or remove it to start "
				"from the defaults",
				path, errno == EFBIG ? "over 64 KiB" : strerror(errno));
	}
	rc = prefs_parse(p, buf, n, path, warn, len);
	free(buf);
	return rc;
}

/* "0.25": up to six decimals, trailing zeros dropped, whatever the locale. */
static void
prefs_format_seconds(char *buf, size_t len, double s)
{
	long long us = llround(s * 1e6);
	size_t n;

	n = (size_t)snprintf(buf, len, "%lld.%06lld", us / 1000000, us % 1000000);
	while (n > 0 && n < len && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && n < len && buf[n - 1] == '.')
		buf[--n] = '\0';
}

static int
prefs_check(const struct prefs *p, char *err, size_t len)
{
	if (p->theme[0] == '\0' ||
	    !prefs_string_ok(p->theme, strnlen(p->theme, sizeof(p->theme)), sizeof(p->theme)))
		return st_error(err, len,
				"cannot save preferences: the theme name is empty, too "
				"long or has control characters");
	if (!prefs_string_ok(p->workload, strnlen(p->workload, sizeof(p->workload)),
			     sizeof(p->workload)))
		return st_error(err, len,
				"cannot save preferences: the workload name is too long "
				"or has control characters");
	if (!(p->interval_s >= PREFS_INTERVAL_MIN && p->interval_s <= PREFS_INTERVAL_MAX))
		return st_error(err, len,
				"cannot save preferences: interval %g is outside %g to %g "
				"seconds",
				p->interval_s, PREFS_INTERVAL_MIN, PREFS_INTERVAL_MAX);
	return 0;
}

/* mkdir -p with mode 0700: the directories hold the user's own settings. */
static int
prefs_mkdirs(const char *dir, char *err, size_t len)
{
	char failed[PATH_MAX];

	if (file_mkdirs(dir, 0700, failed, sizeof(failed)) == -1)
		return st_error(err, len,
				"cannot save preferences: cannot create %s: %s; "
				"create it or set XDG_CONFIG_HOME",
				failed, strerror(errno));
	return 0;
}

/* The file to replace: the config file, or what it links to (dotfile managers link it). */
static void
prefs_target(const char *path, char *target, size_t len)
{
	char real[PATH_MAX];
	struct stat sb;

	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && realpath(path, real) != NULL &&
	    strlen(real) < len)
		memcpy(target, real, strlen(real) + 1);
	else
		snprintf(target, len, "%s", path);
}

static int
prefs_write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, buf, n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes, syncs and closes fd; on failure errno says why and what names the step. */
static int
prefs_write_file(int fd, const char *text, const char **what)
{
	int saved;

	*what = "write";
	if (prefs_write_all(fd, text, strlen(text)) == -1)
		goto fail;
	*what = "fsync";
	if (fsync(fd) == -1)
		goto fail;
	*what = "close";
	return close(fd);
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/* The directory part of path, for the temporary file and the directory fsync. */
static void
prefs_dirname(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL || slash == path)
		snprintf(dir, len, "%s", slash == NULL ? "." : "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* So that the rename itself survives a crash; not every file system allows it. */
static void
prefs_sync_dir(const char *dir)
{
	int fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	(void)fsync(fd);
	close(fd);
}

/* Removes the temporary file after a failed step; the old config was never opened. */
static int
prefs_abandon(const char *tmp, const char *target, const char *what, char *err, size_t len)
{
	int saved = errno;

	unlink(tmp);
	return st_error(err, len,
			"cannot save preferences to %s: %s: %s; the old file is "
			"unchanged",
			target, what, strerror(saved));
}

static int
prefs_replace(const char *target, const char *text, char *err, size_t len)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *what;
	int fd;

	prefs_dirname(target, dir, sizeof(dir));
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.config.XXXXXX", dir) >= sizeof(tmp))
		return st_error(err, len, "cannot save preferences: %s: path too long", dir);
	if ((fd = mkstemp(tmp)) == -1)
		return st_error(err, len,
				"cannot save preferences in %s: %s; make the directory "
				"writable or set XDG_CONFIG_HOME",
				dir, strerror(errno));
	if (prefs_write_file(fd, text, &what) == -1)
		return prefs_abandon(tmp, target, what, err, len);
	if (rename(tmp, target) == -1)
		return prefs_abandon(tmp, target, "rename", err, len);
	prefs_sync_dir(dir);
	return 0;
}

int
prefs_save(const struct prefs *p, char *err, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX], target[PATH_MAX], secs[32], text[512];

	if (prefs_check(p, err, len) == -1 || file_config_dir(dir, sizeof(dir), err, len) == -1 ||
	    prefs_mkdirs(dir, err, len) == -1 || prefs_path(path, sizeof(path), err, len) == -1)
		return -1;
	prefs_format_seconds(secs, sizeof(secs), p->interval_s);
	snprintf(
		text, sizeof(text),
		"# scaletop preferences, rewritten by scaletop when they change (docs/config.md).\n"
		"theme = %s\n"
		"interval = %s\n"
		"workload = %s\n"
		"autosave = %s\n",
		p->theme, secs, p->workload, p->autosave ? "on" : "off");
	prefs_target(path, target, sizeof(target));
	return prefs_replace(target, text, err, len);
}

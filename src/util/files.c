/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the small files scaletop keeps for itself (themes, preferences),
 * and finding where they are; whether a folder takes a new file before a
 * long job writes one there.  Nothing here knows what a file holds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/files.h"

#define FILE_MARKER_MAX 4096 /* a path on one line; a bigger file is not a marker */

static const char *file_argv0;

/* Closes fd, keeping errno for the caller. */
static int
file_read_fail(int fd, int error)
{
	close(fd);
	errno = error;
	return -1;
}

int
file_read_all(const char *path, size_t max, char **bufp, size_t *lenp)
{
	struct stat sb;
	char *buf;
	ssize_t got;
	size_t n = 0;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &sb) == -1)
		return file_read_fail(fd, errno);
	if (!S_ISREG(sb.st_mode))
		return file_read_fail(fd, S_ISDIR(sb.st_mode) ? EISDIR : EINVAL);
	if ((size_t)sb.st_size > max)
		return file_read_fail(fd, EFBIG);
	if ((buf = malloc((size_t)sb.st_size + 1)) == NULL)
		return file_read_fail(fd, ENOMEM);
	/* A file that shrinks while read ends early; one that grows is cut at its old size. */
	while (n < (size_t)sb.st_size && (got = read(fd, buf + n, (size_t)sb.st_size - n)) != 0) {
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1) {
			e = errno;
			free(buf);
			return file_read_fail(fd, e);
		}
		n += (size_t)got;
	}
	close(fd);
	buf[n] = '\0';
	*bufp = buf;
	*lenp = n;
	return 0;
}

int
file_is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int
file_is_regular(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int
file_dir_takes_file(const char *dir)
{
	char path[PATH_MAX];
	int fd, e;

	if (snprintf(path, sizeof(path), "%s/.scaletop-check.XXXXXX", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkstemp(path)) < 0)
		return -1;
	e = unlink(path) == 0 ? 0 : errno;
	close(fd);
	errno = e;
	return e == 0 ? 0 : -1;
}

/* The folder part of path: "." when it has none, "/" for a file at the root. */
static void
file_dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int
file_out_check(const char *path, bool force, bool inplace, char *why, size_t len)
{
	char dir[PATH_MAX];
	bool exists = access(path, F_OK) == 0;
	int e;

	if (file_is_dir(path))
		return st_error(why, len, "%s is a folder; give a file name", path);
	if (exists && !force)
		return st_error(why, len,
				"the file exists; give --force to replace it, or another name");
	/* A new file is renamed over the name: a device or a pipe there would be replaced. */
	if (exists && !inplace && !file_is_regular(path))
		return st_error(why, len,
				"not a regular file, which the new file would replace; give a "
				"file name");
	if (exists && inplace)
		return 0;
	file_dir_of(path, dir, sizeof(dir));
	if (file_dir_takes_file(dir) == 0)
		return 0;
	/* An existing folder whose create says ENOENT (/proc) is not a missing one. */
	e = errno;
	return st_error(why, len, "cannot create a file in %s: %s%s; choose another folder", dir,
			strerror(e),
			e == ENOENT && file_is_dir(dir) ? " (a folder that takes no new files)"
							: "");
}

/*
 * $VAR/scaletop when VAR is an absolute path (the XDG spec says to ignore a
 * relative one), else $HOME/FALLBACK/scaletop, HOME from the password file
 * if unset.
 */
static int
file_xdg_dir(const char *var, const char *fallback, const char *what, char *buf, size_t len,
	     char *err, size_t errlen)
{
	const char *xdg = getenv(var), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/scaletop", xdg);
	else {
		if ((home == NULL || home[0] != '/') && (pw = getpwuid(getuid())) != NULL)
			home = pw->pw_dir;
		if (home == NULL || home[0] != '/')
			return st_error(err, errlen,
					"cannot find the %s directory: HOME is not set; set "
					"%s or HOME",
					what, var);
		n = snprintf(buf, len, "%s/%s/scaletop", home, fallback);
	}
	if (n < 0 || (size_t)n >= len)
		return st_error(err, errlen,
				"the %s directory's path is too long; set %s to a shorter path",
				what, var);
	return 0;
}

int
file_config_dir(char *buf, size_t len, char *err, size_t errlen)
{
	return file_xdg_dir("XDG_CONFIG_HOME", ".config", "configuration", buf, len, err, errlen);
}

int
file_data_dir(char *buf, size_t len, char *err, size_t errlen)
{
	return file_xdg_dir("XDG_DATA_HOME", ".local/share", "data", buf, len, err, errlen);
}

int
file_mkdirs(const char *dir, mode_t mode, char *failed, size_t flen)
{
	char path[PATH_MAX], *s, c;
	int e;

	if (failed != NULL && flen > 0)
		snprintf(failed, flen, "%s", dir);
	if ((size_t)snprintf(path, sizeof(path), "%s", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (s = path + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		/*
		 * Some systems say EACCES, not EEXIST, for a directory we may not
		 * write in; the mkdir's errno is kept before stat sets its own.
		 */
		e = mkdir(path, mode) == -1 ? errno : 0;
		if (e != 0 && !file_is_dir(path)) {
			if (failed != NULL && flen > 0)
				snprintf(failed, flen, "%s", path);
			errno = e == EEXIST ? ENOTDIR : e;
			return -1;
		}
		if ((*s = c) == '\0')
			return 0;
	}
}

void
file_set_argv0(const char *argv0)
{
	file_argv0 = argv0;
}

int
file_beside_self(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], *text;
	const char *slash;
	size_t n, line;

	if (file_argv0 == NULL || (slash = strrchr(file_argv0, '/')) == NULL)
		return -1;
	if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file_argv0), file_argv0,
			     name) >= sizeof(path))
		return -1;
	if (file_read_all(path, FILE_MARKER_MAX, &text, &n) == -1)
		return -1;
	line = strcspn(text, "\r\n");
	if (line == 0 || line >= len) {
		free(text);
		return -1;
	}
	memcpy(buf, text, line);
	buf[line] = '\0';
	free(text);
	return 0;
}

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
	int fd;

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
			free(buf);
			return file_read_fail(fd, errno);
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
		/* Some systems say EACCES, not EEXIST, for a directory we may not write in. */
		if (mkdir(path, mode) == -1 && !file_is_dir(path)) {
			e = errno == EEXIST ? ENOTDIR : errno;
			if (failed != NULL && flen > 0)
				snprintf(failed, flen, "%s", path);
			errno = e;
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

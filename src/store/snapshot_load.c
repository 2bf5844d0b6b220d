/*
 * Loading a snapshot file: at most SNAPSHOT_MAX_BYTES are read, so a wrong
 * file (a disk image, /dev/zero) is refused instead of filling memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scaletop/snapshot.h"

static int
load_too_big(const char *name, char *err, size_t errlen)
{
	return st_error(err, errlen,
			"%s: over the %zu MiB a snapshot may have; not a snapshot, "
			"or a damaged one",
			name, SNAPSHOT_MAX_BYTES >> 20);
}

/* Reads all of fd, at most SNAPSHOT_MAX_BYTES + 1 so that more is seen; -1 (errno). */
static ssize_t
load_read(int fd, char **out)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	while (buf != NULL && len < SNAPSHOT_MAX_BYTES + 1) {
		if (len == cap) {
			cap = cap * 2 > SNAPSHOT_MAX_BYTES + 1 ? SNAPSHOT_MAX_BYTES + 1 : cap * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -1;
		}
		len += (size_t)n;
	}
	if (buf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	*out = buf;
	return (ssize_t)len;
}

int
snapshot_file_read(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	bool std = strcmp(path, "-") == 0;
	int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	const char *name = std ? "(standard input)" : path;
	struct stat sb;
	ssize_t n;

	*buf = NULL;
	*len = 0;
	if (fd == -1)
		return st_error(err, errlen, "cannot read %s: %s; check the path", path,
				strerror(errno));
	if (fstat(fd, &sb) != 0)
		rc = st_error(err, errlen, "cannot read %s: %s", name, strerror(errno));
	else if (S_ISDIR(sb.st_mode))
		rc = st_error(err, errlen, "%s is a folder; give a file", name);
	else if (S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > SNAPSHOT_MAX_BYTES)
		rc = load_too_big(name, err, errlen);
	else if ((n = load_read(fd, buf)) < 0)
		rc = st_error(err, errlen, "cannot read %s: %s", name, strerror(errno));
	else if ((size_t)n > SNAPSHOT_MAX_BYTES)
		rc = load_too_big(name, err, errlen);
	else
		*len = (size_t)n;
	if (rc != 0) {
		free(*buf);
		*buf = NULL;
	}
	if (!std)
		close(fd);
	return rc;
}

int
snapshot_load(const char *path, struct snapshot *snap, char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	char *buf;
	size_t len;
	int rc;

	snapshot_init(snap);
	if (snapshot_file_read(path, &buf, &len, err, errlen) != 0)
		return -1;
	rc = snapshot_read(buf, len, name, snap, err, errlen);
	free(buf);
	return rc;
}

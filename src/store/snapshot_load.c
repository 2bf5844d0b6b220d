/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loading a snapshot file: at most SNAPSHOT_MAX_BYTES are read, so a wrong
 * file (a disk image, /dev/zero) is refused instead of filling memory.  A
 * recording (JSON Lines, whatever its name) is told by its first bytes and
 * handed to the stream reader, whose memory is bounded by its own limits,
 * so a long recording is not held to a snapshot's size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scaletop/snapshot.h"
#include "stream_priv.h"

/* Enough of a file to see what it is: a stream's header line starts with "type". */
#define LOAD_PEEK 256

static int
load_too_big(const char *name, char *err, size_t errlen)
{
	return st_error(err, errlen,
			"%s: over the %zu MiB a snapshot may have; not a snapshot, "
			"or a damaged one",
			name, SNAPSHOT_MAX_BYTES >> 20);
}

/*
 * Reads all of fd after the head already read, at most SNAPSHOT_MAX_BYTES + 1
 * so that more is seen; -1 (errno).
 */
static ssize_t
load_read(int fd, const char *head, size_t hlen, char **out)
{
	size_t len = hlen, cap = 65536;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	if (buf != NULL && hlen > 0)
		memcpy(buf, head, hlen);

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

/* Opens path ("-": standard input) and refuses a folder; the fd, or -1 with a message. */
static int
load_open(const char *path, const char *name, struct stat *sb, char *err, size_t errlen)
{
	bool std = strcmp(path, "-") == 0;
	int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);

	if (fd == -1)
		return st_error(err, errlen, "cannot read %s: %s; check the path", path,
				strerror(errno));
	if (fstat(fd, sb) != 0)
		st_error(err, errlen, "cannot read %s: %s", name, strerror(errno));
	else if (S_ISDIR(sb->st_mode))
		st_error(err, errlen, "%s is a folder; give a file", name);
	else
		return fd;
	if (!std)
		close(fd);
	return -1;
}

/* The rest of a snapshot after head, within SNAPSHOT_MAX_BYTES; 0 or -1 with a message. */
static int
load_whole(int fd, const struct stat *sb, const char *head, size_t hlen, const char *name,
	   char **buf, size_t *len, char *err, size_t errlen)
{
	ssize_t n;

	*buf = NULL;
	*len = 0;
	if (S_ISREG(sb->st_mode) && (uintmax_t)sb->st_size > SNAPSHOT_MAX_BYTES)
		return load_too_big(name, err, errlen);
	if ((n = load_read(fd, head, hlen, buf)) < 0)
		return st_error(err, errlen, "cannot read %s: %s", name, strerror(errno));
	if ((size_t)n > SNAPSHOT_MAX_BYTES) {
		free(*buf);
		*buf = NULL;
		return load_too_big(name, err, errlen);
	}
	*len = (size_t)n;
	return 0;
}

int
snapshot_file_read(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	struct stat sb;
	int fd = load_open(path, name, &sb, err, errlen), rc;

	*buf = NULL;
	*len = 0;
	if (fd == -1)
		return -1;
	rc = load_whole(fd, &sb, NULL, 0, name, buf, len, err, errlen);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

/* The first bytes of fd, up to LOAD_PEEK (fewer at the end); -1 (errno). */
static ssize_t
load_peek(int fd, char *head)
{
	size_t len = 0;
	ssize_t n;

	while (len < LOAD_PEEK) {
		n = read(fd, head + len, LOAD_PEEK - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

/*
 * A stream's every line is an object whose first member is "type" (the
 * format says so); a snapshot's first member is "format".  So the file's
 * first object tells them apart, whatever the file is called.
 */
static bool
load_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool
load_is_stream(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && load_space(p[i]))
		i++;
	if (i == len || p[i] != '{')
		return false;
	for (i++; i < len && load_space(p[i]); i++)
		;
	return len - i >= 6 && memcmp(p + i, "\"type\"", 6) == 0;
}

int
snapshot_load(const char *path, struct snapshot *snap, char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	char head[LOAD_PEEK], *buf;
	struct stat sb;
	size_t len;
	ssize_t hlen;
	int fd, rc;

	snapshot_init(snap);
	if ((fd = load_open(path, name, &sb, err, errlen)) == -1)
		return -1;
	if ((hlen = load_peek(fd, head)) < 0)
		rc = st_error(err, errlen, "cannot read %s: %s", name, strerror(errno));
	else if (load_is_stream(head, (size_t)hlen))
		rc = stream_snapshot_read(fd, head, (size_t)hlen, name, snap, err, errlen);
	else if ((rc = load_whole(fd, &sb, head, (size_t)hlen, name, &buf, &len, err, errlen)) ==
		 0) {
		rc = snapshot_read(buf, len, name, snap, err, errlen);
		free(buf);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writing a snapshot so that a reader never sees half a file and a failure
 * never costs the old one: a temp file in the same folder (so the rename
 * cannot cross file systems), fsync, then rename over the name, then fsync
 * of the folder so the rename itself survives a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/files.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

/* The folder part of path ("." when none) and the name part. */
static void
write_split(const char *path, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		snprintf(dir, dlen, ".");
		*base = path;
	} else if (slash == path) {
		snprintf(dir, dlen, "/");
		*base = slash + 1;
	} else {
		snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
		*base = slash + 1;
	}
}

/* What to do about errno, for the end of a message. */
static const char *
write_advice(int e)
{
	switch (e) {
	case ENOSPC:
	case EDQUOT:
		return "free some space or write elsewhere";
	case EACCES:
	case EPERM:
	case EROFS:
		return "write to a folder you may write to";
	case ENOENT:
	case ENOTDIR:
		return "check the folder exists";
	case EISDIR:
		return "give a file name, not a folder";
	default:
		return "check the path";
	}
}

static int
write_fail(char *err, size_t errlen, const char *path, const char *what, int e)
{
	st_error(err, errlen, "cannot write %s: %s%s%s; nothing was replaced; %s", path, what,
		 what[0] ? ": " : "", strerror(e), write_advice(e));
	errno = e;
	return -1;
}

/* A file at path that is not to be replaced; errno EEXIST. */
static int
write_exists(char *err, size_t errlen, const char *path)
{
	st_error(err, errlen,
		 "%s exists and was not replaced; give --force to replace it, or another name",
		 path);
	errno = EEXIST;
	return -1;
}

/* Puts tmp at path: rename when replacing is allowed, else link, which refuses to. */
static int
write_place(const char *tmp, const char *path, bool force, char *err, size_t errlen)
{
	int e;

	if (force) {
		if (rename(tmp, path) != 0)
			return write_fail(err, errlen, path, "", errno);
		return 0;
	}
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	if ((e = errno) == EEXIST)
		return write_exists(err, errlen, path);
	/* File systems without hard links: check, then rename (a small race, stated). */
	if (e != EPERM && e != ENOTSUP && e != EOPNOTSUPP && e != ENOSYS && e != EMLINK)
		return write_fail(err, errlen, path, "", e);
	if (access(path, F_OK) == 0)
		return write_exists(err, errlen, path);
	if (rename(tmp, path) != 0)
		return write_fail(err, errlen, path, "", errno);
	return 0;
}

/* The data reaches the disk before the name does. */
static int
write_body(int fd, const char *path, int (*fill)(FILE *, void *), void *arg, char *err,
	   size_t errlen)
{
	FILE *f = fdopen(fd, "w");
	int e = 0;

	if (f == NULL) {
		e = errno;
		close(fd);
		return write_fail(err, errlen, path, "", e);
	}
	errno = 0;
	if (fill(f, arg) != 0 || fflush(f) != 0)
		e = errno != 0 ? errno : EIO;
	else if (fsync(fileno(f)) != 0)
		e = errno;
	if (fclose(f) != 0 && e == 0)
		e = errno;
	return e != 0 ? write_fail(err, errlen, path, "", e) : 0;
}

static int
write_sync_dir(const char *dir, const char *path, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;

	if (fd == -1)
		return write_fail(err, errlen, path, "opening its folder to sync it", errno);
	/* Some file systems cannot sync a folder (EINVAL): the rename is as safe as it gets. */
	if (fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP)
		e = errno;
	close(fd);
	return e != 0 ? write_fail(err, errlen, path, "syncing its folder", e) : 0;
}

/* Removes the temp file after a failure, keeping the failure's errno for the caller. */
static int
write_undo(int fd, const char *tmp)
{
	int e = errno;

	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = e;
	return -1;
}

int
snapshot_atomic_write(const char *path, bool force, int (*fill)(FILE *, void *), void *arg,
		      char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	const char *base;
	mode_t mask;
	int fd, e;

	if (path[0] == '\0' || path[strlen(path) - 1] == '/')
		return write_fail(err, errlen, path[0] ? path : "''", "", EISDIR);
	write_split(path, dir, sizeof(dir), &base);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >= sizeof(tmp))
		return write_fail(err, errlen, path, "", ENAMETOOLONG);
	if ((fd = mkstemp(tmp)) == -1) {
		/* An existing folder that makes no file says ENOENT (/proc): not a missing folder.
		 */
		if ((e = errno) != ENOENT || !file_is_dir(dir))
			return write_fail(err, errlen, path,
					  "cannot make a temporary file next to it", e);
		st_error(err, errlen,
			 "cannot write %s: cannot make a temporary file in %s, a folder that "
			 "takes no new files: %s; nothing was replaced; write elsewhere",
			 path, dir, strerror(e));
		errno = e;
		return -1;
	}
	/* mkstemp makes 0600; a snapshot is for sharing, so 0644 less the umask. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0644 & ~mask) != 0) {
		write_fail(err, errlen, path, "", errno);
		return write_undo(fd, tmp);
	}
	if (write_body(fd, path, fill, arg, err, errlen) != 0 ||
	    write_place(tmp, path, force, err, errlen) != 0)
		return write_undo(-1, tmp);
	return write_sync_dir(dir, path, err, errlen);
}

void
snapshot_meta_default(struct snapshot_meta *m, const struct session *s)
{
	time_t now = time(NULL);
	struct tm tm;

	memset(m, 0, sizeof(*m));
	session_json_label(s, m->label, sizeof(m->label));
	gmtime_r(&now, &tm);
	strftime(m->taken, sizeof(m->taken), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

struct write_job {
	const struct session *s;
	const struct snapshot_meta *m;
};

static int
write_snapshot(FILE *f, void *arg)
{
	const struct write_job *job = arg;
	json_t *j = session_json_labelled(job->s, job->m->label, job->m->taken);
	int rc;

	if (j == NULL) {
		errno = ENOMEM;
		return -1;
	}
	rc = snapshot_text_write(f, j);
	json_decref(j);
	return rc;
}

int
snapshot_save(const char *path, const struct session *s, const struct snapshot_meta *m, bool force,
	      char *err, size_t errlen)
{
	struct snapshot_meta dm;
	struct write_job job = { s, m };

	if (m == NULL) {
		snapshot_meta_default(&dm, s);
		job.m = &dm;
	}
	return snapshot_atomic_write(path, force, write_snapshot, &job, err, errlen);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fileio: sysbench-style random block writes to a set of pre-filled files in
 * a private directory, to compare filesystems (tmpfs, MFS, md(4), disks) and
 * sync modes.  The files live in a directory that prepare() makes with
 * mkdtemp, under dir= or $TMPDIR or /tmp, so nothing of the user's is ever
 * overwritten and cleanup() can remove exactly what was made.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/workload.h"
#include "builtin.h"

enum { P_DIR, P_FILES, P_BLOCK, P_TOTAL, P_SYNC, P_FSYNC_EVERY };
enum { SYNC_NONE, SYNC_FSYNC, SYNC_OSYNC };

#define FILEIO_MAX_FILES 1024
#define FILEIO_DIR_PREFIX "scaletop-fileio."
#define FILEIO_FILE_PREFIX "/file."
#define FILEIO_FILL_CHUNK (1024 * 1024)

static const char *const fileio_syncs[] = { "none", "fsync", "osync", NULL };

static const struct wl_param fileio_params[] = {
	{ "dir", WP_PATH, "", 0, 0, NULL,
	  "where to make the private work directory (default $TMPDIR, else /tmp)" },
	{ "files", WP_INT, "16", 1, FILEIO_MAX_FILES, NULL, "files to spread the writes over" },
	{ "block", WP_SIZE, "16K", 512, 16LL << 20, NULL, "bytes per write" },
	{ "total", WP_SIZE, "64M", 4096, 1LL << 40, NULL, "bytes in all the files together" },
	{ "sync", WP_ENUM, "none", 0, 0, fileio_syncs,
	  "none: page cache only; fsync: fsync every fsync_every= writes; osync: O_SYNC writes" },
	{ "fsync_every", WP_INT, "100", 1, 1000000, NULL,
	  "writes per worker between fsyncs, with sync=fsync" },
};

/* Made in the step's child before the workers start; forked workers inherit the fds. */
struct fileio_shared {
	int nfiles;
	int sync;
	long long fsync_every;
	size_t block;
	uint64_t nblocks; /* blocks per file */
	int fd[FILEIO_MAX_FILES];
};

/* Blocks per file, or -1 when total= spread over files= leaves less than one block each. */
static int
fileio_geometry(const struct wl_args *a, uint64_t *nblocks, char *err, size_t errlen)
{
	long long files = a->v[P_FILES].i, block = a->v[P_BLOCK].i, total = a->v[P_TOTAL].i;

	*nblocks = (uint64_t)(total / files / block);
	if (*nblocks == 0)
		return st_error(err, errlen,
				"workload fileio: total=%s over files=%s leaves each file smaller "
				"than block=%s: raise total= or lower files= or block=",
				a->text[P_TOTAL], a->text[P_FILES], a->text[P_BLOCK]);
	return 0;
}

static void
fileio_cleanup(struct wl_sweep *sw)
{
	char path[WL_PATH_MAX];
	int i;

	if (sw->dir[0] == '\0')
		return;
	/* Every name prepare could have made; absent ones just fail with ENOENT. */
	for (i = 0; i < FILEIO_MAX_FILES; i++) {
		if (wl_file_path(path, sizeof(path), sw->dir, FILEIO_FILE_PREFIX, i) == 0)
			unlink(path);
	}
	if (sw->own_dir)
		rmdir(sw->dir);
	sw->dir[0] = '\0';
	sw->own_dir = false;
}

static int
mkdir_error(const char *base, bool from_env, int e, char *err, size_t errlen)
{
	const char *todo;

	if (e == ENOENT || e == ENOTDIR)
		todo = "create that directory or give another with -p dir=";
	else if (e == EROFS || e == EACCES || e == EPERM)
		todo = "give a writable directory with -p dir=";
	else if (e == ENOSPC || e == EDQUOT)
		todo = "free space there or give another directory with -p dir=";
	else
		todo = "give another directory with -p dir=";
	return st_error(err, errlen,
			"workload fileio: cannot make a work directory in %s%s: %s: %s", base,
			from_env ? " (from $TMPDIR)" : "", strerror(e), todo);
}

static int
fill_error(const char *path, int e, long long done, long long total, char *err, size_t errlen)
{
	if (e == ENOSPC || e == EDQUOT)
		return st_error(
			err, errlen,
			"workload fileio: %s: %s after writing %.1f of %.1f MiB: free space "
			"there, lower -p total= or give another -p dir=",
			path, strerror(e), done / 1048576.0, total / 1048576.0);
	return st_error(err, errlen,
			"workload fileio: cannot write %s: %s: give another -p dir=", path,
			strerror(e));
}

/* Writes one file in full, flushed, so the first step does not pay for prepare's dirt. */
static int
fill_file(const char *path, const unsigned char *buf, long long size, long long *done,
	  long long total, char *err, size_t errlen)
{
	long long off = 0;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) == -1)
		return fill_error(path, errno, *done, total, err, errlen);
	while (off < size) {
		size_t want =
			size - off < FILEIO_FILL_CHUNK ? (size_t)(size - off) : FILEIO_FILL_CHUNK;

		if ((n = write(fd, buf, want)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += n;
		*done += n;
	}
	if (fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1)
		return fill_error(path, errno, *done, total, err, errlen);
	return 0;
fail:
	e = errno;
	close(fd);
	return fill_error(path, e, *done, total, err, errlen);
}

static int
fileio_fill(struct wl_sweep *sw, uint64_t nblocks, char *err, size_t errlen)
{
	const struct wl_args *a = sw->args;
	long long size = (long long)nblocks * a->v[P_BLOCK].i, done = 0;
	long long total = size * a->v[P_FILES].i;
	char path[WL_PATH_MAX];
	unsigned char *buf;
	uint64_t rng = 1;
	int rc = 0;
	size_t k;
	int i;

	/* Random contents, so compressing filesystems store what was asked. */
	if ((buf = malloc(FILEIO_FILL_CHUNK)) == NULL)
		return st_error(err, errlen, "workload fileio: out of memory");
	for (k = 0; k + 8 <= FILEIO_FILL_CHUNK; k += 8) {
		uint64_t r = wl_random(&rng);

		memcpy(buf + k, &r, 8);
	}
	for (i = 0; i < a->v[P_FILES].i && rc == 0; i++) {
		if (wl_file_path(path, sizeof(path), sw->dir, FILEIO_FILE_PREFIX, i) == -1)
			rc = st_error(err, errlen,
				      "workload fileio: %s: path too long: "
				      "give a shorter -p dir=",
				      sw->dir);
		else
			rc = fill_file(path, buf, size, &done, total, err, errlen);
	}
	free(buf);
	return rc;
}

static int
fileio_prepare(struct wl_sweep *sw, char *err, size_t errlen)
{
	const char *base = sw->args->v[P_DIR].s, *env = getenv("TMPDIR");
	bool from_env = false;
	uint64_t nblocks;
	int n;

	if (fileio_geometry(sw->args, &nblocks, err, errlen) == -1)
		return -1;
	if (base == NULL || base[0] == '\0') {
		from_env = env != NULL && env[0] != '\0';
		base = from_env ? env : "/tmp";
	}
	n = snprintf(sw->dir, sizeof(sw->dir), "%s/" FILEIO_DIR_PREFIX "XXXXXX", base);
	if (n < 0 || (size_t)n + 16 >= sizeof(sw->dir)) {
		sw->dir[0] = '\0';
		return st_error(err, errlen,
				"workload fileio: %.200s...: path too long: "
				"give a shorter -p dir=",
				base);
	}
	if (mkdtemp(sw->dir) == NULL) {
		int e = errno;

		sw->dir[0] = '\0';
		return mkdir_error(base, from_env, e, err, errlen);
	}
	sw->own_dir = true;
	if (fileio_fill(sw, nblocks, err, errlen) == -1) {
		fileio_cleanup(sw);
		return -1;
	}
	return 0;
}

static void
fileio_close(struct fileio_shared *sh)
{
	int i;

	for (i = 0; i < sh->nfiles; i++) {
		if (sh->fd[i] != -1)
			close(sh->fd[i]);
		sh->fd[i] = -1;
	}
	sh->nfiles = 0;
}

static int
fileio_step_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
		 char *err, size_t errlen)
{
	struct fileio_shared *sh = shared;
	int flags = O_WRONLY;
	char path[WL_PATH_MAX];
	int i;

	memset(sh, 0, sizeof(*sh));
	if (sw == NULL || sw->dir[0] == '\0')
		return st_error(err, errlen,
				"workload fileio: no work directory: prepare() "
				"must run before the step");
	if (fileio_geometry(a, &sh->nblocks, err, errlen) == -1)
		return -1;
	sh->sync = (int)a->v[P_SYNC].i;
	sh->fsync_every = a->v[P_FSYNC_EVERY].i;
	sh->block = (size_t)a->v[P_BLOCK].i;
	if (sh->sync == SYNC_OSYNC)
		flags |= O_SYNC;
	for (i = 0; i < a->v[P_FILES].i; i++) {
		if (wl_file_path(path, sizeof(path), sw->dir, FILEIO_FILE_PREFIX, i) == -1) {
			fileio_close(sh);
			return st_error(err, errlen,
					"workload fileio: %s: path too long: "
					"give a shorter -p dir=",
					sw->dir);
		}
		if ((sh->fd[i] = open(path, flags)) == -1) {
			int e = errno;

			fileio_close(sh);
			return st_error(err, errlen,
					"workload fileio: cannot open %s: %s: was "
					"the work directory removed while running?",
					path, strerror(e));
		}
		sh->nfiles = i + 1;
	}
	return 0;
}

static void
fileio_step_fini(void *shared, const struct wl_args *a)
{
	fileio_close(shared);
}

static int
pwrite_all(int fd, const unsigned char *buf, size_t len, off_t off)
{
	ssize_t n;

	while (len > 0) {
		if ((n = pwrite(fd, buf, len, off)) == -1) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* fsync only the files this worker wrote since its last fsync, each timed apart from the writes. */
static int
fsync_dirty(const struct fileio_shared *sh, bool *dirty, struct wl_pace *pace, struct wl_worker *w)
{
	uint64_t t0;
	int i, rc;

	for (i = 0; i < sh->nfiles; i++) {
		if (!dirty[i])
			continue;
		t0 = wl_now_ns();
		rc = fsync(sh->fd[i]);
		wl_pace_sync(pace, w, wl_now_ns() - t0);
		if (rc == -1)
			return errno;
		dirty[i] = false;
	}
	return 0;
}

static int
fileio_work(struct wl_worker *w)
{
	const struct fileio_shared *sh = w->shared;
	bool dirty[FILEIO_MAX_FILES] = { false };
	uint64_t rng = w->seed, r;
	long long since_sync = 0;
	struct wl_pace pace;
	unsigned char *buf;
	int f, rc = 0;
	size_t k;

	if ((buf = malloc(sh->block)) == NULL)
		return ENOMEM;
	for (k = 0; k < sh->block; k++)
		buf[k] = (unsigned char)wl_random(&rng);
	wl_pace_init(&pace);
	do {
		r = wl_random(&rng);
		f = (int)(r % (uint64_t)sh->nfiles);
		/* A changing stamp keeps deduplicating filesystems honest. */
		memcpy(buf, &pace.ops, sizeof(pace.ops));
		rc = pwrite_all(sh->fd[f], buf, sh->block,
				(off_t)((wl_random(&rng) % sh->nblocks) * sh->block));
		if (rc == 0 && sh->sync == SYNC_FSYNC) {
			dirty[f] = true;
			if (++since_sync >= sh->fsync_every) {
				rc = fsync_dirty(sh, dirty, &pace, w);
				since_sync = 0;
			}
		}
		if (rc != 0)
			break;
	} while (!wl_pace_add(&pace, w, 1));
	wl_count(w, pace.ops, 0, 0);
	free(buf);
	return rc;
}

const struct workload wl_fileio = {
	.name = "fileio",
	.unit = "writes",
	.summary = "sysbench-style random block writes to files: filesystems and sync modes",
	.help = "Before the sweep, files= files holding total= bytes are made and filled in a "
		"private directory under dir= (removed again afterwards); each worker then "
		"writes block= bytes at random block offsets in random files, like sysbench "
		"fileio rndwr. sync=none leaves writes in the page cache, sync=fsync makes each "
		"worker fsync the files it wrote every fsync_every= writes, sync=osync opens them "
		"O_SYNC so every write waits for storage. With sync=none a memory filesystem "
		"(tmpfs, MFS) should scale with cores until the filesystem's own locks (inode "
		"lock per file: use more files= than workers) cap it; with synchronous writes "
		"on a disk or md(4) device, throughput is set by the device and flattens early, "
		"with CPUs idle in iowait. A drop as N grows points at journal or per-inode lock "
		"contention.",
	.params = fileio_params,
	.nparams = sizeof(fileio_params) / sizeof(fileio_params[0]),
	.shared_size = sizeof(struct fileio_shared),
	.prepare = fileio_prepare,
	.cleanup = fileio_cleanup,
	.step_init = fileio_step_init,
	.step_fini = fileio_step_fini,
	.work = fileio_work,
};

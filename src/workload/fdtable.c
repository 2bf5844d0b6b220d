/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtable: every worker allocates and frees descriptors of its own in the
 * one descriptor table its process has: open/close, dup/close or
 * socketpair/close.  Unlike fdshare, no descriptor, open file or inode is
 * shared between workers, so with threads the table's own lock (FreeBSD's
 * filedesc lock, Linux's files_struct file_lock) is what they contend on.
 */
#include <sys/socket.h>
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

/*
 * kind=open and kind=dup need files: prepare() makes a private directory
 * with mkdtemp (under dir=, $TMPDIR or /tmp), each step_init() makes one
 * empty file per worker in it (kept for the next step), and cleanup(),
 * which the monitor runs on every way out, removes them and the directory.
 */

enum { P_KIND, P_DIR };
enum { KIND_OPEN, KIND_DUP, KIND_SOCKETPAIR };

#define FDTABLE_DIR_PREFIX "scaletop-fdtable."
#define FDTABLE_FILE_PREFIX "/fd."

static const char *const fdtable_kinds[] = { "open", "dup", "socketpair", NULL };

static const struct wl_param fdtable_params[] = {
	{ "kind", WP_ENUM, "open", 0, 0, fdtable_kinds,
	  "open (open+close of the worker's own file), dup (dup+close of a descriptor it "
	  "opened once) or socketpair (socketpair+close of both ends)" },
	{ "dir", WP_PATH, "", 0, 0, NULL,
	  "where to make the private directory for the workers' files (default $TMPDIR, "
	  "else /tmp)" },
};

/*
 * Every step makes fd.0 .. fd.N-1 in order, so whatever a killed step left
 * is a run of names from fd.0: unlink until the first that is not there.
 */
static void
fdtable_cleanup(struct wl_sweep *sw)
{
	char path[WL_PATH_MAX];
	int i;

	if (sw->dir[0] == '\0')
		return;
	for (i = 0; wl_file_path(path, sizeof(path), sw->dir, FDTABLE_FILE_PREFIX, i) == 0; i++) {
		if (unlink(path) == -1 && errno == ENOENT)
			break;
	}
	if (sw->own_dir)
		rmdir(sw->dir);
	sw->dir[0] = '\0';
	sw->own_dir = false;
}

static int
fdtable_mkdir_error(const char *base, bool from_env, int e, char *err, size_t errlen)
{
	const char *todo;

	if (e == ENOENT || e == ENOTDIR)
		todo = "create that directory or give another with -p dir=";
	else if (e == EROFS || e == EACCES || e == EPERM)
		todo = "give a writable directory with -p dir=";
	else
		todo = "give another directory with -p dir=";
	return st_error(err, errlen,
			"workload fdtable: cannot make a work directory in %s%s: %s: %s", base,
			from_env ? " (from $TMPDIR)" : "", strerror(e), todo);
}

/* The private directory, made for every kind so the files' place is checked up front. */
static int
fdtable_prepare(struct wl_sweep *sw, char *err, size_t errlen)
{
	const char *base = sw->args->v[P_DIR].s, *env = getenv("TMPDIR");
	bool from_env = false;
	int n;

	if (base == NULL || base[0] == '\0') {
		from_env = env != NULL && env[0] != '\0';
		base = from_env ? env : "/tmp";
	}
	n = snprintf(sw->dir, sizeof(sw->dir), "%s/" FDTABLE_DIR_PREFIX "XXXXXX", base);
	if (n < 0 || (size_t)n + 16 >= sizeof(sw->dir)) {
		sw->dir[0] = '\0';
		return st_error(
			err, errlen,
			"workload fdtable: %.200s...: path too long: give a shorter -p dir=", base);
	}
	if (mkdtemp(sw->dir) == NULL) {
		int e = errno;

		sw->dir[0] = '\0';
		return fdtable_mkdir_error(base, from_env, e, err, errlen);
	}
	sw->own_dir = true;
	return 0;
}

/* One empty file per worker, so no two workers open (or reference-count) the same inode. */
static int
fdtable_step_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
		  char *err, size_t errlen)
{
	char path[WL_PATH_MAX];
	int fd;
	int i;

	if (sw == NULL || sw->dir[0] == '\0')
		return st_error(err, errlen,
				"workload fdtable: no work directory: prepare() must run before "
				"the step");
	for (i = 0; i < nworkers; i++) {
		if (wl_file_path(path, sizeof(path), sw->dir, FDTABLE_FILE_PREFIX, i) == -1)
			return st_error(
				err, errlen,
				"workload fdtable: %s: path too long: give a shorter -p dir=",
				sw->dir);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
			return st_error(err, errlen,
					"workload fdtable: cannot make %s: %s: give a writable "
					"-p dir= with room for %d files",
					path, strerror(errno), nworkers);
		close(fd);
	}
	return 0;
}

/* One operation: a descriptor (two for socketpair) allocated in the table and freed again. */
static int
fdtable_op(int kind, const char *path, int mine)
{
	int fd, sv[2];

	switch (kind) {
	case KIND_OPEN:
		if ((fd = open(path, O_RDONLY)) == -1)
			return errno;
		return close(fd) == -1 ? errno : 0;
	case KIND_DUP:
		if ((fd = dup(mine)) == -1)
			return errno;
		return close(fd) == -1 ? errno : 0;
	default:
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
			return errno;
		fd = close(sv[0]) == -1 ? errno : 0;
		if (close(sv[1]) == -1 && fd == 0)
			fd = errno;
		return fd;
	}
}

static int
fdtable_work(struct wl_worker *w)
{
	int kind = (int)w->args->v[P_KIND].i, mine = -1, rc = 0;
	char path[WL_PATH_MAX];
	struct wl_pace pace;

	if (wl_file_path(path, sizeof(path), w->sweep->dir, FDTABLE_FILE_PREFIX, w->index) == -1)
		return ENAMETOOLONG;
	/* dup duplicates a descriptor of the worker's own, so no open file's count is shared. */
	if (kind == KIND_DUP && (mine = open(path, O_RDONLY)) == -1)
		return errno;
	wl_pace_init(&pace);
	do {
		if ((rc = fdtable_op(kind, path, mine)) != 0)
			break;
	} while (!wl_pace_add(&pace, w, 1));
	wl_count(w, pace.ops, 0, 0);
	if (mine != -1)
		close(mine);
	return rc;
}

const struct workload wl_fdtable = {
	.name = "fdtable",
	.unit = "ops",
	.summary = "each worker opens and closes its own fds: the fd table's lock (threads)",
	.help = "Each worker allocates and frees descriptors of its own: kind=open opens and "
		"closes its own empty file in a private directory under dir= (made before the "
		"sweep, removed after), kind=dup dups and closes a descriptor it opened once, "
		"kind=socketpair makes a UNIX socket pair and closes both ends; one operation "
		"is one such pair of calls. Nothing but the process's descriptor table is "
		"shared, so with threads every call takes the table's lock (FreeBSD's filedesc "
		"lock, Linux's files_struct lock): the path whose fix gave MySQL on FreeBSD "
		"almost all of its scaling. The table lock is shared only with --mode threads: "
		"with --mode processes each worker is its own process with its own table, "
		"which makes the contrast. Healthy: processes scale with cores up to the CPU "
		"count, and threads stay close to them (dup cheapest, open paying for a path "
		"lookup, socketpair for socket allocation too). Unhealthy: threads flatten at "
		"one or two workers' rate while processes go on scaling, with kernel time "
		"rising and, for a sleeping table lock, voluntary switches per operation "
		"climbing; a fall as N grows means hand-offs of the lock cost more than the "
		"work it guards.",
	.params = fdtable_params,
	.nparams = sizeof(fdtable_params) / sizeof(fdtable_params[0]),
	.prepare = fdtable_prepare,
	.cleanup = fdtable_cleanup,
	.step_init = fdtable_step_init,
	.work = fdtable_work,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdshare: every worker hammers the one file-descriptor table of the
 * process: dup/close allocate and free slots, pread and fstat look a shared
 * descriptor up.  This is the fd-table locking that capped MySQL on FreeBSD
 * until the table lookups stopped taking the filedesc lock.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/workload.h"
#include "builtin.h"

enum { P_OP };
enum { OP_DUP, OP_PREAD, OP_FSTAT, OP_MIX };

static const char *const fdshare_ops[] = { "dup", "pread", "fstat", "mix", NULL };

static const struct wl_param fdshare_params[] = {
	{ "op", WP_ENUM, "mix", 0, 0, fdshare_ops,
	  "dup (dup+close), pread (512 bytes of a shared fd), fstat, or mix (each in turn)" },
};

#define FDSHARE_FILE_SIZE 4096
#define FDSHARE_READ 512

struct fdshare_shared {
	int fd; /* an unlinked temporary file, open for the whole step */
};

static int
fdshare_step_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
		  char *err, size_t errlen)
{
	struct fdshare_shared *sh = shared;
	const char *tmp = getenv("TMPDIR");
	char path[WL_PATH_MAX], block[FDSHARE_FILE_SIZE];
	int e;

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	snprintf(path, sizeof(path), "%s/scaletop-fdshare.XXXXXX", tmp);
	if ((sh->fd = mkstemp(path)) == -1)
		return st_error(err, errlen,
				"workload fdshare: cannot make a temporary file in "
				"%s: %s: set TMPDIR to a writable directory",
				tmp, strerror(errno));
	/* Unlinked at once: nothing to clean up, whatever happens to the step. */
	unlink(path);
	memset(block, 'f', sizeof(block));
	if (write(sh->fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
		e = errno;
		close(sh->fd);
		return st_error(err, errlen,
				"workload fdshare: cannot write a temporary file in "
				"%s: %s: set TMPDIR to a directory with space",
				tmp, strerror(e));
	}
	return 0;
}

static void
fdshare_step_fini(void *shared, const struct wl_args *a)
{
	struct fdshare_shared *sh = shared;

	close(sh->fd);
}

static int
fdshare_op(int op, int fd)
{
	char buf[FDSHARE_READ];
	struct stat st;
	int fd2;

	switch (op) {
	case OP_DUP:
		if ((fd2 = dup(fd)) == -1)
			return errno;
		close(fd2);
		return 0;
	case OP_PREAD:
		return pread(fd, buf, sizeof(buf), 0) == -1 ? errno : 0;
	default:
		return fstat(fd, &st) == -1 ? errno : 0;
	}
}

static int
fdshare_work(struct wl_worker *w)
{
	const struct fdshare_shared *sh = w->shared;
	int op = (int)w->args->v[P_OP].i, rc;
	unsigned turn = (unsigned)w->index;
	struct wl_pace pace;

	wl_pace_init(&pace);
	do {
		/* mix: workers start at different points of the cycle, so all three overlap. */
		rc = fdshare_op(op == OP_MIX ? (int)(turn++ % OP_MIX) : op, sh->fd);
		if (rc != 0)
			break;
	} while (!wl_pace_add(&pace, w, 1));
	wl_count(w, pace.ops, 0, 0);
	return rc;
}

const struct workload wl_fdshare = {
	.name = "fdshare",
	.unit = "ops",
	.summary = "threads hammering one shared fd table: dup/close, pread, fstat",
	.help = "All workers share one process's file-descriptor table and one open temporary "
		"file: op=dup allocates and frees descriptors (dup then close), op=pread reads "
		"512 bytes of the shared descriptor, op=fstat stats it, op=mix cycles through "
		"all three; one operation is one of these. Each call looks the descriptor up in "
		"the table, so a table lock shows here: it is what capped MySQL on FreeBSD until "
		"descriptor lookups became lock-free. A healthy kernel scales pread and fstat "
		"with cores (only the file's reference count is shared); dup/close must write the "
		"table and scales less. In process mode each worker has its own copy of the "
		"table (the open file is still shared), so run it with threads to see the "
		"table's locking, and with processes for the contrast.",
	.params = fdshare_params,
	.nparams = sizeof(fdshare_params) / sizeof(fdshare_params[0]),
	.shared_size = sizeof(struct fdshare_shared),
	.step_init = fdshare_step_init,
	.step_fini = fdshare_step_fini,
	.work = fdshare_work,
};

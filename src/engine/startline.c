/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start line (startline.h).  A pipe rather than a futex or a
 * process-shared condition variable: it needs no per-OS call, and
 * DragonFly's pthread objects are pointers into the creating process's
 * heap, so a "process-shared" condvar in the shared mapping would not reach
 * worker processes there.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/platform.h"
#include "scaletop/spawn.h"
#include "startline.h"

/*
 * A condvar's mutex could also be left held by a worker process killed at
 * the line; a pipe has nothing to hold.
 */

/* Only if poll() itself fails: then the wait degrades to looking every millisecond. */
#define STARTLINE_FALLBACK_NAP_NS 1000000L

void
startline_state_init(struct startline_state *st)
{
	atomic_init(&st->ready, 0);
	atomic_init(&st->go, 0);
	atomic_init(&st->go_ns, 0);
}

bool
startline_released(struct startline_state *st)
{
	return atomic_load_explicit(&st->go, memory_order_acquire) != 0;
}

uint64_t
startline_go_ns(struct startline_state *st)
{
	return startline_released(st) ? atomic_load(&st->go_ns) : 0;
}

int
startline_open(struct startline *sl, struct startline_state *st)
{
	int fds[2];

	sl->st = st;
	sl->rfd = sl->wfd = -1;
	/* Close-on-exec and above stdio, like every pipe the engine makes. */
	if (spawn_pipe(fds) == -1)
		return -1;
	sl->rfd = fds[0];
	sl->wfd = fds[1];
	return 0;
}

void
startline_forked(struct startline *sl)
{
	/* This process's own copy of the descriptor table: the child's write end stays open. */
	if (sl->wfd >= 0) {
		close(sl->wfd);
		sl->wfd = -1;
	}
}

static void
startline_nap(void)
{
	struct timespec ts = { 0, STARTLINE_FALLBACK_NAP_NS };

	nanosleep(&ts, NULL);
}

bool
startline_wait(struct startline *sl, const atomic_int *stop)
{
	struct pollfd p = { .fd = sl->rfd, .events = POLLIN };
	int rc;

	atomic_fetch_add(&sl->st->ready, 1);
	for (;;) {
		if (startline_released(sl->st))
			return true;
		if (atomic_load_explicit(stop, memory_order_acquire) != 0)
			return false;
		rc = poll(&p, 1, STARTLINE_RECHECK_MS);
		/*
		 * The gate is open: released (go was stored before the close),
		 * or closed on stop, or the child is gone and the kernel closed
		 * its end.  Only a release lets the worker run.
		 */
		if (rc > 0)
			return startline_released(sl->st);
		if (rc == -1 && errno != EINTR)
			startline_nap();
	}
}

int
startline_ready(struct startline *sl)
{
	return atomic_load(&sl->st->ready);
}

void
startline_release(struct startline *sl)
{
	atomic_store(&sl->st->go_ns, mono_now_ns());
	atomic_store_explicit(&sl->st->go, 1, memory_order_release);
	startline_close(sl);
}

void
startline_close(struct startline *sl)
{
	if (sl->wfd >= 0) {
		close(sl->wfd);
		sl->wfd = -1;
	}
}

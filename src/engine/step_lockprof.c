/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's lock profile (Linux /proc/lock_stat) over a step's window: read
 * whole at its start, and its change at the end is the step's most contended
 * kernel locks.  Nothing where the kernel keeps no profile.
 */
#include <stdlib.h>

#include "scaletop/lockprof.h"
#include "step_ctx.h"

/*
 * The kernel's lock profile at the window's start: every class, since one
 * outside a top list now may be among the most contended by its end.
 */
void
step_ctx_locks_begin(struct step_ctx *c)
{
	free(c->w0_locks);
	c->w0_locks = NULL;
	if (platform_lock_profile(&c->w0_locks, &c->w0_nlocks) != 0)
		c->w0_nlocks = -1;
}

/* The window's most contended kernel locks: the profile's change across it. */
void
step_ctx_locks_end(struct step_ctx *c, struct step *st)
{
	struct lockprof_entry *now;
	int n;

	if (c->w0_nlocks < 0 || platform_lock_profile(&now, &n) != 0)
		return;
	lockprof_delta(c->w0_locks, c->w0_nlocks, now, n, st->locks, STEP_TOP_LOCKS, &st->nlocks);
	free(now);
}

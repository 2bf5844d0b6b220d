/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel stacks of a window's blocked threads (kstacks.h): one tally
 * for the step context, reset when a window opens and fed by the wait
 * sampler (wait_kstack.c), its families' top STEP_KSTACKS and their whole
 * stacks (for flame graphs) kept in the step with the reads' count and mean
 * cost when it closes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/kstacks.h"
#include "step_ctx.h"

/*
 * Off with --no-locks: it reads blocked threads' files as the lock census
 * does.  A family whose stacks the OS refuses is said so once a sweep, in an
 * event.
 */

void
step_ctx_kstacks_begin(struct step_ctx *c)
{
	int f;

	c->ws.kstacks = NULL;
	c->ws.kstack_reads = c->ws.kstack_failed = c->ws.kstack_ns = 0;
	for (f = 0; f < 2; f++)
		c->ws.kstack_tick_reads[f] = 0;
	if (c->s->set.no_locks)
		return;
	if (c->kstacks == NULL && (c->kstacks = kstack_tally_new()) == NULL)
		return; /* no memory: no stacks, the sampler reads on */
	kstack_tally_reset(c->kstacks);
	c->ws.kstacks = c->kstacks;
}

/* Why family index fi's stacks cannot be read, in the step and, the first time, an event. */
static void
kstacks_unreadable(struct step_ctx *c, struct step_kstacks *k, int fi, uint64_t now)
{
	enum wait_family f = fi == 0 ? WAIT_WORKLOAD : WAIT_TARGET;
	int e = c->ws.kstack_errno[fi];
	char why[sizeof(k->unreadable)];

	snprintf(why, sizeof(why), "%s", e == ENOSYS ? "not on this OS" : strerror(e));
	if (k->unreadable[0] == '\0')
		snprintf(k->unreadable, sizeof(k->unreadable), "%s", why);
	if (c->kstack_said[fi])
		return;
	c->kstack_said[fi] = true;
	session_add_event(c->s, c->idx, EV_INFO, session_time(c->s, now),
			  "no kernel stacks of the %s's blocked threads: %s%s",
			  wait_family_names[f], why,
			  e == EACCES || e == EPERM ? " (they are root's to read)" : "");
}

void
step_ctx_kstacks_end(struct step_ctx *c, struct step *st, uint64_t now)
{
	struct step_kstacks *k = &st->kstacks;
	int fi, n;

	step_kstacks_clear(k);
	if (c->ws.kstacks == NULL)
		return;
	c->ws.kstacks = NULL;
	k->present = true;
	for (fi = 0; fi < 2; fi++) {
		n = kstack_tally_top(c->kstacks, fi == 0 ? WAIT_WORKLOAD : WAIT_TARGET,
				     &k->top[k->n], STEP_KSTACKS);
		k->n += n;
		if (c->ws.kstack_off[fi] && !c->ws.kstack_ok[fi])
			kstacks_unreadable(c, k, fi, now);
	}
	/* without memory for them the whole stacks are NULL: the top ones stand alone */
	(void)kstack_tally_stacks(c->kstacks, &k->stacks);
	k->reads = (int64_t)c->ws.kstack_reads;
	k->failed = (int64_t)c->ws.kstack_failed;
	if (c->ws.kstack_reads + c->ws.kstack_failed > 0)
		k->read_us = (double)c->ws.kstack_ns / 1e3 /
			     (double)(c->ws.kstack_reads + c->ws.kstack_failed);
}

void
step_ctx_kstacks_free(struct step_ctx *c)
{
	c->ws.kstacks = NULL;
	kstack_tally_free(c->kstacks);
	c->kstacks = NULL;
}

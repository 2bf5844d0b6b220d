/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wait sampler's kernel stacks (wait_sampler.h): the first few blocked
 * readings of a family each tick have their kernel stack read into the
 * window's histogram (kstacks.h).
 */
#include <errno.h>

#include "scaletop/kstacks.h"
#include "scaletop/platform.h"
#include "wait_sampler.h"

/*
 * The wait sampler's kernel stacks (wait_sampler.h): of each tick's blocked
 * readings of a family, the first WAIT_KSTACK_READS in the sampler's random
 * order have their kernel stack read (platform.h's thread_kstack_read) and
 * go to the window's histogram (kstacks.h) with the blocked time the wait
 * tally gave them; every blocked reading is counted, so the histogram can
 * weigh the few read by how many they stand for.  A few reads a tick keep
 * the cost flat at any thread count.  A family refused before any was read
 * is not tried again, and the step says why once (step_kstacks.c): at once
 * for EACCES (Linux: not root, which no other thread changes) and ENOSYS
 * (an OS without the call), after WAIT_KSTACK_REFUSALS for EPERM (a ptrace
 * check of one process: root may be refused one in another user namespace
 * and read the rest).
 */

static bool
ws_kstack_blocked(enum thread_state s)
{
	return s == THREAD_SLEEPING || s == THREAD_DISK || s == THREAD_LOCK;
}

/* A refusal that no later read of the family would escape. */
static bool
ws_kstack_refused(int e)
{
	return e == EACCES || e == EPERM || e == ENOSYS;
}

void
ws_kstack_add(struct wait_sampler *w, int fi, enum wait_family f, struct ws_thread *th,
	      const struct thread_sample *t, double weight)
{
	struct kstack ks;
	uint64_t t0;
	int r, e;

	if (w->kstacks == NULL || weight <= 0 || !ws_kstack_blocked(t->state))
		return;
	kstack_tally_blocked(w->kstacks, f);
	if (w->kstack_off[fi] ||
	    (uint64_t)w->kstack_tick_reads[fi] >= ws_tick_scaled(w, WAIT_KSTACK_READS))
		return;
	w->kstack_tick_reads[fi]++;
	t0 = mono_now_ns();
	r = thread_kstack_read(th->h.pid, th->h.tid, &ks);
	e = errno;
	w->kstack_ns += mono_now_ns() - t0;
	if (r != 0) {
		w->kstack_failed++;
		if (ws_kstack_refused(e) && !w->kstack_ok[fi] &&
		    (++w->kstack_refused[fi] >= WAIT_KSTACK_REFUSALS || e != EPERM)) {
			w->kstack_off[fi] = true;
			w->kstack_errno[fi] = e;
		}
		return;
	}
	w->kstack_ok[fi] = true;
	w->kstack_reads++;
	/* a stack the thread left before it was read says nothing of this wait */
	if (ks.nframes > 0)
		(void)kstack_tally_add(w->kstacks, f, &ks, weight);
}

void
ws_kstack_tick(struct wait_sampler *w, int fi, enum wait_family f)
{
	if (w->kstacks == NULL)
		return;
	kstack_tally_tick(w->kstacks, f);
	w->kstack_tick_reads[fi] = 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* spinlock: test-and-set and ticket spinlocks in shared memory, built on C11 atomics. */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_KIND, P_HOLD, P_THINK, P_WAITSAMPLE };
enum { KIND_TAS, KIND_TTAS, KIND_TICKET };

static const char *const spinlock_kinds[] = { "tas", "ttas", "ticket", NULL };

static const struct wl_param spinlock_params[] = {
	{ "kind", WP_ENUM, "ticket", 0, 0, spinlock_kinds,
	  "lock algorithm: tas (swap until free), ttas (read until free, then swap), "
	  "ticket (FIFO queue)" },
	{ "hold", WP_INT, "100", 0, 1000000, NULL,
	  "hash-mix rounds inside the lock per operation" },
	{ "think", WP_INT, "100", 0, 1000000, NULL,
	  "hash-mix rounds outside the lock per operation" },
	{ "waitsample", WP_INT, "1", 0, 1000000, NULL,
	  "contended acquisitions per timed one (1: time every one; 0: measure nothing)" },
};

/* How many spins between looks at the stop flag. */
#define SPIN_CHECK 64

static int
spinlock_step_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
		   char *err, size_t errlen)
{
	struct spinlock_shared *sh = shared;

	memset(sh, 0, sizeof(*sh));
	atomic_init(&sh->flag, 0);
	atomic_init(&sh->next, 0);
	atomic_init(&sh->serving, 0);
	return 0;
}

/*
 * Test-and-set.  Pure tas swaps on every spin, so every waiter keeps pulling
 * the line over in exclusive state; ttas spins on a shared copy and swaps
 * only when it sees the lock free.
 */
static bool
tas_try(struct spinlock_shared *sh, bool test_first)
{
	if (test_first && atomic_load_explicit(&sh->flag, memory_order_relaxed) != 0)
		return false;
	return atomic_exchange_explicit(&sh->flag, 1, memory_order_acquire) == 0;
}

/*
 * Spins until tas_try succeeds; a waiter gives up when told to stop.  Not
 * inlined, so that an on-CPU sample in the spin names it (the user-spin
 * table, src/model/hotspin.c).
 */
static __attribute__((noinline)) bool
spinlock_tas_wait(struct spinlock_shared *sh, bool test_first, const struct wl_worker *w)
{
	unsigned spins = 0;

	while (!tas_try(sh, test_first)) {
		wl_cpu_relax();
		if (++spins % SPIN_CHECK == 0 && wl_should_stop(w))
			return false;
	}
	return true;
}

/*
 * Ticket lock: take a number, wait until it is served.  A waiter cannot
 * leave the queue, so once stop is set it yields instead of spinning: a
 * preempted holder then gets the CPU back quickly and the queue drains.
 * Not inlined, as spinlock_tas_wait.
 */
static __attribute__((noinline)) void
spinlock_ticket_wait(struct spinlock_shared *sh, unsigned me, const struct wl_worker *w)
{
	unsigned spins = 0;

	while (atomic_load_explicit(&sh->serving, memory_order_acquire) != me) {
		wl_cpu_relax();
		if (++spins % SPIN_CHECK == 0 && wl_should_stop(w))
			sched_yield();
	}
}

/*
 * Takes the lock, timing the wait only when the first attempt finds it
 * held (see wl_lockwait in builtin.h).  false when told to stop first.
 */
static bool
spin_acquire(struct spinlock_shared *sh, int kind, struct wl_worker *w, struct wl_lockwait *lw,
	     struct wl_pace *pace, unsigned *ticket)
{
	uint64_t t0 = 0;
	bool timed, got = true;

	if (kind == KIND_TICKET) {
		*ticket = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
		if (atomic_load_explicit(&sh->serving, memory_order_acquire) == *ticket)
			return true;
	} else if (tas_try(sh, kind == KIND_TTAS)) {
		return true;
	}
	if ((timed = wl_lockwait_due(lw)))
		t0 = wl_now_ns();
	if (kind == KIND_TICKET)
		spinlock_ticket_wait(sh, *ticket, w);
	else
		got = spinlock_tas_wait(sh, kind == KIND_TTAS, w);
	if (timed && got)
		wl_lockwait_record(lw, pace, t0, wl_now_ns());
	return got;
}

static int
spinlock_work(struct wl_worker *w)
{
	struct spinlock_shared *sh = w->shared;
	int kind = (int)w->args->v[P_KIND].i;
	long long hold = w->args->v[P_HOLD].i, think = w->args->v[P_THINK].i;
	uint64_t x = w->seed;
	struct wl_lockwait lw;
	struct wl_pace pace;
	unsigned ticket = 0;

	wl_pace_init(&pace);
	wl_lockwait_init(&lw, &pace, w->args->v[P_WAITSAMPLE].i, w->seed);
	do {
		if (!spin_acquire(sh, kind, w, &lw, &pace, &ticket))
			break;
		sh->data = wl_mix(sh->data, hold);
		sh->entries++;
		if (kind == KIND_TICKET)
			atomic_store_explicit(&sh->serving, ticket + 1, memory_order_release);
		else
			atomic_store_explicit(&sh->flag, 0, memory_order_release);
		x = wl_mix(x, think);
		wl_keep(x);
	} while (!wl_pace_add(&pace, w, 1));
	wl_pace_done(&pace, w);
	return 0;
}

const struct workload wl_spinlock = {
	.name = "spinlock",
	.unit = "ops",
	.summary = "test-and-set and ticket spinlocks in user space: collapse past the CPU count",
	.help = "Like mutex, but the lock is a user-space spinlock built on C11 atomics (kind= "
		"tas, ttas or ticket) and waiters burn CPU instead of sleeping; lock-wait % is "
		"measured the same way (first attempt untimed, a failed one times the spin). Up to "
		"the CPU count it behaves like mutex, ticket fairly "
		"and tas/ttas with more cache-line traffic per hand-off. Once N exceeds the CPUs a "
		"lock holder can be preempted while the rest spin, and throughput collapses "
		"suddenly rather than levelling off; a ticket lock collapses hardest, since the "
		"next in line may itself be off-CPU. That cliff, with lock-wait % near 100% and "
		"involuntary switches climbing, is the expected shape, not a fault: it is why "
		"kernels and databases use adaptive or queued locks.",
	.params = spinlock_params,
	.nparams = sizeof(spinlock_params) / sizeof(spinlock_params[0]),
	.flags = WL_LOCK_WAIT,
	.shared_size = sizeof(struct spinlock_shared),
	.step_init = spinlock_step_init,
	.work = spinlock_work,
};

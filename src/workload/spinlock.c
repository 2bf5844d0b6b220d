/* spinlock: test-and-set and ticket spinlocks in shared memory, built on C11 atomics. */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_KIND, P_HOLD, P_THINK, P_WAITSAMPLE };
enum { KIND_TAS, KIND_TTAS, KIND_TICKET };

static const char *const spinlock_kinds[] = {"tas", "ttas", "ticket", NULL};

static const struct wl_param spinlock_params[] = {
        {"kind", WP_ENUM, "ticket", 0, 0, spinlock_kinds,
         "lock algorithm: tas (swap until free), ttas (read until free, then swap), "
         "ticket (FIFO queue)"},
        {"hold", WP_INT, "100", 0, 1000000, NULL, "hash-mix rounds inside the lock per operation"},
        {"think", WP_INT, "100", 0, 1000000, NULL,
         "hash-mix rounds outside the lock per operation"},
        {"waitsample", WP_INT, "64", 0, 1000000, NULL,
         "lock acquisitions per timed one, at least: more when operations are short "
         "(0: measure nothing)"},
};

/* How many spins between looks at the stop flag. */
#define SPIN_CHECK 64

static _Atomic uint64_t spinlock_sink;

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
 * only when it sees the lock free.  A waiter gives up when told to stop.
 */
static bool
tas_lock(struct spinlock_shared *sh, bool test_first, const struct wl_worker *w)
{
	unsigned spins = 0;

	for (;;) {
		if (!test_first || atomic_load_explicit(&sh->flag, memory_order_relaxed) == 0) {
			if (atomic_exchange_explicit(&sh->flag, 1, memory_order_acquire) == 0)
				return true;
		}
		wl_cpu_relax();
		if (++spins % SPIN_CHECK == 0 && wl_should_stop(w))
			return false;
	}
}

/*
 * Ticket lock: take a number, wait until it is served.  A waiter cannot
 * leave the queue, so once stop is set it yields instead of spinning: a
 * preempted holder then gets the CPU back quickly and the queue drains.
 */
static unsigned
ticket_lock(struct spinlock_shared *sh, const struct wl_worker *w)
{
	unsigned me = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
	unsigned spins = 0;

	while (atomic_load_explicit(&sh->serving, memory_order_acquire) != me) {
		wl_cpu_relax();
		if (++spins % SPIN_CHECK == 0 && wl_should_stop(w))
			sched_yield();
	}
	return me;
}

static int
spinlock_work(struct wl_worker *w)
{
	struct spinlock_shared *sh = w->shared;
	int kind = (int)w->args->v[P_KIND].i;
	long long hold = w->args->v[P_HOLD].i, think = w->args->v[P_THINK].i;
	uint64_t x = w->seed, t0 = 0, t1 = 0;
	struct wl_lockwait lw;
	struct wl_pace pace;
	unsigned ticket = 0;
	bool timed;

	wl_lockwait_init(&lw, w->args->v[P_WAITSAMPLE].i, w->seed);
	wl_pace_init(&pace);
	do {
		if ((timed = wl_lockwait_due(&lw)))
			t0 = wl_now_ns();
		if (kind == KIND_TICKET)
			ticket = ticket_lock(sh, w);
		else if (!tas_lock(sh, kind == KIND_TTAS, w))
			break;
		if (timed)
			t1 = wl_now_ns();
		sh->data = wl_mix(sh->data, hold);
		sh->entries++;
		if (kind == KIND_TICKET)
			atomic_store_explicit(&sh->serving, ticket + 1, memory_order_release);
		else
			atomic_store_explicit(&sh->flag, 0, memory_order_release);
		x = wl_mix(x, think);
		if (timed)
			wl_lockwait_record(&lw, &pace, t0, t1, wl_now_ns());
	} while (!wl_pace_add(&pace, w, 1));
	wl_count(w, pace.ops, pace.wait_ns, pace.busy_ns);
	atomic_store_explicit(&spinlock_sink, x, memory_order_relaxed);
	return 0;
}

const struct workload wl_spinlock = {
        .name = "spinlock",
        .unit = "ops",
        .summary = "test-and-set and ticket spinlocks in user space: collapse past the CPU count",
        .help = "Like mutex, but the lock is a user-space spinlock built on C11 atomics (kind= "
                "tas, ttas or ticket) and waiters burn CPU instead of sleeping; lock-wait % is "
                "sampled the same way. Up to the CPU count it behaves like mutex, ticket fairly "
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One thread's time between two readings, into a wait profile (waits.h):
 * the time since the thread was last read goes to the state it is in now,
 * and a Linux "R" is split into running and runnable in the ratio of its
 * schedstat on-CPU and run-delay times over the same span.  Pure.
 */
#ifndef SCALETOP_THREAD_WAIT_H
#define SCALETOP_THREAD_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/sample_types.h"
#include "scaletop/waits.h"

/* What the sampler keeps of a thread between readings. */
struct thread_mark {
	pid_t tid;
	uint64_t at_ns;                /* read then (CLOCK_MONOTONIC) */
	uint64_t cpu_ns, run_delay_ns; /* its times when last known */
	bool have_times;
	/* Where it was last seen blocked: a thread runnable now most likely slept there since. */
	enum thread_state blocked;
	char channel[THREAD_CHANNEL_LEN];
	bool have_blocked;
};

/* The channel a runnable thread without schedstat times is shown under: it is not split. */
#define THREAD_WAIT_UNSPLIT "unsplit (no schedstat)"

/*
 * Adds the thread-time from max(m->at_ns, from_ns) to now_ns to t as family
 * f, in the state t_now shows, then moves the mark to this reading.  0, or
 * -1 (ENOMEM: the tally misses it; the mark still moves).
 */
int thread_wait_add(struct wait_tally *t, enum wait_family f, struct thread_mark *m,
		    const struct thread_sample *t_now, uint64_t from_ns, uint64_t now_ns);
/*
 * The same, and *blocked the part of it tallied as blocked (sleeping or
 * uninterruptible), 0 when none: the weight the lock census gives the
 * reading.
 */
int thread_wait_account(struct wait_tally *t, enum wait_family f, struct thread_mark *m,
			const struct thread_sample *t_now, uint64_t from_ns, uint64_t now_ns,
			double *blocked);
/* A first reading: the mark starts here, with no time to count yet. */
void thread_mark_seed(struct thread_mark *m, const struct thread_sample *t_now, uint64_t now_ns);

#endif

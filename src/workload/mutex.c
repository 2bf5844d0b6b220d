/* SPDX-License-Identifier: BSD-2-Clause */
/* mutex: one process-shared pthread mutex around a critical section of tunable length. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/workload.h"
#include "builtin.h"

enum { P_HOLD, P_THINK, P_WAITSAMPLE };

static const struct wl_param mutex_params[] = {
	{ "hold", WP_INT, "100", 0, 1000000, NULL,
	  "hash-mix rounds inside the lock per operation" },
	{ "think", WP_INT, "100", 0, 1000000, NULL,
	  "hash-mix rounds outside the lock per operation" },
	{ "waitsample", WP_INT, "1", 0, 1000000, NULL,
	  "contended acquisitions per timed one (1: time every one; 0: measure nothing)" },
};

static int
mutex_step_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
		char *err, size_t errlen)
{
	struct mutex_shared *sh = shared;
	pthread_mutexattr_t attr;
	int rc;

	memset(sh, 0, sizeof(*sh));
	if ((rc = pthread_mutexattr_init(&attr)) != 0)
		return st_error(err, errlen, "workload mutex: pthread_mutexattr_init: %s",
				strerror(rc));
	/* Shared so the same lock works when workers are processes. */
	rc = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	if (rc == 0)
		rc = pthread_mutex_init(&sh->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0)
		return st_error(err, errlen,
				"workload mutex: cannot make a process-shared mutex: %s: "
				"this system lacks PTHREAD_PROCESS_SHARED mutexes",
				strerror(rc));
	return 0;
}

static void
mutex_step_fini(void *shared, const struct wl_args *a)
{
	struct mutex_shared *sh = shared;

	pthread_mutex_destroy(&sh->lock);
}

/*
 * Takes the lock; only a contended acquisition (trylock refused) is timed.
 * trylock then lock costs what lock alone does when the lock is free (one
 * compare-and-swap), so the untimed path is the plain one.
 */
static int
mutex_acquire(struct mutex_shared *sh, struct wl_lockwait *lw, struct wl_pace *pace)
{
	uint64_t t0;
	int rc;

	if ((rc = pthread_mutex_trylock(&sh->lock)) != EBUSY)
		return rc;
	if (!wl_lockwait_due(lw))
		return pthread_mutex_lock(&sh->lock);
	t0 = wl_now_ns();
	if ((rc = pthread_mutex_lock(&sh->lock)) == 0)
		wl_lockwait_record(lw, pace, t0, wl_now_ns());
	return rc;
}

static int
mutex_work(struct wl_worker *w)
{
	struct mutex_shared *sh = w->shared;
	long long hold = w->args->v[P_HOLD].i, think = w->args->v[P_THINK].i;
	uint64_t x = w->seed;
	struct wl_lockwait lw;
	struct wl_pace pace;
	int rc;

	wl_pace_init(&pace);
	wl_lockwait_init(&lw, &pace, w->args->v[P_WAITSAMPLE].i, w->seed);
	do {
		if ((rc = mutex_acquire(sh, &lw, &pace)) != 0)
			break;
		sh->data = wl_mix(sh->data, hold);
		sh->entries++;
		pthread_mutex_unlock(&sh->lock);
		x = wl_mix(x, think);
		wl_keep(x);
	} while (!wl_pace_add(&pace, w, 1));
	wl_pace_done(&pace, w);
	return rc;
}

const struct workload wl_mutex = {
	.name = "mutex",
	.unit = "ops",
	.summary = "one shared pthread mutex around a tunable critical section",
	.help = "All workers take one process-shared pthread mutex, run hold= hash-mix rounds on "
		"the data it protects, release it, then run think= rounds of their own; one "
		"operation is one such cycle. Lock-wait % is measured inside: the time from a "
		"refused trylock to holding the lock, over the workers' wall-clock time; "
		"uncontended acquisitions are not timed, so they cost nothing extra (with "
		"waitsample=K only one contended acquisition in K is timed). By Amdahl's law "
		"throughput can rise to at most (hold+think)/hold times one worker's, so a healthy "
		"system climbs to that limit and then holds it flat as N passes the CPU count, "
		"because waiters sleep in the kernel instead of spinning; lock-wait % and "
		"voluntary context switches rise together. A fall past the peak means the lock "
		"hand-off itself (wake-ups, cache-line transfers) costs more than the section.",
	.params = mutex_params,
	.nparams = sizeof(mutex_params) / sizeof(mutex_params[0]),
	.flags = WL_LOCK_WAIT,
	.shared_size = sizeof(struct mutex_shared),
	.step_init = mutex_step_init,
	.step_fini = mutex_step_fini,
	.work = mutex_work,
};

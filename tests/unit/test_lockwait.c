/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lock-wait timing (src/workload/builtin.h's wl_lockwait and the lock
 * workloads' use of it): contended waits added exactly, the clock's own
 * cost taken off, sampling when asked, the wall-clock denominator, and no
 * timing at all for a lock that is never contended.  docs/design-notes.md
 * says why.  Nothing here asserts on how fast anything ran.
 */
#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/error.h"
#include "scaletop/slot.h"
#include "scaletop/workload.h"
#include "../../src/workload/builtin.h"
#include "../tap.h"

/* n contended acquisitions, each waiting wait_ns by a clock whose reads cost c. */
static void
contend(struct wl_lockwait *lw, struct wl_pace *p, uint64_t n, uint64_t c, uint64_t wait_ns)
{
	uint64_t i;
	uint64_t t = 1000000;

	lw->clock_ns = c;
	for (i = 0; i < n; i++, t += 1000) {
		if (wl_lockwait_due(lw))
			wl_lockwait_record(lw, p, t, t + c + wait_ns);
	}
}

static void
test_lockwait(void)
{
	static struct wl_slot slot;
	atomic_int stop = 0;
	struct wl_worker w = { .slot = &slot, .stop = &stop };
	struct wl_lockwait lw;
	struct wl_pace p;
	uint64_t before, after;

	/* waitsample=1: every contended wait, exactly, less the clock read it spans. */
	wl_pace_init(&p);
	wl_lockwait_init(&lw, &p, 1, 42);
	contend(&lw, &p, 1000, 20, 250);
	is_u64(p.wait_ns, 1000 * 250, "lock wait: every contended acquisition's wait, exactly");
	wl_pace_init(&p);
	wl_lockwait_init(&lw, &p, 1, 42);
	contend(&lw, &p, 1000, 20, 0);
	is_u64(p.wait_ns, 0, "  a wait no longer than a clock read shows as none");

	/* waitsample=64: one in about 64, each standing for its interval. */
	wl_pace_init(&p);
	wl_lockwait_init(&lw, &p, 64, 42);
	contend(&lw, &p, 6400000, 20, 100);
	is_double((double)p.wait_ns / 640e6, 1.0, 0.01, "  sampled: the total is still estimated");

	/* The denominator is wall-clock time since the worker started, not a sample. */
	before = wl_now_ns();
	wl_pace_init(&p);
	wl_lockwait_init(&lw, &p, 1, 42);
	after = wl_now_ns();
	while (wl_now_ns() - after < 2000000)
		;
	wl_pace_publish(&p, &w);
	ok(p.wall && p.busy_ns >= 2000000 && p.busy_ns <= wl_now_ns() - before,
	   "  busy is the wall time since the start, published (%llu ns)",
	   (unsigned long long)p.busy_ns);

	/* waitsample=0: nothing timed, no figure at all (the table shows "-"). */
	wl_pace_init(&p);
	wl_lockwait_init(&lw, &p, 0, 42);
	contend(&lw, &p, 100000, 20, 250);
	wl_pace_publish(&p, &w);
	ok(p.wait_ns == 0 && p.busy_ns == 0, "  waitsample=0 measures nothing");
}

/*
 * One worker alone never finds its lock held, so nothing is timed: wait is
 * exactly 0 (timing every acquisition would show the clock's jitter), while
 * busy, its wall time, is not.
 */
static void *
alone_main(void *arg)
{
	struct wl_worker *w = arg;

	return w->args->wl->work(w) == 0 ? arg : NULL;
}

static void
test_lockwait_alone(const char *name, const char *kv)
{
	int waited;
	static struct wl_slot slot;
	const struct workload *wl = workload_find(name);
	atomic_int stop = 0;
	char err[ST_ERRLEN] = "";
	struct wl_args a;
	struct wl_worker w = { .slot = &slot, .stop = &stop, .args = &a, .nworkers = 1 };
	struct slot_view v = { 0 };
	pthread_t tid;
	void *rc = NULL;

	wl_args_defaults(&a, wl);
	if (kv != NULL)
		wl_args_set(&a, kv, err, sizeof(err));
	w.shared = map_shared(wl->shared_size);
	wl->step_init(w.shared, &a, NULL, 1, err, sizeof(err));
	slot_publish(&slot, 0, 0, 0, 0);
	if (pthread_create(&tid, NULL, alone_main, &w) != 0) {
		printf("Bail out! pthread_create failed\n");
		exit(1);
	}
	/* Until it has done plenty, however slowly a loaded machine runs it. */
	for (waited = 0; waited < 15000; waited += 10) {
		if (slot_read(&slot, 0, &v) && v.ops >= 100000)
			break;
		sleep_ms(10);
	}
	atomic_store(&stop, 1);
	pthread_join(tid, &rc);
	slot_read(&slot, 0, &v);
	ok(rc != NULL && v.ops >= 100000 && v.wait_ns == 0 && v.busy_ns > 0,
	   "%s%s%s, one worker: no wait timed (%llu ns), its time measured (%llu ns)", name,
	   kv ? " " : "", kv ? kv : "", (unsigned long long)v.wait_ns,
	   (unsigned long long)v.busy_ns);
	if (wl->step_fini)
		wl->step_fini(w.shared, &a);
	munmap(w.shared, wl->shared_size);
}

int
main(void)
{
	test_lockwait();
	test_lockwait_alone("mutex", NULL);
	test_lockwait_alone("spinlock", "kind=tas");
	test_lockwait_alone("spinlock", "kind=ttas");
	test_lockwait_alone("spinlock", "kind=ticket");
	return done_testing();
}

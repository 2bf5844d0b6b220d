/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The built-ins' pace (src/workload/builtin.h) with latency on: every
 * operation counted once, one timed a batch, none while off, and a new
 * window's epoch empties the histogram.  A fake worker; no threads.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "scaletop/lathist.h"
#include "scaletop/slot.h"
#include "../../src/workload/builtin.h"
#include "../tap.h"

static _Alignas(SLOT_STRIDE) struct wl_slot slot;
static struct lathist hist, hist_sync;
static atomic_int stop_flag, lat_on;
static atomic_uint lat_epoch;

static void
worker_init(struct wl_worker *w)
{
	memset(w, 0, sizeof(*w));
	w->nworkers = 1;
	w->slot = &slot;
	w->stop = &stop_flag;
	w->lat = &hist;
	w->lat_sync = &hist_sync;
	w->lat_on = &lat_on;
	w->lat_epoch = &lat_epoch;
	lathist_init(&hist);
	lathist_init(&hist_sync);
}

/* n operations of about spin_ns each; how many publishes the slot saw. */
static uint64_t
run(struct wl_pace *p, struct wl_worker *w, uint64_t n, uint64_t spin_ns)
{
	uint64_t seq0 = atomic_load(&slot.seq), i, t;

	for (i = 0; i < n; i++) {
		t = wl_now_ns();
		while (spin_ns > 0 && wl_now_ns() - t < spin_ns)
			;
		(void)wl_pace_add(p, w, 1);
	}
	return atomic_load(&slot.seq) - seq0;
}

int
main(void)
{
	struct wl_pace p;
	struct wl_worker w;
	struct slot_view v = { 0 };
	uint64_t pubs, before;

	worker_init(&w);
	wl_pace_init(&p);
	pubs = run(&p, &w, 200000, 0);
	is_u64(hist.count, 0, "latency off: nothing timed");
	ok(pubs > 0, "latency off: %llu publishes", (unsigned long long)pubs);

	atomic_store(&lat_on, 1);
	atomic_store(&lat_epoch, 1);
	pubs = run(&p, &w, 2000000, 0);
	ok(hist.count > 0 && hist.count <= pubs + 1, "on: %llu timed, at most one a publish (%llu)",
	   (unsigned long long)hist.count, (unsigned long long)pubs);
	ok(slot_read(&slot, 0, &v), "the slot reads");
	ok(v.ops > 0 && v.ops <= p.ops && p.ops == 2200000,
	   "on: every operation counted once (%llu of 2200000; the slot's %llu)",
	   (unsigned long long)p.ops, (unsigned long long)v.ops);

	/* A new window: its first publish empties the histogram, so it then holds that one's. */
	before = hist.count;
	atomic_store(&lat_epoch, 2);
	pubs = run(&p, &w, 2000000, 0);
	ok(before >= 2 && hist.count <= pubs + 1,
	   "a new epoch empties the histogram (%llu timed, %llu publishes; %llu before)",
	   (unsigned long long)hist.count, (unsigned long long)pubs, (unsigned long long)before);

	/* A worker of 20 us operations: each batch is short, so many are timed, each at 20 us. */
	wl_pace_init(&p);
	atomic_store(&lat_epoch, 3);
	run(&p, &w, 2000, 20000);
	ok(lathist_percentile(&hist, 50) >= 19000, "20 us operations: p50 %llu ns",
	   (unsigned long long)lathist_percentile(&hist, 50));
	ok(hist.count >= 20, "slow operations: many timed (%llu of 2000)",
	   (unsigned long long)hist.count);

	atomic_store(&lat_on, 0);
	before = hist.count;
	run(&p, &w, 100000, 0);
	ok(hist.count <= before + 1, "off again: at most the one in flight timed (%llu, %llu)",
	   (unsigned long long)hist.count, (unsigned long long)before);
	return done_testing();
}

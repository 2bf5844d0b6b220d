/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The runner's latency, for real, in both modes: workers that sleep 200 us
 * an operation, timed while the monitor says so, merged by the child as it
 * ends; none when the config says no latency.  Waits are bounded only to
 * catch a hang; nothing asserts on how long anything took.
 */
#include "config.h"

#include <time.h>

#include "scaletop/error.h"
#include "scaletop/lathist.h"
#include "scaletop/platform.h"
#include "../../src/engine/runner.h"
#include "../../src/workload/builtin.h"
#include "../tap.h"

#define SEC UINT64_C(1000000000)
#define PATIENCE (60 * SEC)
#define OP_NS 200000L
#define SYNC_NS 5000000L

/* A nap an operation, and every fourth a "sync" of another nap, timed apart. */
static int
nap_work(struct wl_worker *w)
{
	struct timespec ts = { 0, OP_NS }, sync = { 0, SYNC_NS };
	struct wl_pace p;
	uint64_t t0;

	wl_pace_init(&p);
	do {
		nanosleep(&ts, NULL);
		if (p.ops % 4 == 3) {
			t0 = wl_now_ns();
			nanosleep(&sync, NULL);
			wl_pace_sync(&p, w, wl_now_ns() - t0);
		}
	} while (!wl_pace_add(&p, w, 1));
	wl_pace_done(&p, w);
	return 0;
}

static const struct workload wl_nap = {
	.name = "nap", .unit = "ops", .summary = "", .help = "", .work = nap_work
};
static struct wl_args targs;
static struct wl_sweep tsweep;

/* Polls until done or failed, at most PATIENCE. */
static enum runner_state
wait_state(struct runner *r, enum runner_state want)
{
	uint64_t deadline = mono_now_ns() + PATIENCE;
	struct runner_status st;
	struct timespec ts = { 0, 2000000 };

	while (runner_poll(r, &st) != want && st.state != RUNNER_FAILED && mono_now_ns() < deadline)
		nanosleep(&ts, NULL);
	return st.state;
}

static void
test_mode(enum runner_mode mode, bool latency, const char *what)
{
	struct runner_config cfg = { &wl_nap, &targs, &tsweep, 3, mode, SEC, latency };
	struct timespec window = { 0, 300000000 };
	const struct lathist *h;
	char err[ST_ERRLEN];
	struct runner *r = runner_start(&cfg, err, sizeof(err));

	if (!ok(r != NULL, "%s: started (%s)", what, r != NULL ? "" : err))
		return;
	is_int(wait_state(r, RUNNER_RUNNING), RUNNER_RUNNING, "running");
	runner_latency_on(r, true);
	nanosleep(&window, NULL);
	runner_latency_on(r, false);
	ok(runner_latency(r, RUNNER_LAT_OPS) == NULL, "%s: no histogram while the child runs",
	   what);
	runner_stop(r);
	is_int(wait_state(r, RUNNER_DONE), RUNNER_DONE, "done");
	h = runner_latency(r, RUNNER_LAT_OPS);
	if (!latency) {
		ok(h == NULL, "%s: none asked, none kept", what);
	} else if (ok(h != NULL, "%s: merged by the child", what)) {
		/* 3 workers over 0.3 s of 200 us naps: each op is a batch of one or a few. */
		ok(h->count >= 30, "%s: %llu operations timed", what, (unsigned long long)h->count);
		ok(lathist_percentile(h, 50) >= (uint64_t)OP_NS,
		   "%s: p50 %llu ns, at least the nap", what,
		   (unsigned long long)lathist_percentile(h, 50));
		/* One operation in 4 syncs for 5 ms: counted in, p80 would be past 5.2 ms. */
		ok(lathist_percentile(h, 80) < (uint64_t)(OP_NS + SYNC_NS),
		   "%s: p80 %llu ns: the syncs are out of the operations' time", what,
		   (unsigned long long)lathist_percentile(h, 80));
		h = runner_latency(r, RUNNER_LAT_SYNC);
		ok(h != NULL && h->count >= 3 && lathist_percentile(h, 50) >= (uint64_t)SYNC_NS,
		   "%s: syncs apart: %llu timed, p50 %llu ns", what,
		   (unsigned long long)(h != NULL ? h->count : 0),
		   (unsigned long long)(h != NULL ? lathist_percentile(h, 50) : 0));
	}
	runner_free(r);
}

int
main(void)
{
	test_mode(RUNNER_THREADS, true, "threads");
	test_mode(RUNNER_PROCESSES, true, "processes");
	test_mode(RUNNER_THREADS, false, "threads, no latency");
	return done_testing();
}

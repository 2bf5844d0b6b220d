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

static int
nap_work(struct wl_worker *w)
{
	struct timespec ts = { 0, OP_NS };
	struct wl_pace p;

	wl_pace_init(&p);
	do
		nanosleep(&ts, NULL);
	while (!wl_pace_add(&p, w, 1));
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
	ok(runner_latency(r) == NULL, "%s: no histogram while the child runs", what);
	runner_stop(r);
	is_int(wait_state(r, RUNNER_DONE), RUNNER_DONE, "done");
	h = runner_latency(r);
	if (!latency) {
		ok(h == NULL, "%s: none asked, none kept", what);
	} else if (ok(h != NULL, "%s: merged by the child", what)) {
		/* 3 workers over 0.3 s of 200 us naps: each op is a batch of one or a few. */
		ok(h->count >= 30, "%s: %llu operations timed", what, (unsigned long long)h->count);
		ok(lathist_percentile(h, 50) >= (uint64_t)OP_NS,
		   "%s: p50 %llu ns, at least the nap", what,
		   (unsigned long long)lathist_percentile(h, 50));
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

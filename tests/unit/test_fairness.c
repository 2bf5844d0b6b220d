/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fairness across a step's workers: the arithmetic (min, median, max,
 * Jain's index, starved workers), then real sweeps of test workloads: a step
 * in which some workers never complete an operation is a finding and stays
 * ok, with its fairness recorded; only a step in which no worker makes
 * progress, or whose workers stop arriving at the start line, fails on
 * --stall.  Nothing asserts on how long anything took.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/error.h"
#include "scaletop/fairness.h"
#include "scaletop/loop.h"
#include "scaletop/platform.h"
#include "scaletop/session.h"
#include "scaletop/sweep.h"
#include "scaletop/workload.h"
#include "../tap.h"

#define NW 3

/* --- the arithmetic -------------------------------------------------------- */

static void
test_math(void)
{
	const uint64_t even[4] = { 7, 7, 7, 7 }, spread[4] = { 4, 1, 3, 2 };
	const uint64_t one[5] = { 0, 0, 90, 0, 0 }, none[3] = { 0, 0, 0 };
	const uint64_t odd[3] = { 9, 1, 5 }, big[2] = { UINT64_C(1) << 40, UINT64_C(1) << 40 };
	struct fairness f;

	ok(fairness_compute(&f, even, 4) == 0 && f.have, "equal counts: computed");
	is_double(f.jain, 1, 1e-12, "equal counts: Jain's index is 1");
	ok(f.min == 7 && f.max == 7 && f.median == 7 && f.starved == 0 && f.workers == 4,
	   "equal counts: min = median = max, none starved");

	fairness_compute(&f, spread, 4);
	/* (1+2+3+4)^2 / (4 * (1+4+9+16)) = 100 / 120 */
	is_double(f.jain, 100.0 / 120.0, 1e-12, "1..4: Jain's index is 100/120");
	is_double(f.median, 2.5, 0, "1..4: the median of an even count is the middle pair's mean");
	ok(f.min == 1 && f.max == 4, "1..4: min and max, whatever the order given");

	fairness_compute(&f, odd, 3);
	is_double(f.median, 5, 0, "odd count: the median is the middle value");

	fairness_compute(&f, one, 5);
	is_double(f.jain, 1.0 / 5, 1e-12, "one worker did everything: Jain's index is 1/n");
	is_int(f.starved, 4, "one worker did everything: the other four are starved");
	ok(f.min == 0 && f.median == 0 && f.max == 90, "one worker did everything: min 0, max 90");

	fairness_compute(&f, none, 3);
	ok(isnan(f.jain), "no operations at all: Jain's index is undefined (NaN)");
	is_int(f.starved, 3, "no operations at all: every worker is starved");

	fairness_compute(&f, big, 2);
	is_double(f.jain, 1, 1e-12, "counts whose squares overflow 64 bits: still 1");

	ok(fairness_compute(&f, even, 0) == -1 && !f.have, "no workers: refused");
}

/* --- real sweeps ----------------------------------------------------------- */

static void
nap_us(long us)
{
	struct timespec ts = { 0, us * 1000L };

	nanosleep(&ts, NULL);
}

/* Worker 0 counts; the others wait for stop without completing an operation. */
static int
starve_work(struct wl_worker *w)
{
	uint64_t ops = 0;

	while (!wl_should_stop(w)) {
		if (w->index == 0)
			wl_count(w, ++ops, 0, 0);
		else
			nap_us(1000);
	}
	return 0;
}

/* Nobody counts: the whole step is stuck. */
static int
frozen_work(struct wl_worker *w)
{
	while (!wl_should_stop(w))
		nap_us(1000);
	return 0;
}

/* A step set-up that never returns: no worker ever reaches the start line. */
static int
hang_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers, char *err,
	  size_t errlen)
{
	for (;;)
		nap_us(100000);
	return 0;
}

static const struct workload wl_hang = { .name = "hanginit",
					 .unit = "ops",
					 .summary = "",
					 .help = "",
					 .step_init = hang_init,
					 .work = frozen_work };
static const struct workload wl_starve = {
	.name = "starve", .unit = "ops", .summary = "", .help = "", .work = starve_work
};
static const struct workload wl_frozen = {
	.name = "frozen", .unit = "ops", .summary = "", .help = "", .work = frozen_work
};

#define PATIENCE_NS (UINT64_C(60) * 1000000000u) /* only a hang reaches this */

static uint64_t deadline_ns;

/* Ends the loop when the sweep is done, or past the deadline: a sweep that hangs fails. */
static void
on_note(void *arg, enum sweep_note note, int step)
{
	if (note == SWEEP_FINISHED || mono_now_ns() > deadline_ns)
		loop_quit(arg);
}

/* One step of wl at N=NW with a short --stall, into s (free it). */
static bool
sweep_one(const struct workload *wl, struct session *s)
{
	struct sweep_config cfg;
	struct sampler *smp;
	struct loop *l;
	struct sweep *sw = NULL;
	char err[ST_ERRLEN];
	bool done = false;

	memset(&cfg, 0, sizeof(cfg));
	cfg.wl = wl;
	wl_args_defaults(&cfg.args, wl);
	session_init(s);
	snprintf(s->wl.name, sizeof(s->wl.name), "%s", wl->name);
	s->set.n = malloc(sizeof(int));
	s->set.n[0] = NW;
	s->set.nn = 1;
	s->set.repeat = 1;
	s->set.warmup_s = 0.1;
	s->set.duration_s = 2.5;
	s->set.interval_s = 0.1;
	/* Well inside the window: on the old rule a starved worker failed the step. */
	s->set.stall_s = 1.0;
	s->t0_ns = mono_now_ns();
	deadline_ns = s->t0_ns + PATIENCE_NS;
	if ((smp = sampler_open(err, sizeof(err))) == NULL ||
	    (l = loop_new(err, sizeof(err))) == NULL) {
		diag("set-up: %s", err);
		sampler_close(smp);
		return false;
	}
	if ((sw = sweep_new(s, l, smp, &cfg, err, sizeof(err))) != NULL) {
		sweep_set_observer(sw, on_note, l);
		done = sweep_start(sw, err, sizeof(err)) == 0 &&
		       loop_run(l, err, sizeof(err)) == 0 && sweep_finished(sw);
	}
	if (!done)
		diag("%s sweep: %s", wl->name, err);
	sweep_free(sw);
	loop_free(l);
	sampler_close(smp);
	return done && s->nsteps == 1;
}

/*
 * wl_starve's step, tried again (up to 3 times, each logged) while it comes
 * out unstable: worker 0's rate over 0.1 s intervals swings with whatever
 * else runs (the suite's other tests, the sanitizer's cost), and a step too
 * noisy to measure on is not what this test is about.
 */
static bool
starve_sweep(struct session *s)
{
	int try;

	for (try = 1;; try++) {
		if (!sweep_one(&wl_starve, s))
			return false;
		if (s->steps[0].status != STEP_UNSTABLE || try == 3)
			return true;
		diag("try %d: the step came out unstable (%s); trying again", try,
		     s->steps[0].reason);
		session_free(s);
	}
}

static void
test_starved_step(void)
{
	struct session s;
	const struct step *st;

	if (!ok(starve_sweep(&s), "starve: the sweep runs its one step")) {
		session_free(&s);
		return;
	}
	st = &s.steps[0];
	is_str(step_status_names[st->status], "ok", "a step with starved workers is ok");
	ok(st->reason[0] == '\0', "and has no failure reason (%s)", st->reason);
	ok(st->fair.have && st->fair.workers == NW, "its fairness is recorded for %d workers", NW);
	is_int(st->fair.starved, NW - 1, "the workers that never counted are starved");
	ok(st->fair.min == 0 && st->fair.max > 0 && st->fair.max == st->ops,
	   "min 0, max is worker 0's whole window");
	is_double(st->fair.jain, 1.0 / NW, 1e-9, "Jain's index is 1/N: one worker did all");
	session_free(&s);
}

static void
test_frozen_step(void)
{
	struct session s;
	const struct step *st;

	if (!ok(sweep_one(&wl_frozen, &s), "frozen: the sweep runs its one step")) {
		session_free(&s);
		return;
	}
	st = &s.steps[0];
	is_str(step_status_names[st->status], "failed", "a step in which no worker moves fails");
	ok(strstr(st->reason, "no worker made progress") != NULL &&
		   strstr(st->reason, "--stall") != NULL,
	   "the reason says so and names --stall (%s)", st->reason);
	session_free(&s);
}

static void
test_hung_start(void)
{
	struct session s;
	const struct step *st;

	if (!ok(sweep_one(&wl_hang, &s), "hung set-up: the sweep runs its one step")) {
		session_free(&s);
		return;
	}
	st = &s.steps[0];
	is_str(step_status_names[st->status], "failed", "workers that never arrive fail the step");
	ok(strstr(st->reason, "0 of 3 at the start line") != NULL &&
		   strstr(st->reason, "--stall") != NULL,
	   "the reason says how many arrived and names --stall (%s)", st->reason);
	ok(!st->fair.have, "a step that never ran has no fairness");
	session_free(&s);
}

int
main(void)
{
	test_math();
	test_starved_step();
	test_frozen_step();
	test_hung_start();
	return done_testing();
}

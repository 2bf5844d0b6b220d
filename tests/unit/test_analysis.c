/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scaling analysis on hand-made curves: linear, Amdahl, sub-linear and
 * flat after the peak, retrograde with a collapse, a dip inside the CIs,
 * no SMP scaling, a single point, no N = 1 step, repeated runs, failed and
 * unstable steps.  Every verdict is checked word for word.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/session.h"
#include "../tap.h"

/* A step with throughput x and interval CI half-width ci (NaN: no spread). */
static struct step *
add(struct session *s, int n, double x, double ci, enum step_status status)
{
	struct step *st = session_add_step(s, n, 0);

	st->ops_s = x;
	st->status = status;
	st->st.have_spread = !isnan(ci);
	st->st.ci95 = isnan(ci) ? 0 : ci;
	return st;
}

/* A session of one run per N with no CI. */
static void
curve(struct session *s, const char *unit, const char *n_unit, const int *n, const double *x, int k)
{
	int i;

	session_init(s);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "%s", unit);
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "%s", n_unit);
	for (i = 0; i < k; i++)
		add(s, n[i], x[i], NAN, STEP_OK);
}

static void
run(const struct session *s, const struct analysis_opts *o, struct analysis *a)
{
	if (analysis_run(s, o, a) != 0)
		diag("analysis_run failed");
}

static void
test_linear(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 1000, 1990, 3960, 7800, 15200 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 5);
	run(&s, NULL, &a);
	is_int(a.npoints, 5, "linear: 5 points");
	ok(a.have_x1, "linear: X(1) known");
	is_double(a.pts[2].speedup, 3.96, 1e-12, "linear: speedup(4) = X(4)/X(1)");
	is_double(a.pts[3].efficiency, 7800.0 / 8000, 1e-12, "linear: efficiency(8)");
	is_double(a.pts[1].increment, 990, 1e-12, "linear: increment over the previous N");
	ok(isnan(a.pts[0].increment), "linear: the first N has no increment");
	is_int(a.linear_n, 16, "linear: linear range to 16");
	is_int(a.n_peak, 16, "linear: peak at 16");
	ok(!a.collapse && !a.no_smp, "linear: no collapse, SMP scaling");
	is_str(a.verdict, "scales linearly to 16 threads: 15.2x at 16", "linear: verdict");
	analysis_free(&a);
	session_free(&s);
}

/*
 * A super-linear start (pgbench -S here: one client waits out an idle CPU's
 * wake-up for every query, two keep both CPUs awake): efficiency stays far
 * above 1 after the peak, yet throughput falls, which is not scaling.
 */
static void
test_superlinear(void)
{
	static const int n[] = { 1, 2, 4 }, n2[] = { 1, 2 };
	static const double x[] = { 8900, 62600, 57100 }, x2[] = { 8900, 62600 };
	struct session s;
	struct analysis a;

	curve(&s, "transactions", "clients", n, x, 3);
	run(&s, NULL, &a);
	is_int(a.linear_n, 4, "super-linear: efficiency >= 90% to 4");
	is_int(a.n_peak, 2, "super-linear: peak at 2");
	is_str(a.verdict,
	       "scales to 2 clients (efficiency >= 90%), super-linear: 7.0x at 2; "
	       "peak 62.6k transactions/s at 2; 91% of peak at 4",
	       "super-linear then down: verdict");
	analysis_free(&a);
	session_free(&s);

	curve(&s, "transactions", "clients", n2, x2, 2);
	run(&s, NULL, &a);
	is_str(a.verdict,
	       "scales to 2 clients (efficiency >= 90%), super-linear: 7.0x at 2; "
	       "peak 62.6k transactions/s at 2",
	       "super-linear to the end: not called linear");
	analysis_free(&a);
	session_free(&s);
}

static void
test_amdahl(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	double x[5];
	struct session s;
	struct analysis a;
	int i;

	for (i = 0; i < 5; i++) /* Amdahl, 10% serial */
		x[i] = 1000.0 * n[i] / (1 + 0.1 * (n[i] - 1));
	curve(&s, "ops", "threads", n, x, 5);
	run(&s, NULL, &a);
	is_int(a.linear_n, 2, "Amdahl: efficiency >= 90% up to 2");
	is_int(a.n_peak, 16, "Amdahl: still rising at 16");
	ok(!a.collapse, "Amdahl: no collapse");
	is_str(a.verdict, "scales to 2 threads (efficiency >= 90%); peak 6.40k ops/s at 16",
	       "Amdahl: verdict");
	analysis_free(&a);
	session_free(&s);
}

static void
test_sublinear_flat(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 0.8e6, 1.58e6, 2.9e6, 3.1e6, 3.05e6 };
	static const double slow[] = { 1000, 1500, 2500, 3000, 2640 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 5);
	run(&s, NULL, &a);
	is_int(a.linear_n, 4, "sub-linear: efficiency >= 90% up to 4");
	is_int(a.n_peak, 8, "sub-linear: peak at 8");
	is_double(a.last_frac, 3.05 / 3.1, 1e-12, "sub-linear: fraction of peak at 16");
	is_str(a.verdict,
	       "scales to 4 threads (efficiency >= 90%); peak 3.10M ops/s at 8, flat after",
	       "sub-linear, flat after the peak: verdict");
	analysis_free(&a);
	session_free(&s);

	/* sub-linear from the start, then a decline within theta */
	curve(&s, "ops", "threads", n, slow, 5);
	run(&s, NULL, &a);
	is_int(a.linear_n, 1, "sub-linear from 2: only N=1 is efficient");
	ok(!a.no_smp && !a.collapse, "speedup 1.5 at 2 is SMP scaling; 88%% is no collapse");
	is_str(a.verdict,
	       "scales sub-linearly (efficiency < 90% at 2 threads); peak 3.00k ops/s at 8; "
	       "88% of peak at 16",
	       "sub-linear from the start: verdict");
	analysis_free(&a);
	session_free(&s);
}

static void
test_retrograde(void)
{
	static const int n[] = { 1, 2, 3, 4, 8, 16 };
	static const double x[] = { 0.38e6, 0.74e6, 1.1e6, 0.95e6, 0.6e6, 0.451e6 };
	static const double ci[] = { 0.01e6, 0.01e6, 0.02e6, 0.02e6, 0.02e6, 0.01e6 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	snprintf(s.wl.unit, sizeof(s.wl.unit), "writes");
	snprintf(s.wl.n_unit, sizeof(s.wl.n_unit), "writers");
	for (i = 0; i < 6; i++)
		add(&s, n[i], x[i], ci[i], STEP_OK);
	run(&s, NULL, &a);
	is_int(a.n_peak, 3, "retrograde: peak at 3");
	is_double(a.x_peak, 1.1e6, 0, "retrograde: X_peak");
	is_double(a.x_peak_ci, 0.02e6, 1e-9, "retrograde: X_peak has its CI");
	ok(a.collapse, "retrograde: collapse");
	/* 0.95M + 0.02M is above 0.8 (1.1M - 0.02M) = 0.864M; 0.6M + 0.02M is not */
	is_int(a.collapse_n, 8, "retrograde: first collapsed N judged with the CIs");
	is_int(a.last_n, 16, "retrograde: last N");
	is_double(a.last_frac, 0.41, 1e-12, "retrograde: 41% of peak at 16");
	is_str(a.verdict,
	       "collapse above 4: 41% of peak at 16; scales to 3 writers (efficiency >= 90%); "
	       "peak 1.10M writes/s at 3",
	       "retrograde: verdict");
	analysis_free(&a);
	session_free(&s);
}

static void
test_collapse_then_recovery(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 1000, 1950, 3800, 2000, 3500 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 5);
	run(&s, NULL, &a);
	ok(a.collapse && a.collapse_n == 8, "a fall at 8 is a collapse");
	is_str(a.verdict,
	       "collapse above 4: 53% of peak at 8, back to 92% at 16; scales to 4 threads "
	       "(efficiency >= 90%); peak 3.80k ops/s at 4",
	       "collapse with a recovery: both named");
	analysis_free(&a);
	session_free(&s);
}

/*
 * The host's topology reaches the verdict: a collapse above one LLC of 4
 * CPUs names it; the same curve on a host with nothing known does not.
 */
static void
test_boundary(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 1000, 1950, 3800, 2000, 1500 };
	struct topo_unit *u;
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 5);
	s.host.topo.online = s.host.topo.present = 16;
	s.host.topo.llc_level = 3;
	u = &s.host.topo.unit[TOPO_LLC];
	u->count = 4;
	u->cpus = u->min_cpus = u->max_cpus = 4;
	snprintf(u->first, sizeof(u->first), "0-3");
	u = &s.host.topo.unit[TOPO_ALL];
	u->count = 1;
	u->cpus = u->min_cpus = u->max_cpus = 16;
	snprintf(u->first, sizeof(u->first), "0-15");
	run(&s, NULL, &a);
	ok(strncmp(a.verdict, "collapse above 4 = one LLC (cpus 0-3", 36) == 0,
	   "a collapse above one LLC names it: %s", a.verdict);
	analysis_free(&a);
	memset(&s.host.topo, 0, sizeof(s.host.topo));
	run(&s, NULL, &a);
	ok(strncmp(a.verdict, "collapse above 4: ", 18) == 0,
	   "without a topology the verdict is as it was: %s", a.verdict);
	analysis_free(&a);
	session_free(&s);
}

/* The same dip is a collapse or not depending on the CIs. */
static void
test_dip_inside_ci(void)
{
	static const int n[] = { 1, 2, 4, 8 };
	static const double x[] = { 100, 190, 370, 280 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], i == 3 ? 30 : 10, STEP_OK);
	run(&s, NULL, &a);
	/* 280 + 30 = 310 is above 0.8 (370 - 10) = 288 */
	ok(!a.collapse, "a 24%% dip inside the CIs is no collapse");
	is_double(a.last_frac, 280.0 / 370, 1e-12, "dip: fraction of peak at the last N");
	is_str(a.verdict,
	       "scales to 4 threads (efficiency >= 90%); peak 370 ops/s at 4; "
	       "76% of peak at 8, inside the CIs",
	       "dip inside the CIs: verdict says so");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], 2, STEP_OK);
	run(&s, NULL, &a);
	ok(a.collapse && a.collapse_n == 8, "the same dip with tight CIs is a collapse");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], NAN, STEP_OK);
	run(&s, NULL, &a);
	ok(a.collapse, "without CIs the dip is judged on the values");
	ok(isnan(a.x_peak_ci), "without interval spread the peak has no CI");
	analysis_free(&a);
	session_free(&s);
}

static void
test_no_smp(void)
{
	static const int n[] = { 1, 2, 4, 8 };
	static const double flat[] = { 1000, 1020, 1010, 990 };
	static const double fall[] = { 1000, 1020, 500, 400 };
	static const double late[] = { 1000, 1050, 3000, 3100 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, flat, 4);
	run(&s, NULL, &a);
	ok(a.no_smp, "flat: no SMP scaling");
	is_int(a.linear_n, 1, "flat: linear range is N=1 alone");
	ok(!a.collapse, "flat: no collapse");
	is_str(a.verdict, "does not scale beyond 1 thread: speedup 1.02 at 2", "flat: verdict");
	analysis_free(&a);
	session_free(&s);

	curve(&s, "ops", "processes", n, fall, 4);
	run(&s, NULL, &a);
	is_str(a.verdict,
	       "collapse above 2: 39% of peak at 8; flat from 1 to 2 processes (speedup 1.02 at "
	       "2); "
	       "peak 1.02k ops/s at 2",
	       "flat then falling: the collapse heads, the flat start is its detail");
	analysis_free(&a);
	session_free(&s);

	curve(&s, "ops", "threads", n, late, 4);
	run(&s, NULL, &a);
	ok(a.no_smp, "speedup 1.05 at 2 is flagged as no SMP scaling");
	is_str(a.verdict,
	       "scales sub-linearly (efficiency < 90% at 2 threads); peak 3.10k ops/s at 8",
	       "but a later gain is not hidden by the no-scaling sentence");
	analysis_free(&a);
	session_free(&s);
}

static void
test_few_points(void)
{
	struct session s;
	struct analysis a;

	session_init(&s);
	run(&s, NULL, &a);
	is_int(a.npoints, 0, "empty session: no points");
	ok(a.pts == NULL && !a.usl.ok, "empty session: no points, no fit");
	is_str(a.verdict, "no usable steps", "empty session: verdict");
	analysis_free(&a);

	add(&s, 4, 5000, 50, STEP_OK);
	add(&s, 8, 9000, 50, STEP_FAILED);
	run(&s, NULL, &a);
	is_int(a.npoints, 1, "single point: one point (the failed step is left out)");
	is_int(a.n_peak, 4, "single point: it is the peak");
	ok(!a.have_x1 && isnan(a.pts[0].speedup), "single point at 4: no speedup");
	is_str(a.verdict, "one point only: 5.00k ops/s at 4 threads", "single point: verdict");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	add(&s, 1, 5000, 50, STEP_OK);
	run(&s, NULL, &a);
	is_str(a.verdict, "one point only: 5.00k ops/s at 1 thread", "single point at N=1");
	is_int(a.linear_n, 1, "single point at N=1: efficiency 1");
	analysis_free(&a);
	session_free(&s);
}

static void
test_no_x1(void)
{
	static const int n[] = { 2, 4, 8, 16 };
	static const double x[] = { 2000, 3900, 7000, 6800 };
	static const double none[] = { 2000, 2010, 1990, 1500 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 4);
	run(&s, NULL, &a);
	ok(!a.have_x1 && isnan(a.x1), "no N=1: X(1) unknown");
	ok(isnan(a.pts[1].speedup) && isnan(a.pts[1].efficiency), "no N=1: speedup is NaN");
	is_double(a.pts[1].increment, 1900, 1e-12, "no N=1: increments still known");
	ok(a.linear_n == 0 && !a.no_smp, "no N=1: no linear range, no no-SMP claim");
	is_str(a.verdict,
	       "no N=1 step; 3.50x from 2 to 8 threads (ideal 4x); peak 7.00k ops/s at 8, "
	       "flat after",
	       "no N=1: verdict from the smallest N");
	analysis_free(&a);
	session_free(&s);

	curve(&s, "ops", "threads", n, none, 4);
	run(&s, NULL, &a);
	is_str(a.verdict,
	       "collapse above 8: 75% of peak at 16; no N=1 step; no gain beyond 2 threads; "
	       "peak 2.01k ops/s at 4",
	       "no N=1 and no gain: verdict");
	analysis_free(&a);
	session_free(&s);
}

/* Repeated runs are pooled: the mean, and the wider of the two CIs. */
static void
test_pooling(void)
{
	struct session s;
	struct analysis a;

	session_init(&s);
	add(&s, 1, 100, 4, STEP_OK);
	add(&s, 1, 120, 6, STEP_OK);
	add(&s, 2, 200, 30, STEP_OK);
	add(&s, 2, 201, 40, STEP_OK);
	add(&s, 2, 199, 0, STEP_OK);
	add(&s, 4, 390, NAN, STEP_OK);
	add(&s, 4, 410, 5, STEP_OK);
	add(&s, 8, 700, NAN, STEP_OK);
	run(&s, NULL, &a);
	is_int(a.npoints, 4, "pooling: 4 distinct N");
	is_int(a.pts[0].runs, 2, "pooling: 2 runs at N=1");
	is_double(a.pts[0].x, 110, 1e-12, "pooling: X is the mean of the runs");
	/* runs 100 and 120: sd 14.142, t95(1) = 12.706: 12.706 * 14.142 / sqrt(2) */
	is_double(a.pts[0].ci, 127.062, 0.001, "pooling: run-to-run spread wins");
	/* runs 200, 201, 199 agree; their intervals do not: sqrt(30^2 + 40^2) / 3 */
	is_double(a.pts[1].ci, 50.0 / 3, 1e-9, "pooling: within-run intervals win");
	/* one run without spread: only the between-run interval, t95(1) * 10 */
	is_double(a.pts[2].ci, 127.062, 0.001, "pooling: a run without spread adds nothing");
	ok(isnan(a.pts[3].ci), "pooling: one run without spread has no CI");
	is_double(a.pts[1].speedup, 200.0 / 110, 1e-12, "pooling: speedup of pooled values");
	/* N=1: runs 20 apart with CIs of 4 and 6; N=2 agrees; N=4 lacks a CI */
	is_int(analysis_repeat_drift(&a), 1, "drift: the repeats at N=1 differ beyond their CIs");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	add(&s, 1, 100, 4, STEP_OK);
	add(&s, 1, 103, 4, STEP_OK); /* between 19.1 (t95(1) = 12.7), within 2.8: ratio 6.7 */
	add(&s, 2, 200, 8, STEP_OK);
	add(&s, 2, 201, 8, STEP_OK);
	add(&s, 4, 300, 2, STEP_OK);
	add(&s, 4, 320, 2, STEP_OK); /* ratio 90: the worst */
	run(&s, NULL, &a);
	is_int(analysis_repeat_drift(&a), 4, "drift: the N where runs disagree most");
	analysis_free(&a);
	session_free(&s);

	session_init(&s);
	add(&s, 1, 100, 40, STEP_OK);
	add(&s, 1, 103, 40, STEP_OK);
	add(&s, 2, 200, NAN, STEP_OK);
	run(&s, NULL, &a);
	is_int(analysis_repeat_drift(&a), 0, "drift: none where runs agree within their CIs");
	analysis_free(&a);
	session_free(&s);
}

static void
test_status(void)
{
	static const int n[] = { 1, 2, 4, 8 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], 1000.0 * n[i] * (i < 2 ? 1 : 0.7), 1, STEP_OK);
	add(&s, 16, 99999, 1, STEP_FAILED);
	add(&s, 16, 99999, 1, STEP_INTERRUPTED);
	add(&s, 16, 99999, 1, STEP_RUNNING);
	add(&s, 32, 0, 1, STEP_OK);
	add(&s, 8, 5700, 1, STEP_UNSTABLE); /* pooled with the ok run at 8 */
	run(&s, NULL, &a);
	is_int(a.npoints, 4, "failed, interrupted, running and empty steps are left out");
	is_int(a.pts[3].runs, 2, "an unstable run is pooled");
	is_int(a.n_peak, 8, "peak at 8");
	is_str(a.verdict,
	       "scales to 2 threads (efficiency >= 90%); peak 5.65k ops/s at 8 (unstable)",
	       "an unstable peak is named as such");
	analysis_free(&a);
	s.steps[s.nsteps - 1].ops_s = 8000; /* two runs 5.6k and 8k: +-224% between them */
	run(&s, NULL, &a);
	is_str(a.verdict,
	       "scales to 2 threads (efficiency >= 90%); peak 6.80k ops/s at 8 (uncertain: CI "
	       "+-224%)",
	       "a peak whose runs disagree that much is uncertain, which says more");
	analysis_free(&a);
	session_free(&s);
}

/*
 * One uncertain point cannot hide an evident fall: a tas spinlock on 2 CPUs
 * whose peak step at N = 2 has a CI five times its mean (other load on the
 * machine).  The bar comes from the best lower bound of any point (N = 1
 * here), so the fall to 13% at 16 is still a collapse, and the verdict says
 * the peak is uncertain.
 */
static void
test_uncertain_peak(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 9.0e6, 10.0e6, 4.0e6, 2.5e6, 1.3e6 };
	static const double ci[] = { 0.1e6, 50e6, 0.2e6, 0.1e6, 0.1e6 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	for (i = 0; i < 5; i++)
		add(&s, n[i], x[i], ci[i], STEP_OK);
	run(&s, NULL, &a);
	ok(a.peak_uncertain, "uncertain peak: flagged");
	is_int(a.n_ref, 1, "uncertain peak: the best lower bound is N=1's");
	is_double(a.x_ref_lb, 8.9e6, 1e-6, "uncertain peak: and it is X(1) - ci(1)");
	ok(a.collapse && a.collapse_n == 4, "uncertain peak: the fall at 4 is a collapse");
	is_str(a.verdict,
	       "collapse above 2: 13% of peak at 16; scales sub-linearly (efficiency < 90% at 2 "
	       "threads); peak 10.0M ops/s at 2 (uncertain: CI +-500%)",
	       "uncertain peak: the verdict names it and the collapse");
	analysis_free(&a);
	session_free(&s);

	/* No gain at 2 either: the other sentence, with the same two facts. */
	session_init(&s);
	for (i = 0; i < 5; i++)
		add(&s, n[i], i == 1 ? 9.5e6 : x[i], i == 1 ? 47.5e6 : ci[i], STEP_OK);
	run(&s, NULL, &a);
	is_str(a.verdict,
	       "collapse above 2: 14% of peak at 16; flat from 1 to 2 threads (speedup 1.06 at 2); "
	       "peak 9.50M ops/s at 2 (uncertain: CI +-500%)",
	       "uncertain peak without SMP gain: both named");
	analysis_free(&a);
	session_free(&s);

	/* A lower bound below zero is no level at all: the bar never goes negative. */
	session_init(&s);
	add(&s, 1, 100, 500, STEP_OK);
	add(&s, 2, 150, 600, STEP_OK);
	run(&s, NULL, &a);
	is_double(a.x_ref_lb, 0, 0, "every bound below zero: the level is 0");
	ok(!a.collapse, "and nothing collapses below it");
	analysis_free(&a);
	session_free(&s);
}

static void
test_options(void)
{
	static const int n[] = { 1, 2, 3, 4, 8, 16 };
	static const double x[] = { 0.38e6, 0.74e6, 1.1e6, 0.95e6, 0.6e6, 0.451e6 };
	struct analysis_opts o;
	struct session s;
	struct analysis a;

	analysis_opts_default(&o);
	is_double(o.efficiency_min, 0.9, 0, "default efficiency threshold 0.9");
	is_double(o.collapse_theta, 0.2, 0, "default collapse theta 0.2");

	curve(&s, "ops", "", n, x, 6);
	o.collapse_theta = 0.6; /* --collapse 60 */
	o.efficiency_min = 0.6;
	o.n_unit = "clients";
	run(&s, &o, &a);
	ok(!a.collapse, "theta 0.6: 41%% of peak is no collapse");
	is_int(a.linear_n, 4, "efficiency 0.6: linear range to 4 (62.5%% there)");
	analysis_free(&a);

	o.efficiency_min = 0.9;
	o.collapse_theta = 0.5;
	run(&s, &o, &a);
	ok(a.collapse && a.collapse_n == 16, "theta 0.5: collapse first at 16");
	ok(strstr(a.verdict, "3 clients") != NULL, "n_unit from the options: %s", a.verdict);
	analysis_free(&a);

	o.collapse_theta = 1.5;
	o.efficiency_min = -1;
	o.n_unit = NULL;
	run(&s, &o, &a);
	ok(a.collapse && a.collapse_n == 8 && a.linear_n == 3, "out-of-range options: defaults");
	ok(strstr(a.verdict, "3 threads") != NULL, "no n_unit anywhere: threads");
	analysis_free(&a);

	s.set.mode = MODE_PROCESSES;
	run(&s, NULL, &a);
	ok(strstr(a.verdict, "3 processes") != NULL, "no n_unit, process mode: processes");
	analysis_free(&a);
	session_free(&s);
}

static void
test_usl_in_analysis(void)
{
	static const int n[] = { 1, 2, 4, 6, 8, 10 };
	static const double x[] = { 1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557 };
	struct session s;
	struct analysis a;

	curve(&s, "ops", "threads", n, x, 6);
	add(&s, 10, 3.3557, NAN, STEP_OK); /* a repeat: pooled, not fitted twice */
	run(&s, NULL, &a);
	ok(a.usl.ok && a.usl.npoints == 6, "the USL is fitted to the 6 pooled points");
	is_double(a.usl.sigma, 0.02, 0.00005, "the USL sigma of the R synthetic set");
	analysis_free(&a);
	session_free(&s);

	curve(&s, "ops", "threads", n, x, 3);
	run(&s, NULL, &a);
	ok(!a.usl.ok && a.usl.why[0] != '\0', "3 points: no USL fit (%s)", a.usl.why);
	analysis_free(&a);
	session_free(&s);
}

int
main(void)
{
	test_linear();
	test_superlinear();
	test_amdahl();
	test_sublinear_flat();
	test_retrograde();
	test_collapse_then_recovery();
	test_boundary();
	test_dip_inside_ci();
	test_no_smp();
	test_few_points();
	test_no_x1();
	test_pooling();
	test_status();
	test_uncertain_peak();
	test_options();
	test_usl_in_analysis();
	return done_testing();
}

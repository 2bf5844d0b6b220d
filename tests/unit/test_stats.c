/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interval statistics.  Student's t is checked against the published
 * two-sided 95% table (3 decimals, as printed in every statistics text) and
 * against closed forms; the statistics against hand-checkable sets and the
 * interval rates recorded in the sysbench and pgbench fixtures.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/stats.h"
#include "../tap.h"

/* t(0.975, df) for df = 1..30, as published. */
static const double t_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static void
test_t_table(void)
{
	char name[64];
	unsigned long df;
	int mono = 1;

	for (df = 1; df <= 30; df++) {
		snprintf(name, sizeof(name), "t95(%lu) matches the table to 3 decimals", df);
		is_double(stats_t95(df), t_table[df - 1], 0.0005, name);
	}
	is_double(stats_t95(40), 2.021, 0.0005, "t95(40)");
	is_double(stats_t95(60), 2.000, 0.0005, "t95(60)");
	is_double(stats_t95(120), 1.980, 0.0005, "t95(120)");
	is_double(stats_t95(500), 1.964720, 1e-6, "t95(500)");
	is_double(stats_t95(1000), 1.962339, 1e-6, "t95(1000)");
	is_double(stats_t95(1000000000UL), 1.959964, 1e-6, "t95 tends to the normal 1.959964");
	is_double(stats_t95(0), 0, 0, "t95(0) is 0: no interval");

	/* Closed forms: df=1 is Cauchy, t = tan(0.95 pi/2); df=2, t = p sqrt(2/(1-p^2)). */
	is_double(stats_t95(1), tan(0.475 * 3.14159265358979323846), 1e-12, "t95(1) exact");
	is_double(stats_t95(2), 0.95 * sqrt(2 / (1 - 0.95 * 0.95)), 1e-12, "t95(2) exact");

	for (df = 1; df < 2000; df++)
		mono &= stats_t95(df + 1) < stats_t95(df) && stats_t95(df) > 1.959963;
	ok(mono, "t95 falls strictly towards 1.96 for df 1..2000");
	/* Where the exact series hands over to the expansion there must be no step. */
	ok(fabs((stats_t95(299) - stats_t95(300)) - (stats_t95(301) - stats_t95(302))) < 1e-6,
	   "no step at the exact/expansion boundary");
}

static void
test_empty_and_one(void)
{
	struct stats st;
	double one = 5790.62;

	is_int(stats_compute(&st, NULL, 0), 0, "n = 0 is valid");
	ok(st.n == 0 && st.mean == 0 && st.median == 0 && st.stddev == 0 && st.ci95 == 0 &&
		   !st.have_spread,
	   "n = 0: all zero, no spread");
	ok(!stats_is_stable(&st, 5), "n = 0 is never stable");

	is_int(stats_compute(&st, &one, 1), 0, "n = 1 is valid");
	ok(st.n == 1 && st.mean == one && st.median == one && st.min == one && st.max == one,
	   "n = 1: mean, median, min, max are the sample");
	ok(st.stddev == 0 && st.ci95 == 0 && !st.have_spread, "n = 1: no spread, no CI, no NaN");
	ok(!stats_is_stable(&st, 50), "n = 1 is never stable");
}

static void
test_known_set(void)
{
	const double x[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	double copy[8];
	struct stats st;

	memcpy(copy, x, sizeof(x));
	is_int(stats_compute(&st, copy, 8), 0, "8 samples");
	ok(memcmp(copy, x, sizeof(x)) == 0, "the samples are left in their order");
	is_int((long long)st.n, 8, "n");
	is_double(st.mean, 5, 1e-12, "mean");
	is_double(st.median, 4.5, 0, "median of an even count: mean of the middle two");
	is_double(st.min, 2, 0, "min");
	is_double(st.max, 9, 0, "max");
	is_double(st.stddev, sqrt(32.0 / 7), 1e-12, "sample stddev uses n - 1");
	is_double(st.ci95, 2.364624 * sqrt(32.0 / 7) / sqrt(8), 1e-5, "ci95 = t(7) s / sqrt(n)");
	ok(st.have_spread, "spread known");
}

/* The interval rates of the recorded sysbench cpu and pgbench runs. */
static void
test_recorded_rates(void)
{
	const double eps[] = { 5790.62, 5813.77, 5821.07 };
	const double tps[] = { 2157.8, 2646.0, 1957.1, 1841.8 };
	struct stats st;

	stats_compute(&st, eps, 3);
	is_double(st.mean, 5808.486666666667, 1e-9, "sysbench cpu: mean eps");
	is_double(st.median, 5813.77, 0, "sysbench cpu: median");
	is_double(st.stddev, 15.897667543804467, 1e-9, "sysbench cpu: stddev");
	is_double(st.ci95, 39.4919954744, 1e-8, "sysbench cpu: ci95 with t(2) = 4.303");
	ok(stats_is_stable(&st, 1), "sysbench cpu: CI 0.68%% of the mean is stable at 1%%");
	ok(!stats_is_stable(&st, 0.5), "... but not at 0.5%%");

	stats_compute(&st, tps, 4);
	is_double(st.mean, 2150.675, 1e-9, "pgbench: mean tps");
	is_double(st.median, 2057.45, 1e-9, "pgbench: median");
	is_double(st.min, 1841.8, 0, "pgbench: min");
	is_double(st.max, 2646.0, 0, "pgbench: max");
	is_double(st.stddev, 355.0927895165807, 1e-9, "pgbench: stddev");
	is_double(st.ci95, 565.031868015, 1e-8, "pgbench: ci95 with t(3) = 3.182");
	ok(!stats_is_stable(&st, 20) && stats_is_stable(&st, 27),
	   "pgbench: CI 26.3%% of the mean: unstable at 20%%, stable at 27%%");
}

static void
test_numerics(void)
{
	const double shifted[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	const double same[] = { 5790.62, 5790.62, 5790.62, 5790.62, 5790.62 };
	const double huge[] = { DBL_MAX, -DBL_MAX };
	double bad[] = { 1, 2, 3 };
	struct stats st;

	stats_compute(&st, shifted, 4);
	is_double(st.stddev, sqrt(30), 1e-6, "large offset: variance 30 is not lost to rounding");
	is_double(st.mean, 1e9 + 10, 1e-6, "large offset: mean");

	stats_compute(&st, same, 5);
	ok(st.mean == 5790.62 && st.stddev == 0 && st.ci95 == 0,
	   "constant series: exact, no spread");
	ok(st.have_spread && stats_is_stable(&st, 0.001), "constant series is stable");

	bad[1] = NAN;
	is_int(stats_compute(&st, bad, 3), -1, "NaN sample refused");
	ok(st.n == 0 && st.mean == 0 && !st.have_spread, "... and the result zeroed");
	bad[1] = INFINITY;
	is_int(stats_compute(&st, bad, 3), -1, "infinite sample refused");
	is_int(stats_compute(&st, huge, 2), -1, "samples whose spread overflows are refused");
	ok(!isnan(st.mean) && !isnan(st.stddev) && !isnan(st.ci95), "... without NaN");
}

/*
 * Throughput that comes in runs (a lock changing hands rarely): the same
 * values alternating would give the same iid CI, but in two long runs they
 * are worth far fewer independent samples, so stability must wait.
 */
static void
test_autocorrelated(void)
{
	int i;
	double runs[40], alt[40];
	struct stats a, b;

	for (i = 0; i < 40; i++) {
		runs[i] = i < 20 ? 100 : 104;
		alt[i] = i % 2 ? 104 : 100;
	}
	stats_compute(&a, runs, 40);
	stats_compute(&b, alt, 40);
	is_double(a.ci95, b.ci95, 1e-12, "the iid CI ignores order");
	is_double(b.ci95_ac, b.ci95, 1e-12, "alternating samples (r < 0) keep the iid CI");
	ok(a.ci95_ac > 3 * a.ci95, "two long runs widen the CI (%.3f vs %.3f)", a.ci95_ac, a.ci95);
	ok(stats_is_stable(&b, 1.0) && !stats_is_stable(&a, 1.0),
	   "so the same values in runs are not yet stable at 1%%");
	is_double(stats_ci(&a), a.ci95_ac, 0, "the CI to report is the widened one");

	/* Stats read from a file without ci95_ac: recomputed from the samples. */
	double kept = a.ci95_ac;
	a.ci95_ac = 0;
	stats_fill_ci95_ac(&a, runs, 40);
	is_double(a.ci95_ac, kept, 1e-9, "fill: recomputed from the samples");
	a.ci95_ac = 0;
	stats_fill_ci95_ac(&a, runs, 39);
	is_double(a.ci95_ac, a.ci95, 0, "fill: samples that are not the stats' own: ci95");
	a.ci95_ac = 0;
	is_double(stats_ci(&a), a.ci95, 0, "stats_ci: never below ci95 (imported figures)");
}

static void
test_is_stable(void)
{
	struct stats st;

	memset(&st, 0, sizeof(st));
	st.n = 10;
	st.mean = 100;
	st.ci95 = st.ci95_ac = 5;
	st.have_spread = true;
	ok(stats_is_stable(&st, 5), "CI 5%% of the mean is stable at 5%% (<=)");
	ok(!stats_is_stable(&st, 4.99), "... not at 4.99%%");
	ok(!stats_is_stable(&st, 0), "pct 0 is never met");
	ok(!stats_is_stable(&st, -5), "negative pct is never met");
	ok(!stats_is_stable(&st, NAN), "NaN pct is never met");
	st.mean = 0;
	ok(!stats_is_stable(&st, 50), "a zero mean is never stable");
	st.mean = -100;
	ok(!stats_is_stable(&st, 50), "a negative mean is never stable");
}

/* Wide: the mean is not known, so a fixed step measures on and is unstable if it stays so. */
static void
test_is_wide(void)
{
	static const double zeros[] = { 0, 0, 0, 0, 0 };
	static const double spread[] = { 10, 100, 1, 200, 5 };
	static const double tight[] = { 100, 101, 99, 100, 102 };
	struct stats st;

	ok(stats_compute(&st, zeros, 5) == 0 && stats_is_wide(&st),
	   "intervals that counted nothing are wide: no rate is known");
	ok(stats_compute(&st, spread, 5) == 0 && stats_is_wide(&st),
	   "a CI wider than the mean is wide");
	ok(stats_compute(&st, tight, 5) == 0 && !stats_is_wide(&st), "a tight CI is not wide");
	ok(stats_compute(&st, zeros, 1) == 0 && !stats_is_wide(&st),
	   "one interval, no spread: not judged");
}

int
main(void)
{
	test_t_table();
	test_empty_and_one();
	test_known_set();
	test_recorded_rates();
	test_numerics();
	test_is_stable();
	test_is_wide();
	test_autocorrelated();
	return done_testing();
}

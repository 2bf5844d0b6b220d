/*
 * compare's statistics: Welch's t against a published example (checked with
 * python3's statistics module), the sides' standard errors from intervals
 * (the autocorrelation-corrected size) and from repeats, the geometric mean
 * and its CI, the noise floor, and what has no test: one interval, zero
 * variance, NaN, a missing N.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/compare_stats.h"
#include "scaletop/session.h"
#include "scaletop/stats.h"
#include "../tap.h"

/* The example of Welch's test in Wikipedia's article (its "Example 1" pair). */
static const double wel_a[15] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				  21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
static const double wel_b[15] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				  24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };

static struct cmp_side
side(double mean, double se, double df, int runs)
{
	struct cmp_side x;

	x.runs = runs;
	x.mean = mean;
	x.se = se;
	x.df = df;
	x.unit = runs >= 2 ? CMP_UNIT_RUNS : CMP_UNIT_INTERVALS;
	return x;
}

/* A usable step at n of throughput x, with intervals iv[0..k-1]. */
static struct step *
add(struct session *s, int n, int rep, double x, const double *iv, int k)
{
	struct step *st = session_add_step(s, n, rep);
	int i;

	st->ops_s = x;
	st->status = STEP_OK;
	for (i = 0; i < k; i++)
		step_add_interval(st, iv[i]);
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	return st;
}

static void
test_welch_known(void)
{
	struct cmp_side a = side(20.82, 2.804893682731767 / sqrt(15), 14, 1);
	struct cmp_side b = side(22.986666666666668, 1.952605097470215 / sqrt(15), 14, 1);
	struct cmp_diff d;

	cmp_welch(&a, &b, 5, &d);
	ok(d.tested, "Welch: both sides known are tested");
	is_double(d.df, 24.98852929023142, 1e-9, "Welch-Satterthwaite df is 24.99 (python3)");
	is_double(d.pct, 10.40666026256805, 1e-9, "B - A is +10.41% of A");
	/* t95(24) = 2.064: the df floored from 24.99, as stats_t95 takes an integer. */
	is_double(d.ci_pct, 100 * stats_t95(24) * sqrt(a.se * a.se + b.se * b.se) / a.mean, 1e-12,
		  "the CI uses t95 of the floored df");
	is_double(d.ci_pct, 8.748, 0.001, "  +-8.75% of A (t = -2.46, p = 0.021)");
	is_double(d.ratio, 22.986666666666668 / 20.82, 1e-12, "ratio is B/A");
	ok(d.welch && d.significant, "significant at 95%% and above a 5%% floor");
	cmp_welch(&a, &b, 15, &d);
	ok(d.welch && !d.significant, "  not above a 15%% floor: no difference proven");
	cmp_welch(&b, &a, 5, &d);
	ok(d.pct < 0 && d.significant, "the other way round: negative, still significant");
}

static void
test_sides_from_steps(void)
{
	struct session s;
	struct cmp_side x;
	static const double wave[16] = { 1, 2, 3, 4, 4, 3, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1 };
	double up[16], alt[16];
	int i;

	for (i = 0; i < 16; i++) {
		up[i] = i + 1;
		alt[i] = i % 2 ? 110 : 90;
	}
	session_init(&s);
	add(&s, 1, 0, 8.5, up, 16);
	add(&s, 3, 0, 2.5, wave, 16);
	add(&s, 2, 0, 100, alt, 16);
	add(&s, 4, 0, 100, wel_a, 1);
	add(&s, 8, 0, 100, NULL, 0)->ops_s = 110;
	add(&s, 8, 1, 120, NULL, 0);
	add(&s, 8, 2, 130, NULL, 0);
	add(&s, 8, 3, 0, NULL, 0)->status = STEP_FAILED;
	add(&s, 16, 0, NAN, wel_b, 15);

	is_int(cmp_side_at(&s, 1, &x), 1, "one run at N=1");
	ok(x.unit == CMP_UNIT_INTERVALS, "  its intervals are the unit");
	/* 1..16 has lag-1 r = 0.8125, neff 16 (1-r)/(1+r) = 1.66, clamped to 2 as stats.c does. */
	is_double(x.se, 4.760952285695233 / sqrt(2), 1e-9, "  se = sd / sqrt(neff), neff 2");
	is_double(x.df, 1, 0, "  df = neff - 1");
	is_double(x.mean, 8.5, 0, "  the mean is the step's ops_s, as the table's");
	cmp_side_at(&s, 2, &x);
	is_double(x.df, 15, 0, "alternating intervals (r < 0) are worth all 16 samples: df 15");
	is_double(x.se, sqrt(16.0 / 15.0) * 10 / 4, 1e-9, "  se = sd / sqrt(16)");

	/* r = 0.5875 (python3): neff = 16 (1 - r) / (1 + r) = 4.157 */
	cmp_side_at(&s, 3, &x);
	is_double(x.df, 16 * (1 - 0.5875) / (1 + 0.5875) - 1, 1e-9,
		  "a wave, r 0.5875: df = neff - 1");
	is_double(x.se, 1.1547005383792515 / sqrt(16 * 0.4125 / 1.5875), 1e-9,
		  "  se = sd / sqrt(4.157)");
	cmp_side_at(&s, 4, &x);
	ok(x.runs == 1 && x.unit == CMP_UNIT_NONE && isnan(x.se), "one interval: no se");
	is_int(cmp_side_at(&s, 8, &x), 3, "three usable runs at N=8 (a failed one left out)");
	ok(x.unit == CMP_UNIT_RUNS, "  the runs' means are the unit");
	is_double(x.mean, 120, 1e-12, "  mean of the runs");
	is_double(x.se, 10 / sqrt(3), 1e-12, "  se = sd(run means) / sqrt(r)");
	is_double(x.df, 2, 0, "  df = r - 1");
	is_int(cmp_side_at(&s, 16, &x), 0, "a NaN throughput is not usable");
	is_int(cmp_side_at(&s, 32, &x), 0, "a missing N has no run");
	ok(isnan(x.mean) && isnan(x.se), "  and no figures");
	session_free(&s);
}

static void
test_mixed_and_degenerate(void)
{
	struct cmp_side one = side(100, 2, 9, 1), runs = side(80, 3, 2, 3), none, zero_a, zero_b;
	struct cmp_diff d;

	cmp_welch(&one, &runs, 5, &d);
	/* (4 + 9)^2 / (16/9 + 81/2) = 3.997 */
	is_double(d.df, 169 / (16.0 / 9 + 81.0 / 2), 1e-9, "intervals against runs: Welch's df");
	is_double(d.ci_pct, 100 * stats_t95(3) * sqrt(13) / 100, 1e-9, "  t95 of df 3 (floored)");
	ok(d.significant && fabs(d.pct + 20) < 1e-12, "  -20%% is significant");

	none = side(100, NAN, NAN, 1);
	cmp_welch(&none, &runs, 5, &d);
	ok(!d.tested && !d.significant && fabs(d.ratio - 0.8) < 1e-12,
	   "a side without se: a ratio, no test");
	none = side(NAN, NAN, NAN, 0);
	cmp_welch(&one, &none, 5, &d);
	ok(!d.tested && isnan(d.ratio) && isnan(d.pct), "a missing side: no ratio, no test");
	none = side(0, 0, 5, 1);
	cmp_welch(&none, &one, 5, &d);
	ok(!d.tested && isnan(d.ratio), "A's mean 0: nothing to take a %% of");

	zero_a = side(100, 0, 4, 1);
	zero_b = side(100, 0, 4, 1);
	cmp_welch(&zero_a, &zero_b, 0, &d);
	ok(d.tested && isinf(d.df) && d.ci_pct == 0 && !d.welch,
	   "zero variance, same means: no difference");
	zero_b.mean = 110;
	cmp_welch(&zero_a, &zero_b, 5, &d);
	ok(d.welch && d.significant, "zero variance, means 10%% apart: a difference");
	zero_b.mean = 103;
	cmp_welch(&zero_a, &zero_b, 5, &d);
	ok(d.welch && !d.significant, "  3%% apart: exact, yet under the 5%% floor");
}

static void
test_noise_floor(void)
{
	struct cmp_side a = side(1000, 1, 30, 1), b = side(970, 1, 30, 1);
	struct cmp_diff d;

	cmp_welch(&a, &b, 0, &d);
	ok(d.welch && d.significant, "-3%% with +-0.3%% CIs: Welch alone calls it significant");
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.welch && !d.significant, "  under the default floor it is no difference proven");
	b.mean = 940;
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.significant, "  -6%% is above it");
	b.mean = 940;
	b.se = 40;
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(!d.welch && !d.significant, "  -6%% inside a +-8%% CI is not");
}

static void
test_geomean(void)
{
	struct cmp_side a[4], b[4];
	int n[4] = { 1, 2, 4, 8 }, i;
	struct cmp_geomean g;
	double se = sqrt(6e-4) / 3;

	for (i = 0; i < 3; i++) {
		a[i] = side(100, 1, 10, 1);
		b[i] = side(50, 0.5, 10, 1);
	}
	a[3] = side(100, NAN, NAN, 1); /* not tested: left out */
	b[3] = side(10, 1, 10, 1);
	cmp_geomean(a, b, n, 4, COMPARE_NOISE_DEFAULT, &g);
	is_int(g.k, 3, "geomean over the 3 N both were tested at");
	ok(g.n_lo == 1 && g.n_hi == 4, "  N=1..4");
	is_double(g.ratio, 0.5, 1e-12, "  of 0.5x at each: 0.5x");
	/* each ln X has variance 1e-4, the mean of 3 differences (6e-4)/9; df (6e-4)^2/6e-9 = 60 */
	is_double(g.df, 60, 1e-9, "  Satterthwaite's df over the six sides: 60");
	is_double(g.lo, 0.5 * exp(-stats_t95(60) * se), 1e-12,
		  "  the CI's bottom, exp(mean ln - t se)");
	is_double(g.hi, 0.5 * exp(stats_t95(60) * se), 1e-12, "  and top");
	is_double(g.lo, 0.4919001, 1e-6, "  0.4919 .. (python3)");
	is_double(g.hi, 0.5082332, 1e-6, "  .. 0.5082");
	ok(g.significant, "  significant");

	b[0] = side(80, 0.8, 10, 1);
	b[1] = side(125, 1.25, 10, 1);
	cmp_geomean(a, b, n, 2, COMPARE_NOISE_DEFAULT, &g);
	is_double(g.ratio, 1, 1e-12, "0.8x and 1.25x: geomean 1");
	ok(g.lo < 1 && g.hi > 1 && !g.significant, "  no difference proven");
	a[0] = side(100, 0, 4, 1);
	b[0] = side(100, 0, 4, 1);
	cmp_geomean(a, b, n, 1, 0, &g);
	ok(g.k == 1 && g.lo == 1 && g.hi == 1 && !g.significant,
	   "zero variance, equal: 1x exactly");
	cmp_geomean(a + 3, b + 3, n, 1, 0, &g);
	ok(g.k == 0 && isnan(g.ratio) && !g.significant, "nothing tested: no geomean");
}

int
main(void)
{
	test_welch_known();
	test_sides_from_steps();
	test_mixed_and_degenerate();
	test_noise_floor();
	test_geomean();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare's statistics with trials as the unit: Welch's t against two
 * published examples (Wikipedia's, checked with python3's statistics
 * module, and R's own t.test example on the sleep data, whose printed
 * output is quoted below), the test at one N on the log scale (the delta
 * method, by hand; an interval that never passes -100%), a difference past
 * what a rerun moves with one trial a side, the sides from a session's trials (repeats
 * pooled inside a trial, intervals never a sample, halves for the
 * self-check), too few trials, the trials' scores across N and Welch's t on
 * their logarithms, the noise floor, the allowance for a run's own noise,
 * and what has no test: zero variance,
 * NaN, a missing N.
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

/*
 * R's example of t.test (?t.test; R 4.x), Welch's by default:
 *     > t.test(extra ~ group, data = sleep)
 *     t = -1.8608, df = 17.776, p-value = 0.07939
 *     95 percent confidence interval:
 *      -3.3654832  0.2054832
 *     mean in group 1 mean in group 2
 *                0.75            2.33
 */
static const double sleep1[10] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[10] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };

/* A side of `trials` trials with this mean, se and df. */
static struct cmp_side
side(double mean, double se, double df, int trials)
{
	struct cmp_side x;

	x.runs = x.trials = trials;
	x.mean = mean;
	x.se = se;
	x.df = df;
	x.allow = 0;
	x.unit = trials >= 2 ? CMP_UNIT_TRIALS : CMP_UNIT_NONE;
	return x;
}

/* A usable step at n of throughput x in a trial, with intervals iv[0..k-1]. */
static struct step *
add(struct session *s, int n, int trial, double x, const double *iv, int k)
{
	struct step *st = session_add_step(s, n, 0);
	int i;

	st->trial = trial;
	st->ops_s = x;
	st->status = STEP_OK;
	for (i = 0; i < k; i++)
		step_add_interval(st, iv[i]);
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	return st;
}

/* Welch-Satterthwaite's df of two variances with their df, by hand. */
static double
ws_df(double va, double dfa, double vb, double dfb)
{
	return (va + vb) * (va + vb) / (va * va / dfa + vb * vb / dfb);
}

/* 100 (exp(ln ratio + sign t95(df floored) sqrt(v)) - 1): a log CI's end in % of A. */
static double
log_end(double ratio, double v, double df, int sign)
{
	return 100 * (exp(log(ratio) + sign * stats_t95((unsigned long)floor(df)) * sqrt(v)) - 1);
}

static void
test_welch_known(void)
{
	struct cmp_side a = side(20.82, 2.804893682731767 / sqrt(15), 14, 15);
	struct cmp_side b = side(22.986666666666668, 1.952605097470215 / sqrt(15), 14, 15);
	struct cmp_side sa, sb;
	struct cmp_diff d;
	double va, vb;

	cmp_side_samples(wel_a, 15, &sa);
	cmp_side_samples(wel_b, 15, &sb);
	ok(fabs(sa.mean - a.mean) < 1e-12 && fabs(sa.se - a.se) < 1e-12 && sa.df == 14 &&
		   fabs(sb.mean - b.mean) < 1e-12 && fabs(sb.se - b.se) < 1e-12,
	   "Wikipedia's 15 samples a side: the means and sd / sqrt(15) (python3)");

	va = a.se * a.se / (a.mean * a.mean);
	vb = b.se * b.se / (b.mean * b.mean);
	cmp_welch(&a, &b, 5, &d);
	ok(d.tested, "Welch: both sides known are tested");
	is_double(d.df, ws_df(va, 14, vb, 14), 1e-9,
		  "on the logs: the df of (se / mean)^2 a side (the delta method)");
	ok(fabs(d.df - 24.98852929023142) < 2,
	   "  near the linear test's 24.99 (python3), the spreads being small (%.2f)", d.df);
	is_double(d.pct, 10.40666026256805, 1e-9, "B - A is +10.41% of A");
	is_double(d.lo_pct, log_end(d.ratio, va + vb, d.df, -1), 1e-9,
		  "the CI is exp(ln B/A -+ t95 se), t95 of the floored df");
	is_double(d.hi_pct, log_end(d.ratio, va + vb, d.df, 1), 1e-9, "  its top");
	/* Welch's linear CI is +10.41 +- 8.75% of A: the log's is about as wide. */
	ok(d.lo_pct < d.pct && d.pct < d.hi_pct && fabs(d.hi_pct - d.lo_pct - 2 * 8.748) < 1.75,
	   "  about as wide as the linear +-8.75%% (%.2f%% to %.2f%%)", d.lo_pct, d.hi_pct);
	is_double(d.ratio, 22.986666666666668 / 20.82, 1e-12, "ratio is B/A");
	ok(d.welch && d.significant, "significant at 95%% and above a 5%% floor");
	cmp_welch(&a, &b, 15, &d);
	ok(d.welch && !d.significant, "  not above a 15%% floor: no difference proven");
	cmp_welch(&b, &a, 5, &d);
	ok(d.pct < 0 && d.significant, "the other way round: negative, still significant");
}

/* R's sleep example: the samples as sides, and their exponentials as trial scores. */
static void
test_welch_r(void)
{
	struct cmp_side a, b;
	struct cmp_geomean g;
	struct cmp_diff d;
	double ea[10], eb[10];
	int i;

	cmp_side_samples(sleep1, 10, &a);
	cmp_side_samples(sleep2, 10, &b);
	ok(fabs(a.mean - 0.75) < 1e-12 && fabs(b.mean - 2.33) < 1e-12 && a.df == 9,
	   "R sleep: the means 0.75 and 2.33, df 9 a side");
	cmp_welch(&a, &b, 0, &d);
	ok(d.tested, "  10 samples a side are tested");
	/* A's se is 75% of its mean: a linear CI would pass -100%; the log's never does. */
	ok(d.lo_pct > -100 && d.lo_pct < d.pct && d.pct < d.hi_pct && isfinite(d.hi_pct),
	   "  se 75%% of A's mean: the CI %.1f%% to %.1f%% stays above -100%%", d.lo_pct, d.hi_pct);
	ok(!d.welch && d.p > 0.05, "  and proves nothing (p %.3f)", d.p);
	/* Simpson's rule on the t density in python3: 0.0801592 at df 17, 0.1393260 at df 3. */
	is_double(stats_t_p2(1.8608, 17), 0.0801592, 2e-7, "p of t = 1.8608 at df 17");
	is_double(stats_t_p2(-2, 3), 0.1393260, 2e-7, "p of t = -2 at df 3 (two-sided)");
	is_double(stats_t_p2(stats_t95(4), 4), 0.05, 1e-12, "p of t95(4) is 0.05");
	is_double(stats_t_p2(stats_t95(1), 1), 0.05, 1e-12, "  and of t95(1)");
	ok(cmp_family_significant(&(struct cmp_diff){ .tested = true, .p = 0.015, .pct = 10 }, 3,
				  5) &&
		   !cmp_family_significant(
			   &(struct cmp_diff){ .tested = true, .p = 0.02, .pct = 10 }, 3, 5),
	   "3 N: a claim in the summary needs p < 0.05 / 3");

	for (i = 0; i < 10; i++) {
		ea[i] = exp(sleep1[i]);
		eb[i] = exp(sleep2[i]);
	}
	cmp_scores(ea, 10, eb, 10, &(struct cmp_score_test){ .min_trials = CMP_MIN_TRIALS }, &g);
	is_double(g.ratio, exp(1.58), 1e-9, "scores: the ratio is exp(mean ln B - mean ln A)");
	is_double(g.df, 17.776, 5e-4, "  Welch's df on the logs: R's 17.776");
	ok(g.lo <= exp(-0.2054832) && g.lo > exp(-0.2054832) * 0.99 && g.hi >= exp(3.3654832) &&
		   g.hi < exp(3.3654832) * 1.01,
	   "  the CI is exp of R's (-0.205, 3.365), within 1%% wider (%.4f, %.4f)", g.lo, g.hi);
	ok(!g.significant && !g.few, "  not significant");
	cmp_scores(ea, 2, eb, 10, &(struct cmp_score_test){ .min_trials = CMP_MIN_TRIALS }, &g);
	ok(g.few && isnan(g.lo) && isfinite(g.ratio) && g.significant == g.beyond &&
		   g.beyond == (fabs(log(g.ratio)) > log(CMP_RERUN_BOUND)),
	   "  2 scores on one side: too few, a point estimate (%.1fx), a difference only "
	   "past %gx",
	   g.ratio, CMP_RERUN_BOUND);
	cmp_scores(ea, 2, eb, 2, &(struct cmp_score_test){ .min_trials = 2 }, &g);
	ok(!g.few && isfinite(g.lo), "  but 2 a side are tested where 2 may be (the self-check)");
}

static void
test_sides_from_steps(void)
{
	struct session s;
	struct cmp_side x;
	static const double wave[16] = { 1, 2, 3, 4, 4, 3, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1 };
	double score[8];
	int n12[2] = { 1, 2 };

	session_init(&s);
	/* an old file: one trial, intervals and all */
	add(&s, 1, 0, 8.5, wave, 16);
	is_int(cmp_trials(&s), 1, "an old file is one trial");
	is_int(cmp_side_at(&s, 1, &x), 1, "  one run at N=1");
	ok(x.trials == 1 && x.unit == CMP_UNIT_NONE && isnan(x.se),
	   "  its 16 intervals give no se: they are not trials");
	is_double(x.mean, 8.5, 0, "  the mean is the step's ops_s, as the table's");
	session_free(&s);

	session_init(&s);
	add(&s, 1, 0, 100, wave, 16);
	add(&s, 2, 0, 90, NULL, 0); /* --repeat 2 inside trial 0: pooled */
	add(&s, 2, 0, 110, NULL, 0);
	add(&s, 2, 1, 120, NULL, 0);
	add(&s, 1, 1, 110, NULL, 0);
	add(&s, 1, 4, 120, NULL, 0); /* trials need not be numbered without gaps */
	add(&s, 2, 4, 0, NULL, 0)->status = STEP_FAILED;
	add(&s, 1, 5, 130, NULL, 0);
	add(&s, 2, 5, 140, NULL, 0);
	add(&s, 4, 5, NAN, wave, 16);
	is_int(cmp_trials(&s), 4, "four trials with a usable step (0, 1, 4, 5)");
	is_int(cmp_side_at(&s, 1, &x), 4, "four usable runs at N=1");
	ok(x.trials == 4 && x.unit == CMP_UNIT_TRIALS, "  four trials: the trials are the unit");
	is_double(x.mean, 115, 1e-12, "  the mean of the trials' means");
	is_double(x.se, sqrt(500.0 / 3) / 2, 1e-12, "  se = sd(trial means) / sqrt(4)");
	is_double(x.df, 3, 0, "  df = trials - 1");
	is_int(cmp_side_at(&s, 2, &x), 4, "N=2: four usable runs (a failed one left out)");
	ok(x.trials == 3 && fabs(x.mean - (100 + 120 + 140) / 3.0) < 1e-12,
	   "  in three trials, trial 0's two repeats pooled as 100");
	is_double(x.se, 20 / sqrt(3), 1e-12, "  se = sd(100, 120, 140) / sqrt(3)");
	cmp_side_trials(&s, 1, 0, 2, &x);
	ok(x.trials == 2 && fabs(x.mean - 105) < 1e-12, "the first half: trials 0 and 1, 105");
	cmp_side_trials(&s, 1, 2, 4, &x);
	ok(x.trials == 2 && fabs(x.mean - 125) < 1e-12, "  the second: trials 4 and 5, 125");
	is_int(cmp_side_at(&s, 4, &x), 0, "a NaN throughput is not usable");
	is_int(cmp_side_at(&s, 32, &x), 0, "a missing N has no run");
	ok(isnan(x.mean) && isnan(x.se), "  and no figures");

	is_int(cmp_trial_scores(&s, n12, 2, CMP_ALL, score), 3,
	       "scores over N=1,2: trial 4 failed N=2 and is left out");
	is_double(score[0], 100, 1e-9, "  trial 0: sqrt(100 x 100)");
	is_double(score[1], sqrt(110 * 120.0), 1e-9, "  trial 1: sqrt(110 x 120)");
	is_double(score[2], sqrt(130 * 140.0), 1e-9, "  trial 5: sqrt(130 x 140)");
	is_int(cmp_trial_scores(&s, n12, 2, 2, 4, score), 1, "  of the second half, one");
	session_free(&s);
}

/* Fewer trials than the test needs: the difference, no test. */
static void
test_few(void)
{
	struct cmp_side two = side(100, 2, 1, 2), three = side(80, 3, 2, 3),
			one = side(90, NAN, NAN, 1);
	struct cmp_diff d;

	cmp_welch(&two, &three, 5, &d);
	ok(d.few && !d.tested && !d.significant && fabs(d.pct + 20) < 1e-12,
	   "2 trials against 3: too few, -20%% as a point estimate");
	cmp_welch(&one, &one, 5, &d);
	ok(d.few && !d.tested && d.pct == 0, "one trial a side: too few");
	cmp_welch_min(&two, &three, 5, 2, &d);
	ok(d.tested && !d.few, "  2 trials pass a test that takes 2 (the self-check)");
	is_double(d.df, ws_df(4e-4, 1, 9.0 / 6400, 2), 1e-9,
		  "  Welch's df of df 1 and 2, on the logs");
	ok(CMP_MIN_TRIALS == 3, "compare asks for 3 trials a side");
}

/* One trial a side: a gap beyond what any rerun moves is a difference, one inside it is not. */
static void
test_beyond_rerun(void)
{
	struct cmp_side a = side(170000, NAN, NAN, 1), b = side(1000, NAN, NAN, 1);
	struct cmp_geomean g;
	static const double x[1] = { 170000 }, y[1] = { 1000 }, z[1] = { 150000 };
	static const struct cmp_score_test t = { COMPARE_NOISE_DEFAULT, CMP_MIN_TRIALS, 0, 0 };
	struct cmp_diff d;

	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.few && d.beyond && d.significant && !d.tested,
	   "170x with one trial a side: a difference, untested");
	ok(isnan(d.lo_pct) && fabs(d.pct - 100 * (1000.0 / 170000 - 1)) < 1e-9,
	   "  a point estimate (%.1f%%), no interval", d.pct);
	cmp_welch(&b, &a, COMPARE_NOISE_DEFAULT, &d);
	ok(d.beyond && d.significant && d.pct > 0, "  and the other way round, 170x faster");
	b.mean = 170000 / (CMP_RERUN_BOUND * 0.99);
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.few && !d.beyond && !d.significant,
	   "  just inside the %gx a rerun may move: no difference proven", CMP_RERUN_BOUND);
	b.mean = 170000 / (CMP_RERUN_BOUND * 1.01);
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.beyond && d.significant, "  just beyond it: a difference");
	ok(!cmp_beyond_rerun(NAN) && !cmp_beyond_rerun(0) && !cmp_beyond_rerun(1),
	   "no ratio, 0 or 1: not beyond");
	cmp_scores(x, 1, y, 1, &t, &g);
	ok(g.few && g.beyond && g.significant && isnan(g.lo),
	   "scores 170x apart, one a side: a difference without an interval");
	cmp_scores(x, 1, z, 1, &t, &g);
	ok(g.few && !g.beyond && !g.significant, "  12%% apart: cannot be told from rerun noise");
}

/* A fall of 99.4% whose trials spread widely: its interval stays inside -100% and excludes 0. */
static void
test_log_scale(void)
{
	static const double none[3] = { 170000, 40000, 110000 }, sync[3] = { 700, 500, 900 };
	struct cmp_side a, b;
	struct cmp_diff d;

	cmp_side_samples(none, 3, &a);
	cmp_side_samples(sync, 3, &b);
	cmp_welch(&a, &b, COMPARE_NOISE_DEFAULT, &d);
	ok(d.tested && d.pct < -99, "a 99%% fall, 3 trials a side (%.1f%%)", d.pct);
	ok(100 * stats_t95((unsigned long)floor(d.df)) * a.se / a.mean > 100,
	   "  A's spread would take a linear CI past -100%%");
	ok(d.lo_pct > -100 && d.hi_pct > -100 && d.lo_pct < d.pct && d.pct < d.hi_pct &&
		   d.hi_pct < 0,
	   "  the log's: %.2f%% to %.2f%%, inside -100%%, 0 excluded", d.lo_pct, d.hi_pct);
	ok(d.welch && d.significant, "  so it is a difference");
}

static void
test_mixed_and_degenerate(void)
{
	struct cmp_side one = side(100, 2, 9, 10), runs = side(80, 3, 2, 3), none, zero_a, zero_b;
	struct cmp_diff d;

	cmp_welch(&one, &runs, 5, &d);
	is_double(d.df, ws_df(4e-4, 9, 9.0 / 6400, 2), 1e-9, "10 trials against 3: Welch's df");
	is_double(d.lo_pct, log_end(0.8, 4e-4 + 9.0 / 6400, d.df, -1), 1e-9,
		  "  t95 of the floored df, on the logs");
	ok(d.significant && fabs(d.pct + 20) < 1e-12, "  -20%% is significant");

	none = side(100, NAN, NAN, 3);
	cmp_welch(&none, &runs, 5, &d);
	ok(!d.tested && !d.significant && fabs(d.ratio - 0.8) < 1e-12,
	   "a side without se: a ratio, no test");
	none = side(NAN, NAN, NAN, 0);
	cmp_welch(&one, &none, 5, &d);
	ok(!d.tested && isnan(d.ratio) && isnan(d.pct), "a missing side: no ratio, no test");
	none = side(0, 0, 5, 6);
	cmp_welch(&none, &one, 5, &d);
	ok(!d.tested && isnan(d.ratio), "A's mean 0: nothing to take a %% of");

	zero_a = side(100, 0, 4, 5);
	zero_b = side(100, 0, 4, 5);
	cmp_welch(&zero_a, &zero_b, 0, &d);
	ok(d.tested && isinf(d.df) && d.lo_pct == 0 && d.hi_pct == 0 && !d.welch,
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
	struct cmp_side a = side(1000, 1, 30, 31), b = side(970, 1, 30, 31);
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

/* The trials' scores: Welch's t on their logs, by hand. */
static void
test_scores(void)
{
	static const double a[3] = { 100, 110, 90 }, b[3] = { 50, 55, 45 };
	static const double c[3] = { 80, 125, 100 };
	static const struct cmp_score_test floor5 = { COMPARE_NOISE_DEFAULT, CMP_MIN_TRIALS, 0, 0 };
	static const struct cmp_score_test floor0 = { 0, CMP_MIN_TRIALS, 0, 0 };
	struct cmp_geomean g;
	double la[3], lb[3], ma = 0, mb = 0, va = 0, vb = 0, se;
	int i;

	for (i = 0; i < 3; i++) {
		la[i] = log(a[i]);
		lb[i] = log(b[i]);
		ma += la[i] / 3;
		mb += lb[i] / 3;
	}
	for (i = 0; i < 3; i++) {
		va += (la[i] - ma) * (la[i] - ma) / 2 / 3;
		vb += (lb[i] - mb) * (lb[i] - mb) / 2 / 3;
	}
	se = sqrt(va + vb);
	cmp_scores(a, 3, b, 3, &floor5, &g);
	is_double(g.ratio, 0.5, 1e-12, "scores half of A's: 0.5x");
	/* B's logs are A's less ln 2: the same variance, so df = 2 (df_A + df_B) / 2 = 4 */
	is_double(g.df, 4, 1e-9, "  equal variances of the logs: df 4");
	is_double(g.lo, 0.5 * exp(-stats_t95(4) * se), 1e-12, "  the CI's bottom, exp(d - t se)");
	is_double(g.hi, 0.5 * exp(stats_t95(4) * se), 1e-12, "  and top");
	ok(g.significant && !g.few, "  significant");
	cmp_scores(a, 3, c, 3, &floor5, &g);
	ok(g.lo < 1 && g.hi > 1 && !g.significant, "scores that overlap: no difference proven");
	cmp_scores(a, 3, a, 3, &floor0, &g);
	ok(g.ratio == 1 && !g.significant, "the same scores: 1x, nothing proven");
	cmp_scores(a, 0, b, 3, &floor0, &g);
	ok(isnan(g.ratio) && !g.significant, "no score on a side: nothing");
}

/*
 * The allowance for a run's own noise, by hand: Satterthwaite's df with the
 * allowance as a third part of CMP_ALLOW_DF degrees of freedom, as
 *     > v <- c(1, 1, 9 + 10.1124); nu <- c(2, 2, 20)
 *     > sum(v)^2 / sum(v^2 / nu)         # 23.14: t95 at the floored 23
 * and never narrower than the trials' own interval.
 */
static void
test_run_allowance(void)
{
	struct cmp_side a = side(100, 1, 2, 3), b = side(106, 1, 2, 3);
	struct cmp_score_test t = { 0, CMP_MIN_TRIALS, 0, 0 };
	static const double x[3] = { 100, 101, 99 }, y[3] = { 104, 105, 103 };
	struct cmp_diff d, d0;
	struct cmp_geomean g;
	double va = 1e-4, vb = 1 / (106.0 * 106), al = 2 * 9e-4, v = va + vb + al;

	is_double(cmp_run_allowance(1000, 3, 1), 900, 1e-9, "one run: (3% of the mean)^2");
	is_double(cmp_run_allowance(1000, 3, 2), 450, 1e-9, "  two runs: half that");
	ok(cmp_run_allowance(1000, 3, CMP_RUNS_SEEN) == 0 && cmp_run_allowance(1000, 0, 1) == 0,
	   "  none from %d runs, whose spread shows it, or at --run-noise 0", CMP_RUNS_SEEN);
	cmp_welch(&a, &b, 0, &d0);
	ok(d0.significant, "+6%% with se 1%% a side: significant from the trials alone");
	a.allow = cmp_run_allowance(a.mean, 3, 1);
	b.allow = cmp_run_allowance(b.mean, 3, 1);
	cmp_welch(&a, &b, 0, &d);
	is_double(d.df, v * v / (va * va / 2 + vb * vb / 2 + al * al / CMP_ALLOW_DF), 1e-9,
		  "  with 3% allowed a side: the df of three parts, on the logs");
	is_double(d.lo_pct, log_end(1.06, v, d.df, -1), 1e-9,
		  "  the CI from t95 of that df and all of it");
	ok(!d.significant && d.p > d0.p, "  and +6%% is no longer proven (p %.3f)", d.p);
	a.allow = b.allow = 0.25;
	cmp_welch(&a, &b, 0, &d);
	ok(d.lo_pct <= d0.lo_pct && d.p >= d0.p && fabs(d.lo_pct - d0.lo_pct) < 1e-12,
	   "a small allowance that would narrow the CI (t95 at df 6) leaves the trials' own");
	cmp_scores(x, 3, y, 3, &t, &g);
	ok(g.significant, "scores 4%% apart that agree to 1%%: significant alone");
	t.allow_a = t.allow_b = cmp_run_allowance(1, 3, 1);
	cmp_scores(x, 3, y, 3, &t, &g);
	ok(!g.significant && g.lo < 1 && g.hi > 1, "  not with 3%% allowed a side on the logs");
}

int
main(void)
{
	test_welch_known();
	test_welch_r();
	test_sides_from_steps();
	test_few();
	test_beyond_rerun();
	test_log_scale();
	test_mixed_and_degenerate();
	test_noise_floor();
	test_scores();
	test_run_allowance();
	return done_testing();
}

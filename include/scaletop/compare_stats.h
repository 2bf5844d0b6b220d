/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether two sweeps differ, with whole trials as the unit: at each N the
 * trials' mean throughputs are the samples (Welch's t with a noise floor),
 * and over N each trial is scored by its geometric mean across the N, and
 * the scores of A and B are compared by Welch's t on their logarithms.
 */
#ifndef SCALETOP_COMPARE_STATS_H
#define SCALETOP_COMPARE_STATS_H

#include <stdbool.h>

#include "scaletop/session.h"

/*
 * docs/statistics.md says which samples are compared, which test is used and
 * why.
 *
 * A trial (run --trials) is one pass of the whole sweep; its mean at one N
 * is the mean of its usable runs there (--repeat's back-to-back runs are
 * pooled inside it).  A run's intervals never give degrees of freedom:
 * they say how steady a window was, not how much a rerun moves.  A side
 * with fewer than CMP_MIN_TRIALS trials has a point estimate and no test.
 *
 * At one N the test is on the log scale: ln(mean B / mean A), its variance
 * by the delta method (each side's se / mean, squared), and the interval
 * shown as percentages of A that can never pass -100%.  A difference is
 * significant when that 95% CI excludes 0 AND |B - A| exceeds the noise
 * floor (a % of A).
 *
 * With too few trials to test, a ratio beyond CMP_RERUN_BOUND either way
 * (more than any rerun the A/A bench has seen moved) is still a difference,
 * labelled as resting on one trial a side.
 *
 * Pure code.
 */

/*
 * The largest factor a rerun of the same sweep is taken to move a figure by:
 * no A/A pair of bench/aa-compare.sh moved more than 2.2x (docs/statistics.md,
 * "Too few trials"), and a sweep on a machine at a load of 170 ran at 1/4 of
 * its quiet rate.  Beyond it, one trial a side is enough to call a difference.
 */
#define CMP_RERUN_BOUND 4.0
/* The default noise floor, % of A (--noise PCT): docs/statistics.md has the figures. */
#define COMPARE_NOISE_DEFAULT 5.0
/* Trials a side needs before compare tests (docs/statistics.md: why 3, and not 2). */
#define CMP_MIN_TRIALS 3
/*
 * A run's own noise, % of its mean (--run-noise PCT): what a whole sweep
 * moves between two runs a minute apart and its own trials, which share
 * that minute, cannot show.  docs/statistics.md has the measured figures.
 */
#define COMPARE_RUN_NOISE_DEFAULT 3.0
/* Runs (files) a side needs before their spread carries the run's noise itself. */
#define CMP_RUNS_SEEN 3
/* The degrees of freedom of that allowance: it was measured on about 20 pairs. */
#define CMP_ALLOW_DF 20.0

enum cmp_unit {
	CMP_UNIT_NONE,   /* no usable run, or fewer than two trials: no se */
	CMP_UNIT_TRIALS, /* two trials or more: the trials' means */
};

struct cmp_side {
	int runs;     /* usable runs at this N; 0: none (mean NaN) */
	int trials;   /* trials with a usable run at this N: the samples */
	double mean;  /* the mean of the trials' means */
	double se;    /* standard error of mean; NaN with fewer than 2 trials */
	double df;    /* trials - 1; NaN when unknown */
	double allow; /* variance of mean its trials cannot see (a run's own noise); 0: none */
	enum cmp_unit unit;
};

/* Welch's comparison of B with A at one N (or of one peak with another), on the log scale. */
struct cmp_diff {
	bool tested;      /* both sides have a mean > 0, a finite se and enough trials */
	bool few;         /* both have a mean, but a side has fewer trials than the test needs */
	bool beyond;      /* few, yet the ratio is beyond CMP_RERUN_BOUND either way */
	double ratio;     /* B / A; NaN without both means */
	double pct;       /* 100 (B - A) / A */
	double lo_pct;    /* the 95% CI of pct, from exp of the log's: > -100; NaN untested */
	double hi_pct;    /* (both pct when both se are 0) */
	double df;        /* Welch-Satterthwaite of the logs (INFINITY when both se are 0) */
	bool welch;       /* the CI excludes 0 */
	bool significant; /* (welch, or beyond) and |pct| > the noise floor */
	double p;         /* Welch's two-sided p at the floored df; NaN untested */
};

/*
 * Whether d holds when m N are tested together (the summary's claims):
 * tested, p < 0.05 / m (Bonferroni) and |pct| above the noise floor.  A
 * 95% test at each of 3 N claims something somewhere in 14% of A/A pairs.
 */
bool cmp_family_significant(const struct cmp_diff *d, int m, double noise_pct);

/* The trials' scores of A against B: Welch's t on ln(score). */
struct cmp_geomean {
	int k;            /* how many N the scores are over; 0: no geometric mean */
	int n_lo, n_hi;   /* the smallest and largest of them */
	int ka, kb;       /* trials scored on each side */
	bool few;         /* a side has fewer than the test's trials: a point estimate only */
	bool beyond;      /* few, yet the ratio is beyond CMP_RERUN_BOUND either way */
	double ratio;     /* exp(mean ln(B scores) - mean ln(A scores)) */
	double lo, hi;    /* its 95% CI; NaN when few */
	double df;        /* Welch-Satterthwaite of the logs */
	bool significant; /* the CI excludes 1 (or beyond) and |ratio - 1| > the noise floor */
};

/* Whether a ratio B / A lies beyond what a rerun moves (CMP_RERUN_BOUND either way). */
bool cmp_beyond_rerun(double ratio);

/* Trials [lo, hi) of a session: every trial is CMP_ALL. */
#define CMP_ALL 0, 1000000000

/* How many distinct trials have a usable step in s (an old file: 1). */
int cmp_trials(const struct session *s);

/*
 * Fills side from s's usable steps at n whose trial is in [lo, hi) (the
 * i-th to (hi-1)-th trial in the session's order, counting only trials with
 * a usable step anywhere): each trial's mean there is one sample.  Returns
 * side->runs.
 */
int cmp_side_trials(const struct session *s, int n, int lo, int hi, struct cmp_side *side);
/* cmp_side_trials over every trial. */
int cmp_side_at(const struct session *s, int n, struct cmp_side *side);

/* A side of k plain samples x[] (mean, sd / sqrt(k), k - 1), for tests and the scores. */
void cmp_side_samples(const double *x, int k, struct cmp_side *side);

/*
 * The variance a side's mean carries from its runs' own noise, run_pct %
 * of the mean, when its trials come from fewer than CMP_RUNS_SEEN runs:
 * (run_pct / 100 * mean)^2 / runs; 0 from more (their spread shows it).
 * For a log score give mean 1: its sd is already relative.
 */
double cmp_run_allowance(double mean, double run_pct, int runs);

/*
 * Welch's t of b against a on the log scale: d = ln(mean b / mean a) with
 * variance (se_a / mean_a)^2 + (se_b / mean_b)^2 (the delta method), the CI
 * d +- t95 sqrt(var) at the Welch-Satterthwaite df of those two parts
 * floored to an integer (stats_t95 takes an integer; a smaller df widens
 * the CI, so flooring errs towards "no difference"), shown as
 * 100 (exp(.) - 1) % of a.  Each side's allow (divided by its mean
 * squared) joins its variance, with CMP_ALLOW_DF degrees of freedom; the
 * CI is never narrower, nor p smaller, than without it.  Sides with fewer
 * than min_trials trials are not tested (d->few; d->beyond past
 * CMP_RERUN_BOUND).  noise_pct >= 0.
 */
void cmp_welch_min(const struct cmp_side *a, const struct cmp_side *b, double noise_pct,
		   int min_trials, struct cmp_diff *d);
/* cmp_welch_min with CMP_MIN_TRIALS. */
void cmp_welch(const struct cmp_side *a, const struct cmp_side *b, double noise_pct,
	       struct cmp_diff *d);

/*
 * Each trial in [lo, hi) of s scored by its geometric mean over the k N of
 * n[] (a trial without a usable run at one of them is left out), into
 * score[] (room for cmp_trials(s)).  How many.
 */
int cmp_trial_scores(const struct session *s, const int *n, int k, int lo, int hi, double *score);

/* How two sides of scores are tested: the floor, the trials needed, each side's allowance. */
struct cmp_score_test {
	double noise_pct;
	int min_trials;
	double allow_a, allow_b; /* on the logs: cmp_run_allowance(1, ...) */
};

/*
 * Welch's t on ln(score): the ratio of B's geometric mean score to A's,
 * its 95% CI (exp of the log CI, df floored, each side's allowance as in
 * cmp_welch_min), significance with the noise floor; few (and no CI) with
 * fewer than min_trials scores a side.  g->k, n_lo and n_hi are the
 * caller's.
 */
void cmp_scores(const double *a, int ka, const double *b, int kb, const struct cmp_score_test *t,
		struct cmp_geomean *g);

#endif

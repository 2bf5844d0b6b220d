/*
 * Whether two sweeps differ, with whole trials as the unit: at each N the
 * trials' mean throughputs are the samples (Welch's t with a noise floor),
 * and over N each trial is scored by its geometric mean across the N, and
 * the scores of A and B are compared by Welch's t on their logarithms.
 * docs/statistics.md says which samples are compared, which test is used
 * and why.
 *
 * A trial (run --trials) is one pass of the whole sweep; its mean at one N
 * is the mean of its usable runs there (--repeat's back-to-back runs are
 * pooled inside it).  A run's intervals never give degrees of freedom:
 * they say how steady a window was, not how much a rerun moves.  A side
 * with fewer than CMP_MIN_TRIALS trials has a point estimate and no test.
 *
 * A difference is significant when Welch's 95% CI excludes 0 AND |B - A|
 * exceeds the noise floor (a % of A).
 *
 * Pure code.
 */
#ifndef SCALETOP_COMPARE_STATS_H
#define SCALETOP_COMPARE_STATS_H

#include <stdbool.h>

#include "scaletop/session.h"

/* The default noise floor, % of A (--noise PCT): docs/statistics.md has the figures. */
#define COMPARE_NOISE_DEFAULT 5.0
/* Trials a side needs before compare tests (docs/statistics.md: why 3, and not 2). */
#define CMP_MIN_TRIALS 3

enum cmp_unit {
	CMP_UNIT_NONE,   /* no usable run, or fewer than two trials: no se */
	CMP_UNIT_TRIALS, /* two trials or more: the trials' means */
};

struct cmp_side {
	int runs;    /* usable runs at this N; 0: none (mean NaN) */
	int trials;  /* trials with a usable run at this N: the samples */
	double mean; /* the mean of the trials' means */
	double se;   /* standard error of mean; NaN with fewer than 2 trials */
	double df;   /* trials - 1; NaN when unknown */
	enum cmp_unit unit;
};

/* Welch's comparison of B with A at one N (or of one peak with another). */
struct cmp_diff {
	bool tested;      /* both sides have a mean > 0 (A), a finite se and enough trials */
	bool few;         /* both have a mean, but a side has fewer trials than the test needs */
	double ratio;     /* B / A; NaN without both means */
	double pct;       /* 100 (B - A) / A */
	double ci_pct;    /* 95% half-width of pct; 0 when both se are 0 */
	double df;        /* Welch-Satterthwaite (INFINITY when both se are 0) */
	bool welch;       /* the CI excludes 0 */
	bool significant; /* welch and |pct| > the noise floor */
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
	double ratio;     /* exp(mean ln(B scores) - mean ln(A scores)) */
	double lo, hi;    /* its 95% CI; NaN when few */
	double df;        /* Welch-Satterthwaite of the logs */
	bool significant; /* the CI excludes 1 and |ratio - 1| > the noise floor */
};

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
 * Welch's t of b against a: the difference as % of a's mean, with the CI
 * from t95 at the Welch-Satterthwaite df floored to an integer (stats_t95
 * takes an integer; a smaller df widens the CI, so flooring errs towards
 * "no difference").  Sides with fewer than min_trials trials are not
 * tested (d->few).  noise_pct >= 0.
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

/*
 * Welch's t on ln(score): the ratio of B's geometric mean score to A's,
 * its 95% CI (exp of the log CI, df floored), significance with the noise
 * floor; few (and no CI) with fewer than min_trials scores a side.  g->k,
 * n_lo and n_hi are the caller's.
 */
void cmp_scores(const double *a, int ka, const double *b, int kb, double noise_pct, int min_trials,
		struct cmp_geomean *g);

#endif

/*
 * Whether two sweeps differ: Welch's t at each N, a noise floor, and the
 * geometric mean of the ratios across N.  docs/statistics.md says which
 * samples are compared, which test is used and why.
 *
 * A side at one N is its usable runs' throughput (the pooled X(N) the
 * analysis shows), with a standard error and its degrees of freedom:
 *  - one run: the step's interval statistics, stddev / sqrt(neff) with
 *    neff the autocorrelation-corrected effective size (stats_neff), df
 *    neff - 1;
 *  - two runs or more (--repeat): the runs' means are the unit,
 *    sd(run means) / sqrt(r), df r - 1.
 *
 * A difference is significant when Welch's 95% CI of B - A excludes 0 AND
 * |B - A| exceeds the noise floor (a % of A): within-run intervals say
 * nothing of how much a rerun moves, so a tight CI alone proves nothing.
 *
 * Pure code.
 */
#ifndef SCALETOP_COMPARE_STATS_H
#define SCALETOP_COMPARE_STATS_H

#include <stdbool.h>

#include "scaletop/session.h"

/* The default noise floor, % of A (--noise PCT): docs/statistics.md has the figures. */
#define COMPARE_NOISE_DEFAULT 5.0

enum cmp_unit {
	CMP_UNIT_NONE,      /* no usable run, or one without interval spread: no se */
	CMP_UNIT_INTERVALS, /* one run: its intervals, autocorrelation-corrected */
	CMP_UNIT_RUNS,      /* two runs or more: the runs' means */
};

struct cmp_side {
	int runs;    /* usable runs at this N; 0: none (mean NaN) */
	double mean; /* the runs' mean throughput (ops_s) */
	double se;   /* standard error of mean; NaN when unknown */
	double df;   /* degrees of freedom of se (may be fractional); NaN when unknown */
	enum cmp_unit unit;
};

/* Welch's comparison of B with A at one N (or of one peak with another). */
struct cmp_diff {
	bool tested;      /* both sides have a mean > 0 (A) and a finite se */
	double ratio;     /* B / A; NaN without both means */
	double pct;       /* 100 (B - A) / A */
	double ci_pct;    /* 95% half-width of pct; 0 when both se are 0 */
	double df;        /* Welch-Satterthwaite (INFINITY when both se are 0) */
	bool welch;       /* the CI excludes 0 */
	bool significant; /* welch and |pct| > the noise floor */
};

/* The geometric mean of B/A over the N where both were tested. */
struct cmp_geomean {
	int k;            /* how many N; 0: no geometric mean */
	int n_lo, n_hi;   /* the smallest and largest of them */
	double ratio;     /* exp(mean of ln(B/A)) */
	double lo, hi;    /* its 95% CI */
	double df;        /* Satterthwaite over every side's ln-variance */
	bool significant; /* the CI excludes 1 and |ratio - 1| > the noise floor */
};

/* Fills side from s's usable steps at n.  Returns side->runs. */
int cmp_side_at(const struct session *s, int n, struct cmp_side *side);

/*
 * Welch's t of b against a: the difference as % of a's mean, with the CI
 * from t95 at the Welch-Satterthwaite df floored to an integer (stats_t95
 * takes an integer; a smaller df widens the CI, so flooring errs towards
 * "no difference").  noise_pct >= 0.
 */
void cmp_welch(const struct cmp_side *a, const struct cmp_side *b, double noise_pct,
	       struct cmp_diff *d);

/*
 * The geometric mean of B/A over the k N of a[i], b[i] that cmp_welch would
 * test, at n[i].  The CI is on the mean of ln(B/A): each ln(X)'s variance is
 * (se/mean)^2 (the delta method), the mean's is their sum over k^2, with
 * Satterthwaite's df over all of them, and exp gives it back as a ratio.
 * The N are the ones measured: the CI is of the measurement, not of how the
 * ratio varies with N.
 */
void cmp_geomean(const struct cmp_side *a, const struct cmp_side *b, const int *n, int k,
		 double noise_pct, struct cmp_geomean *g);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics of a step's interval samples (throughput per interval): the
 * spread that tells whether a step's headline figure can be trusted.
 */
#ifndef SCALETOP_STATS_H
#define SCALETOP_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * n = 0: every figure is 0 and have_spread is false.
 * n = 1: mean, median, min and max are the sample; stddev and ci95 are 0
 *        and have_spread is false, since one sample says nothing of spread.
 * n >= 2: every figure is valid and have_spread is true.
 * No figure is ever NaN: input containing NaN or infinity is refused.
 *
 * Pure code.
 */

struct stats {
	size_t n;
	double mean;
	double median; /* the middle sample, or the mean of the two middle ones */
	double min, max;
	double stddev;    /* sample standard deviation (n - 1 in the denominator) */
	double ci95;      /* half-width of the 95% confidence interval of the mean */
	double ci95_ac;   /* the same allowing for lag-1 autocorrelation (>= ci95): what
			     stability is judged by, since throughput comes in runs */
	bool have_spread; /* stddev and ci95 are meaningful (n >= 2) */
};

/*
 * Computes st over x[0..n-1] (x is not changed).  Returns 0, or -1 if a
 * sample is not finite or memory for sorting runs out; st is then zeroed.
 */
int stats_compute(struct stats *st, const double *x, size_t n);

/*
 * The two-sided 95% quantile of Student's t with df degrees of freedom
 * (t such that P(|T| < t) = 0.95): 12.706 for df = 1, 2.042 for 30, tending
 * to the normal 1.960.  Exact from the t distribution's closed form up to
 * df = 300, an asymptotic expansion beyond (error below 1e-9).  df < 1
 * returns 0.
 */
double stats_t95(unsigned long df);
/* The two-sided p of Student's t: P(|T| >= |t|) with df degrees of freedom (A&S 26.7.3-4). */
double stats_t_p2(double t, unsigned long df);

/*
 * True when the 95% CI half-width, widened for autocorrelation (ci95_ac),
 * is at most pct percent of the mean:
 * the step's mean is known well enough to stop measuring.  False without
 * spread (n < 2), for a mean <= 0, or for pct <= 0.
 */
bool stats_is_stable(const struct stats *st, double pct);

/*
 * A CI this wide, as a fraction of the mean, says the mean is not known: its
 * lower bound reaches zero, so the step cannot even be told from one that
 * did no work.  A fixed-length step whose reported CI (stats_ci) exceeds it
 * is not ok (with --until-stable, the user's own target is the limit).  Such
 * a step is measured on, up to STATS_WIDE_EXTEND times its length, and is
 * unstable if it stays wide.  A healthy step spreads by a few percent; one
 * preempted lock holder or one stalled writer gives +-100% and more.  A
 * tighter bar (25% and 50% were tried) also fails short steps of a healthy
 * workload on a machine whose other load takes most of the CPU: that is
 * what --until-stable is for, and the verdict already calls a peak wider
 * than 25% uncertain.
 */
#define STATS_WIDE_CI_FRAC 1.0
#define STATS_WIDE_EXTEND 3.0

/*
 * True when the reported CI is wider than STATS_WIDE_CI_FRAC of the mean, or
 * the intervals counted nothing (mean 0); false without spread.
 */
bool stats_is_wide(const struct stats *st);

/*
 * A CI whose half-width is more than this fraction of the mean is noisy: a
 * step so measured is shown "noisy", not "ok", and a verdict resting on it
 * says its confidence is low (docs/statistics.md).  Why a quarter: past it,
 * the true mean may lie 25% away, more than most changes a user measures
 * for (a patch, a setting), so such a step cannot show them; a healthy step
 * spreads by a few percent, well inside it.  The same bar calls a
 * verdict's peak uncertain.  A CI of exactly a quarter is not noisy.
 */
#define STATS_NOISY_CI_FRAC 0.25

/*
 * True when the reported CI is wider than STATS_NOISY_CI_FRAC of a mean
 * above 0; false without spread.
 */
bool stats_is_noisy(const struct stats *st);

/*
 * The CI to report: ci95_ac, or ci95 where that is larger (stats from a
 * source that could not compute ci95_ac, such as imported figures).
 */
double stats_ci(const struct stats *st);

/*
 * Sets ci95_ac from the samples x[0..n-1] when they are the ones st was
 * computed from (n == st->n), else to ci95, the best still known.  Used by
 * stats_compute, and for stats read back from a file that predates ci95_ac.
 */
void stats_fill_ci95_ac(struct stats *st, const double *x, size_t n);

/*
 * The effective number of independent samples in x[0..n-1], which st was
 * computed from: n(1-r)/(1+r) for a lag-1 autocorrelation r > 0 (AR(1)),
 * at least 2; n itself when r <= 0, n < 4, or x is not st's samples
 * (st->n then).  ci95_ac is t95(floor(neff) - 1) stddev / sqrt(neff).
 */
double stats_neff(const struct stats *st, const double *x, size_t n);

#endif

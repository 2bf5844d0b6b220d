/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a USL fit says beyond its parameters: which cost dominates where,
 * and whether its peak N* was measured near or only extrapolated.
 */
#include <math.h>

#include "scaletop/analysis.h"

/*
 * sigma against kappa alone says little: kappa multiplies N (N-1) and sigma
 * only N-1, so a kappa a hundred times smaller than sigma still dominates
 * beyond N = 100.  The terms are compared at the largest measured N (what
 * limited the run) and at N* (what limits the model's peak); n_cross = sigma
 * / kappa is where they are equal.
 */

const char *const usl_term_names[USL_TERM_COUNT] = { "none", "contention", "coherency" };

enum usl_term
usl_larger_term(double sigma, double kappa, double n)
{
	double coh;

	if (!(sigma > 0) && !(kappa > 0))
		return USL_TERM_NONE;
	if (!(kappa > 0))
		return USL_TERM_CONTENTION;
	if (isinf(n))
		return USL_TERM_COHERENCY;
	coh = kappa * n;
	return coh > sigma ? USL_TERM_COHERENCY : USL_TERM_CONTENTION;
}

double
usl_n_max(const double *n, const double *x, int k)
{
	double m = 0;
	int i;

	/* the points usl_fit uses: finite N >= 1 with a finite, non-negative throughput */
	for (i = 0; i < k; i++) {
		if (isfinite(n[i]) && n[i] >= 1 && isfinite(x[i]) && x[i] >= 0 && n[i] > m)
			m = n[i];
	}
	return m;
}

void
usl_terms(struct usl_fit *f, double n_max)
{
	f->n_max = n_max;
	if (!f->ok) {
		f->n_cross = NAN;
		f->bound_measured = f->bound_at_peak = USL_TERM_NONE;
		f->n_star_extrapolated = false;
		return;
	}
	f->n_cross = f->kappa > 0 ? f->sigma / f->kappa : INFINITY;
	f->bound_measured = usl_larger_term(f->sigma, f->kappa, n_max);
	f->bound_at_peak = usl_larger_term(f->sigma, f->kappa, f->n_star);
	/* an infinite N* (kappa 0) is no peak at all, not a far one */
	f->n_star_extrapolated =
		isfinite(f->n_star) && n_max > 0 && f->n_star > USL_EXTRAPOLATION_FACTOR * n_max;
}

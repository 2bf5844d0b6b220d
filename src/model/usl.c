/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fits the Universal Scalability Law X(N) = lambda N / D(N), with
 * D(N) = 1 + sigma (N-1) + kappa N (N-1), by nonlinear least squares.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "usl_lm.h"

#define USL_MIN_DISTINCT 4
#define USL_FEW_DISTINCT 6

/*
 * Method:
 * - Throughput is divided by its largest value first, so lambda is of
 *   order 1 whatever the unit; the statistics are computed afterwards in
 *   the caller's units.
 * - The starting point is Gunther's linearisation: with lambda0 taken from
 *   the smallest N, N lambda0 / X(N) - 1 = sigma (N-1) + kappa N (N-1) is
 *   an ordinary linear fit, and lambda given sigma and kappa is linear too.
 * - Levenberg-Marquardt with the analytic Jacobian, Marquardt's scaling
 *   (the normal matrix is scaled to a unit diagonal, so sigma, kappa and
 *   lambda, which differ by orders of magnitude, are damped alike) and
 *   Nielsen's update of the damping.  It stops on the gradient (the
 *   cosine between the residual and each column of J), on the relative
 *   step, on a relative fall in the sum of squares below rounding, or
 *   when no step can lower it; 500 iterations at most (random data
 *   needs up to ~300 on a curved valley near sigma = 1).
 * - Bounds: each trial point is projected into sigma in [0, 1], kappa >= 0
 *   (outside, D(N) can reach 0 and the fit chases the pole).  A kappa that
 *   ends at 0, where the data pushed it below, is fixed there (Amdahl's
 *   law) and the rest refitted; then likewise a sigma at 0 or 1.  A
 *   parameter fixed at a bound has no standard error (NaN).
 * - N* = sqrt((1 - sigma) / kappa) is the model's peak; below 1 (sigma near
 *   1) the model only falls, so N* is 1 there.
 * - Standard errors are sqrt(diag((J^T J)^-1)) * rse, rse^2 being the
 *   residual sum of squares over (points - free parameters).
 *
 * Points with a non-finite or negative throughput, or N < 1, are left out.
 *
 * This file holds the start, the bounds, the errors and the public calls;
 * the model and its residuals are in usl_model.c, the solver in usl_lm.c.
 */

/* The least-squares lambda (scaled) for the current sigma and kappa: the model is linear in it. */
static double
usl_best_lambda(const double *p, const struct usl_data *d)
{
	double g, sxg = 0, sgg = 0;
	int i;

	for (i = 0; i < d->k; i++) {
		if (!usl_point_ok(d->n[i], d->x[i]))
			continue;
		g = d->n[i] / usl_denom(p, d->n[i]);
		sxg += d->x[i] / d->scale * g;
		sgg += g * g;
	}
	return sgg > 0 && sxg > 0 ? sxg / sgg : 1;
}

/* Lambda0: throughput per unit of N at the smallest N, where the system is nearest linear. */
static double
usl_lambda0(const struct usl_data *d)
{
	double nmin = INFINITY, x = 0;
	int i;

	for (i = 0; i < d->k; i++) {
		if (usl_point_ok(d->n[i], d->x[i]) && d->x[i] > 0 && d->n[i] < nmin) {
			nmin = d->n[i];
			x = d->x[i] / d->scale;
		}
	}
	return isfinite(nmin) ? x / nmin : 1;
}

/*
 * Gunther's linearisation for the free ones of sigma and kappa:
 * N lambda0 / X - 1 - (the fixed terms) = sigma (N-1) + kappa N (N-1),
 * a linear fit through the origin.  Leaves p alone if it is singular.
 */
static void
usl_linearised(struct usl_state *st, const struct usl_data *d, double lambda0)
{
	double u, v, w, s11 = 0, s12 = 0, s22 = 0, b1 = 0, b2 = 0, det;
	int i;

	for (i = 0; i < d->k; i++) {
		if (!usl_point_ok(d->n[i], d->x[i]) || d->x[i] <= 0)
			continue;
		u = st->free[P_SIGMA] ? d->n[i] - 1 : 0;
		v = st->free[P_KAPPA] ? d->n[i] * (d->n[i] - 1) : 0;
		w = d->n[i] * lambda0 * d->scale / d->x[i] - 1 -
		    (st->free[P_SIGMA] ? 0 : st->p[P_SIGMA] * (d->n[i] - 1)) -
		    (st->free[P_KAPPA] ? 0 : st->p[P_KAPPA] * d->n[i] * (d->n[i] - 1));
		s11 += u * u;
		s12 += u * v;
		s22 += v * v;
		b1 += u * w;
		b2 += v * w;
	}
	if (st->free[P_SIGMA] && st->free[P_KAPPA]) {
		det = s11 * s22 - s12 * s12;
		if (det > 1e-12 * s11 * s22) {
			st->p[P_SIGMA] = (b1 * s22 - b2 * s12) / det;
			st->p[P_KAPPA] = (b2 * s11 - b1 * s12) / det;
		}
	} else if (st->free[P_SIGMA] && s11 > 0)
		st->p[P_SIGMA] = b1 / s11;
	else if (st->free[P_KAPPA] && s22 > 0)
		st->p[P_KAPPA] = b2 / s22;
}

/*
 * A starting point inside the bounds: the linearised fit, clipped, then
 * the best lambda for it.
 */
static void
usl_start(struct usl_state *st, const struct usl_data *d)
{
	if (st->free[P_SIGMA])
		st->p[P_SIGMA] = 0;
	if (st->free[P_KAPPA])
		st->p[P_KAPPA] = 0;
	usl_linearised(st, d, usl_lambda0(d));
	st->p[P_SIGMA] = fmin(fmax(st->p[P_SIGMA], 0), 1);
	st->p[P_KAPPA] = fmax(st->p[P_KAPPA], 0);
	st->p[P_LAMBDA] = usl_best_lambda(st->p, d);
}

/*
 * Fixes the first parameter that ended on its bound, where the data pushed
 * it: kappa at 0 first (Amdahl), then sigma at 0 or 1.  Returns false when
 * none did.
 */
static bool
usl_fix_bound(struct usl_state *st, bool *amdahl)
{
	if (st->free[P_KAPPA] && st->p[P_KAPPA] <= 0) {
		st->free[P_KAPPA] = false;
		st->p[P_KAPPA] = 0;
		*amdahl = true;
		return true;
	}
	if (st->free[P_SIGMA] && (st->p[P_SIGMA] <= 0 || st->p[P_SIGMA] >= 1)) {
		st->free[P_SIGMA] = false;
		st->p[P_SIGMA] = st->p[P_SIGMA] <= 0 ? 0 : 1;
		return true;
	}
	return false;
}

/*
 * Fits inside the bounds, then refits without each parameter that ended on
 * a bound, so its standard errors are those of the parameters really
 * estimated.  0, or -1 if LM did not converge.
 */
static int
usl_fit_bounded(struct usl_state *st, const struct usl_data *d, bool *amdahl)
{
	int round;

	st->free[P_SIGMA] = st->free[P_KAPPA] = st->free[P_LAMBDA] = true;
	*amdahl = false;
	for (round = 0; round <= USL_NPAR; round++) {
		usl_start(st, d);
		if (usl_lm(st, d) == -1)
			return -1;
		if (!usl_fix_bound(st, amdahl))
			return 0;
	}
	return -1;
}

/* Counts the usable points and the distinct N among them. */
static int
usl_count(const double *n, const double *x, int k, int *distinct)
{
	int i, j, used = 0;

	*distinct = 0;
	for (i = 0; i < k; i++) {
		if (!usl_point_ok(n[i], x[i]))
			continue;
		used++;
		for (j = 0; j < i; j++) {
			if (usl_point_ok(n[j], x[j]) && n[j] == n[i])
				break;
		}
		if (j == i)
			(*distinct)++;
	}
	return used;
}

/* The largest usable throughput, the scale of the fit; 0 if there is none. */
static double
usl_scale(const double *n, const double *x, int k)
{
	double m = 0;
	int i;

	for (i = 0; i < k; i++) {
		if (usl_point_ok(n[i], x[i]) && x[i] > m)
			m = x[i];
	}
	return m;
}

/* Standard errors and the rse, in the caller's units, for the parameters in st. */
static void
usl_errors(const struct usl_state *st, const struct usl_data *d, struct usl_fit *f)
{
	double a[USL_NPAR][USL_NPAR], g[USL_NPAR], dj[USL_NPAR], e[USL_NPAR], col[USL_NPAR];
	double p[USL_NPAR], se[USL_NPAR] = { NAN, NAN, NAN };
	int idx[USL_NPAR], m = usl_free_index(st, idx), j, l;
	int df = f->npoints - m;

	memcpy(p, st->p, sizeof(p));
	p[P_LAMBDA] *= d->scale;
	f->rse = sqrt(usl_sse(st->p, d) / df) * d->scale;
	usl_normal(p, d, 1, idx, m, a, g);
	usl_column_scales(a, m, dj);
	for (j = 0; j < m; j++) {
		for (l = 0; l < m; l++)
			a[j][l] /= dj[j] * dj[l];
	}
	if (usl_cholesky(a, m) == 0) {
		/* column j of the inverse of the scaled matrix; its diagonal is what we need */
		for (j = 0; j < m; j++) {
			memset(e, 0, sizeof(e));
			e[j] = 1;
			usl_cholesky_solve(a, m, e, col);
			se[idx[j]] = sqrt(col[j]) / dj[j] * f->rse;
		}
	}
	f->se_sigma = se[P_SIGMA];
	f->se_kappa = se[P_KAPPA];
	f->se_lambda = se[P_LAMBDA];
}

static void
usl_no_fit(struct usl_fit *f, const char *why)
{
	f->ok = false;
	f->sigma = f->kappa = f->lambda = 0;
	f->se_sigma = f->se_kappa = f->se_lambda = NAN;
	f->rse = 0;
	f->n_star = f->x_star = 0;
	snprintf(f->why, sizeof(f->why), "%s", why);
}

int
usl_fit(const double *n, const double *x, int k, struct usl_fit *f)
{
	struct usl_data d = { n, x, k, 0 };
	struct usl_state st;
	char why[128];
	int distinct;

	memset(f, 0, sizeof(*f));
	f->npoints = usl_count(n, x, k, &distinct);
	f->few_points = distinct < USL_FEW_DISTINCT;
	if (distinct < USL_MIN_DISTINCT) {
		snprintf(why, sizeof(why), "needs %d distinct N, has %d", USL_MIN_DISTINCT,
			 distinct);
		usl_no_fit(f, why);
		return -1;
	}
	d.scale = usl_scale(n, x, k);
	if (!(d.scale > 0)) {
		usl_no_fit(f, "throughput is zero at every N");
		return -1;
	}
	if (usl_fit_bounded(&st, &d, &f->amdahl) == -1) {
		usl_no_fit(f, "the least-squares fit did not converge");
		return -1;
	}
	f->ok = true;
	f->sigma = st.p[P_SIGMA];
	f->kappa = st.p[P_KAPPA];
	f->lambda = st.p[P_LAMBDA] * d.scale;
	usl_errors(&st, &d, f);
	f->n_star = f->kappa > 0 ? fmax(1, sqrt((1 - f->sigma) / f->kappa)) : INFINITY;
	f->x_star = usl_predict(f, f->n_star);
	usl_terms(f, usl_n_max(n, x, k));
	return 0;
}

/*
 * The model at n.  At n = INFINITY it is the limit: 0 with coherency,
 * Amdahl's ceiling lambda / sigma without, unbounded with neither.
 */
double
usl_predict(const struct usl_fit *f, double n)
{
	double p[USL_NPAR] = { f->sigma, f->kappa, f->lambda };

	if (!f->ok || isnan(n))
		return NAN;
	if (isinf(n)) {
		if (f->kappa > 0)
			return 0;
		return f->sigma > 0 ? f->lambda / f->sigma : INFINITY;
	}
	return f->lambda * n / usl_denom(p, n);
}

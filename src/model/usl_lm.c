/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Levenberg-Marquardt for the USL fit, with the analytic Jacobian,
 * Marquardt's scaling (the normal matrix is scaled to a unit diagonal, so
 * sigma, kappa and lambda, which differ by orders of magnitude, are damped
 * alike) and Nielsen's update of the damping.
 */
#include <math.h>
#include <string.h>

#include "usl_lm.h"

#define USL_MAX_ITER 500
#define USL_GTOL 1e-12
#define USL_XTOL 1e-12
#define USL_FTOL 1e-15
#define USL_MU_MAX 1e20
#define USL_MU_MIN 1e-15

/*
 * It stops on the gradient (the cosine between the residual and each column
 * of J), on the relative step, on a relative fall in the sum of squares
 * below rounding, or when no step can lower it; 500 iterations at most
 * (random data needs up to ~300 on a curved valley near sigma = 1).  Each
 * trial point is projected into the bounds (sigma in [0, 1], kappa >= 0).
 * See usl.c for the whole method.
 */

/* Cholesky factor of a symmetric m x m matrix in place (lower); -1 if not positive definite. */
int
usl_cholesky(double a[USL_NPAR][USL_NPAR], int m)
{
	double s;
	int i, j, l;

	for (j = 0; j < m; j++) {
		s = a[j][j];
		for (l = 0; l < j; l++)
			s -= a[j][l] * a[j][l];
		if (!(s > 0) || !isfinite(s))
			return -1;
		a[j][j] = sqrt(s);
		for (i = j + 1; i < m; i++) {
			s = a[i][j];
			for (l = 0; l < j; l++)
				s -= a[i][l] * a[j][l];
			a[i][j] = s / a[j][j];
		}
	}
	return 0;
}

/* Solves L L^T z = b with the factor from usl_cholesky. */
void
usl_cholesky_solve(double l[USL_NPAR][USL_NPAR], int m, const double *b, double *z)
{
	double s;
	int i, j;

	for (i = 0; i < m; i++) {
		s = b[i];
		for (j = 0; j < i; j++)
			s -= l[i][j] * z[j];
		z[i] = s / l[i][i];
	}
	for (i = m - 1; i >= 0; i--) {
		s = z[i];
		for (j = i + 1; j < m; j++)
			s -= l[j][i] * z[j];
		z[i] = s / l[i][i];
	}
}

/*
 * Column scales of J: the square roots of diag(J^T J).  A parameter with no
 * effect on the model gets 1, which leaves it undamped but harmless.
 */
void
usl_column_scales(double a[USL_NPAR][USL_NPAR], int m, double *dj)
{
	int j;

	for (j = 0; j < m; j++)
		dj[j] = a[j][j] > 0 ? sqrt(a[j][j]) : 1;
}

/* The cosine test: no column of J sees the residual any more. */
static bool
usl_gradient_small(const double *g, const double *dj, int m, double sse)
{
	int j;

	if (sse <= 0)
		return true;
	for (j = 0; j < m; j++) {
		if (fabs(g[j]) / (dj[j] * sqrt(sse)) > USL_GTOL)
			return false;
	}
	return true;
}

/*
 * The damped, scaled step: (A' + mu I) z = g' with A' = D^-1 A D^-1 and
 * g' = D^-1 g; the parameter step is D^-1 z.  Returns -1 if the system is
 * not positive definite (only when mu is tiny and J rank-deficient).
 */
static int
usl_step(double a[USL_NPAR][USL_NPAR], const double *g, const double *dj, int m, double mu,
	 double *z, double *gs)
{
	double s[USL_NPAR][USL_NPAR];
	int j, l;

	for (j = 0; j < m; j++) {
		gs[j] = g[j] / dj[j];
		for (l = 0; l < m; l++)
			s[j][l] = a[j][l] / (dj[j] * dj[l]);
		s[j][j] += mu;
	}
	if (usl_cholesky(s, m) == -1)
		return -1;
	usl_cholesky_solve(s, m, gs, z);
	return 0;
}

/* Norm of D p over the free parameters, for the relative step test. */
static double
usl_scaled_norm(const double *p, const int *idx, const double *dj, int m)
{
	double s = 0;
	int j;

	for (j = 0; j < m; j++)
		s += (dj[j] * p[idx[j]]) * (dj[j] * p[idx[j]]);
	return sqrt(s);
}

/*
 * Keeps sigma in [0, 1] and kappa >= 0 while iterating: outside the box the
 * model has poles, which data with a spike would chase for ever.
 */
static void
usl_project(const struct usl_state *st, double *p)
{
	if (st->free[P_SIGMA])
		p[P_SIGMA] = fmin(fmax(p[P_SIGMA], 0), 1);
	if (st->free[P_KAPPA])
		p[P_KAPPA] = fmax(p[P_KAPPA], 0);
}

/* The fall in the sum of squares that the linear model predicts for delta: 2 d^T g - d^T A d. */
static double
usl_predicted(double a[USL_NPAR][USL_NPAR], const double *g, const double *delta, int m)
{
	double s = 0;
	int j, l;

	for (j = 0; j < m; j++) {
		s += 2 * delta[j] * g[j];
		for (l = 0; l < m; l++)
			s -= delta[j] * a[j][l] * delta[l];
	}
	return s;
}

/*
 * Tries steps from st->p with growing damping until one lowers the sum of
 * squares.  Returns 0 when the fit should go on, 1 when it has converged:
 * by the gradient, by the step or the fall it just took, because the bounds
 * leave no step, or because no step helps any more (a minimum to working
 * precision).
 */
static int
usl_lm_iterate(struct usl_state *st, const struct usl_data *d, const int *idx, int m, double *mu,
	       double *nu, double *sse)
{
	double a[USL_NPAR][USL_NPAR], g[USL_NPAR], dj[USL_NPAR], z[USL_NPAR], gs[USL_NPAR];
	double pn[USL_NPAR], delta[USL_NPAR], sn, rho, t, zn;
	int j;

	usl_normal(st->p, d, d->scale, idx, m, a, g);
	usl_column_scales(a, m, dj);
	if (usl_gradient_small(g, dj, m, *sse))
		return 1;
	for (; *mu < USL_MU_MAX; *mu *= *nu, *nu *= 2) {
		if (usl_step(a, g, dj, m, *mu, z, gs) == -1)
			continue;
		memcpy(pn, st->p, sizeof(pn));
		for (j = 0; j < m; j++)
			pn[idx[j]] += z[j] / dj[j];
		usl_project(st, pn);
		for (j = 0, zn = 0; j < m; j++) {
			delta[j] = pn[idx[j]] - st->p[idx[j]];
			zn += dj[j] * delta[j] * dj[j] * delta[j];
		}
		if (zn == 0)
			return 1;
		sn = usl_sse(pn, d);
		rho = (*sse - sn) / usl_predicted(a, g, delta, m);
		if (!(rho > 0))
			continue;
		t = 2 * rho - 1;
		*mu = fmax(*mu * fmax(1.0 / 3, 1 - t * t * t), USL_MU_MIN);
		*nu = 2;
		memcpy(st->p, pn, sizeof(pn));
		t = *sse;
		*sse = sn;
		if (sqrt(zn) <= USL_XTOL * (usl_scaled_norm(pn, idx, dj, m) + USL_XTOL) ||
		    t - sn <= USL_FTOL * t)
			return 1;
		return 0;
	}
	return 1;
}

/* Levenberg-Marquardt over the free parameters.  0 on convergence, -1 at the cap. */
int
usl_lm(struct usl_state *st, const struct usl_data *d)
{
	double mu = 1e-3, nu = 2, sse = usl_sse(st->p, d);
	int idx[USL_NPAR], m = usl_free_index(st, idx), it;

	if (!isfinite(sse))
		return -1;
	for (it = 0; it < USL_MAX_ITER; it++) {
		if (usl_lm_iterate(st, d, idx, m, &mu, &nu, &sse) == 1)
			return 0;
	}
	return -1;
}

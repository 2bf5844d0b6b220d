/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The USL model as the fit sees it: which points count, the denominator,
 * the residuals and the Jacobian's normal equations.  The solver
 * (usl_lm.c) and the standard errors (usl.c) are built on these.
 */
#include <math.h>
#include <string.h>

#include "usl_model.h"

bool
usl_point_ok(double n, double x)
{
	return isfinite(n) && n >= 1 && isfinite(x) && x >= 0;
}

double
usl_denom(const double *p, double n)
{
	return 1 + p[P_SIGMA] * (n - 1) + p[P_KAPPA] * n * (n - 1);
}

/* False where the model is undefined: lambda <= 0 or D(N) <= 0 at some point. */
static bool
usl_params_ok(const double *p, const struct usl_data *d)
{
	int i;

	if (!(p[P_LAMBDA] > 0) || !isfinite(p[P_SIGMA]) || !isfinite(p[P_KAPPA]))
		return false;
	for (i = 0; i < d->k; i++) {
		if (usl_point_ok(d->n[i], d->x[i]) && !(usl_denom(p, d->n[i]) > 0))
			return false;
	}
	return true;
}

/* The sum of squared residuals in scaled units; INFINITY outside the model's domain. */
double
usl_sse(const double *p, const struct usl_data *d)
{
	double r, s = 0;
	int i;

	if (!usl_params_ok(p, d))
		return INFINITY;
	for (i = 0; i < d->k; i++) {
		if (!usl_point_ok(d->n[i], d->x[i]))
			continue;
		r = d->x[i] / d->scale - p[P_LAMBDA] * d->n[i] / usl_denom(p, d->n[i]);
		s += r * r;
	}
	return s;
}

/* One row of the Jacobian of the model at n, and the model's value. */
static double
usl_jacobian_row(const double *p, double n, double *row)
{
	double dd = usl_denom(p, n), f = p[P_LAMBDA] * n / dd;

	row[P_LAMBDA] = n / dd;
	row[P_SIGMA] = -f * (n - 1) / dd;
	row[P_KAPPA] = -f * n * (n - 1) / dd;
	return f;
}

/*
 * J^T J and J^T r over the free parameters (m of them, listed in idx), for
 * throughput divided by scale.
 */
void
usl_normal(const double *p, const struct usl_data *d, double scale, const int *idx, int m,
	   double a[USL_NPAR][USL_NPAR], double *g)
{
	double row[USL_NPAR], r;
	int i, j, l;

	memset(a, 0, sizeof(double) * USL_NPAR * USL_NPAR);
	memset(g, 0, sizeof(double) * USL_NPAR);
	for (i = 0; i < d->k; i++) {
		if (!usl_point_ok(d->n[i], d->x[i]))
			continue;
		r = d->x[i] / scale - usl_jacobian_row(p, d->n[i], row);
		for (j = 0; j < m; j++) {
			g[j] += row[idx[j]] * r;
			for (l = 0; l < m; l++)
				a[j][l] += row[idx[j]] * row[idx[l]];
		}
	}
}

/* Lists the free parameters in idx; returns how many there are. */
int
usl_free_index(const struct usl_state *st, int *idx)
{
	int j, m = 0;

	for (j = 0; j < USL_NPAR; j++) {
		if (st->free[j])
			idx[m++] = j;
	}
	return m;
}

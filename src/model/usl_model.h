/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the USL fit (usl.c, usl_lm.c, usl_model.c): the model
 * X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) over the data as the
 * fit sees it, its residuals and its normal equations.
 */
#ifndef SCALETOP_MODEL_USL_MODEL_H
#define SCALETOP_MODEL_USL_MODEL_H

#include <stdbool.h>

#define USL_NPAR 3

enum { P_SIGMA, P_KAPPA, P_LAMBDA };

/* The data as the fit sees it: y = x / scale. */
struct usl_data {
	const double *n, *x;
	int k;
	double scale;
};

/* The parameters, and which of them are being fitted (not fixed at a bound). */
struct usl_state {
	double p[USL_NPAR];
	bool free[USL_NPAR];
};

/* A point the fit uses: finite, N >= 1 and a throughput >= 0. */
bool usl_point_ok(double n, double x);
/* D(N) = 1 + sigma (N-1) + kappa N (N-1). */
double usl_denom(const double *p, double n);
/* The sum of squared residuals in scaled units; INFINITY outside the model's domain. */
double usl_sse(const double *p, const struct usl_data *d);
/*
 * J^T J into a and J^T r into g over the free parameters (m of them, listed
 * in idx), for throughput divided by scale.
 */
void usl_normal(const double *p, const struct usl_data *d, double scale, const int *idx, int m,
		double a[USL_NPAR][USL_NPAR], double *g);
/* Lists the free parameters in idx; returns how many there are. */
int usl_free_index(const struct usl_state *st, int *idx);

#endif

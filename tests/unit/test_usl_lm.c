/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The USL fit's insides (src/model/usl_model.h, usl_lm.h): the model's
 * residuals, the Cholesky solve and the Levenberg-Marquardt solver, on data
 * drawn from known parameters.
 */
#include <math.h>
#include <string.h>

#include "../../src/model/usl_lm.h"
#include "../tap.h"

#define NPTS 8

static void
model_points(double sigma, double kappa, double lambda, double *n, double *x)
{
	double p[USL_NPAR];
	int i;

	p[P_SIGMA] = sigma;
	p[P_KAPPA] = kappa;
	p[P_LAMBDA] = lambda;
	for (i = 0; i < NPTS; i++) {
		n[i] = 1 << i;
		x[i] = lambda * n[i] / usl_denom(p, n[i]);
	}
}

static void
test_model(void)
{
	double n[NPTS], x[NPTS], p[USL_NPAR] = { 0.05, 0.001, 1000 };
	struct usl_data d = { n, x, NPTS, 1 };
	struct usl_state st;
	int idx[USL_NPAR];

	model_points(0.05, 0.001, 1000, n, x);
	ok(usl_point_ok(1, 0) && !usl_point_ok(0.5, 1) && !usl_point_ok(2, -1) &&
		   !usl_point_ok(NAN, 1) && !usl_point_ok(2, INFINITY),
	   "usl_point_ok: N >= 1, throughput finite and >= 0");
	is_double(usl_denom(p, 1), 1, 0, "usl_denom: 1 at N = 1");
	is_double(usl_denom(p, 3), 1 + 0.05 * 2 + 0.001 * 6, 1e-15, "usl_denom at N = 3");
	is_double(usl_sse(p, &d), 0, 1e-18, "usl_sse: 0 on the model's own points");
	p[P_LAMBDA] = -1;
	ok(isinf(usl_sse(p, &d)), "usl_sse: INFINITY outside the domain (lambda <= 0)");
	memset(&st, 0, sizeof(st));
	st.free[P_SIGMA] = st.free[P_LAMBDA] = true;
	ok(usl_free_index(&st, idx) == 2 && idx[0] == P_SIGMA && idx[1] == P_LAMBDA,
	   "usl_free_index lists the free parameters in order");
}

static void
test_cholesky(void)
{
	/* A = L L^T with L = [2 0 0; 1 3 0; 0.5 -1 1] */
	double a[USL_NPAR][USL_NPAR] = { { 4, 2, 1 }, { 2, 10, -2.5 }, { 1, -2.5, 2.25 } };
	double b[USL_NPAR] = { 7, 9.5, 0.75 }, z[USL_NPAR];
	double bad[USL_NPAR][USL_NPAR] = { { 1, 2, 0 }, { 2, 1, 0 }, { 0, 0, 1 } };

	ok(usl_cholesky(a, 3) == 0, "usl_cholesky: a positive definite matrix");
	is_double(a[0][0], 2, 1e-15, "  L[0][0]");
	is_double(a[1][0], 1, 1e-15, "  L[1][0]");
	is_double(a[1][1], 3, 1e-15, "  L[1][1]");
	is_double(a[2][1], -1, 1e-15, "  L[2][1]");
	is_double(a[2][2], 1, 1e-15, "  L[2][2]");
	/* A (1, 1, 1) = (7, 9.5, 0.75) */
	usl_cholesky_solve(a, 3, b, z);
	ok(fabs(z[0] - 1) < 1e-12 && fabs(z[1] - 1) < 1e-12 && fabs(z[2] - 1) < 1e-12,
	   "usl_cholesky_solve: A z = b gives z = (1, 1, 1)");
	ok(usl_cholesky(bad, 3) == -1, "usl_cholesky: -1 when not positive definite");
}

static void
test_lm(void)
{
	double n[NPTS], x[NPTS];
	struct usl_data d = { n, x, NPTS, 0 };
	struct usl_state st;
	int i;

	model_points(0.08, 0.0005, 2500, n, x);
	for (i = 0; i < NPTS; i++)
		d.scale = fmax(d.scale, x[i]);
	st.p[P_SIGMA] = 0.2;
	st.p[P_KAPPA] = 0.002;
	st.p[P_LAMBDA] = 1;
	st.free[P_SIGMA] = st.free[P_KAPPA] = st.free[P_LAMBDA] = true;
	ok(usl_lm(&st, &d) == 0, "usl_lm converges from a start away from the answer");
	is_double(st.p[P_SIGMA], 0.08, 1e-9, "  sigma");
	is_double(st.p[P_KAPPA], 0.0005, 1e-11, "  kappa");
	is_double(st.p[P_LAMBDA] * d.scale, 2500, 1e-6, "  lambda, in the caller's units");

	st.p[P_SIGMA] = 0.2;
	st.p[P_KAPPA] = 0;
	st.p[P_LAMBDA] = 1;
	st.free[P_KAPPA] = false;
	ok(usl_lm(&st, &d) == 0 && st.p[P_KAPPA] == 0, "usl_lm leaves a fixed parameter alone");

	st.p[P_LAMBDA] = -1;
	st.free[P_KAPPA] = true;
	ok(usl_lm(&st, &d) == -1, "usl_lm: -1 from a start outside the domain");
}

int
main(void)
{
	test_model();
	test_cholesky();
	test_lm();
	return done_testing();
}

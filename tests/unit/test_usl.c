/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The USL fit against published reference fits, on exact synthetic curves,
 * and on degenerate input.
 *
 * References:
 * - R package "usl" (Stefan Moeding), tests/coef.R and tests/usl-nls.R: the
 *   synthetic set N = 1,2,4,6,8,10 gives sigma = kappa = 0.02, lambda = 1
 *   to 3 significant digits.
 * - Cisco benchmark, B. Schwartz, "Practical Scalability Analysis with the
 *   Universal Scalability Law" (VividCortex, 2015), as tabulated with the
 *   book's fit in codahale/usl4j ModelTest.java: sigma 0.02671591,
 *   kappa 7.690945e-4, lambda 995.6486, X(35) = 12341.75.
 * - SPEC SDM91 on a Sun SPARCcenter 2000, N. J. Gunther, "Guerrilla
 *   Capacity Planning" (Springer, 2007), dataset specsdm91 of the R "usl"
 *   package, whose tests/summary.Rout.save prints sigma 2.773e-02 (SE
 *   9.122e-03), kappa 1.044e-04 (SE 1.988e-05), lambda 9.000e+01 (SE
 *   1.421e+01), residual standard error 82.85 on 4 df; peak-scalability.Rout
 *   gives N* = 97 and fitted.Rout.save the fitted values.
 * - Ray tracer on an SGI Origin 2000, Gunther (2007), dataset raytracer of
 *   the R "usl" package: kappa is bounded at 0, and tests/confint.Rout.save
 *   prints sigma 0.0578, lambda 21.8488.  (R keeps kappa in its covariance
 *   there, so its standard errors are not comparable with an Amdahl refit.)
 */
#include <math.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "../tap.h"

static const double syn_n[] = { 1, 2, 4, 6, 8, 10 };
static const double syn_x[] = { 1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557 };

static const double cisco_x[] = {
	955.16,   1878.91,  2688.01,  3548.68,  4315.54,  5130.43,  5931.37, 6531.08,
	7219.8,   7867.61,  8278.71,  8646.7,   9047.84,  9426.55,  9645.37, 9897.24,
	10097.6,  10240.5,  10532.39, 10798.52, 11151.43, 11518.63, 11806,   12089.37,
	12075.41, 12177.29, 12211.41, 12158.93, 12155.27, 12118.04, 12140.4, 12074.39,
};

static const double sdm_n[] = { 1, 18, 36, 72, 108, 144, 216 };
static const double sdm_x[] = { 64.9, 995.9, 1652.4, 1853.2, 1828.9, 1775.0, 1702.2 };

static const double ray_n[] = { 1, 4, 8, 12, 16, 20, 24, 28, 32, 48, 64 };
static const double ray_x[] = { 20, 78, 130, 170, 190, 200, 210, 230, 260, 280, 310 };

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* |got - want| <= rel |want| */
static int
is_rel(double got, double want, double rel, const char *name)
{
	return is_double(got, want, rel * fabs(want), name);
}

static double
model(double sigma, double kappa, double lambda, double n)
{
	return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

static double
sse(const struct usl_fit *f, const double *n, const double *x, int k)
{
	double s = 0, r;
	int i;

	for (i = 0; i < k; i++) {
		r = x[i] - model(f->sigma, f->kappa, f->lambda, n[i]);
		s += r * r;
	}
	return s;
}

static bool
all_finite(const struct usl_fit *f)
{
	return isfinite(f->sigma) && isfinite(f->kappa) && isfinite(f->lambda) &&
	       isfinite(f->rse) && !isnan(f->n_star) && !isnan(f->x_star);
}

static void
test_r_synthetic(void)
{
	struct usl_fit f;

	is_int(usl_fit(syn_n, syn_x, 6, &f), 0, "R usl synthetic set: fitted");
	is_double(f.sigma, 0.02, 0.00005, "R usl synthetic: sigma = 0.0200");
	is_double(f.kappa, 0.02, 0.00005, "R usl synthetic: kappa = 0.0200");
	is_double(f.lambda, 1.0, 0.0005, "R usl synthetic: lambda = 1.00");
	ok(!f.amdahl && !f.few_points, "R usl synthetic: a full USL fit from 6 points");
	is_int(f.npoints, 6, "R usl synthetic: 6 points used");
	is_double(f.n_star, sqrt(0.98 / 0.02), 0.01, "R usl synthetic: N* = sqrt(49) = 7");
	ok(f.rse < 1e-4, "R usl synthetic: the rounded data leave rse %g < 1e-4", f.rse);
}

static void
test_cisco(void)
{
	double n[NELEM(cisco_x)];
	struct usl_fit f, g;
	double s0;
	int i, j, lower = 0;

	for (i = 0; i < NELEM(cisco_x); i++)
		n[i] = i + 1;
	is_int(usl_fit(n, cisco_x, NELEM(cisco_x), &f), 0, "Cisco (Schwartz): fitted");
	is_rel(f.sigma, 0.02671591, 2e-4, "Cisco: sigma as in the book, 0.02%");
	is_rel(f.kappa, 7.690945e-4, 2e-4, "Cisco: kappa as in the book, 0.02%");
	is_rel(f.lambda, 995.6486, 2e-4, "Cisco: lambda as in the book, 0.02%");
	is_rel(usl_predict(&f, 35), 12341.7456, 2e-4, "Cisco: X(35) as in the book");
	is_int((int)f.n_star, 35, "Cisco: N* = 35 as in the book");
	is_double(f.x_star, usl_predict(&f, f.n_star), 1e-9, "Cisco: X* is the model at N*");
	ok(f.x_star >= usl_predict(&f, 35) && f.x_star >= usl_predict(&f, 36),
	   "Cisco: X* is the model's maximum");
	is_str(usl_term_names[f.bound_measured], "contention",
	       "Cisco: contention's term is the larger at N 32 (sigma > 32 kappa)");
	is_str(usl_term_names[f.bound_at_peak], "coherency",
	       "Cisco: coherency's is the larger at N* 35 (35 kappa > sigma)");
	is_double(f.n_cross, f.sigma / f.kappa, 1e-12, "Cisco: the terms cross at sigma/kappa");
	ok(!f.n_star_extrapolated, "Cisco: N* 35 is within 2x the largest N 32");
	ok(!f.amdahl && !f.few_points, "Cisco: full fit, 32 points");

	/* a least-squares minimum: every small move of a parameter raises the SSE */
	s0 = sse(&f, n, cisco_x, NELEM(cisco_x));
	for (i = 0; i < 3; i++) {
		for (j = -1; j <= 1; j += 2) {
			g = f;
			if (i == 0)
				g.sigma *= 1 + j * 1e-4;
			else if (i == 1)
				g.kappa *= 1 + j * 1e-4;
			else
				g.lambda *= 1 + j * 1e-4;
			lower += sse(&g, n, cisco_x, NELEM(cisco_x)) < s0;
		}
	}
	is_int(lower, 0, "Cisco: no neighbouring parameters fit better");
}

static void
test_specsdm91(void)
{
	static const double fitted[] = { 90, 1078, 1541, 1850, 1879, 1822, 1646 };
	struct usl_fit f;
	int i, off = 0;

	is_int(usl_fit(sdm_n, sdm_x, 7, &f), 0, "SPEC SDM91 (Gunther): fitted");
	is_double(f.sigma, 2.773e-2, 0.0005e-2, "SDM91: sigma 2.773e-02");
	is_double(f.kappa, 1.044e-4, 0.0005e-4, "SDM91: kappa 1.044e-04");
	is_double(f.lambda, 90.00, 0.05, "SDM91: lambda 9.000e+01");
	is_double(f.se_sigma, 9.122e-3, 0.0005e-3, "SDM91: SE(sigma) 9.122e-03");
	is_double(f.se_kappa, 1.988e-5, 0.0005e-5, "SDM91: SE(kappa) 1.988e-05");
	is_double(f.se_lambda, 14.21, 0.005, "SDM91: SE(lambda) 1.421e+01");
	is_double(f.rse, 82.85, 0.005, "SDM91: residual standard error 82.85 on 4 df");
	is_double(f.n_star, 97, 0.5, "SDM91: N* = 97 to 2 significant digits");
	for (i = 0; i < 7; i++)
		off += fabs(usl_predict(&f, sdm_n[i]) - fitted[i]) > 0.5;
	is_int(off, 0, "SDM91: fitted values as printed by R");
	is_str(usl_term_names[f.bound_measured], "contention", "SDM91: contention at N 216");
	is_str(usl_term_names[f.bound_at_peak], "contention", "SDM91: contention at N* 97");
}

static void
test_raytracer(void)
{
	struct usl_fit f;

	is_int(usl_fit(ray_n, ray_x, NELEM(ray_n), &f), 0, "ray tracer (Gunther): fitted");
	ok(f.amdahl, "ray tracer: kappa came out negative, refitted as Amdahl");
	is_double(f.kappa, 0, 0, "ray tracer: kappa = 0");
	is_double(f.sigma, 0.0578, 0.00005, "ray tracer: sigma 0.0578");
	is_double(f.lambda, 21.8488, 0.00005, "ray tracer: lambda 21.8488");
	ok(isnan(f.se_kappa), "ray tracer: no standard error for a kappa fixed at 0");
	ok(isfinite(f.se_sigma) && f.se_sigma > 0, "ray tracer: SE(sigma) %g", f.se_sigma);
	ok(isinf(f.n_star), "ray tracer: no peak without coherency (N* infinite)");
	ok(f.bound_measured == USL_TERM_CONTENTION && f.bound_at_peak == USL_TERM_CONTENTION,
	   "ray tracer: without kappa, contention dominates everywhere");
	ok(!f.n_star_extrapolated && isinf(f.n_cross), "ray tracer: no peak to extrapolate");
	is_double(f.x_star, f.lambda / f.sigma, 1e-9, "ray tracer: X* is Amdahl's ceiling");
}

/* Exact curves from known parameters are recovered, with or without N = 1. */
static void
test_exact_curves(void)
{
	static const double n[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const double n2[] = { 2, 4, 8, 16, 32, 64 };
	double x[7], x2[6];
	struct usl_fit f;
	int i;

	for (i = 0; i < 7; i++)
		x[i] = model(0.05, 0.001, 1000, n[i]);
	usl_fit(n, x, 7, &f);
	is_rel(f.sigma, 0.05, 1e-6, "exact: sigma 0.05 recovered");
	is_rel(f.kappa, 0.001, 1e-6, "exact: kappa 0.001 recovered");
	is_rel(f.lambda, 1000, 1e-6, "exact: lambda 1000 recovered");
	ok(f.rse < 1e-6, "exact: rse ~ 0");
	/* sigma is 50 kappa, but kappa multiplies N (N-1): at N 64 its term is the larger */
	is_str(usl_term_names[f.bound_measured], "coherency",
	       "exact: sigma > kappa, yet coherency dominates at N 64 (64 kappa > sigma)");
	is_double(f.n_max, 64, 0, "exact: the largest measured N is 64");

	for (i = 0; i < 6; i++)
		x2[i] = model(0.001, 0.01, 2.5e6, n2[i]);
	usl_fit(n2, x2, 6, &f);
	is_rel(f.sigma, 0.001, 1e-4, "exact without N=1: sigma 0.001 recovered");
	is_rel(f.kappa, 0.01, 1e-6, "exact without N=1: kappa 0.01 recovered");
	is_rel(f.lambda, 2.5e6, 1e-6, "exact without N=1: lambda recovered");
	ok(f.bound_measured == USL_TERM_COHERENCY && f.bound_at_peak == USL_TERM_COHERENCY,
	   "kappa > sigma: coherency dominates at N 64 and at N*");
}

/* The fit does not depend on units, the order of the points or repeats. */
/* N* far beyond the measured N is flagged: beyond 2x the largest N. */
static void
test_extrapolation(void)
{
	static const double n[] = { 1, 2, 4, 8, 16, 40, 64 };
	double x[7];
	struct usl_fit f;
	int i;

	/* N* = sqrt(0.98 / 0.0002) = 70 */
	for (i = 0; i < 7; i++)
		x[i] = model(0.02, 0.0002, 100, n[i]);
	usl_fit(n, x, 5, &f);
	is_double(f.n_star, 70, 0.01, "far: N* 70 from N 1 to 16");
	ok(f.n_star_extrapolated, "far: N* 70 > 2 x 16 is an extrapolation");
	is_str(usl_term_names[f.bound_measured], "contention",
	       "far: contention dominates at N 16 (16 kappa < sigma)");
	is_str(usl_term_names[f.bound_at_peak], "contention",
	       "far: still contention at N* 70 (70 kappa < sigma)");
	is_double(f.n_cross, 100, 1e-6, "far: coherency would take over above N 100");
	usl_fit(n, x, 6, &f);
	ok(!f.n_star_extrapolated, "near: N* 70 < 2 x 40 is not");
	usl_fit(n, x, 7, &f);
	ok(!f.n_star_extrapolated, "measured past: N* 70 < 64 is not");
}

/* Only the points the fit uses count towards the largest N. */
static void
test_n_max(void)
{
	static const double n[] = { 1, 2, 4, 8, 100, NAN };
	static const double x[] = { 1, 2, 3, 4, NAN, 5 };

	is_double(usl_n_max(n, x, 6), 8, 0, "n_max skips a NaN throughput and a NaN N");
	is_double(usl_n_max(n, x, 0), 0, 0, "n_max of no points is 0");
	ok(usl_larger_term(0, 0, 8) == USL_TERM_NONE, "no sigma, no kappa: neither term");
	ok(usl_larger_term(0.1, 0.01, 10) == USL_TERM_CONTENTION,
	   "equal terms (sigma = kappa N) count as contention");
}

static void
test_invariance(void)
{
	static const double rn[] = { 10, 1, 8, 2, 6, 4, 4 };
	static const int perm[] = { 6, 4, 2, 0, 1, 5, 3 };
	double big[6], rx[7], sn[7], sx[7];
	struct usl_fit f, g;
	int i;

	usl_fit(syn_n, syn_x, 6, &f);
	for (i = 0; i < 6; i++)
		big[i] = syn_x[i] * 1e9;
	usl_fit(syn_n, big, 6, &g);
	is_rel(g.sigma, f.sigma, 1e-8, "x * 1e9: same sigma");
	is_rel(g.kappa, f.kappa, 1e-8, "x * 1e9: same kappa");
	is_rel(g.lambda, f.lambda * 1e9, 1e-8, "x * 1e9: lambda * 1e9");
	is_rel(g.rse, f.rse * 1e9, 1e-5, "x * 1e9: rse * 1e9");

	for (i = 0; i < 7; i++)
		rx[i] = model(0.02, 0.02, 1, rn[i]);
	ok(usl_fit(rn, rx, 7, &g) == 0 && g.npoints == 7, "unsorted with a repeat: 7 points");
	ok(!g.few_points, "7 points at 6 distinct N: not flagged");
	is_rel(g.sigma, 0.02, 1e-6, "unsorted with a repeat: sigma exact");
	is_rel(g.kappa, 0.02, 1e-6, "unsorted with a repeat: kappa exact");

	rx[6] *= 1.05; /* the repeat of N = 4, 5% high: the order must not matter */
	usl_fit(rn, rx, 7, &g);
	for (i = 0; i < 7; i++) {
		sn[i] = rn[perm[i]];
		sx[i] = rx[perm[i]];
	}
	usl_fit(sn, sx, 7, &f);
	is_rel(f.sigma, g.sigma, 1e-8, "reordered points: same sigma");
	is_rel(f.kappa, g.kappa, 1e-8, "reordered points: same kappa");
	is_rel(f.rse, g.rse, 1e-8, "reordered points: same rse");
	ok(fabs(g.sigma - 0.02) > 1e-4, "a 5%% outlier does move the fit (sigma %g)", g.sigma);
}

static void
test_too_few(void)
{
	static const double n[] = { 1, 2, 4, 8, 16, 32 };
	static const double x[] = { 1, 1.9, 3.5, 6, 9, 11 };
	static const double rep_n[] = { 1, 1, 2, 2, 4, 4 };
	static const double rep4_n[] = { 1, 2, 4, 8, 8, 8 };
	struct usl_fit f;

	is_int(usl_fit(n, x, 3, &f), -1, "3 points: no fit");
	ok(!f.ok && strstr(f.why, "4") != NULL, "3 points: says why (%s)", f.why);
	ok(all_finite(&f), "3 points: no NaN in the figures");
	is_int(usl_fit(rep_n, x, 6, &f), -1, "6 points at 3 distinct N: no fit");
	ok(usl_fit(rep4_n, x, 6, &f) == 0 && f.few_points, "6 points at 4 distinct N: flagged");
	ok(usl_fit(n, x, 4, &f) == 0 && f.few_points, "4 points: a fit, flagged");
	ok(usl_fit(n, x, 5, &f) == 0 && f.few_points, "5 points: a fit, flagged");
	ok(usl_fit(n, x, 6, &f) == 0 && !f.few_points, "6 points: a fit, not flagged");
	ok(usl_fit(n, x, 0, &f) == -1 && !f.ok, "no points: no fit");
	ok(isnan(usl_predict(&f, 4)), "no fit: no prediction");
}

static void
test_degenerate(void)
{
	static const double n[] = { 1, 2, 4, 8, 16 };
	static const double flat[] = { 5e3, 5e3, 5e3, 5e3, 5e3 };
	static const double zero[] = { 0, 0, 0, 0, 0 };
	static const double some0[] = { 1, 2, 0, 4, 0 };
	static const double super[] = { 1, 2.3, 5, 11, 24 };
	static const double falling[] = { 5, 4, 3.1, 2.4, 2 };
	static const double spike[] = { 121.292, 42.6154, 69.4838, 50.9658, 191.818 };
	double nan_x[] = { 1, NAN, 3.1, 5.5, 8.2 };
	double inf_n[] = { 1, INFINITY, 4, 8, 16 };
	struct usl_fit f;

	is_int(usl_fit(n, flat, 5, &f), 0, "all X equal: fitted");
	is_double(f.sigma, 1, 1e-9, "all X equal: sigma 1 (pure contention)");
	is_double(f.kappa, 0, 1e-9, "all X equal: kappa 0");
	is_double(f.lambda, 5e3, 1e-6, "all X equal: lambda = X");
	is_double(f.x_star, 5e3, 1e-6, "all X equal: X* = X");
	ok(all_finite(&f), "all X equal: no NaN");

	is_int(usl_fit(n, zero, 5, &f), -1, "all zero: no fit");
	ok(all_finite(&f) && f.why[0] != '\0', "all zero: says why, no NaN (%s)", f.why);

	is_int(usl_fit(n, some0, 5, &f), 0, "some zeros: fitted");
	ok(all_finite(&f) && f.sigma >= 0 && f.sigma <= 1 && f.kappa >= 0,
	   "some zeros: finite and within bounds");

	is_int(usl_fit(n, nan_x, 5, &f), 0, "a NaN point is left out");
	is_int(f.npoints, 4, "a NaN point: 4 points used");
	ok(all_finite(&f), "a NaN point: no NaN out");
	nan_x[2] = NAN;
	is_int(usl_fit(n, nan_x, 5, &f), -1, "two NaN points: too few left");

	is_int(usl_fit(inf_n, super, 5, &f), 0, "an infinite N is left out");
	is_int(f.npoints, 4, "an infinite N: 4 points used");

	is_int(usl_fit(n, falling, 5, &f), 0, "falling from N=1: fitted");
	ok(f.sigma == 1 && f.kappa > 0, "falling from N=1: sigma 1 and coherency");
	is_double(f.n_star, 1, 0, "falling from N=1: the model peaks at N* = 1, not below");
	is_double(f.x_star, f.lambda, 1e-12, "falling from N=1: X* = X(1)");

	/* a spike at the end: unbounded, D(N) would chase a pole and never converge */
	is_int(usl_fit(n, spike, 5, &f), 0, "noise with a spike: fitted");
	ok(all_finite(&f) && f.sigma >= 0 && f.sigma <= 1 && f.kappa >= 0,
	   "noise with a spike: finite and within bounds");

	is_int(usl_fit(n, super, 5, &f), 0, "superlinear: fitted");
	ok(f.sigma == 0 && f.kappa == 0 && f.amdahl, "superlinear: sigma and kappa held at 0");
	ok(isnan(f.se_sigma) && isfinite(f.se_lambda), "superlinear: SE only for lambda");
	ok(isinf(f.n_star) && isinf(f.x_star), "superlinear: unbounded (N*, X* infinite)");
}

/* A retrograde curve with deterministic +-2% noise: near the truth, rse near the noise. */
static void
test_noisy(void)
{
	static const double noise[] = { 0.01, -0.02, 0.015, -0.005, 0.02, -0.015, 0.005, -0.01 };
	static const double n[] = { 1, 2, 4, 8, 12, 16, 24, 32 };
	double x[8];
	struct usl_fit f;
	int i;

	for (i = 0; i < 8; i++)
		x[i] = model(0.03, 0.002, 1e5, n[i]) * (1 + noise[i]);
	is_int(usl_fit(n, x, 8, &f), 0, "noisy retrograde: fitted");
	is_double(f.sigma, 0.03, 0.01, "noisy: sigma within 0.01 of 0.03");
	is_double(f.kappa, 0.002, 0.0005, "noisy: kappa within 0.0005 of 0.002");
	ok(fabs(f.sigma - 0.03) < 3 * f.se_sigma, "noisy: sigma within 3 SE of the truth");
	ok(f.rse > 100 && f.rse < 1e4, "noisy: rse %g of the order of the noise", f.rse);
	is_double(f.n_star, sqrt(0.97 / 0.002), 5, "noisy: N* near 22");
}

int
main(void)
{
	test_r_synthetic();
	test_cisco();
	test_specsdm91();
	test_raytracer();
	test_exact_curves();
	test_extrapolation();
	test_n_max();
	test_invariance();
	test_too_few();
	test_degenerate();
	test_noisy();
	return done_testing();
}

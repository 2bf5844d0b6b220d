/* SPDX-License-Identifier: BSD-2-Clause */
/* Interval statistics and Student's t quantile for the 95% CI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/stats.h"

#define STATS_EXACT_DF 300
#define STATS_Z975 1.959963984540054 /* normal quantile of 0.975 */
#define STATS_PI 3.14159265358979323846

/*
 * The t quantile is computed, not looked up: for integer df, P(|T| < t) has
 * a closed form in theta = atan(t / sqrt(df)) (Abramowitz & Stegun 26.7.3
 * and 26.7.4), a finite series of df/2 terms, which bisection inverts to full
 * double precision.  Beyond df = 300 the series gets long and the
 * Cornish-Fisher expansion (A&S 26.7.5) is already exact to ~1e-13.
 */

/* P(|T| < t) for Student's t with df degrees of freedom, df >= 1. */
static double
stats_t_central(double t, unsigned long df)
{
	double theta = atan(t / sqrt((double)df));
	double c2 = cos(theta) * cos(theta), term = 1, sum = 1;
	unsigned long k;

	if (df % 2 == 1) {
		/* odd: 2/pi [theta + sin cos (1 + 2/3 c2 + 2.4/3.5 c2^2 + ...)], to c2^((df-3)/2)
		 */
		if (df == 1)
			return 2 * theta / STATS_PI;
		for (k = 1; 2 * k + 1 <= df - 1; k++) {
			term *= c2 * (double)(2 * k) / (double)(2 * k + 1);
			sum += term;
		}
		return 2 / STATS_PI * (theta + sin(theta) * cos(theta) * sum);
	}
	/* even: sin (1 + 1/2 c2 + 1.3/2.4 c2^2 + ...), to c2^((df-2)/2) */
	for (k = 1; 2 * k <= df - 2; k++) {
		term *= c2 * (double)(2 * k - 1) / (double)(2 * k);
		sum += term;
	}
	return sin(theta) * sum;
}

/* Inverts stats_t_central by bisection: it is increasing in t. */
static double
stats_t95_exact(unsigned long df)
{
	double lo = 0, hi = 2, mid;
	int i;

	while (stats_t_central(hi, df) < 0.95)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 0; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (stats_t_central(mid, df) < 0.95)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* A&S 26.7.5: t = z + g1/df + g2/df^2 + g3/df^3 + g4/df^4 */
static double
stats_t95_expansion(unsigned long df)
{
	const double x = STATS_Z975, x2 = x * x, n = (double)df;
	double g1, g2, g3, g4;

	g1 = (x2 + 1) * x / 4;
	g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
	g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
	g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160;
	return x + (g1 + (g2 + (g3 + g4 / n) / n) / n) / n;
}

double
stats_t_p2(double t, unsigned long df)
{
	double p;

	if (!isfinite(t))
		return isnan(t) ? NAN : 0;
	if (df < 1)
		return 1;
	t = fabs(t);
	/* The series has df/2 terms; far out the normal's tail is as good. */
	p = df <= 10000 ? 1 - stats_t_central(t, df) : erfc(t / sqrt(2.0));
	return p < 0 ? 0 : p;
}

double
stats_t95(unsigned long df)
{
	if (df < 1)
		return 0;
	if (df <= STATS_EXACT_DF)
		return stats_t95_exact(df);
	return stats_t95_expansion(df);
}

static int
stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
stats_median(struct stats *st, const double *x, size_t n)
{
	double *s;

	if ((s = malloc(n * sizeof(*s))) == NULL)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp);
	if (n % 2 == 1)
		st->median = s[n / 2];
	else
		st->median = s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
	free(s);
	return 0;
}

/*
 * Mean as a running update (no overflowing sum), then the corrected
 * two-pass sum of squares: the second sum cancels the first pass's rounding.
 */
static void
stats_moments(struct stats *st, const double *x, size_t n)
{
	double ss = 0, comp = 0, d;
	size_t i;

	st->mean = 0;
	for (i = 0; i < n; i++)
		st->mean += (x[i] - st->mean) / (double)(i + 1);
	if (st->min == st->max) {
		st->mean = st->min; /* constant series: exactly, with no spread from rounding */
		return;
	}
	for (i = 0; i < n; i++) {
		d = x[i] - st->mean;
		ss += d * d;
		comp += d;
	}
	ss -= comp * comp / (double)n;
	st->stddev = ss > 0 ? sqrt(ss / (double)(n - 1)) : 0;
}

/*
 * Interval throughputs are not independent: a lock's owner keeps it for a
 * while, so fast and slow intervals come in runs.  With lag-1
 * autocorrelation r > 0 the samples are worth only n(1-r)/(1+r) independent
 * ones (the AR(1) effective size), and the CI widens to match.
 */
double
stats_neff(const struct stats *st, const double *x, size_t n)
{
	double num = 0, den = 0, r, neff;
	size_t i;

	if (n < 4 || n != st->n)
		return (double)st->n;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return (double)st->n;
		den += (x[i] - st->mean) * (x[i] - st->mean);
	}
	for (i = 0; i + 1 < n; i++)
		num += (x[i] - st->mean) * (x[i + 1] - st->mean);
	if (!(den > 0) || !(num > 0))
		return (double)n;
	r = num / den;
	neff = (double)n * (1 - r) / (1 + r);
	return neff < 2 ? 2 : neff;
}

static double
stats_ci_autocorrelated(const struct stats *st, const double *x, size_t n)
{
	double neff = stats_neff(st, x, n);

	if (!(neff < (double)n))
		return st->ci95;
	return stats_t95((unsigned long)neff - 1) * st->stddev / sqrt(neff);
}

int
stats_compute(struct stats *st, const double *x, size_t n)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -1;
	}
	st->min = st->max = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < st->min)
			st->min = x[i];
		if (x[i] > st->max)
			st->max = x[i];
	}
	if (stats_median(st, x, n) != 0) {
		memset(st, 0, sizeof(*st));
		return -1;
	}
	st->n = n;
	stats_moments(st, x, n);
	if (n >= 2) {
		st->ci95 = stats_t95(n - 1) * st->stddev / sqrt((double)n);
		st->have_spread = true;
		stats_fill_ci95_ac(st, x, n);
	}
	if (!isfinite(st->mean) || !isfinite(st->stddev) || !isfinite(st->ci95)) {
		memset(st, 0, sizeof(*st)); /* finite samples near DBL_MAX can still overflow */
		return -1;
	}
	return 0;
}

double
stats_ci(const struct stats *st)
{
	return st->ci95_ac > st->ci95 ? st->ci95_ac : st->ci95;
}

bool
stats_is_wide(const struct stats *st)
{
	if (!st->have_spread)
		return false;
	if (!(st->mean > 0)) /* nothing counted: no rate is known */
		return true;
	return !(stats_ci(st) <= STATS_WIDE_CI_FRAC * st->mean);
}

bool
stats_is_noisy(const struct stats *st)
{
	if (!st->have_spread || !(st->mean > 0))
		return false;
	return stats_ci(st) > STATS_NOISY_CI_FRAC * st->mean;
}

void
stats_fill_ci95_ac(struct stats *st, const double *x, size_t n)
{
	size_t i;

	st->ci95_ac = st->ci95;
	if (!st->have_spread || n != st->n || n < 2)
		return;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return;
	}
	st->ci95_ac = stats_ci_autocorrelated(st, x, n);
	if (!(st->ci95_ac >= st->ci95))
		st->ci95_ac = st->ci95;
}

bool
stats_is_stable(const struct stats *st, double pct)
{
	if (!st->have_spread || !(pct > 0) || !(st->mean > 0))
		return false;
	return st->ci95_ac <= pct / 100 * st->mean;
}

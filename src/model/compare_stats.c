/*
 * compare's statistics: each side's mean, standard error and degrees of
 * freedom at one N, Welch's t between two sides with a noise floor, and
 * the geometric mean of the ratios across N (compare_stats.h; the reasoning
 * and the measured figures are in docs/statistics.md).
 */
#include <math.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/compare_stats.h"
#include "scaletop/stats.h"

/* One run: its intervals, worth neff independent samples (stats_neff). */
static void
cmp_side_intervals(const struct step *st, struct cmp_side *side)
{
	double neff;

	if (!st->st.have_spread || !isfinite(st->st.stddev))
		return;
	neff = stats_neff(&st->st, st->iv, st->niv > 0 ? (size_t)st->niv : 0);
	if (!(neff >= 2))
		return;
	side->se = st->st.stddev / sqrt(neff);
	side->df = neff - 1;
	side->unit = CMP_UNIT_INTERVALS;
}

int
cmp_side_at(const struct session *s, int n, struct cmp_side *side)
{
	const struct step *st, *one = NULL;
	double sum = 0, dev = 0;
	int i, r = 0;

	side->runs = 0;
	side->mean = side->se = side->df = NAN;
	side->unit = CMP_UNIT_NONE;
	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n == n && step_usable(st) && isfinite(st->ops_s)) {
			sum += st->ops_s;
			one = st;
			r++;
		}
	}
	if (r == 0)
		return 0;
	side->runs = r;
	side->mean = sum / r;
	if (r == 1) {
		cmp_side_intervals(one, side);
		return r;
	}
	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n == n && step_usable(st) && isfinite(st->ops_s))
			dev += (st->ops_s - side->mean) * (st->ops_s - side->mean);
	}
	side->se = sqrt(dev / (r - 1)) / sqrt(r);
	side->df = r - 1;
	side->unit = CMP_UNIT_RUNS;
	return r;
}

/* A side whose se and df can enter a test. */
static bool
cmp_side_known(const struct cmp_side *x)
{
	return x->runs > 0 && isfinite(x->mean) && isfinite(x->se) && x->se >= 0 && x->df >= 1;
}

/* stats_t95 of a real df, floored (conservative); the normal's for an infinite one. */
static double
cmp_t95(double df)
{
	if (!isfinite(df) || df > 1e9)
		return stats_t95(1000000000UL);
	return stats_t95((unsigned long)floor(df));
}

/*
 * Satterthwaite's df of a sum of variances: sum is the sum, den the sum of
 * each one's square over its df.
 */
static double
cmp_satterthwaite(double sum, double den, double df_total)
{
	if (!(den > 0))
		return df_total; /* the squares underflowed: the df of all the parts together */
	return sum * sum / den;
}

void
cmp_welch(const struct cmp_side *a, const struct cmp_side *b, double noise_pct, struct cmp_diff *d)
{
	double va, vb, se, ci;

	memset(d, 0, sizeof(*d));
	d->ratio = d->pct = d->ci_pct = d->df = NAN;
	if (a->runs == 0 || b->runs == 0 || !(a->mean > 0) || !isfinite(b->mean))
		return;
	d->ratio = b->mean / a->mean;
	d->pct = 100 * (b->mean - a->mean) / a->mean;
	if (!cmp_side_known(a) || !cmp_side_known(b))
		return;
	d->tested = true;
	va = a->se * a->se;
	vb = b->se * b->se;
	se = sqrt(va + vb);
	if (se == 0) {
		/* Both sides exact (constant figures): any difference is one. */
		d->df = INFINITY;
		d->ci_pct = 0;
		d->welch = b->mean != a->mean;
	} else {
		d->df = cmp_satterthwaite(va + vb, va * va / a->df + vb * vb / b->df,
					  a->df + b->df);
		ci = cmp_t95(d->df) * se;
		d->ci_pct = 100 * ci / a->mean;
		d->welch = fabs(b->mean - a->mean) > ci;
	}
	d->significant = d->welch && fabs(d->pct) > noise_pct;
}

void
cmp_geomean(const struct cmp_side *a, const struct cmp_side *b, const int *n, int k,
	    double noise_pct, struct cmp_geomean *g)
{
	struct cmp_diff d;
	double sum_log = 0, var = 0, den = 0, df_total = 0, ca, cb, se, t;
	int i, m = 0;

	memset(g, 0, sizeof(*g));
	g->ratio = g->lo = g->hi = g->df = NAN;
	for (i = 0; i < k; i++) {
		cmp_welch(&a[i], &b[i], 0, &d);
		if (!d.tested || !(b[i].mean > 0))
			continue;
		sum_log += log(b[i].mean / a[i].mean);
		ca = (a[i].se / a[i].mean) * (a[i].se / a[i].mean);
		cb = (b[i].se / b[i].mean) * (b[i].se / b[i].mean);
		var += ca + cb;
		den += ca * ca / a[i].df + cb * cb / b[i].df;
		df_total += a[i].df + b[i].df;
		if (m == 0 || n[i] < g->n_lo)
			g->n_lo = n[i];
		if (m == 0 || n[i] > g->n_hi)
			g->n_hi = n[i];
		m++;
	}
	if ((g->k = m) == 0)
		return;
	g->ratio = exp(sum_log / m);
	se = sqrt(var) / m;
	if (se == 0) {
		g->df = INFINITY;
		g->lo = g->hi = g->ratio;
	} else {
		g->df = cmp_satterthwaite(var, den, df_total);
		t = cmp_t95(g->df);
		g->lo = exp(sum_log / m - t * se);
		g->hi = exp(sum_log / m + t * se);
	}
	g->significant = (g->lo > 1 || g->hi < 1) && 100 * fabs(g->ratio - 1) > noise_pct;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare's statistics with trials as the unit (compare_stats.h; the
 * reasoning and the measured figures are in docs/statistics.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/compare_stats.h"
#include "scaletop/stats.h"

/*
 * compare's statistics with trials as the unit: each side's mean, standard
 * error and degrees of freedom at one N from its trials' means, Welch's t
 * between two sides on the log scale (so that a ratio's interval never
 * passes -100%) with a noise floor and an allowance for a run's own
 * noise, and each trial's score (its geometric mean across N) compared by
 * Welch's t on the logarithms
 * (compare_stats.h; the reasoning and the measured figures are in
 * docs/statistics.md).
 */

static bool
cmp_usable(const struct step *st)
{
	return step_usable(st) && isfinite(st->ops_s);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct trials with a usable step, ascending, into *out (malloc'd); how many, -1 ENOMEM. */
static int
cmp_trial_list(const struct session *s, int **out)
{
	int i, j, m = 0, *t = malloc(sizeof(*t) * (size_t)(s->nsteps > 0 ? s->nsteps : 1));

	if ((*out = t) == NULL)
		return -1;
	for (i = 0; i < s->nsteps; i++) {
		if (cmp_usable(&s->steps[i]))
			t[m++] = s->steps[i].trial;
	}
	qsort(t, (size_t)m, sizeof(*t), cmp_int);
	for (i = 0, j = 0; i < m; i++) {
		if (j == 0 || t[i] != t[j - 1])
			t[j++] = t[i];
	}
	return j;
}

int
cmp_trials(const struct session *s)
{
	int *t, k = cmp_trial_list(s, &t);

	free(t);
	return k > 0 ? k : 0;
}

/* Trial t's mean at n and its usable runs there (0: none). */
static int
cmp_trial_mean(const struct session *s, int n, int t, double *mean)
{
	const struct step *st;
	double sum = 0;
	int i, r = 0;

	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n == n && st->trial == t && cmp_usable(st)) {
			sum += st->ops_s;
			r++;
		}
	}
	*mean = r > 0 ? sum / r : NAN;
	return r;
}

void
cmp_side_samples(const double *x, int k, struct cmp_side *side)
{
	double sum = 0, dev = 0;
	int i;

	side->runs = side->trials = k;
	side->mean = side->se = side->df = NAN;
	side->allow = 0;
	side->unit = CMP_UNIT_NONE;
	if (k <= 0)
		return;
	for (i = 0; i < k; i++)
		sum += x[i];
	side->mean = sum / k;
	if (k < 2)
		return;
	for (i = 0; i < k; i++)
		dev += (x[i] - side->mean) * (x[i] - side->mean);
	side->se = sqrt(dev / (k - 1)) / sqrt(k);
	side->df = k - 1;
	side->unit = CMP_UNIT_TRIALS;
}

int
cmp_side_trials(const struct session *s, int n, int lo, int hi, struct cmp_side *side)
{
	double *x, m;
	int *t, nt, i, r, runs = 0, k = 0;

	memset(side, 0, sizeof(*side));
	side->mean = side->se = side->df = NAN;
	if ((nt = cmp_trial_list(s, &t)) <= 0 || (x = malloc(sizeof(*x) * (size_t)nt)) == NULL) {
		free(t);
		return 0;
	}
	for (i = lo > 0 ? lo : 0; i < nt && i < hi; i++) {
		if ((r = cmp_trial_mean(s, n, t[i], &m)) > 0) {
			x[k++] = m;
			runs += r;
		}
	}
	cmp_side_samples(x, k, side);
	side->runs = runs;
	free(x);
	free(t);
	return runs;
}

int
cmp_side_at(const struct session *s, int n, struct cmp_side *side)
{
	return cmp_side_trials(s, n, CMP_ALL, side);
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
 * Welch-Satterthwaite's df of two variances of the mean with their df and
 * the runs' allowance (0: none) with CMP_ALLOW_DF.
 */
static double
cmp_satterthwaite(double va, double dfa, double vb, double dfb, double allow)
{
	double v = va + vb + allow;
	double den = va * va / dfa + vb * vb / dfb + allow * allow / CMP_ALLOW_DF;

	if (!(den > 0))
		return dfa + dfb; /* the squares underflowed: the trials' df together */
	return v * v / den;
}

double
cmp_run_allowance(double mean, double run_pct, int runs)
{
	double v = run_pct / 100 * mean;

	if (!(run_pct > 0) || !isfinite(mean) || runs >= CMP_RUNS_SEEN)
		return 0;
	return v * v / (runs > 1 ? runs : 1);
}

/* Welch's two-sided p of t at a df floored (the normal's for an infinite one). */
static double
cmp_p(double t, double df)
{
	return stats_t_p2(t, isfinite(df) && df < 1e9 ? (unsigned long)floor(df) : 1000000000UL);
}

/* A difference's CI half-width, df and p, from its variance parts. */
struct cmp_interval {
	double half, df, p;
};

/*
 * diff's interval from the trials' variances of the mean va, vb (with their
 * df) and the runs' allowance; never narrower, nor p smaller, than the
 * trials' alone: an allowance with many df would otherwise shrink t95 more
 * than it widens se.  va + vb + allow > 0.
 */
static void
cmp_interval(double diff, double va, double dfa, double vb, double dfb, double allow,
	     struct cmp_interval *out)
{
	double v = va + vb + allow, df, half;

	out->df = cmp_satterthwaite(va, dfa, vb, dfb, allow);
	out->half = cmp_t95(out->df) * sqrt(v);
	out->p = cmp_p(diff / sqrt(v), out->df);
	if (allow > 0 && va + vb > 0) {
		df = cmp_satterthwaite(va, dfa, vb, dfb, 0);
		half = cmp_t95(df) * sqrt(va + vb);
		if (half > out->half) {
			out->half = half;
			out->df = df;
		}
		out->p = fmax(out->p, cmp_p(diff / sqrt(va + vb), df));
	}
}

bool
cmp_beyond_rerun(double ratio)
{
	return ratio > 0 && isfinite(ratio) && fabs(log(ratio)) > log(CMP_RERUN_BOUND);
}

/* d's interval, df, p and whether it excludes 0, from the logs' variance parts. */
static void
cmp_log_test(double dl, double va, double dfa, double vb, double dfb, double allow,
	     struct cmp_diff *d)
{
	struct cmp_interval iv;

	if (va + vb + allow == 0) {
		/* Both sides exact (constant figures): any difference is one. */
		d->df = INFINITY;
		d->lo_pct = d->hi_pct = d->pct;
		d->welch = dl != 0;
		d->p = d->welch ? 0 : 1;
		return;
	}
	cmp_interval(dl, va, dfa, vb, dfb, allow, &iv);
	d->df = iv.df;
	d->lo_pct = 100 * (exp(dl - iv.half) - 1);
	d->hi_pct = 100 * (exp(dl + iv.half) - 1);
	d->welch = fabs(dl) > iv.half;
	d->p = iv.p;
}

void
cmp_welch_min(const struct cmp_side *a, const struct cmp_side *b, double noise_pct, int min_trials,
	      struct cmp_diff *d)
{
	double ra, rb, allow;

	memset(d, 0, sizeof(*d));
	d->ratio = d->pct = d->lo_pct = d->hi_pct = d->df = d->p = NAN;
	if (a->runs == 0 || b->runs == 0 || !(a->mean > 0) || !(b->mean > 0) ||
	    !isfinite(a->mean) || !isfinite(b->mean))
		return;
	d->ratio = b->mean / a->mean;
	d->pct = 100 * (b->mean - a->mean) / a->mean;
	if (a->trials < min_trials || b->trials < min_trials) {
		d->few = true;
		d->beyond = cmp_beyond_rerun(d->ratio);
		d->significant = d->beyond && fabs(d->pct) > noise_pct;
		return;
	}
	if (!cmp_side_known(a) || !cmp_side_known(b))
		return;
	d->tested = true;
	ra = a->se / a->mean;
	rb = b->se / b->mean;
	allow = a->allow / (a->mean * a->mean) + b->allow / (b->mean * b->mean);
	cmp_log_test(log(d->ratio), ra * ra, a->df, rb * rb, b->df, allow, d);
	d->significant = d->welch && fabs(d->pct) > noise_pct;
}

bool
cmp_family_significant(const struct cmp_diff *d, int m, double noise_pct)
{
	return d->tested && d->p < 0.05 / (m > 1 ? m : 1) && fabs(d->pct) > noise_pct;
}

void
cmp_welch(const struct cmp_side *a, const struct cmp_side *b, double noise_pct, struct cmp_diff *d)
{
	cmp_welch_min(a, b, noise_pct, CMP_MIN_TRIALS, d);
}

int
cmp_trial_scores(const struct session *s, const int *n, int k, int lo, int hi, double *score)
{
	double sum, m;
	int *t, nt, i, j, out = 0;

	if ((nt = cmp_trial_list(s, &t)) <= 0 || k <= 0) {
		free(t);
		return 0;
	}
	for (i = lo > 0 ? lo : 0; i < nt && i < hi; i++) {
		sum = 0;
		for (j = 0; j < k; j++) {
			if (cmp_trial_mean(s, n[j], t[i], &m) == 0 || !(m > 0))
				break;
			sum += log(m);
		}
		if (j == k)
			score[out++] = exp(sum / k);
	}
	free(t);
	return out;
}

/* ln of each of k scores into out; false when one is not positive. */
static bool
cmp_logs(const double *x, int k, double *out)
{
	int i;

	for (i = 0; i < k; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
		out[i] = log(x[i]);
	}
	return true;
}

void
cmp_scores(const double *a, int ka, const double *b, int kb, const struct cmp_score_test *t,
	   struct cmp_geomean *g)
{
	struct cmp_side la, lb;
	struct cmp_interval iv;
	double *x = malloc(sizeof(*x) * (size_t)(ka + kb > 0 ? ka + kb : 1)), va, vb, dl;

	g->ka = ka;
	g->kb = kb;
	g->few = g->beyond = g->significant = false;
	g->ratio = g->lo = g->hi = g->df = NAN;
	if (x == NULL || ka < 1 || kb < 1 || !cmp_logs(a, ka, x) || !cmp_logs(b, kb, x + ka)) {
		free(x);
		return;
	}
	cmp_side_samples(x, ka, &la);
	cmp_side_samples(x + ka, kb, &lb);
	free(x);
	dl = lb.mean - la.mean;
	g->ratio = exp(dl);
	if (ka < t->min_trials || kb < t->min_trials || ka < 2 || kb < 2) {
		g->few = true;
		g->beyond = cmp_beyond_rerun(g->ratio);
		g->significant = g->beyond && 100 * fabs(g->ratio - 1) > t->noise_pct;
		return;
	}
	va = la.se * la.se;
	vb = lb.se * lb.se;
	if (va + vb + t->allow_a + t->allow_b == 0) {
		g->df = INFINITY;
		g->lo = g->hi = g->ratio;
	} else {
		cmp_interval(dl, va, la.df, vb, lb.df, t->allow_a + t->allow_b, &iv);
		g->df = iv.df;
		g->lo = exp(dl - iv.half);
		g->hi = exp(dl + iv.half);
	}
	g->significant = (g->lo > 1 || g->hi < 1) && 100 * fabs(g->ratio - 1) > t->noise_pct;
}

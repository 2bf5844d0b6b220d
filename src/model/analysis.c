/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scaling analysis: speedup and efficiency against the single-worker
 * step, the peak, the linear range, collapse, the USL fit and the verdict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/stats.h"
#include "analysis_cause.h"
#include "analysis_serving.h"
#include "analysis_verdict.h"

#define ANALYSIS_EFFICIENCY_MIN 0.9
#define ANALYSIS_COLLAPSE_THETA 0.2

/*
 * Pooling repeated runs of one N: the throughput is the mean of the usable
 * runs.  Its 95% CI half-width is the larger of
 *  - the between-run interval, t95(r-1) * sd(run means) / sqrt(r), r >= 2,
 *  - the within-run intervals combined for a mean of r independent runs,
 *    sqrt(sum ci_i^2) / r, each ci_i widened for autocorrelation
 *    (stats_ci), known only when every run has a spread,
 * so that neither run-to-run drift nor noisy intervals are hidden.  One run
 * without interval spread has no CI (NaN).
 *
 * Collapse, judged with the CIs: at some N after the reference point,
 *   X(N) + ci(N) < (1 - theta) L,   L = max over every N of (X(N) - ci(N)),
 * that is, even the top of N's interval lies below the threshold drawn from
 * the highest lower confidence bound of any point: the best level the sweep
 * has established.  The reference point is the peak, or the point holding L
 * when that comes first.  Judging from the peak's own lower bound instead
 * lets one uncertain peak hide an evident fall: a peak CI wider than the
 * peak puts the bar below zero.  An unknown CI counts as 0 there.
 * docs/design-notes.md has the rule and why.
 *
 * A busy machine (analysis_busy): the smallest N, at most the CPU count,
 * whose step had others using half a CPU or its workers waiting for a CPU
 * a quarter of their time; the verdict says so, and against a starved N=1
 * makes no super-linear claim.  The others that served the workload
 * (analysis_serving.c) are left out of it, and named instead.
 *
 * The latency knee, where the tail turns up before the throughput peak, is
 * analysis_knee.c's.
 */

double
analysis_throughput_at(const struct session *s, int n)
{
	double sum = 0;
	int i, k = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n && step_usable(&s->steps[i])) {
			sum += s->steps[i].ops_s;
			k++;
		}
	}
	return k > 0 ? sum / k : NAN;
}

double
analysis_speedup(const struct session *s, int n)
{
	double x1 = analysis_throughput_at(s, 1);

	return isnan(x1) ? NAN : analysis_throughput_at(s, n) / x1;
}

double
analysis_efficiency(const struct session *s, int n)
{
	return analysis_speedup(s, n) / n;
}

void
analysis_opts_default(struct analysis_opts *o)
{
	o->efficiency_min = ANALYSIS_EFFICIENCY_MIN;
	o->collapse_theta = ANALYSIS_COLLAPSE_THETA;
	o->n_unit = NULL;
}

void
analysis_opts_for(const struct session *s, struct analysis_opts *o)
{
	analysis_opts_default(o);
	if (s->set.efficiency_min > 0)
		o->efficiency_min = s->set.efficiency_min;
	if (s->set.collapse_theta > 0)
		o->collapse_theta = s->set.collapse_theta;
	if (s->wl.n_unit[0] != '\0')
		o->n_unit = s->wl.n_unit;
}

/* --- gathering the points ---------------------------------------------- */

static int
analysis_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct N of the usable steps, ascending, into a malloc'd array.  -1 on ENOMEM. */
static int
analysis_distinct_n(const struct session *s, int **out)
{
	int *n, i, k = 0, m = 0;

	*out = NULL;
	if (s->nsteps == 0)
		return 0;
	if ((n = malloc(sizeof(*n) * (size_t)s->nsteps)) == NULL)
		return -1;
	for (i = 0; i < s->nsteps; i++) {
		if (step_usable(&s->steps[i]))
			n[k++] = s->steps[i].n;
	}
	qsort(n, (size_t)k, sizeof(*n), analysis_cmp_int);
	for (i = 0; i < k; i++) {
		if (m == 0 || n[i] != n[m - 1])
			n[m++] = n[i];
	}
	*out = n;
	return m;
}

/* Pools the usable runs of p->n into p->x, p->ci and p->runs (see the top of the file). */
static void
analysis_pool(const struct session *s, struct scaling_point *p)
{
	const struct step *st;
	double sum = 0, dev = 0, ci2 = 0, between = NAN, within = NAN;
	bool all_spread = true;
	int i, r = 0;

	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n != p->n || !step_usable(st))
			continue;
		sum += st->ops_s;
		ci2 += stats_ci(&st->st) * stats_ci(&st->st);
		all_spread = all_spread && st->st.have_spread;
		r++;
	}
	p->runs = r;
	p->x = sum / r;
	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n == p->n && step_usable(st))
			dev += (st->ops_s - p->x) * (st->ops_s - p->x);
	}
	if (r >= 2)
		between = stats_t95((unsigned long)r - 1) * sqrt(dev / (r - 1)) / sqrt(r);
	if (all_spread)
		within = sqrt(ci2) / r;
	p->ci_between = between;
	p->ci_within = within;
	p->ci = fmax(between, within); /* fmax ignores a NaN argument */
}

int
analysis_repeat_drift(const struct analysis *a)
{
	const struct scaling_point *p;
	double worst = ANALYSIS_DRIFT_FACTOR, ratio;
	int i, n = 0;

	for (i = 0; i < a->npoints; i++) {
		p = &a->pts[i];
		if (p->runs < 2 || !(p->ci_within > 0) || !isfinite(p->ci_between))
			continue;
		ratio = p->ci_between / p->ci_within;
		if (ratio > worst) {
			worst = ratio;
			n = p->n;
		}
	}
	return n;
}

/* True if a run pooled into N was unstable: a figure to be shown with a caveat. */
static bool
analysis_unstable_at(const struct session *s, int n)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n && s->steps[i].status == STEP_UNSTABLE &&
		    step_usable(&s->steps[i]))
			return true;
	}
	return false;
}

static void
analysis_ratios(struct analysis *a)
{
	struct scaling_point *p;
	int i;

	a->have_x1 = a->npoints > 0 && a->pts[0].n == 1;
	a->x1 = a->have_x1 ? a->pts[0].x : NAN;
	for (i = 0; i < a->npoints; i++) {
		p = &a->pts[i];
		p->speedup = a->have_x1 ? p->x / a->x1 : NAN;
		p->efficiency = p->speedup / p->n;
		p->increment = i > 0 ? p->x - a->pts[i - 1].x : NAN;
	}
}

/* --- judging the curve -------------------------------------------------- */

static void
analysis_peak(struct analysis *a)
{
	int i, best = 0;

	for (i = 1; i < a->npoints; i++) {
		if (a->pts[i].x > a->pts[best].x)
			best = i;
	}
	a->n_peak = a->pts[best].n;
	a->x_peak = a->pts[best].x;
	a->x_peak_ci = a->pts[best].ci;
	a->peak_uncertain = a->pts[best].ci > STATS_NOISY_CI_FRAC * a->x_peak;
}

static void
analysis_linear_range(struct analysis *a, double eff_min)
{
	int i;

	a->linear_n = 0;
	for (i = 0; i < a->npoints; i++) {
		if (a->pts[i].efficiency >= eff_min)
			a->linear_n = a->pts[i].n;
	}
}

/* A CI that is not known counts as none. */
static double
analysis_ci_or_0(double ci)
{
	return isfinite(ci) ? ci : 0;
}

/* The point with the highest lower confidence bound: the best level established. */
static void
analysis_reference(struct analysis *a)
{
	double lb;
	int i;

	a->n_ref = a->pts[0].n;
	a->x_ref_lb = -INFINITY;
	for (i = 0; i < a->npoints; i++) {
		lb = a->pts[i].x - analysis_ci_or_0(a->pts[i].ci);
		if (lb > a->x_ref_lb) {
			a->x_ref_lb = lb;
			a->n_ref = a->pts[i].n;
		}
	}
	if (a->x_ref_lb < 0)
		a->x_ref_lb = 0;
}

static void
analysis_collapse(struct analysis *a, double theta)
{
	double bar = (1 - theta) * a->x_ref_lb;
	int after = a->n_ref < a->n_peak ? a->n_ref : a->n_peak;
	const struct scaling_point *p;
	int i;

	a->collapse = false;
	a->collapse_n = 0;
	for (i = 0; i < a->npoints; i++) {
		p = &a->pts[i];
		if (p->n > after && p->x + analysis_ci_or_0(p->ci) < bar) {
			a->collapse = true;
			a->collapse_n = p->n;
			break;
		}
	}
	a->last_n = a->pts[a->npoints - 1].n;
	a->last_frac = a->pts[a->npoints - 1].x / a->x_peak;
}

/*
 * No SMP scaling: speedup at the first N above 1 (normally 2) under 1.1.
 * A sweep that skips 2 is judged at its next N, where 1.1 is even easier.
 */
static void
analysis_no_smp(struct analysis *a)
{
	a->no_smp = a->have_x1 && a->npoints >= 2 && a->pts[1].speedup < ANALYSIS_NO_SMP_SPEEDUP;
}

/* The fit over the pooled points; -1 on ENOMEM. */
static int
analysis_usl(struct analysis *a)
{
	double *n, *x;
	int i;

	if ((n = calloc((size_t)a->npoints + 1, sizeof(*n))) == NULL)
		return -1;
	if ((x = calloc((size_t)a->npoints + 1, sizeof(*x))) == NULL) {
		free(n);
		return -1;
	}
	for (i = 0; i < a->npoints; i++) {
		n[i] = a->pts[i].n;
		x[i] = a->pts[i].x;
	}
	usl_fit(n, x, a->npoints, &a->usl);
	free(n);
	free(x);
	return 0;
}

/* The usable runs at n, into r (v malloc'd, NULL when there are none); -1 on ENOMEM. */
static int
analysis_runs_at(const struct session *s, int n, struct cause_runs *r)
{
	int i;

	r->nval = n;
	r->n = 0;
	if ((r->v = malloc(sizeof(*r->v) * (size_t)(s->nsteps + 1))) == NULL)
		return -1;
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n && step_usable(&s->steps[i]))
			r->v[r->n++] = &s->steps[i];
	}
	return 0;
}

/*
 * At a collapse: what grew in the wait profiles from the peak to the N the
 * verdict names as fallen (the last N, or the first collapsed one when the
 * last is back above the bar).  Without memory there is no cause to tell.
 */
static void
analysis_cause(const struct session *s, double theta, struct analysis *a)
{
	int fallen = a->last_frac >= 1 - theta ? a->collapse_n : a->last_n;
	struct cause_runs from, to;

	memset(&a->cause, 0, sizeof(a->cause));
	if (!a->collapse)
		return;
	if (analysis_runs_at(s, a->n_peak, &from) == 0 && analysis_runs_at(s, fallen, &to) == 0) {
		analysis_cause_find(&from, &to, &a->cause);
		free(to.v);
	}
	free(from.v);
}

/* --- a busy machine (analysis.h, struct analysis_busy) -------------------- */

/* The others' CPUs over st's window less what the workload's servers used. */
static double
analysis_others_cpus(const struct analysis *a, const struct step *st)
{
	double c = st->others.cpus - analysis_serving_cpus(&a->serving, st);

	return c > 0 ? c : 0;
}

static bool
analysis_others_busy(const struct analysis *a, const struct step *st)
{
	return st->others.known && analysis_others_cpus(a, st) >= ANALYSIS_BUSY_OTHERS_CPUS;
}

/*
 * The workers' run delay, unless their servers' CPUs and N together fill the
 * machine: then they waited for CPUs their own work held.
 */
static bool
analysis_delay_busy(const struct analysis *a, const struct step *st)
{
	double served = analysis_serving_cpus(&a->serving, st);

	if (served > 0 && a->busy.ncpus > 0 && st->n + served > a->busy.ncpus)
		return false;
	return (st->ct.have & CT_HAVE_RUN_DELAY) != 0 &&
	       st->ct.run_delay_pct >= ANALYSIS_BUSY_RUN_DELAY_PCT;
}

/* How busy a step's machine was, for picking the busiest run of an N: others first. */
static double
analysis_busy_weight(const struct analysis *a, const struct step *st)
{
	if (analysis_others_busy(a, st))
		return 1000 + analysis_others_cpus(a, st);
	return analysis_delay_busy(a, st) ? st->ct.run_delay_pct / 100 : -1;
}

static void
analysis_busy_fill(const struct step *st, struct analysis *a)
{
	struct analysis_busy *b = &a->busy;
	const struct step_other *o;
	int i;

	b->n = st->n;
	b->by_others = analysis_others_busy(a, st);
	b->others_cpus = st->others.known ? analysis_others_cpus(a, st) : 0;
	b->run_delay_pct = (st->ct.have & CT_HAVE_RUN_DELAY) != 0 ? st->ct.run_delay_pct : NAN;
	b->ntop = 0;
	for (i = 0; i < st->others.ntop && b->ntop < ANALYSIS_BUSY_NAMES; i++) {
		o = &st->others.top[i];
		if (o->comm[0] != '\0' && o->cpus >= ANALYSIS_BUSY_NAME_CPUS &&
		    !analysis_serving_is(&a->serving, o->comm))
			b->top[b->ntop++] = *o;
	}
}

/*
 * The smallest N at most the CPU count with a usable step on a busy
 * machine, and of its runs the busiest.  Above the CPU count the workers
 * crowd the CPUs themselves, and a busy machine changes less.  The
 * workload's servers (analysis_serving.c) are not the machine's load.
 */
static void
analysis_busy(const struct session *s, struct analysis *a)
{
	const struct step *st, *best = NULL;
	int i;

	memset(&a->busy, 0, sizeof(a->busy));
	a->busy.ncpus = s->host.ncpus > 0 ? s->host.ncpus : 0;
	analysis_serving_find(s, &a->serving);
	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (!step_usable(st) || analysis_busy_weight(a, st) < 0 ||
		    (a->busy.ncpus > 0 && st->n > a->busy.ncpus))
			continue;
		if (best == NULL || st->n < best->n ||
		    (st->n == best->n &&
		     analysis_busy_weight(a, st) > analysis_busy_weight(a, best)))
			best = st;
	}
	if (best != NULL)
		analysis_busy_fill(best, a);
}

/* --- what the verdict is told (analysis_verdict.c writes it) ------------- */

static const char *
analysis_n_unit(const struct session *s, const struct analysis_opts *o)
{
	if (o->n_unit != NULL && o->n_unit[0] != '\0')
		return o->n_unit;
	if (s->wl.n_unit[0] != '\0')
		return s->wl.n_unit;
	return s->set.mode == MODE_PROCESSES ? "processes" : "threads";
}

static void
analysis_verdict(const struct session *s, const struct analysis_opts *o, struct analysis *a)
{
	struct verdict_ctx c;

	c.a = a;
	c.eff_min = o->efficiency_min;
	c.theta = o->collapse_theta;
	c.n_unit = analysis_n_unit(s, o);
	c.unit = s->wl.unit[0] != '\0' ? s->wl.unit : "ops";
	c.peak_unstable = a->npoints > 0 && analysis_unstable_at(s, a->n_peak);
	c.nmarks = topology_marks(&s->host.topo, c.marks, TOPO_MAX_MARKS);
	verdict_singular(c.n_unit, c.one, sizeof(c.one));
	c.part = a->part;
	c.nparts = &a->nparts;
	verdict_build(&c, a->verdict, sizeof(a->verdict));
}

/* --- the whole analysis ------------------------------------------------- */

/* Options out of range fall back to the defaults rather than producing nonsense. */
static void
analysis_opts_check(const struct analysis_opts *in, struct analysis_opts *o)
{
	analysis_opts_default(o);
	if (in == NULL)
		return;
	if (in->efficiency_min > 0 && in->efficiency_min <= 1)
		o->efficiency_min = in->efficiency_min;
	if (in->collapse_theta > 0 && in->collapse_theta < 1)
		o->collapse_theta = in->collapse_theta;
	o->n_unit = in->n_unit;
}

int
analysis_run(const struct session *s, const struct analysis_opts *in, struct analysis *a)
{
	struct analysis_opts o;
	int *n, i;

	memset(a, 0, sizeof(*a));
	analysis_opts_check(in, &o);
	if ((a->npoints = analysis_distinct_n(s, &n)) == -1) {
		a->npoints = 0;
		return -1;
	}
	if (a->npoints > 0 && (a->pts = calloc((size_t)a->npoints, sizeof(*a->pts))) == NULL) {
		free(n);
		a->npoints = 0;
		return -1;
	}
	for (i = 0; i < a->npoints; i++) {
		a->pts[i].n = n[i];
		analysis_pool(s, &a->pts[i]);
	}
	free(n);
	analysis_ratios(a);
	if (a->npoints > 0) {
		analysis_peak(a);
		analysis_linear_range(a, o.efficiency_min);
		analysis_reference(a);
		analysis_collapse(a, o.collapse_theta);
		analysis_cause(s, o.collapse_theta, a);
		analysis_no_smp(a);
		analysis_busy(s, a);
		analysis_noisy(s, a, &a->noisy);
		analysis_knee(s, a, &a->knee);
	}
	if (analysis_usl(a) == -1) {
		analysis_free(a);
		return -1;
	}
	analysis_verdict(s, &o, a);
	return 0;
}

void
analysis_free(struct analysis *a)
{
	free(a->pts);
	a->pts = NULL;
	a->npoints = 0;
}

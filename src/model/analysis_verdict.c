/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verdict: one sentence that says how far a sweep scales, where it
 * peaks and what happens after, from the analysis alone.  Its first clause
 * is the curve's shape, which one function picks (verdict_shape); a busy
 * machine (or the workload's own server) comes second, then noisy steps (low
 * confidence), the latency knee, and the rest only add detail.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/format.h"
#include "analysis_cause.h"
#include "analysis_serving.h"
#include "analysis_verdict.h"

#define ANALYSIS_FLAT_FRAC 0.95
/*
 * The thresholds that only the wording uses live here; the ones the analysis
 * judges by are in analysis.c.
 */

/*
 * Efficiency above this is super-linear beyond noise: N=1 paid a cost that
 * more workers hide (wake-up latency of idle CPUs, a cache that more CPUs
 * add up to), which the verdict says rather than calling it scaling.
 */
#define ANALYSIS_SUPERLINEAR_EFF 1.25

static void verdict_cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
verdict_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/*
 * A clause starts at the end of buf: where it ends is known only when the
 * next one starts or the sentence is done (verdict_parts_end).
 */
static void
verdict_mark(const struct verdict_ctx *c, const char *buf, enum verdict_rank rank)
{
	if (c->part == NULL || *c->nparts >= ANALYSIS_VERDICT_PARTS)
		return;
	c->part[*c->nparts].off = (unsigned short)strlen(buf);
	c->part[*c->nparts].len = 0;
	c->part[*c->nparts].rank = rank;
	(*c->nparts)++;
}

/* Each clause runs to the next one's start; its "; " is the sentence's, not its own. */
static void
verdict_parts_end(const struct verdict_ctx *c, const char *buf)
{
	size_t end;
	int i;

	if (c->part == NULL)
		return;
	for (i = 0; i < *c->nparts; i++) {
		struct verdict_part *p = &c->part[i];

		end = i + 1 < *c->nparts ? c->part[i + 1].off : strlen(buf);
		if (end > strlen(buf))
			end = strlen(buf);
		if ((size_t)p->off + 2 <= end && buf[p->off] == ';' && buf[p->off + 1] == ' ')
			p->off += 2;
		p->len = (unsigned short)(end > p->off ? end - p->off : 0);
	}
}

void
verdict_singular(const char *plural, char *buf, size_t len)
{
	size_t l;

	snprintf(buf, len, "%s", plural);
	l = strlen(buf);
	if (l > 4 && strcmp(buf + l - 4, "sses") == 0)
		buf[l - 2] = '\0';
	else if (l > 1 && buf[l - 1] == 's')
		buf[l - 1] = '\0';
}

static const char *
verdict_units(const struct verdict_ctx *c, int n)
{
	return n == 1 ? c->one : c->n_unit;
}

static int
verdict_index(const struct analysis *a, int n)
{
	int i;

	for (i = 0; i < a->npoints; i++) {
		if (a->pts[i].n == n)
			break;
	}
	return i;
}

/*
 * Appends a clause of its own, after a "; " unless it is the first, when it
 * fits whole (the headline always, cut if it must be); whether it did.
 */
static bool
verdict_add(const struct verdict_ctx *c, char *buf, size_t len, enum verdict_rank rank,
	    const char *clause)
{
	const char *sep = buf[0] != '\0' ? "; " : "";

	if (clause[0] == '\0' ||
	    (rank != VERDICT_RANK_HEADLINE && strlen(buf) + strlen(sep) + strlen(clause) >= len))
		return false;
	verdict_mark(c, buf, rank);
	verdict_cat(buf, len, "%s%s", sep, clause);
	return true;
}

/* " = one LLC (cpus 0-7 share L3)" when n is one of the machine's boundaries, else "". */
static const char *
verdict_boundary(const struct verdict_ctx *c, int n, char *buf, size_t len)
{
	const struct topo_mark *m = topology_mark_at(c->marks, c->nmarks, n);

	buf[0] = '\0';
	if (m != NULL)
		snprintf(buf, len, " = %s", m->what);
	return buf;
}

/*
 * "peak 3.10M ops/s at 8 = one LLC (cpus 0-7 share L3)", flagged when
 * uncertain or when a run pooled into it was unstable.
 */
static void
verdict_peak(const struct verdict_ctx *c, char *buf, size_t len)
{
	char x[16], t[192], at[136];

	/* A collapse's headline names the boundary above which it fell: not twice. */
	if (c->a->collapse && verdict_index(c->a, c->a->collapse_n) > 0 &&
	    c->a->pts[verdict_index(c->a, c->a->collapse_n) - 1].n == c->a->n_peak)
		at[0] = '\0';
	else
		verdict_boundary(c, c->a->n_peak, at, sizeof(at));
	snprintf(t, sizeof(t), "peak %s %s/s at %d%s", fmt_si(c->a->x_peak, x, sizeof(x)), c->unit,
		 c->a->n_peak, at);
	if (c->a->peak_uncertain)
		verdict_cat(t, sizeof(t), " (uncertain: CI +-%.0f%%)",
			    100 * c->a->x_peak_ci / c->a->x_peak);
	else if (c->peak_unstable)
		verdict_cat(t, sizeof(t), " (unstable)");
	verdict_add(c, buf, len, VERDICT_RANK_PEAK, t);
}

/* Appends clause (with its own "; ") as a part of its own when it fits whole; whether it did. */
static bool
verdict_clause(const struct verdict_ctx *c, char *buf, size_t len, const char *clause)
{
	if (clause[0] == '\0' || strlen(buf) + strlen(clause) >= len)
		return false;
	verdict_mark(c, buf, VERDICT_RANK_REST);
	verdict_cat(buf, len, "%s", clause);
	return true;
}

/*
 * "; at 16 the target's threads were runnable 41% (3% at 4)": what grew, as
 * many of its categories as fit whole, then the lock spin that grew ("; at
 * 16, 38% of the workload's CPU spun in ..."), which is worth more than a
 * second category: the most categories that fit beside it are kept.
 */
static void
verdict_cause_waits(const struct verdict_ctx *c, char *buf, size_t len)
{
	char clause[256], spin[256];
	size_t used = strlen(buf);
	int k;

	analysis_spin_text(&c->a->cause, spin, sizeof(spin));
	for (k = c->a->cause.ncat; k > 0; k--) {
		analysis_cause_text(&c->a->cause, k, clause, sizeof(clause));
		if (spin[0] != '\0' && used + strlen(clause) + strlen(spin) < len) {
			verdict_clause(c, buf, len, clause);
			verdict_clause(c, buf, len, spin);
			return;
		}
	}
	for (k = c->a->cause.ncat; k > 0; k--) {
		analysis_cause_text(&c->a->cause, k, clause, sizeof(clause));
		if (verdict_clause(c, buf, len, clause))
			return;
	}
	verdict_clause(c, buf, len, spin);
}

/* The waits and the spin that grew, then the lock the blocked threads waited on, if it fits. */
static void
verdict_cause(const struct verdict_ctx *c, char *buf, size_t len)
{
	char lock[400];

	verdict_cause_waits(c, buf, len);
	analysis_lock_text(&c->a->cause, lock, sizeof(lock));
	verdict_clause(c, buf, len, lock);
}

/*
 * "collapse above 4 = one LLC (cpus 0-3): 41% of peak at 16": from the last
 * N before the collapse, and how much is left at the last N.  Should the
 * last N be back above the threshold, the first collapsed N is named too, so
 * the sentence stays true.
 */
static void
verdict_collapse(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis *a = c->a;
	int i = verdict_index(a, a->collapse_n);
	char at[136];

	snprintf(t, len, "collapse above %d%s: ", a->pts[i - 1].n,
		 verdict_boundary(c, a->pts[i - 1].n, at, sizeof(at)));
	if (a->last_frac >= 1 - c->theta)
		verdict_cat(t, len, "%.0f%% of peak at %d, back to %.0f%% at %d",
			    100 * a->pts[i].x / a->x_peak, a->collapse_n, 100 * a->last_frac,
			    a->last_n);
	else
		verdict_cat(t, len, "%.0f%% of peak at %d", 100 * a->last_frac, a->last_n);
}

/*
 * After a peak without collapse: flat (a part of the peak's clause), a
 * decline within theta (given as a number), or a dip beyond theta that the
 * CIs do not confirm.
 */
static void
verdict_after_peak(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	int i, worst = verdict_index(a, a->n_peak);
	char t[64];

	if (a->n_peak == a->last_n)
		return;
	for (i = worst + 1; i < a->npoints; i++) {
		if (a->pts[i].x < a->pts[worst].x)
			worst = i;
	}
	if (a->pts[worst].x >= (1 - c->theta) * a->x_peak && a->last_frac >= ANALYSIS_FLAT_FRAC) {
		if (strlen(buf) + strlen(", flat after") < len)
			verdict_cat(buf, len, ", flat after");
		return;
	}
	if (a->pts[worst].x < (1 - c->theta) * a->x_peak)
		snprintf(t, sizeof(t), "%.0f%% of peak at %d, inside the CIs",
			 100 * a->pts[worst].x / a->x_peak, a->pts[worst].n);
	else
		snprintf(t, sizeof(t), "%.0f%% of peak at %d", 100 * a->last_frac, a->last_n);
	verdict_add(c, buf, len, VERDICT_RANK_REST, t);
}

/* The most efficient point beyond ANALYSIS_SUPERLINEAR_EFF, or -1. */
static int
verdict_superlinear_at(const struct analysis *a)
{
	int i, best = -1;

	for (i = 1; i < a->npoints; i++) {
		if (a->pts[i].efficiency > ANALYSIS_SUPERLINEAR_EFF &&
		    (best < 0 || a->pts[i].efficiency > a->pts[best].efficiency))
			best = i;
	}
	return best;
}

/*
 * ", super-linear: 7.0x at 2"; against a starved N=1 (analysis_busy) the
 * same ratio says more about N=1 than about scaling, and is told so.
 */
static void
verdict_superlinear(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis *a = c->a;
	int best = verdict_superlinear_at(a);

	if (best < 0)
		return;
	if (a->busy.n == 1)
		verdict_cat(t, len, ", %.1fx at %d against a starved N=1", a->pts[best].speedup,
			    a->pts[best].n);
	else
		verdict_cat(t, len, ", super-linear: %.1fx at %d", a->pts[best].speedup,
			    a->pts[best].n);
}

/*
 * How far it scales, from N = 1: the largest N still efficient, but not
 * past the peak.  After a super-linear start, efficiency stays high while
 * throughput falls, and falling is not scaling.
 */
static void
verdict_scaling(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis *a = c->a;
	int reach = a->linear_n < a->n_peak ? a->linear_n : a->n_peak;

	if (reach > 1)
		snprintf(t, len, "scales to %d %s (efficiency >= %.0f%%)", reach, c->n_unit,
			 100 * c->eff_min);
	else
		snprintf(t, len, "scales sub-linearly (efficiency < %.0f%% at %d %s)",
			 100 * c->eff_min, a->pts[1].n, verdict_units(c, a->pts[1].n));
	verdict_superlinear(c, t, len);
}

/* Without an N = 1 step: growth from the smallest N to the peak, against the ideal. */
static void
verdict_scaling_no_x1(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis *a = c->a;
	const struct scaling_point *p0 = &a->pts[0];

	if (a->x_peak / p0->x < ANALYSIS_NO_SMP_SPEEDUP)
		snprintf(t, len, "no N=1 step; no gain beyond %d %s", p0->n,
			 verdict_units(c, p0->n));
	else
		snprintf(t, len, "no N=1 step; %.2fx from %d to %d %s (ideal %.2gx)",
			 a->x_peak / p0->x, p0->n, a->n_peak, c->n_unit, (double)a->n_peak / p0->n);
}

/*
 * Under a collapse, how the curve rose to the N before it: flat (every
 * speedup from 0.95 to 1.1), no gain (none reached 1.1), or how far it
 * scaled; "" when the collapse follows N = 1.
 */
static void
verdict_rise(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis *a = c->a;
	int k = verdict_index(a, a->collapse_n) - 1, i;
	double lo = INFINITY, hi = 0;

	t[0] = '\0';
	if (!a->have_x1) {
		verdict_scaling_no_x1(c, t, len);
		return;
	}
	for (i = 1; i <= k; i++) {
		lo = fmin(lo, a->pts[i].speedup);
		hi = fmax(hi, a->pts[i].speedup);
	}
	if (k < 1)
		return;
	if (hi >= ANALYSIS_NO_SMP_SPEEDUP)
		verdict_scaling(c, t, len);
	else if (lo >= ANALYSIS_FLAT_FRAC)
		snprintf(t, len, "flat from 1 to %d %s (speedup %.2f at %d)", a->pts[k].n,
			 c->n_unit, a->pts[k].speedup, a->pts[k].n);
	else
		snprintf(t, len, "no gain beyond 1 %s (speedup %.2f at %d)", c->one,
			 a->pts[1].speedup, a->pts[1].n);
}

/*
 * "on a busy machine: other processes used 1.4 of 2 CPUs at N=1 (cc1 x3,
 * make); ratios to N=1 are unreliable", or the workers' run delay where
 * the others were not measured or stayed under their bar; "" when no step
 * ran on a busy machine.
 */
static void
verdict_busy(const struct verdict_ctx *c, char *t, size_t len)
{
	const struct analysis_busy *b = &c->a->busy;
	int i;

	t[0] = '\0';
	if (b->n == 0)
		return;
	if (b->by_others) {
		snprintf(t, len, "on a busy machine: other processes used %.1f", b->others_cpus);
		if (b->ncpus > 0)
			verdict_cat(t, len, " of %d CPU%s", b->ncpus, b->ncpus == 1 ? "" : "s");
		else
			verdict_cat(t, len, " CPUs");
		verdict_cat(t, len, " at N=%d", b->n);
	} else {
		snprintf(t, len,
			 "on a busy machine: the workers waited for a CPU %.0f%% of their time at "
			 "N=%d",
			 b->run_delay_pct, b->n);
	}
	/* Who they were, whenever a scan named them, under the bar or not. */
	for (i = 0; i < b->ntop; i++) {
		verdict_cat(t, len, "%s%s", i == 0 ? " (" : ", ", b->top[i].comm);
		if (b->top[i].procs > 1)
			verdict_cat(t, len, " x%d", b->top[i].procs);
	}
	if (b->ntop > 0)
		verdict_cat(t, len, ")");
	if (b->n == 1)
		verdict_cat(t, len, "; ratios to N=1 are unreliable");
}

/* The workload's servers, said briefly where the whole clause does not fit after a busy machine. */
static void
verdict_served(const struct verdict_ctx *c, char *buf, size_t len)
{
	char t[192];

	analysis_serving_text(&c->a->serving, false, t, sizeof(t));
	if (verdict_add(c, buf, len, VERDICT_RANK_BUSY, t))
		return;
	analysis_serving_text(&c->a->serving, true, t, sizeof(t));
	verdict_add(c, buf, len, VERDICT_RANK_BUSY, t);
}

/* The curve's shape: the one thing the sentence's first clause says. */
enum verdict_shape {
	SHAPE_COLLAPSE,
	SHAPE_NO_SCALING,
	SHAPE_LINEAR,
	SHAPE_SUPERLINEAR,
	SHAPE_SUBLINEAR
};

/*
 * The one function that picks the headline, in this order: a collapse;
 * no gain anywhere (the peak under 1.1x N=1); super-linear, unless N=1
 * was starved; linear to the last N at its peak; else sub-linear (or,
 * without N = 1, the growth from the smallest N).  What follows it only
 * adds detail.
 */
static enum verdict_shape
verdict_shape(const struct analysis *a)
{
	bool super = a->have_x1 && verdict_superlinear_at(a) >= 0;

	if (a->collapse)
		return SHAPE_COLLAPSE;
	if (a->have_x1 && a->x_peak / a->x1 < ANALYSIS_NO_SMP_SPEEDUP)
		return SHAPE_NO_SCALING;
	if (super && a->busy.n != 1)
		return SHAPE_SUPERLINEAR;
	if (a->have_x1 && !super && a->linear_n == a->last_n && a->n_peak == a->last_n)
		return SHAPE_LINEAR;
	return SHAPE_SUBLINEAR;
}

static void
verdict_headline(const struct verdict_ctx *c, enum verdict_shape shape, char *t, size_t len)
{
	const struct analysis *a = c->a;

	switch (shape) {
	case SHAPE_COLLAPSE:
		verdict_collapse(c, t, len);
		break;
	case SHAPE_NO_SCALING:
		snprintf(t, len, "does not scale beyond 1 %s: speedup %.2f at %d", c->one,
			 a->pts[1].speedup, a->pts[1].n);
		break;
	case SHAPE_LINEAR:
		snprintf(t, len, "scales linearly to %d %s: %.1fx at %d", a->last_n, c->n_unit,
			 a->pts[a->npoints - 1].speedup, a->last_n);
		break;
	default:
		if (a->have_x1)
			verdict_scaling(c, t, len);
		else
			verdict_scaling_no_x1(c, t, len);
	}
}

/* The clauses after the headline and the busy machine: detail, never another shape. */
static void
verdict_details(const struct verdict_ctx *c, enum verdict_shape shape, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	char t[192];

	switch (shape) {
	case SHAPE_COLLAPSE:
		verdict_rise(c, t, sizeof(t));
		verdict_add(c, buf, len, VERDICT_RANK_SCALING, t);
		verdict_peak(c, buf, len);
		verdict_cause(c, buf, len);
		break;
	case SHAPE_NO_SCALING:
		if (!a->peak_uncertain)
			break;
		snprintf(t, sizeof(t), "the peak at %d is uncertain (CI +-%.0f%%)", a->n_peak,
			 100 * a->x_peak_ci / a->x_peak);
		verdict_add(c, buf, len, VERDICT_RANK_PEAK, t);
		break;
	case SHAPE_LINEAR:
		break;
	default:
		verdict_peak(c, buf, len);
		verdict_after_peak(c, buf, len);
	}
}

static void
verdict_sentence(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	enum verdict_shape shape;
	char t[256], x[16];

	if (a->npoints == 0) {
		verdict_add(c, buf, len, VERDICT_RANK_HEADLINE, "no usable steps");
		return;
	}
	if (a->npoints == 1) {
		snprintf(t, sizeof(t), "one point only: %s %s/s at %d %s",
			 fmt_si(a->pts[0].x, x, sizeof(x)), c->unit, a->pts[0].n,
			 verdict_units(c, a->pts[0].n));
		verdict_add(c, buf, len, VERDICT_RANK_HEADLINE, t);
		verdict_busy(c, t, sizeof(t));
		verdict_add(c, buf, len, VERDICT_RANK_BUSY, t);
		analysis_noisy_text(&a->noisy, t, sizeof(t));
		verdict_add(c, buf, len, VERDICT_RANK_NOISY, t);
		return;
	}
	shape = verdict_shape(a);
	verdict_headline(c, shape, t, sizeof(t));
	verdict_add(c, buf, len, VERDICT_RANK_HEADLINE, t);
	verdict_busy(c, t, sizeof(t));
	verdict_add(c, buf, len, VERDICT_RANK_BUSY, t);
	verdict_served(c, buf, len);
	analysis_noisy_text(&a->noisy, t, sizeof(t));
	verdict_add(c, buf, len, VERDICT_RANK_NOISY, t);
	analysis_knee_text(&a->knee, c->n_unit, t, sizeof(t));
	verdict_add(c, buf, len, VERDICT_RANK_KNEE, t);
	verdict_details(c, shape, buf, len);
}

void
verdict_build(const struct verdict_ctx *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->part != NULL)
		*c->nparts = 0;
	verdict_sentence(c, buf, len);
	verdict_parts_end(c, buf);
}

void
analysis_verdict_ranked(const struct analysis *a, char *buf, size_t len)
{
	const struct verdict_part *p;
	int r, i;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (a->nparts == 0) {
		snprintf(buf, len, "%s", a->verdict);
		return;
	}
	for (r = VERDICT_RANK_HEADLINE; r <= VERDICT_RANK_REST; r++) {
		for (i = 0; i < a->nparts; i++) {
			p = &a->part[i];
			if ((int)p->rank == r && p->len > 0)
				verdict_cat(buf, len, "%s%.*s", buf[0] != '\0' ? "; " : "",
					    (int)p->len, a->verdict + p->off);
		}
	}
}

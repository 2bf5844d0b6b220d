/*
 * The verdict: one sentence that says how far a sweep scales, where it
 * peaks and what happens after, from the analysis alone.  The thresholds
 * that only the wording uses live here; the ones the analysis judges by are
 * in analysis.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/format.h"
#include "analysis_cause.h"
#include "analysis_verdict.h"

#define ANALYSIS_FLAT_FRAC 0.95
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

/* "peak 3.10M ops/s at 8", flagged when a run pooled into it was unstable. */
static void
verdict_peak(const struct verdict_ctx *c, char *buf, size_t len)
{
	char x[16];

	verdict_mark(c, buf, VERDICT_RANK_PEAK);
	verdict_cat(buf, len, "; peak %s %s/s at %d", fmt_si(c->a->x_peak, x, sizeof(x)), c->unit,
		    c->a->n_peak);
	if (c->a->peak_uncertain)
		verdict_cat(buf, len, " (uncertain: CI +-%.0f%%)",
			    100 * c->a->x_peak_ci / c->a->x_peak);
	else if (c->peak_unstable)
		verdict_cat(buf, len, " (unstable)");
}

/* Appends clause as a part of its own when it fits whole; whether it did. */
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
 * "collapse above 4: 41% of peak at 16": from the last N before the collapse,
 * and how much is left at the last N.  Should the last N be back above the
 * threshold, the first collapsed N is named too, so the sentence stays true.
 */
static void
verdict_collapse(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	int i = verdict_index(a, a->collapse_n);

	verdict_mark(c, buf, VERDICT_RANK_COLLAPSE);
	verdict_cat(buf, len, "; collapse above %d: ", a->pts[i - 1].n);
	if (a->last_frac >= 1 - c->theta)
		verdict_cat(buf, len, "%.0f%% of peak at %d, back to %.0f%% at %d",
			    100 * a->pts[i].x / a->x_peak, a->collapse_n, 100 * a->last_frac,
			    a->last_n);
	else
		verdict_cat(buf, len, "%.0f%% of peak at %d", 100 * a->last_frac, a->last_n);
	verdict_cause(c, buf, len);
}

/*
 * After a peak without collapse: flat, a decline within theta (given as a
 * number), or a dip beyond theta that the CIs do not confirm.
 */
static void
verdict_after_peak(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	int i, worst = verdict_index(a, a->n_peak);

	if (a->collapse) {
		verdict_collapse(c, buf, len);
		return;
	}
	if (a->n_peak == a->last_n)
		return;
	for (i = worst + 1; i < a->npoints; i++) {
		if (a->pts[i].x < a->pts[worst].x)
			worst = i;
	}
	if (a->pts[worst].x >= (1 - c->theta) * a->x_peak && a->last_frac >= ANALYSIS_FLAT_FRAC) {
		verdict_cat(buf, len, ", flat after"); /* part of the peak's clause */
		return;
	}
	verdict_mark(c, buf, VERDICT_RANK_REST);
	if (a->pts[worst].x < (1 - c->theta) * a->x_peak)
		verdict_cat(buf, len, "; %.0f%% of peak at %d, inside the CIs",
			    100 * a->pts[worst].x / a->x_peak, a->pts[worst].n);
	else
		verdict_cat(buf, len, "; %.0f%% of peak at %d", 100 * a->last_frac, a->last_n);
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

/* ", super-linear: 7.0x at 2". */
static void
verdict_superlinear(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	int best = verdict_superlinear_at(a);

	if (best >= 0)
		verdict_cat(buf, len, ", super-linear: %.1fx at %d", a->pts[best].speedup,
			    a->pts[best].n);
}

/*
 * How far it scales, from N = 1: the largest N still efficient, but not
 * past the peak.  After a super-linear start, efficiency stays high while
 * throughput falls, and falling is not scaling.
 */
static void
verdict_scaling(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	int reach = a->linear_n < a->n_peak ? a->linear_n : a->n_peak;

	if (reach > 1)
		verdict_cat(buf, len, "scales to %d %s (efficiency >= %.0f%%)", reach, c->n_unit,
			    100 * c->eff_min);
	else
		verdict_cat(buf, len, "scales sub-linearly (efficiency < %.0f%% at %d %s)",
			    100 * c->eff_min, a->pts[1].n, verdict_units(c, a->pts[1].n));
	verdict_superlinear(c, buf, len);
}

/* Without an N = 1 step: growth from the smallest N to the peak, against the ideal. */
static void
verdict_scaling_no_x1(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	const struct scaling_point *p0 = &a->pts[0];

	if (a->x_peak / p0->x < ANALYSIS_NO_SMP_SPEEDUP)
		verdict_cat(buf, len, "no N=1 step; no gain beyond %d %s", p0->n,
			    verdict_units(c, p0->n));
	else
		verdict_cat(buf, len, "no N=1 step; %.2fx from %d to %d %s (ideal %.2gx)",
			    a->x_peak / p0->x, p0->n, a->n_peak, c->n_unit,
			    (double)a->n_peak / p0->n);
}

static void
verdict_sentence(const struct verdict_ctx *c, char *buf, size_t len)
{
	const struct analysis *a = c->a;
	char x[16];

	if (a->npoints == 0) {
		verdict_cat(buf, len, "no usable steps");
		return;
	}
	if (a->npoints == 1) {
		verdict_cat(buf, len, "one point only: %s %s/s at %d %s",
			    fmt_si(a->pts[0].x, x, sizeof(x)), c->unit, a->pts[0].n,
			    verdict_units(c, a->pts[0].n));
		return;
	}
	/* no gain at 2, nor anywhere later (else the general sentence tells it) */
	if (a->no_smp && a->x_peak / a->x1 < ANALYSIS_NO_SMP_SPEEDUP) {
		verdict_cat(buf, len, "does not scale beyond 1 %s: speedup %.2f at %d", c->one,
			    a->pts[1].speedup, a->pts[1].n);
		if (a->peak_uncertain) {
			verdict_mark(c, buf, VERDICT_RANK_PEAK);
			verdict_cat(buf, len, "; the peak at %d is uncertain (CI +-%.0f%%)",
				    a->n_peak, 100 * a->x_peak_ci / a->x_peak);
		}
		if (a->collapse)
			verdict_collapse(c, buf, len);
		return;
	}
	if (a->have_x1 && a->linear_n == a->last_n && a->n_peak == a->last_n && !a->collapse &&
	    verdict_superlinear_at(a) < 0) {
		verdict_cat(buf, len, "scales linearly to %d %s: %.1fx at %d", a->last_n, c->n_unit,
			    a->pts[a->npoints - 1].speedup, a->last_n);
		return;
	}
	if (a->have_x1)
		verdict_scaling(c, buf, len);
	else
		verdict_scaling_no_x1(c, buf, len);
	verdict_peak(c, buf, len);
	verdict_after_peak(c, buf, len);
}

void
verdict_build(const struct verdict_ctx *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->part != NULL)
		*c->nparts = 0;
	verdict_mark(c, buf, VERDICT_RANK_SCALING);
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
	for (r = VERDICT_RANK_COLLAPSE; r <= VERDICT_RANK_REST; r++) {
		for (i = 0; i < a->nparts; i++) {
			p = &a->part[i];
			if ((int)p->rank == r && p->len > 0)
				verdict_cat(buf, len, "%s%.*s", buf[0] != '\0' ? "; " : "",
					    (int)p->len, a->verdict + p->off);
		}
	}
}

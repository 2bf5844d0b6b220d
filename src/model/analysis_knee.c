/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency knee: where a sweep's tail latency turns up steeply while its
 * throughput is still growing, which is where an operator stops adding
 * clients.  Judged per trial, so that one slow trial at the knee or one
 * fast one below it names no knee (docs/statistics.md, "The latency knee").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"

/* The point before i with the lowest mean tail, or -1. */
static int
knee_base(const struct latency_at *t, int i)
{
	int j, b = -1;

	for (j = 0; j < i; j++) {
		if (t[j].trials > 0 && (b < 0 || t[j].tail < t[b].tail))
			b = j;
	}
	return b;
}

static double
knee_ci(double ci)
{
	return isfinite(ci) ? ci : 0;
}

/* The first N whose every trial's tail is above the factor times every trial's at the base. */
static int
knee_first_turn(const struct latency_at *t, int npoints, int *base)
{
	int i;

	for (i = 1; i < npoints; i++) {
		*base = knee_base(t, i);
		if (t[i].trials > 0 && *base >= 0 && t[*base].hi > 0 &&
		    t[i].lo > ANALYSIS_KNEE_FACTOR * t[*base].hi)
			return i;
	}
	return -1;
}

/*
 * The throughput peak, when it lies above i and rose beyond both CIs, or -1:
 * a tail that turns at or after the peak is no knee, even where a later N
 * recovers a little from a collapse.
 */
static int
knee_rise(const struct analysis *a, int i)
{
	const struct scaling_point *p = &a->pts[i], *q;
	int j, best = -1;

	if (p->n >= a->n_peak)
		return -1;
	for (j = i + 1; j < a->npoints; j++) {
		q = &a->pts[j];
		if (q->x - knee_ci(q->ci) > p->x + knee_ci(p->ci) &&
		    (best < 0 || q->x > a->pts[best].x))
			best = j;
	}
	return best;
}

void
analysis_knee(const struct session *s, const struct analysis *a, struct analysis_knee *k)
{
	struct latency_at *t;
	int i, b = -1, peak, pct = 0;

	memset(k, 0, sizeof(*k));
	if (a->npoints < 2 || (t = calloc((size_t)a->npoints, sizeof(*t))) == NULL)
		return;
	for (i = 0; i < a->npoints; i++)
		analysis_latency_at(s, a->pts[i].n, &pct, &t[i]);
	i = knee_first_turn(t, a->npoints, &b);
	if (i >= 0 && (peak = knee_rise(a, i)) >= 0) {
		k->found = true;
		k->pct = pct;
		k->n_from = a->pts[b].n;
		k->n_to = a->pts[i].n;
		k->from_ms = t[b].tail;
		k->to_ms = t[i].tail;
		k->n_peak = a->pts[peak].n;
		k->rise = a->pts[peak].x / a->pts[i].x - 1;
	}
	free(t);
}

/* Milliseconds with two or three significant digits: "0.052", "1.1", "9.0", "31". */
static void
knee_ms(double ms, char *buf, size_t len)
{
	if (ms >= 10)
		snprintf(buf, len, "%.0f", ms);
	else if (ms >= 1)
		snprintf(buf, len, "%.1f", ms);
	else
		snprintf(buf, len, "%.2g", ms);
}

void
analysis_knee_text(const struct analysis_knee *k, const char *n_unit, char *buf, size_t len)
{
	double ratio;
	char from[16], to[16];

	buf[0] = '\0';
	if (!k->found)
		return;
	ratio = k->to_ms / k->from_ms;
	knee_ms(k->from_ms, from, sizeof(from));
	knee_ms(k->to_ms, to, sizeof(to));
	snprintf(buf, len,
		 ratio >= 10 ? "p%d latency x%.0f from %d to %d %s (%s to %s ms) while throughput "
			       "still rose %.0f%%"
			     : "p%d latency x%.1f from %d to %d %s (%s to %s ms) while throughput "
			       "still rose %.0f%%",
		 k->pct, ratio, k->n_from, k->n_to, n_unit, from, to, 100 * k->rise);
}

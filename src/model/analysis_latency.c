/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A sweep's latency at one N, over its trials: what the knee judges,
 * compare sets side by side and the gnuplot export draws, taken alike.
 * Trials are the unit, as for throughput (docs/statistics.md).
 */
#include <math.h>

#include "scaletop/analysis.h"
#include "scaletop/latency.h"

/* The tail of trial t's usable runs at n, the mean of those judged on *pct; NAN if none. */
static double
lat_trial_tail(const struct session *s, int n, int t, int *pct)
{
	const struct step *st;
	double v, p = 0, sum = 0;
	int i, k = 0;

	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n != n || st->trial != t || !step_usable(st))
			continue;
		v = latency_tail(&st->lat, &p);
		if (!isfinite(v))
			continue;
		if (*pct == 0)
			*pct = (int)p;
		if ((int)p != *pct)
			continue;
		sum += v;
		k++;
	}
	return k > 0 ? sum / k : NAN;
}

static int
lat_ntrials(const struct session *s)
{
	int i, m = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].trial + 1 > m)
			m = s->steps[i].trial + 1;
	}
	return m;
}

static double
lat_p50(const struct session *s, int n)
{
	const struct step *st;
	double sum = 0;
	int i, k = 0;

	for (i = 0; i < s->nsteps; i++) {
		st = &s->steps[i];
		if (st->n == n && step_usable(st) && st->lat.method != LAT_NONE &&
		    isfinite(st->lat.p50_ms)) {
			sum += st->lat.p50_ms;
			k++;
		}
	}
	return k > 0 ? sum / k : NAN;
}

void
analysis_latency_at(const struct session *s, int n, int *pct, struct latency_at *o)
{
	double v, sum = 0;
	int t, ntrials = lat_ntrials(s);

	o->trials = 0;
	o->lo = INFINITY;
	o->hi = -INFINITY;
	for (t = 0; t < ntrials; t++) {
		v = lat_trial_tail(s, n, t, pct);
		if (isnan(v))
			continue;
		sum += v;
		o->lo = fmin(o->lo, v);
		o->hi = fmax(o->hi, v);
		o->trials++;
	}
	o->tail = o->trials > 0 ? sum / o->trials : NAN;
	if (o->trials == 0)
		o->lo = o->hi = NAN;
	o->p50 = lat_p50(s, n);
}

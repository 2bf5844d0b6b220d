/* SPDX-License-Identifier: BSD-2-Clause */
/* A step's latency figures from a histogram or a tool's intervals (latency.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/latency.h"

const char *const lat_method_names[] = { "none", "exact", "histogram", "interval" };

static void
latency_blank(struct step_latency *l)
{
	memset(l, 0, sizeof(*l));
	l->method = LAT_NONE;
	l->pct_ms = l->mean_ms = l->p50_ms = l->p90_ms = l->p99_ms = l->p999_ms = l->max_ms = NAN;
}

void
step_latency_clear(struct step_latency *l)
{
	free(l->hist);
	latency_blank(l);
}

static double
ns_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* The used buckets, lowest first; -1 when out of memory. */
static int
latency_buckets(struct step_latency *l, const struct lathist *h)
{
	uint32_t i;
	int n = 0;

	for (i = h->lo; i < h->hi; i++)
		n += h->bucket[i] != 0;
	if (n == 0)
		return 0;
	if ((l->hist = malloc((size_t)n * sizeof(*l->hist))) == NULL)
		return -1;
	for (i = h->lo; i < h->hi; i++) {
		if (h->bucket[i] == 0)
			continue;
		l->hist[l->nhist].ns = lathist_low(i);
		l->hist[l->nhist++].n = h->bucket[i];
	}
	return 0;
}

int
latency_from_hist(struct step_latency *l, const struct lathist *h, enum lat_method m)
{
	step_latency_clear(l);
	if (h == NULL || h->count == 0)
		return 0;
	l->method = m;
	l->count = h->count;
	l->mean_ms = lathist_mean(h) / 1e6;
	l->p50_ms = ns_ms(lathist_percentile(h, 50));
	l->p90_ms = ns_ms(lathist_percentile(h, 90));
	l->p99_ms = ns_ms(lathist_percentile(h, 99));
	l->p999_ms = ns_ms(lathist_percentile(h, 99.9));
	l->max_ms = ns_ms(h->max);
	return latency_buckets(l, h);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
latency_from_intervals(struct step_latency *l, const double *ms, int n, int pct)
{
	double *v;

	step_latency_clear(l);
	if (n <= 0 || (v = malloc((size_t)n * sizeof(*v))) == NULL)
		return;
	memcpy(v, ms, (size_t)n * sizeof(*v));
	l->method = LAT_INTERVAL;
	l->count = (uint64_t)n;
	l->pct = pct;
	l->pct_ms = median(v, n);
	free(v);
	if (pct == 0)
		l->mean_ms = l->pct_ms;
	else if (pct == 50)
		l->p50_ms = l->pct_ms;
	else if (pct == 90)
		l->p90_ms = l->pct_ms;
	else if (pct == 99)
		l->p99_ms = l->pct_ms;
}

double
latency_tail(const struct step_latency *l, double *pct)
{
	if (l->method == LAT_NONE)
		return NAN;
	if (isfinite(l->p99_ms)) {
		*pct = 99;
		return l->p99_ms;
	}
	if (l->method == LAT_INTERVAL && l->pct >= 90 && isfinite(l->pct_ms)) {
		*pct = l->pct;
		return l->pct_ms;
	}
	return NAN;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* A step's latency figures (model/latency.c): from a histogram, from intervals, the tail. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "scaletop/latency.h"
#include "../tap.h"

/* 1000 values 1..1000 us: the percentiles are known exactly, to within a bucket. */
static void
test_from_hist(void)
{
	static struct lathist h;
	struct step_latency l = { 0 };
	uint64_t sum = 0;
	int i;

	lathist_init(&h);
	for (i = 1; i <= 1000; i++)
		lathist_record(&h, (uint64_t)i * 1000);
	is_int(latency_from_hist(&l, &h, LAT_HISTOGRAM), 0, "made");
	is_int(l.method, LAT_HISTOGRAM, "method kept");
	is_u64(l.count, 1000, "count");
	/* Each percentile is its bucket's top: at most 1/128 above the exact value. */
	ok(l.p50_ms >= 0.5 && l.p50_ms <= 0.5 * (1 + 1 / 128.0), "p50 %.4f ms of 0.500", l.p50_ms);
	ok(l.p90_ms >= 0.9 && l.p90_ms <= 0.9 * (1 + 1 / 128.0), "p90 %.4f ms of 0.900", l.p90_ms);
	ok(l.p99_ms >= 0.99 && l.p99_ms <= 0.99 * (1 + 1 / 128.0), "p99 %.4f ms of 0.990",
	   l.p99_ms);
	ok(l.p999_ms >= 0.999 && l.p999_ms <= 1.0, "p99.9 %.4f ms of 0.999", l.p999_ms);
	is_double(l.max_ms, 1.0, 1e-12, "max exact");
	is_double(l.mean_ms, 0.5005, 1e-9, "mean exact");
	ok(l.nhist > 100 && l.nhist <= 1000, "%d buckets used", l.nhist);
	for (i = 0; i < l.nhist; i++) {
		sum += l.hist[i].n;
		if (i > 0 && l.hist[i].ns <= l.hist[i - 1].ns)
			break;
	}
	is_int(i, l.nhist, "buckets strictly rising");
	is_u64(sum, 1000, "buckets hold every value");
	lathist_init(&h);
	is_int(latency_from_hist(&l, &h, LAT_HISTOGRAM), 0, "empty: no error");
	is_int(l.method, LAT_NONE, "empty: not measured");
	ok(l.hist == NULL && l.nhist == 0, "empty: no buckets, the old ones freed");
	step_latency_clear(&l);
}

/* sysbench's 1 s p95s: the median of them, labelled with its percentile; pgbench's means. */
static void
test_from_intervals(void)
{
	const double ms[] = { 3.0, 1.0, 2.0, 100.0 };
	struct step_latency l = { 0 };
	double pct = -1;

	latency_from_intervals(&l, ms, 4, 95);
	is_int(l.method, LAT_INTERVAL, "interval method");
	is_double(l.pct_ms, 2.5, 1e-12, "even count: the middle two's mean");
	ok(isnan(l.p99_ms) && isnan(l.p50_ms) && isnan(l.mean_ms), "p95 fills no other field");
	is_double(latency_tail(&l, &pct), 2.5, 1e-12, "tail: the tool's p95");
	is_double(pct, 95, 0, "... named p95");
	latency_from_intervals(&l, ms, 3, 0);
	is_double(l.mean_ms, 2.0, 1e-12, "pct 0: the mean");
	ok(isnan(latency_tail(&l, &pct)), "a mean is no tail");
	latency_from_intervals(&l, ms, 3, 99);
	is_double(l.p99_ms, 2.0, 1e-12, "pct 99 fills p99");
	latency_from_intervals(&l, ms, 0, 99);
	is_int(l.method, LAT_NONE, "no intervals: not measured");
	step_latency_clear(&l);
}

/* p99 wins over the tool's percentile; below p90 no tail; not measured: NAN. */
static void
test_tail(void)
{
	struct step_latency l = { 0 };
	double pct = 0;

	step_latency_clear(&l);
	ok(isnan(latency_tail(&l, &pct)), "not measured: NAN");
	latency_from_intervals(&l, (const double[]){ 4.0 }, 1, 50);
	ok(isnan(latency_tail(&l, &pct)), "a median is no tail");
	latency_from_intervals(&l, (const double[]){ 4.0 }, 1, 90);
	is_double(latency_tail(&l, &pct), 4.0, 0, "p90 is a tail");
	step_latency_clear(&l);
}

int
main(void)
{
	test_from_hist();
	test_from_intervals();
	test_tail();
	return done_testing();
}

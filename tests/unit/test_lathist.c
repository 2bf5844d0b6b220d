/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency histogram (util/lathist.c): bucket bounds, percentiles, merge, overflow. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/lathist.h"
#include "../tap.h"

#define NVALUES 200000

/* xorshift64*: the same values on every run. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* Log-uniform from 50 ns to about 50 ms: the spread of lock waits and queries. */
static uint64_t
latency(uint64_t *s)
{
	double u = (double)(rnd(s) >> 11) / 9007199254740992.0;

	return (uint64_t)(50.0 * pow(1e6, u));
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Every value lies in its bucket, the buckets tile the range, and none is wider than 1/128. */
static void
test_buckets(void)
{
	uint64_t s = 7, v;
	uint32_t i;
	int outside = 0, gaps = 0, wide = 0, k;

	for (k = 0; k < 100000; k++) {
		v = rnd(&s) >> (28 + k % 36);
		i = lathist_index(v);
		outside += i >= LATHIST_NBUCKETS || v < lathist_low(i) || v > lathist_high(i);
	}
	for (i = 0; i + 1 < LATHIST_NBUCKETS; i++) {
		gaps += lathist_high(i) + 1 != lathist_low(i + 1);
		wide += (double)(lathist_high(i) - lathist_low(i)) > lathist_low(i) / 128.0;
	}
	is_int(outside, 0, "100000 values each in its own bucket's bounds");
	is_int(gaps, 0, "the buckets tile the range without gaps");
	is_int(wide, 0, "no bucket is wider than 1/128 of its values");
	is_int(lathist_index(LATHIST_MAX_VALUE - 1), LATHIST_NBUCKETS - 1,
	       "the last bucket ends the range");
}

/* Each percentile is at or above the sorted array's, by at most 1/128. */
static void
test_percentiles(void)
{
	static const double ps[] = { 0.1, 50, 90, 99, 99.9, 99.99, 100 };
	uint64_t *v = malloc(NVALUES * sizeof(*v)), s = 42, exact, got;
	struct lathist *h = malloc(sizeof(*h));
	size_t rank, i;

	if (!ok(v != NULL && h != NULL, "memory for %d values", NVALUES))
		return;
	lathist_init(h);
	is_int((long long)lathist_percentile(h, 99), 0, "an empty histogram's p99 is 0");
	ok(isnan(lathist_mean(h)), "and its mean is NaN");
	for (i = 0; i < NVALUES; i++) {
		v[i] = latency(&s);
		lathist_record(h, v[i]);
	}
	qsort(v, NVALUES, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		rank = (size_t)ceil(ps[i] / 100.0 * NVALUES);
		exact = v[rank - 1];
		got = lathist_percentile(h, ps[i]);
		if (!ok(got >= exact && (double)(got - exact) <= exact / 128.0 + 1,
			"p%g: %llu ns against the sorted array's %llu", ps[i],
			(unsigned long long)got, (unsigned long long)exact))
			diag("off by %.3f%%",
			     100.0 * ((double)got - (double)exact) / (double)exact);
	}
	ok(h->min == v[0] && h->max == v[NVALUES - 1], "min and max are exact");
	is_int((long long)lathist_percentile(h, 100), (long long)v[NVALUES - 1], "p100 is the max");
	free(v);
	free(h);
}

/* Two halves merged are the whole, bucket for bucket. */
static void
test_merge(void)
{
	struct lathist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
		       *all = malloc(sizeof(*all));
	uint64_t s = 9, x;
	int i;

	if (!ok(a != NULL && b != NULL && all != NULL, "memory for three histograms"))
		goto out;
	lathist_init(a);
	lathist_init(b);
	lathist_init(all);
	for (i = 0; i < 50000; i++) {
		x = latency(&s) * (i % 2 ? 3 : 1);
		lathist_record(i % 2 ? a : b, x);
		lathist_record(all, x);
	}
	lathist_merge(a, b);
	ok(memcmp(a, all, sizeof(*a)) == 0, "a merge of two halves equals the whole");
	lathist_init(b);
	lathist_merge(a, b);
	ok(memcmp(a, all, sizeof(*a)) == 0, "merging an empty one changes nothing");
	lathist_merge(b, all);
	ok(memcmp(b, all, sizeof(*b)) == 0, "merging into an empty one copies it");
out:
	free(a);
	free(b);
	free(all);
}

/* Values past the range count, and the percentiles that reach them say the exact max. */
static void
test_overflow(void)
{
	struct lathist *h = malloc(sizeof(*h));
	int i;

	if (!ok(h != NULL, "memory for a histogram"))
		return;
	lathist_init(h);
	for (i = 0; i < 98; i++)
		lathist_record(h, 1000);
	lathist_record(h, LATHIST_MAX_VALUE);
	lathist_record(h, 5 * LATHIST_MAX_VALUE);
	is_int((long long)h->overflow, 2, "two values past the range are overflow");
	is_int((long long)h->count, 100, "and counted");
	ok(lathist_percentile(h, 98) >= 1000 && lathist_percentile(h, 98) <= 1000 + 1000 / 128,
	   "p98 is below them: 1000 ns within its bucket (%llu)",
	   (unsigned long long)lathist_percentile(h, 98));
	is_int((long long)lathist_percentile(h, 99), (long long)(5 * LATHIST_MAX_VALUE),
	       "p99 reaches them: the exact max");
	ok(fabs(lathist_mean(h) - (98 * 1000.0 + 6.0 * LATHIST_MAX_VALUE) / 100) < 1,
	   "the mean counts them");
	lathist_init(h);
	lathist_record(h, 0);
	is_int((long long)lathist_percentile(h, 50), 0, "a 0 ns value has its bucket");
	free(h);
}

int
main(void)
{
	test_buckets();
	test_percentiles();
	test_merge();
	test_overflow();
	return done_testing();
}

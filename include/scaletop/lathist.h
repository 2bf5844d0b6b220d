/* SPDX-License-Identifier: BSD-2-Clause */
/* A latency histogram: log-linear buckets two significant digits wide, read by percentile. */
#ifndef SCALETOP_LATHIST_H
#define SCALETOP_LATHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Values are nanoseconds.  Below 2^LATHIST_SUB_BITS each value has its own
 * bucket; above, each octave [2^e, 2^(e+1)) is cut into 2^LATHIST_SUB_BITS
 * equal buckets, so a bucket is less than 1/128 of its values wide: two
 * significant digits, as HdrHistogram's precision 2.  Values from
 * 2^LATHIST_MAX_EXP ns (about 69 s) up are counted as overflow, their exact
 * maximum kept.
 */
#define LATHIST_SUB_BITS 7
#define LATHIST_MAX_EXP 36
#define LATHIST_NBUCKETS ((LATHIST_MAX_EXP - LATHIST_SUB_BITS + 1) << LATHIST_SUB_BITS)
#define LATHIST_MAX_VALUE ((uint64_t)1 << LATHIST_MAX_EXP)

struct lathist {
	uint64_t count;    /* values recorded, overflow included */
	uint64_t overflow; /* values of LATHIST_MAX_VALUE and more */
	uint64_t min, max; /* exact; min is UINT64_MAX while empty */
	uint64_t sum;      /* for the mean */
	uint32_t lo, hi;   /* the buckets used lie in [lo, hi) */
	uint64_t bucket[LATHIST_NBUCKETS];
};

void lathist_init(struct lathist *h);
/*
 * Empties h, whose buckets outside [lo, hi) are already zero (zeroed
 * memory, or a histogram in use): only the used range is written, so a
 * worker's fresh histogram costs it one page, not the whole table.
 */
void lathist_clear(struct lathist *h);

/* The bucket of v (v < LATHIST_MAX_VALUE), and the values a bucket holds, [low, high]. */
static inline uint32_t
lathist_index(uint64_t v)
{
	unsigned e;

	if (v < ((uint64_t)1 << LATHIST_SUB_BITS))
		return (uint32_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	return (uint32_t)(((e - LATHIST_SUB_BITS + 1) << LATHIST_SUB_BITS) +
			  ((v >> (e - LATHIST_SUB_BITS)) - ((uint64_t)1 << LATHIST_SUB_BITS)));
}
uint64_t lathist_low(uint32_t i);
uint64_t lathist_high(uint32_t i);

/* n values of v (a tool's printed histogram gives a count a row). */
static inline void
lathist_record_n(struct lathist *h, uint64_t v, uint64_t n)
{
	uint32_t i;

	h->count += n;
	h->sum += v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v >= LATHIST_MAX_VALUE) {
		h->overflow += n;
		return;
	}
	i = lathist_index(v);
	h->bucket[i] += n;
	if (h->lo == h->hi) {
		h->lo = i;
		h->hi = i + 1;
	} else if (i < h->lo) {
		h->lo = i;
	} else if (i >= h->hi) {
		h->hi = i + 1;
	}
}

/* One value; cheap enough for a worker's loop (a shift, a count, an add). */
static inline void
lathist_record(struct lathist *h, uint64_t v)
{
	lathist_record_n(h, v, 1);
}

/* dst += src: the histogram of both sets of values. */
void lathist_merge(struct lathist *dst, const struct lathist *src);

/*
 * The value at percentile p (0 < p <= 100): the highest value of the bucket
 * that holds it, clamped to [min, max], so it is at most 1/128 above the
 * exact one and never beyond a value seen; in overflow, the exact max.  0
 * when empty.
 */
uint64_t lathist_percentile(const struct lathist *h, double p);

/* The mean in ns; NaN when empty. */
double lathist_mean(const struct lathist *h);

#endif

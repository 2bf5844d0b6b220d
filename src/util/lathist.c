/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency histogram's bucket bounds, merging and percentiles (lathist.h). */
#include <math.h>
#include <string.h>

#include "scaletop/lathist.h"

void
lathist_init(struct lathist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
lathist_clear(struct lathist *h)
{
	if (h->lo < h->hi && h->hi <= LATHIST_NBUCKETS)
		memset(&h->bucket[h->lo], 0, (h->hi - h->lo) * sizeof(h->bucket[0]));
	h->count = h->overflow = h->sum = h->max = 0;
	h->min = UINT64_MAX;
	h->lo = h->hi = 0;
}

uint64_t
lathist_low(uint32_t i)
{
	uint32_t octave = i >> LATHIST_SUB_BITS, sub = i & ((1u << LATHIST_SUB_BITS) - 1);

	if (octave == 0)
		return i;
	/* Octave k >= 1 holds [2^(k+SUB-1), 2^(k+SUB)), in 2^SUB steps of 2^(k-1). */
	return ((uint64_t)((1u << LATHIST_SUB_BITS) + sub)) << (octave - 1);
}

uint64_t
lathist_high(uint32_t i)
{
	return i + 1 < LATHIST_NBUCKETS ? lathist_low(i + 1) - 1 : LATHIST_MAX_VALUE - 1;
}

void
lathist_merge(struct lathist *dst, const struct lathist *src)
{
	uint32_t i;

	if (src->count == 0)
		return;
	for (i = src->lo; i < src->hi; i++)
		dst->bucket[i] += src->bucket[i];
	if (src->lo < src->hi) {
		if (dst->lo == dst->hi) {
			dst->lo = src->lo;
			dst->hi = src->hi;
		} else {
			dst->lo = src->lo < dst->lo ? src->lo : dst->lo;
			dst->hi = src->hi > dst->hi ? src->hi : dst->hi;
		}
	}
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
}

uint64_t
lathist_percentile(const struct lathist *h, double p)
{
	uint64_t rank, seen = 0, v;
	uint32_t i;

	if (h->count == 0)
		return 0;
	/* The rank-th smallest value, rank = ceil(p% of count), as a sorted array's index + 1. */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = h->lo; i < h->hi; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			v = lathist_high(i);
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max; /* in the overflow */
}

double
lathist_mean(const struct lathist *h)
{
	return h->count > 0 ? (double)h->sum / (double)h->count : NAN;
}

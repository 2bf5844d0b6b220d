/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --refine's rule: the next N to measure, bisecting first the gaps beside
 * the peak, then the gap before the collapse edge, until each is one N wide
 * or its ends are inside each other's CIs.  docs/statistics.md, "Refinement".
 */
#include <math.h>
#include <stdio.h>

#include "scaletop/refine.h"

/* A gap wider than 1/REFINE_WIDE_FRAC of its upper N is bisected even inside the CIs. */
#define REFINE_WIDE_FRAC 16

static int
refine_valid(const struct refine_point *p)
{
	return p->n >= 1 && isfinite(p->mean);
}

/* The CI's ends, the mean where one is unknown or on the wrong side. */
static double
refine_lo(const struct refine_point *p)
{
	return isfinite(p->lo) && p->lo < p->mean ? p->lo : p->mean;
}

static double
refine_hi(const struct refine_point *p)
{
	return isfinite(p->hi) && p->hi > p->mean ? p->hi : p->mean;
}

/* The valid point nearest n strictly below it (dir < 0) or above it (dir > 0), or NULL. */
static const struct refine_point *
refine_beside(const struct refine_point *pts, size_t npts, int n, int dir)
{
	const struct refine_point *best = NULL;
	size_t i;

	for (i = 0; i < npts; i++) {
		if (!refine_valid(&pts[i]) || (dir < 0 ? pts[i].n >= n : pts[i].n <= n))
			continue;
		if (!best || (dir < 0 ? pts[i].n > best->n : pts[i].n < best->n))
			best = &pts[i];
	}
	return best;
}

/* The highest mean, the lowest N among equals (as the analysis' peak). */
static const struct refine_point *
refine_peak(const struct refine_point *pts, size_t npts)
{
	const struct refine_point *best = NULL;
	size_t i;

	for (i = 0; i < npts; i++) {
		if (!refine_valid(&pts[i]))
			continue;
		if (!best || pts[i].mean > best->mean ||
		    (pts[i].mean == best->mean && pts[i].n < best->n))
			best = &pts[i];
	}
	return best;
}

/*
 * The N to measure between a and b (a->n < b->n), or 0 when the gap is
 * settled: one N wide, or its ends inside each other's CIs and the gap
 * narrow.  Rounded down, so each pick lies strictly inside and the gap
 * halves; an upper end past top is cut back to top + 1.
 */
static int
refine_gap(const struct refine_point *a, const struct refine_point *b, int top)
{
	int hi = b->n > top ? top + 1 : b->n;
	int overlap = refine_lo(a) <= refine_hi(b) && refine_lo(b) <= refine_hi(a);
	int wide = (b->n - a->n) * REFINE_WIDE_FRAC > b->n;

	if (hi - a->n <= 1 || (overlap && !wide))
		return 0;
	return a->n + (hi - a->n) / 2;
}

/* One bit of the seed mixed with what the pick is made of (splitmix64's finaliser). */
static int
refine_coin(uint64_t seed, int n, size_t npts)
{
	uint64_t z = seed ^ ((uint64_t)n << 32) ^ (uint64_t)npts;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (int)((z ^ (z >> 31)) & 1);
}

/* Beside the peak: the side whose neighbour's mean is nearer the peak's first. */
static int
refine_at_peak(const struct refine_point *pts, size_t npts, int top, uint64_t seed,
	       struct refine_pick *pick)
{
	const struct refine_point *pk = refine_peak(pts, npts);
	const struct refine_point *l = refine_beside(pts, npts, pk->n, -1);
	const struct refine_point *r = refine_beside(pts, npts, pk->n, 1);
	int nl = l ? refine_gap(l, pk, top) : 0, nr = r ? refine_gap(pk, r, top) : 0;
	int right;

	if (nl == 0 && nr == 0)
		return 0;
	if (nl == 0 || nr == 0)
		right = nr != 0;
	else if (l->mean != r->mean)
		right = r->mean > l->mean;
	else
		right = refine_coin(seed, pk->n, npts);
	pick->n = right ? nr : nl;
	if (right)
		snprintf(pick->why, sizeof(pick->why), "between the peak at %d and %d", pk->n,
			 r->n);
	else
		snprintf(pick->why, sizeof(pick->why), "between %d and the peak at %d", l->n,
			 pk->n);
	return 1;
}

/*
 * The collapse as the analysis judges it: the first N past the peak (or
 * past the best lower bound's N, when that comes first) whose upper bound
 * is below (1 - theta) of the best lower bound of any point.
 */
static const struct refine_point *
refine_collapse(const struct refine_point *pts, size_t npts, double theta)
{
	const struct refine_point *pk = refine_peak(pts, npts), *ref = pk, *p;
	double best = -INFINITY, bar;
	size_t i;

	for (i = 0; i < npts; i++) {
		if (refine_valid(&pts[i]) && (refine_lo(&pts[i]) > best ||
					      (refine_lo(&pts[i]) == best && pts[i].n < ref->n))) {
			best = refine_lo(&pts[i]);
			ref = &pts[i];
		}
	}
	bar = (1 - theta) * (best > 0 ? best : 0);
	p = refine_beside(pts, npts, ref->n < pk->n ? ref->n : pk->n, 1);
	while (p && refine_hi(p) >= bar)
		p = refine_beside(pts, npts, p->n, 1);
	return p;
}

/* The gap before the collapse edge. */
static int
refine_at_collapse(const struct refine_point *pts, size_t npts, int top, double theta,
		   struct refine_pick *pick)
{
	const struct refine_point *c = refine_collapse(pts, npts, theta), *b;
	int n;

	if (!c)
		return 0;
	b = refine_beside(pts, npts, c->n, -1);
	n = refine_gap(b, c, top);
	if (n == 0)
		return 0;
	pick->n = n;
	snprintf(pick->why, sizeof(pick->why), "between %d and the collapse at %d", b->n, c->n);
	return 1;
}

void
refine_next(const struct refine_point *pts, size_t npts, int top, double theta, uint64_t seed,
	    struct refine_pick *pick)
{
	pick->n = 0;
	pick->why[0] = '\0';
	if (top < 1 || !refine_peak(pts, npts))
		return;
	if (!refine_at_peak(pts, npts, top, seed, pick))
		refine_at_collapse(pts, npts, top, theta, pick);
}

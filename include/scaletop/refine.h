/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --refine: after a sweep's list, the next N to measure where the curve is
 * least known, first around the peak, then at the collapse edge.  Pure code:
 * the engine hands in what it measured and runs what comes back.
 */
#ifndef SCALETOP_REFINE_H
#define SCALETOP_REFINE_H

#include <stddef.h>
#include <stdint.h>

/* One N's throughput so far: its mean and 95% CI (over trials, else its intervals). */
struct refine_point {
	int n;
	double mean, lo, hi; /* lo == hi == mean: no spread known */
};

/* What refine_next chose, and why, for the TUI and the snapshot's event. */
struct refine_pick {
	int n;         /* 0: nothing left to learn */
	char why[160]; /* "between the peak at 48 and 64" */
};

/*
 * The next N, given every point measured so far (any order, one per N), a
 * top past which no N is chosen, the analysis' collapse threshold theta (a
 * fall below (1 - theta) of the best lower CI bound), and a seed that orders ties so that
 * drift does not line up with N.  The same points and seed give the same
 * pick.  pick->n 0: the peak is located to within one N, or its neighbours
 * are inside each other's CIs, and likewise the collapse edge.
 */
void refine_next(const struct refine_point *pts, size_t npts, int top, double theta, uint64_t seed,
		 struct refine_pick *pick);

#endif

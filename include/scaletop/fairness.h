/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How evenly a step's workers shared its work, from each worker's operation
 * count over the measurement window.  Unfair locks (test-and-set spinlocks,
 * some mutexes) at N well above the CPU count let a few workers take nearly
 * every operation while the rest starve: that is the collapse a user came to
 * see, so it is measured and shown, never a reason to fail the step.
 */
#ifndef SCALETOP_FAIRNESS_H
#define SCALETOP_FAIRNESS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Pure arithmetic, no I/O.
 */

struct fairness {
	bool have; /* per-worker counts were taken (built-in workloads only) */
	int workers;
	uint64_t min, max; /* operations of the least and the most served worker */
	double median;     /* the middle count (the mean of the two middle ones for even N) */
	/*
	 * Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when every worker
	 * did the same, 1/n when one did everything; NaN when none did anything.
	 */
	double jain;
	int starved; /* workers that completed no operation in the window */
};

/* From the per-worker counts x[0..n-1] (n >= 1).  0, or -1 (ENOMEM): f is left without figures. */
int fairness_compute(struct fairness *f, const uint64_t *x, int n);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --refine's side of a sweep (sweep_refine.c): once the planned list has
 * run, the N the refiner picks from what was measured, each run once a
 * trial and repeat like a listed N, until the budget is spent.
 */
#ifndef SCALETOP_SWEEP_REFINE_H
#define SCALETOP_SWEEP_REFINE_H

#include <stdbool.h>

#include "scaletop/session.h"

struct sweep_refine {
	int picked; /* N's chosen so far (at most set.refine) */
	int n;      /* the N whose steps run now; 0: none */
	int next;   /* its next step, 0 .. trials x repeat - 1 */
	bool over;  /* nothing more to learn, or the budget is spent */
};

/*
 * The next refined step's N, repeat and trial, choosing a new N (and saying
 * why in an event of s, at session time t) when the last one's steps have
 * run; false when refinement is over.  *added: steps the new N brought.
 */
bool sweep_refine_step(struct session *s, struct sweep_refine *r, double t, int *n, int *rep,
		       int *trial, int *added);

#endif

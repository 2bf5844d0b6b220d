/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/model/: the cause of a collapse, which wait category grew
 * between the peak and the fall (analysis.h, struct analysis_cause).
 * analysis.c finds it from the session; analysis_verdict.c words it.
 */
#ifndef SCALETOP_MODEL_ANALYSIS_CAUSE_H
#define SCALETOP_MODEL_ANALYSIS_CAUSE_H

#include <stddef.h>

#include "scaletop/analysis.h"

/* The usable runs at one N (the caller judges which are). */
struct cause_runs {
	int nval; /* the N */
	const struct step **v;
	int n;
};

/* The cause between the runs at the peak and at the fall, into *c. */
void analysis_cause_find(const struct cause_runs *from, const struct cause_runs *to,
			 struct analysis_cause *c);
/*
 * Its first ncat categories as a clause of the verdict, "; at 32 the
 * target's threads were runnable 41% (3% at 4) and in futex_wait_queue 38%
 * (5% at 4)", into buf; "" when there is no cause.
 */
void analysis_cause_text(const struct analysis_cause *c, int ncat, char *buf, size_t len);
/*
 * The lock spin that grew, "; at 4, 38% of the workload's CPU spun in
 * native_queued_spin_lock_slowpath from alloc_fd (the fd table's lock) (4%
 * at 2)", into buf; "" when none did.
 */
void analysis_spin_text(const struct analysis_cause *c, char *buf, size_t len);
/*
 * The lock that grew, "; at 32, 41 of 64 mariadbd threads waited on one
 * futex (lock_sys+64, held by thread 4711, runnable)", into buf; "" when
 * none did.  Its share's rise is c->lock's from and to.
 */
void analysis_lock_text(const struct analysis_cause *c, char *buf, size_t len);

#endif

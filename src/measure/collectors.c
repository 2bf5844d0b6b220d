/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collector table: every per-step measurement, one line each.  A window
 * begins them in this order and ends them in reverse, so the order says
 * whose edge is nearest the window's: the target's and the others' CPU
 * time last in and first out, the wait profile first in and last out (the
 * probes add to it until they end).  A step's slot i is the i-th line's.
 */
#include "scaletop/measures.h"

/* Each defined in its file, src/measure/NAME.c. */
extern const struct collector waits_collector;
extern const struct collector kernel_locks_collector;
extern const struct collector probes_collector;
extern const struct collector census_collector;
extern const struct collector kstacks_collector;
extern const struct collector hot_collector;
extern const struct collector freq_collector;
extern const struct collector freq_range_collector;
extern const struct collector others_collector;
extern const struct collector target_collector;
extern const struct collector latency_collector;

const struct collector *const collectors[] = {
	&waits_collector,        /* where the threads waited */
	&kernel_locks_collector, /* the kernel's lock profile */
	&probes_collector,       /* --probe's commands, adding to the waits */
	&census_collector,       /* the user-space locks waited on */
	&kstacks_collector,      /* the blocked threads' kernel stacks */
	&hot_collector,          /* where the CPUs went */
	&latency_collector,      /* the operations' latency, from what the step's kind fed */
	&freq_range_collector,   /* the range of the frequency's readings (ends after them) */
	&freq_collector,         /* the CPUs' mean frequency */
	&others_collector,       /* who else was on the CPUs */
	&target_collector,       /* --target's processes */
};

const int ncollectors = (int)(sizeof(collectors) / sizeof(collectors[0]));

_Static_assert(sizeof(collectors) / sizeof(collectors[0]) <= COLLECTORS_MAX,
	       "a step has a slot for each collector");

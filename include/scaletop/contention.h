/* Contention figures for one measurement window: pure arithmetic over counters. */
#ifndef SCALETOP_CONTENTION_H
#define SCALETOP_CONTENTION_H

#include <stdint.h>

#include "scaletop/delta.h"
#include "scaletop/platform.h"
#include "scaletop/session.h"

/* Everything measured at the two edges of a window. */
struct window_edges {
	double seconds; /* measured window length */
	uint64_t ops;   /* operations in the window */
	/*
	 * Tasks sharing the run-delay figure: N for a built-in step (its workers;
	 * the idle control thread adds nothing), or 0 for the threads summed in
	 * t1 (an external command runs as many as it likes: pgbench -c 64 -j 4
	 * sums 4).
	 */
	int workers;
	struct task_counters t0, t1;    /* the workload's tasks at each edge */
	bool have_tasks;                /* t0/t1 valid */
	uint64_t wait_ns, busy_ns;      /* lock-wait sampling deltas; busy 0 = none */
	const struct sample_delta *sys; /* system delta over the window, or NULL */
};

/* Fills c from the edges; figures whose inputs are missing stay unset in c->have. */
void contention_compute(struct contention *c, const struct window_edges *e);

#endif

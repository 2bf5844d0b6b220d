/* SPDX-License-Identifier: BSD-2-Clause */
/* Contention figures for one measurement window: pure arithmetic over counters. */
#ifndef SCALETOP_CONTENTION_H
#define SCALETOP_CONTENTION_H

#include <stdint.h>

#include "scaletop/sample_types.h"
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

/* Unsets the figures per operation of c and tg (may be NULL): the step's count is not known. */
void contention_forget_per_op(struct contention *c, struct target_figures *tg);
/*
 * Unsets what an older scaletop wrote as 0 when no operation was counted:
 * 0 switches per 1000 operations beside switches counted, 0 operations per
 * CPU-second.  For the readers of snapshots and streams.
 */
void contention_forget_old_zeros(struct contention *c);

/* Everything measured of a --target over a window (the engine's procbook and cgroups). */
struct target_edges {
	double seconds; /* measured window length */
	uint64_t ops;   /* the workload's operations in the window */
	/* The target's counters' change over the window; d.nthreads: the most threads seen. */
	struct task_counters d;
	double thread_s; /* thread-seconds the sum covers: the run delay's denominator */
	int procs;       /* processes counted */
	/* cgroup targets: the groups' cpu.stat and cpu.pressure summed at each edge */
	bool have_cgroup;
	struct cgroup_cpu cg0, cg1;
	bool cgroup_only; /* every target is a group: its cpu.stat is the CPU figure */
	int ncpu;         /* the machine's CPUs, for the target's share of them */
	/* The workload's CPU-seconds over the window, for ops per CPU-second of both; < 0: unknown
	 */
	double workload_cpu_s;
};

/* Fills tg (present) from the edges; figures whose inputs are missing stay unset in tg->have. */
void target_figures_compute(struct target_figures *tg, const struct target_edges *e);

#endif

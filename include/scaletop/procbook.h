/* SPDX-License-Identifier: BSD-2-Clause */
/* The processes of a --target over one measurement window. */
#ifndef SCALETOP_PROCBOOK_H
#define SCALETOP_PROCBOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/sample_types.h"

/*
 * A server's processes come and go while it is measured (postgres forks a
 * backend per connection), so the window's counters are not one reading at
 * each edge but a book: each process counts from when it was first seen in
 * the window, or from 0 when it started inside it; one that exits keeps its
 * last counters; a pid seen again with another start time is a new process,
 * never the old one twice.  Pure bookkeeping over readings the engine makes.
 */

struct procbook_entry {
	pid_t pid;
	uint64_t start_ns; /* on proc_start_ns's clock; 0: unknown */
	struct task_counters first, last;
	bool alive; /* seen in the latest pass */
	bool seen;  /* seen in the pass now running */
};

struct procbook {
	struct procbook_entry *e;
	int n, cap;
	uint64_t w0_ns;   /* the window's start on the same clock; 0: unknown */
	uint64_t pass_ns; /* when the last pass ended (CLOCK_MONOTONIC) */
	double thread_s;  /* threads alive at each pass times the time since the one before */
	int max_threads;  /* the most threads alive at one pass */
	int last_threads; /* threads alive at the last pass */
};

void procbook_init(struct procbook *b);
void procbook_free(struct procbook *b);
/* A new window that opened at w0_ns (proc clock; 0 if unknown), now (monotonic): empty. */
void procbook_reset(struct procbook *b, uint64_t w0_ns, uint64_t now);
/* A pass over the target's processes begins: none is seen yet. */
void procbook_pass_begin(struct procbook *b);
/*
 * Process pid, which started at start_ns (0: unknown), read now with c.
 * 0, or -1 (ENOMEM: the process is left out).
 */
int procbook_see(struct procbook *b, pid_t pid, uint64_t start_ns, const struct task_counters *c);
/* The pass is over at now (monotonic): processes not seen in it have exited. */
void procbook_pass_end(struct procbook *b, uint64_t now);
/*
 * The window so far: every process's last less its first, summed into *d
 * (d->have: the counters every process had; d->nthreads: the most threads
 * alive at one pass), and how many processes were counted.
 */
void procbook_sum(const struct procbook *b, struct task_counters *d, int *procs);

#endif

/*
 * Private to src/engine/: where threads wait.  Every tick of a step (4 Hz by
 * default) the sampler reads the threads of the workload's processes and of
 * the target's, and adds to the window's tally (waits.h) the thread-time
 * since each thread was last read, in the state it is in now
 * (thread_wait.h).  Its work per tick is bounded: at most
 * WAIT_SAMPLE_MAX_THREADS threads are read, the rest in later ticks, in
 * rotation, so a server of thousands of threads is read in turn rather than
 * stalling the loop; each thread's time is still counted whole, since it
 * runs from its own last reading.
 */
#ifndef SCALETOP_ENGINE_WAIT_SAMPLER_H
#define SCALETOP_ENGINE_WAIT_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/thread_wait.h"
#include "scaletop/waits.h"

#define WAIT_SAMPLE_MAX_THREADS 256
/*
 * A tick's reading aims at this long (0.12% of a 0.25 s tick): the threads
 * a tick reads are as many as the last ticks' cost per thread allows, 8 at
 * least, and it stops once it has spent this long, whatever is left.
 */
#define WAIT_SAMPLE_MAX_NS 300000u
#define WAIT_SAMPLE_MIN_THREADS 8

/* One family's processes, where the rotation stands, and its threads' marks (by tid). */
struct ws_family {
	pid_t *pids;
	size_t npids;
	size_t next_pid; /* the rotation: the process to read next */
	pid_t after;     /* ... from the thread after this one (0: its first) */
	bool skip_main;  /* a process's main thread is not read: a built-in step's controller */
	struct thread_mark *marks;
	size_t nmarks, capmarks;
};

struct wait_sampler {
	struct ws_family fam[2]; /* WAIT_WORKLOAD, WAIT_TARGET */
	bool counting;           /* in a window: the tally gets the time since from_ns */
	uint64_t from_ns;
	int max_threads;       /* per tick */
	uint64_t reads, ticks; /* threads read and ticks, for the cost bench and tests */
	double ns_per_read;    /* what reading a thread has cost lately; 0: not known yet */
};

void wait_sampler_init(struct wait_sampler *w);
void wait_sampler_free(struct wait_sampler *w);
/* A new step: no processes, no marks. */
void wait_sampler_reset(struct wait_sampler *w);
/*
 * The processes of family f (WAIT_WORKLOAD or WAIT_TARGET), copied; with
 * skip_main, their main threads are left out (a built-in step's child, whose
 * main thread only watches its workers).  0, or -1 (ENOMEM).
 */
int wait_sampler_set_pids(struct wait_sampler *w, enum wait_family f, const pid_t *pids, size_t n,
			  bool skip_main);
/* The window opens (counting from from_ns on) or closes (threads are only marked). */
void wait_sampler_window(struct wait_sampler *w, bool counting, uint64_t from_ns);
/* One tick's reading at now, into t while counting. */
void wait_sampler_tick(struct wait_sampler *w, struct wait_tally *t, uint64_t now);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start line: a step's workers (threads, or processes forked by the
 * step's child) gather here and are released together.
 */
#ifndef SCALETOP_STARTLINE_H
#define SCALETOP_STARTLINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define STARTLINE_RECHECK_MS 1000

/*
 * Waiting costs nothing: a worker blocks in poll() on the read end of a
 * pipe that nobody writes to, and the child releases everyone at once by
 * closing the only write end, which wakes every poller (threads and
 * processes alike, on every POSIX system).  No lock is held while waiting,
 * so a worker that dies at the line cannot wedge the others, and a wait
 * wakes every STARTLINE_RECHECK_MS to look at the stop flag in case the
 * child died before it could close the gate.
 *
 * Two halves: the counters live in the step's MAP_SHARED mapping, where the
 * monitor reads them; the gate's descriptors are each process's own, since
 * a worker process must drop its inherited copy of the write end.
 */

/* In shared memory: written by the child and its workers, read by the monitor. */
struct startline_state {
	atomic_int ready;       /* workers waiting at the line */
	atomic_int go;          /* 1 once released; stays 0 when the line was closed on stop */
	_Atomic uint64_t go_ns; /* CLOCK_MONOTONIC at the release, stored before go */
};

/* Per process: the gate, a pipe.  -1 where closed (or not open yet). */
struct startline {
	struct startline_state *st;
	int rfd, wfd;
};

/* Monitor, before the child is forked. */
void startline_state_init(struct startline_state *st);
bool startline_released(struct startline_state *st);
/* When the workers were released; 0 before. */
uint64_t startline_go_ns(struct startline_state *st);

/* The child, before its first worker starts.  -1 with errno when no pipe can be made. */
int startline_open(struct startline *sl, struct startline_state *st);
/* In a newly forked worker: drops its inherited write end, so closing the gate reaches it. */
void startline_forked(struct startline *sl);
/*
 * A worker: arrives, then blocks until released (true) or until the line is
 * closed or *stop is set first (false: the worker must return at once).
 */
bool startline_wait(struct startline *sl, const atomic_int *stop);
/* How many workers have arrived. */
int startline_ready(struct startline *sl);
/* The child: releases every worker now (records go_ns, sets go, opens the gate). */
void startline_release(struct startline *sl);
/* The child: wakes the waiters without releasing them (stop came first).  Idempotent. */
void startline_close(struct startline *sl);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step runner for built-in workloads.  runner_start forks a child that
 * leads its own process group (pgroup.h); the child runs step_init, starts N
 * workers (threads, or processes in the same group), and releases them
 * together once all are ready.  Each worker counts in its own slot (slot.h)
 * of a MAP_SHARED mapping; the monitor only reads the slots.
 */
#ifndef SCALETOP_RUNNER_H
#define SCALETOP_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/workload.h"

#define RUNNER_MAX_WORKERS 4096
#define RUNNER_GRACE_NS UINT64_C(2000000000) /* default time workers get to return after stop */
#define RUNNER_REASONLEN 256

/*
 * Nothing here blocks for long except runner_free: the engine's loop calls
 * runner_poll on each tick, which also drains the child's output.  A worker that
 * crashes, fails or will not stop ends the step with a one-line reason; the
 * monitor is never harmed, and no process is left behind.
 */

enum runner_mode { RUNNER_THREADS, RUNNER_PROCESSES };

enum runner_state {
	RUNNER_STARTING, /* step_init and worker start; go_ns is 0 */
	RUNNER_RUNNING,  /* workers released at go_ns and counting */
	RUNNER_STOPPING, /* stop asked (or a worker failed); waiting for the child */
	RUNNER_DONE,     /* every worker returned 0 after stop; child reaped */
	RUNNER_FAILED    /* reason says why; child reaped, group gone */
};

struct runner_config {
	const struct workload *wl;
	const struct wl_args *args;   /* must stay valid until runner_free */
	const struct wl_sweep *sweep; /* likewise */
	int nworkers;                 /* 1 .. RUNNER_MAX_WORKERS */
	enum runner_mode mode;
	uint64_t grace_ns; /* 0: RUNNER_GRACE_NS */
	bool latency;      /* the workers keep latency histograms (runner_latency) */
};

struct runner_status {
	enum runner_state state;
	uint64_t go_ns;   /* CLOCK_MONOTONIC when the workers were released; 0 before */
	uint64_t ops;     /* sum over workers of their last consistent slot read */
	uint64_t wait_ns; /* likewise, for WL_LOCK_WAIT workloads */
	uint64_t busy_ns;
	int unread; /* slots with no consistent read this poll (their last one is summed) */
	int ready;  /* workers that have reached the start line (all of them once released) */
	const char *reason; /* why the step failed, "" otherwise; owned by the runner */
	const char *output; /* the child's last line of output, "" if none; owned by the runner */
};

struct runner;

/*
 * Maps the slots, control block and the workload's shared memory, and forks
 * the step's child.  NULL with a one-line message if that cannot be done;
 * failures inside the child (step_init, a worker) come from runner_poll.
 */
struct runner *runner_start(const struct runner_config *cfg, char *err, size_t errlen);

/*
 * Reads every slot, notices failures and reaps the child, without blocking.
 * Returns the state, also stored in st (which may be NULL).
 */
enum runner_state runner_poll(struct runner *r, struct runner_status *st);

/*
 * Asks the workers to return (their stop flag) and gives them the grace;
 * past it the child kills the ones that did not stop and the step fails.
 * Follow with runner_poll until DONE or FAILED.
 */
void runner_stop(struct runner *r);
/* Like runner_stop with no grace, for quitting: the step counts as stopped, not failed. */
void runner_abort(struct runner *r);

/*
 * Ends the child if it still runs (abort, then a kill of its group after a
 * second) and reaps it; unmaps and frees.  Blocks for at most about a second.
 */
void runner_free(struct runner *r);

/* The child's pid, which is also its process-group id; kept after it is reaped. */
pid_t runner_pgid(const struct runner *r);
int runner_nworkers(const struct runner *r);
/* Worker i's operations at its last consistent read: flat ones have stalled. */
uint64_t runner_worker_ops(const struct runner *r, int i);
/* The workload's shared memory (shared_size bytes), or NULL; owned by the runner. */
void *runner_shared(const struct runner *r);

/*
 * The pids whose task counters make up the workload: the child in thread
 * mode, every live worker in process mode.  Returns how many were stored.
 */
int runner_task_pids(const struct runner *r, pid_t *pids, int max);

/*
 * The workers' latency (cfg.latency): they time operations while on (the
 * measurement window); once the child has ended normally, runner_latency is
 * their histograms merged, else NULL.
 */
enum runner_lat { RUNNER_LAT_OPS, RUNNER_LAT_SYNC, RUNNER_LAT_N };
void runner_latency_on(struct runner *r, bool on);
const struct lathist *runner_latency(const struct runner *r, enum runner_lat which);

#endif

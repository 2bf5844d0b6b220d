/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the step runner: the control block the monitor and the step's
 * child share (in the same MAP_SHARED mapping as the slots), and the runner
 * itself.  runner.c is the monitor's side, runner_child.c the child's; the
 * monitor writes only stop and abort, the child writes the rest.
 */
#ifndef SCALETOP_RUNNER_PRIV_H
#define SCALETOP_RUNNER_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "scaletop/lathist.h"
#include "scaletop/slot.h"
#include "scaletop/spawn.h"
#include "runner.h"
#include "startline.h"

#define RUNNER_EXIT_FAILED 113 /* the child recorded why in the control block */
#define RUNNER_WORKER_FAILED 1 /* a worker process whose work() returned an errno */
#define RUNNER_BACKSTOP_NS UINT64_C(1000000000) /* past the grace, the monitor kills the group */
#define RUNNER_BAD_POLLS 16           /* polls in a row with no consistent read of a slot */
#define RUNNER_GATHER_NAP_NS 1000000L /* the child, while workers gather (they block) */
/* The watch interval while workers run: 20 wake-ups a second add little to their counters. */
#define RUNNER_RUN_NAP_NS 50000000L
#define RUNNER_STOP_NAP_NS 1000000L

/* Why the child says the step failed (runner_ctl.fail). */
enum runner_fail {
	RF_NONE,
	RF_INIT,   /* step_init failed: fail_text */
	RF_START,  /* a worker could not be started: fail_code is errno */
	RF_ERROR,  /* work() returned fail_code */
	RF_SIGNAL, /* a worker process was killed by signal fail_code */
	RF_EXIT,   /* a worker process exited with status fail_code */
	RF_EARLY,  /* work() returned 0 before stop */
	RF_STUCK   /* a worker ignored stop for the whole grace */
};

struct runner_ctl {
	struct startline_state line; /* workers at the start line, and their release */
	atomic_int stop;             /* the workers' stop flag (wl_worker.stop) */
	atomic_int abort;            /* the monitor wants the child gone now */
	uint64_t grace_ns;           /* written before fork */
	atomic_int fail;             /* enum runner_fail, stored (release) after its details */
	int fail_worker;
	int fail_code;
	atomic_int crash_worker; /* the worker a fatal signal hit, -1 */
	atomic_int crash_signal;
	char fail_text[192];   /* step_init's message, cut to fit a reason */
	atomic_int lat_on;     /* the monitor's: the workers time operations (the window) */
	atomic_uint lat_epoch; /* the monitor's: a new window; the workers empty their histograms */
	atomic_int lat_merged; /* the child's: runner.lat holds the workers' merged histograms */
	atomic_int pids[];     /* process mode: worker pids, 0 once reaped by the child */
};

/* What the monitor keeps per worker. */
struct runner_seen {
	struct slot_view last; /* the last consistent read */
	int bad;               /* polls in a row without one */
};

struct runner {
	struct runner_config cfg;
	void *map;
	size_t maplen;
	struct runner_ctl *ctl;
	struct wl_slot *slots;
	struct lathist
		*lat; /* in the mapping: the workers' histograms, merged by the child:
			 [RUNNER_LAT_OPS] their operations', [RUNNER_LAT_SYNC] their syncs' */
	struct lathist
		*wlat; /* the child's: two a worker (the same two), in a mapping of its own */
	void *shared;
	struct runner_seen *seen;
	struct startline gate; /* the child's, and (copied by fork) each worker process's */

	pid_t pid;     /* the child, also its group id */
	pid_t monitor; /* our own pid, for the child's orphan check */
	bool reaped;
	int status; /* wait status, once reaped */
	int out_fd;
	struct spawn_lines out_lines;
	char output[160];

	enum runner_state state;
	bool stopping; /* stop was set, by us or on the child's failure */
	bool aborted;
	bool killed;      /* we killed the group: the child missed its deadline */
	uint64_t kill_ns; /* when to kill the group if the child is still there; 0: never */
	uint64_t go_ns, ops, wait_ns, busy_ns;
	int unread;
	char reason[RUNNER_REASONLEN];
};

static inline void
runner_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	nanosleep(&ts, NULL);
}

/*
 * The forked child's whole life (runner_child.c): stdio onto outfd,
 * step_init, the workers started and released together, watched, wound down
 * after stop, step_fini.  Never returns; its exit status and the control
 * block say how it went.
 */
_Noreturn void runner_child(struct runner *r, int outfd);

#endif

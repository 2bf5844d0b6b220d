/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sweep controller: works through the N list one step at a time
 * (warm-up, measurement for a fixed time or until stable, stop), driven by
 * the event loop's tick, and writes every result into the session model.
 * It never draws or prints; views watch it through the observer callback.
 */
#ifndef SCALETOP_SWEEP_H
#define SCALETOP_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/collector.h"
#include "scaletop/delta.h"
#include "scaletop/loop.h"
#include "scaletop/phase.h"
#include "scaletop/platform.h"
#include "scaletop/contention.h"
#include "scaletop/session.h"
#include "scaletop/waits.h"
#include "scaletop/workload.h"

/* What to run: a built-in workload, or an external command (cmd != NULL). */
struct sweep_config {
	const struct workload *wl;
	struct wl_args args;
	char **cmd;            /* argv template with {n} and {duration}; borrowed */
	const char *parser;    /* parser name for cmd: "sysbench", "pgbench", "regex", "elapsed" */
	const char *parse_arg; /* the regex for "regex" */
	const char *parse_lat; /* --parse-lat's RE[:UNIT[:STAT]] for "regex", or NULL */
	/*
	 * "elapsed": no parser; each step times the command from start to exit
	 * and counts elapsed_ops operations (1: one run).  time_limit_s > 0 kills
	 * a run that takes longer.
	 */
	uint64_t elapsed_ops;
	double time_limit_s;
	char **setup;    /* run once before the sweep, or NULL; borrowed */
	char **teardown; /* run once after it, or NULL; borrowed */
	/*
	 * The loop's thread at SCHED_FIFO at this priority while the sweep
	 * runs (pgroup_realtime, with loop_set_guard's bound); 0: the nice
	 * boost alone.  realtime_asked: --realtime was given, so a refusal is
	 * a warning rather than a note.
	 */
	int realtime;
	bool realtime_asked;
	/*
	 * The quiet check before the first step (sweep_quiet.h): who else used
	 * the CPUs over a second, an event when the machine is busy; and with
	 * wait_quiet_s > 0 (--wait-quiet) a wait of up to that long for it to be
	 * quiet.
	 */
	bool quiet_check;
	double wait_quiet_s;
	/*
	 * The per-step measurements each window runs (collector.h), in order:
	 * the caller's, borrowed (measures.h's table); NULL: none.
	 */
	const struct collector *const *collectors;
	int ncollectors;
};

/* What a live view shows between steps' results. */
struct sweep_live {
	enum sweep_phase phase;
	int step;        /* index into session steps, -1 before the first */
	int steps_total; /* nn * repeat */
	double phase_s;  /* seconds spent in the phase so far */
	double rate;     /* the last interval's throughput */
	bool have_rate;
	struct sample_delta cpu; /* the last tick's CPU usage */
	bool have_cpu;
	bool paused;          /* sweep_pause: no step advances until resumed */
	bool held;            /* ... and the running step is stopped: phase_s stands still */
	struct contention ct; /* the running step's window so far, refreshed about once a second */
	bool have_ct;
	struct wait_share *waits; /* its wait profile so far, refreshed with ct; the sweep's */
	int nwaits;
	struct target_figures tg; /* --target's figures so far, on each pass over its processes */
	bool have_tg;
};

enum sweep_note { SWEEP_TICK, SWEEP_STEP_DONE, SWEEP_FINISHED };
typedef void (*sweep_observer)(void *arg, enum sweep_note note, int step);

struct sweep;

/*
 * Binds a sweep to a session (whose settings, host and workload text the
 * caller has filled), a loop and a sampler, all borrowed.  The session's
 * workload text is completed from cfg.
 */
struct sweep *sweep_new(struct session *s, struct loop *l, struct sampler *smp,
			const struct sweep_config *cfg, char *err, size_t errlen);
void sweep_set_observer(struct sweep *sw, sweep_observer cb, void *arg);
/* Prepares the workload, runs --setup, starts the first step and the tick. */
int sweep_start(struct sweep *sw, char *err, size_t errlen);
/*
 * Pauses or resumes.  A built-in step's workers are stopped (SIGSTOP to the
 * step's group) and, on resume, warm up and measure afresh, since a window
 * with a hole in it would not be a measurement.  An external command cannot
 * be re-timed from outside, so its step runs on and the pause starts after it.
 */
void sweep_pause(struct sweep *sw, bool pause);
/* Stops now: the running step is interrupted, later ones never start. */
void sweep_interrupt(struct sweep *sw, const char *why);
bool sweep_finished(const struct sweep *sw);
const struct sweep_live *sweep_live(const struct sweep *sw);
/* Kills what still runs, runs --teardown, removes the workload's files. */
void sweep_free(struct sweep *sw);

#endif

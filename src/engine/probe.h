/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --probe COMMAND: database-level waits, asked of the system under test
 * itself.  While a step's window runs, each probe's command runs about once
 * a second (never two runs of one probe at once), split by cmdline.c and
 * started with execvp (no shell) in a process group of its own that pgroup.c
 * knows, so every exit path kills it.
 */
#ifndef SCALETOP_ENGINE_PROBE_H
#define SCALETOP_ENGINE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/loop.h"
#include "scaletop/session.h"
#include "scaletop/waits.h"

#define PROBE_PERIOD_NS 1000000000u  /* a probe starts about once a second */
#define PROBE_TIMEOUT_NS 2000000000u /* a run still going after this is killed */
#define PROBE_MAX_LINES 1000         /* labels kept from one run ... */
#define PROBE_MAX_BYTES 65536        /* ... and bytes of output (both streams) read */

/*
 * Each line it prints is the wait label of one waiting thing (a
 * pg_stat_activity row's wait event, say); a run that exits with status 0
 * adds weight 1 per label to the window's tally, under family WAIT_PROBE and
 * state WS_REPORTED.  A line `TID<TAB>label` names the thread that waits: it
 * is joined to the target's threads and weighs the thread-time since the
 * probe's last clean run (probe_join.h); the presets postgres[:CONNINFO] and
 * mariadb[:OPTIONS] print such lines (probe_preset.h), and say once when the
 * server's instrumentation is off.  A run is bounded: killed after
 * PROBE_TIMEOUT_NS, cut off past PROBE_MAX_LINES labels or PROBE_MAX_BYTES
 * of output.  Output is read through the loop's fd callbacks and runs are
 * reaped on the tick, never waited for.  What goes wrong (cannot start, a
 * non-zero exit, a time-out, the cap, no label in the whole window) is an
 * EV_WARNING event, once per probe and kind in a step, and never fails the
 * step.
 */

struct probes;

/*
 * The probes of s->set.probe[] (a command that cannot be split is said at
 * each window it would run in); NULL when there are none, or without
 * memory.  Both s and l are borrowed for the probes' life.
 */
struct probes *probes_new(struct session *s, struct loop *l);
/*
 * The join's one question, asked once per clean run that printed TID lines:
 * which of tids[0..n) are threads of the target's processes now; the answer
 * into is_target[0..n) (all false on entry).  0, or -1 when it cannot say
 * (then no line of the run joins).  Without it, no line ever joins.
 */
typedef int (*probe_threads_fn)(void *arg, const pid_t *tids, size_t n, bool *is_target);
void probes_set_threads(struct probes *p, probe_threads_fn fn, void *arg);

/* Kills what runs and frees everything; NULL is fine. */
void probes_free(struct probes *p);

/*
 * The window of s->steps[step] opens: every probe runs now and about once a
 * second after, adding its labels to out (borrowed until probes_end).
 */
void probes_begin(struct probes *p, int step, struct wait_tally *out, uint64_t now);
/* On the window's ticks: time-outs, reaping, and the runs that are due. */
void probes_tick(struct probes *p, uint64_t now);
/*
 * The window closes: a run still going is killed and its labels dropped; a
 * probe that gave no label in the whole window is said.
 */
void probes_end(struct probes *p, uint64_t now);
/* Kills what runs, without a word: a step that ended without closing its window. */
void probes_stop(struct probes *p);

/* For tests and views: probe i's runs that ended in this window, clean ones, and the pid of
 * the run going now (-1 if none). */
int probes_runs(const struct probes *p, int i);
int probes_clean_runs(const struct probes *p, int i);
pid_t probes_running_pid(const struct probes *p, int i);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A --probe line may name the thread it is about: `TID<TAB>label`.  Such a
 * label is joined to the target's threads, so that a database's wait label
 * counts as thread-time, as the wait sampler's channels do, rather than as
 * one per line.  Pure code: the parsing of a line, and a run's lines into the
 * window's tally once the engine has said which TIDs are the target's.
 */
#ifndef SCALETOP_PROBE_JOIN_H
#define SCALETOP_PROBE_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "scaletop/waits.h"

/*
 * The weighting rule (docs/design-notes.md): a run that finds thread T
 * waiting on L stands for the time since the probe's last clean run (its
 * period, about 1 s; the window's first clean run stands for one period),
 * so the line adds that many seconds of T's time to L, as the wait sampler
 * adds a thread's time since its last reading to where it finds it.  A TID
 * on several lines of one run splits its time among them: a thread's time
 * is counted once.  A line whose TID is not a thread of the target is kept,
 * with the same weight, but counted as unjoined.  Lines without a TID weigh
 * 1 each, as they always did (about one period of one waiting thing).
 */

/* A step's TID lines, from the clean runs of its probes; lines == 0: none came. */
struct probe_join {
	int lines;       /* TID lines kept */
	int joined;      /* of them, the target's threads (the rest are unjoined) */
	int threads;     /* distinct threads joined */
	double thread_s; /* the thread-seconds the joined lines weigh */
};

/* One TID line of a run, and whether its TID is a thread of the target. */
struct probe_tid_line {
	pid_t tid;
	bool target;
	char label[WAIT_CHANNEL_LEN];
};

/* A window's join: its figures, and the threads joined so far (to count them once). */
struct probe_join_acc {
	struct probe_join fig;
	pid_t *tids; /* sorted */
	size_t ntids, cap;
};

/*
 * A probe's line, trimmed of blanks: 2 when it is `TID<TAB>label` (*tid >
 * 0, the label in label), 1 when it is a label alone (in label), 0 when it
 * is blank.  The label is cut to len - 1 bytes.
 */
int probe_line_parse(const char *line, pid_t *tid, char *label, size_t len);

void probe_join_init(struct probe_join_acc *a);
void probe_join_free(struct probe_join_acc *a);
/* A new window: no lines, no threads (the memory is kept). */
void probe_join_reset(struct probe_join_acc *a);

/*
 * A clean run's n TID lines (their target flags set) into t, under family
 * WAIT_PROBE and state WS_REPORTED, each weighing seconds split among its
 * TID's lines in the run; counted into a.  0, or -1 without memory (what
 * was added stays).
 */
int probe_join_commit(struct probe_join_acc *a, const struct probe_tid_line *v, int n,
		      double seconds, struct wait_tally *t);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An external step's CPU and contention window, aligned with the span its
 * counted intervals cover (ext_window.c says how and why).  step_external.c
 * keeps one struct ext_window per step and fills in the span.
 */
#ifndef SCALETOP_EXT_WINDOW_H
#define SCALETOP_EXT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/platform.h"
#include "step_ctx.h"

/* One tick's CPU sample and the command's task counters, kept to align windows. */
struct ext_mark {
	uint64_t ns;
	struct raw_sample raw;
	bool have_raw;
	struct task_counters task;
	bool have_task;
};

struct ext_window {
	struct ext_mark *marks; /* ring of per-tick marks */
	int nmarks, mark_next;
	double mono0, mono1; /* the counted intervals' span, on the step's clock */
	bool have_mono;
	struct task_counters tree0; /* the monitor's reaped children before a timed run */
	bool have_tree0;
};

/* A mark for this tick: the context's newest CPU sample and the step's tasks. */
void ext_marks_note(struct ext_window *w, struct step_ctx *c, uint64_t now);
void ext_marks_free(struct ext_window *w);
const struct ext_mark *ext_marks_latest(const struct ext_window *w); /* NULL if none */
/* The counters of every child the monitor has reaped (getrusage RUSAGE_CHILDREN). */
bool ext_children_usage(struct task_counters *out);
/*
 * Replaces the step's CPU breakdown and contention with those over the
 * counted span (w->mono0 to mono1 past c->go_ns).  reaped: the command has
 * been reaped, so a timed run's whole-tree counters are final.
 */
void ext_window_align(struct ext_window *w, struct step_ctx *c, bool reaped);

#endif

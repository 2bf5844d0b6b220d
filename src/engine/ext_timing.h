/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where an external command's interval lines lie in time, and which of them
 * the step counts.  Pure arithmetic, so each rule is unit-tested.
 */
#ifndef SCALETOP_EXT_TIMING_H
#define SCALETOP_EXT_TIMING_H

#include <stdbool.h>

#include "scaletop/parse.h"

/*
 * Two clocks meet here.  The step's clock is the monitor's CLOCK_MONOTONIC
 * in seconds since the command was started.  The tool's clock is the one its
 * stamps are on ("[ 3s ]", "progress: 3.0 s").
 *
 *   - A line without a stamp (--parse-regex) covers the time since the
 *     previous line, on the step's clock: it ends when it arrives, and the
 *     first one starts at the step's start.
 *   - A stamped line covers the time since the previous stamp, on the tool's
 *     clock.  Stamps far ahead of the step's clock (pgbench
 *     --progress-timestamp prints Unix time) come from another origin: the
 *     first such stamp is mapped to its arrival and only sets the origin,
 *     since where its interval began is not known.
 *   - An interval is counted when its middle lies in the window asked for,
 *     [warm-up, warm-up + duration]: a line that ends just after the warm-up
 *     but covers it, or one past the duration, is not.
 *
 * Each span is also given on the step's clock (the line's arrival, and that
 * less its length), where the monitor's CPU and contention samples are.
 */

/* A stamp this far ahead of the step's clock is on a clock of another origin. */
#define EXT_FOREIGN_STAMP_S 60.0

struct ext_timing {
	double warmup_s, duration_s; /* the window asked for */
	double prev_end;             /* the previous line's end, on its clock */
	double offset;               /* tool stamp minus step clock, for foreign stamps */
	bool stamped_seen;           /* a stamped line has been placed */
};

struct ext_span {
	double start, end;           /* on the tool's clock (the step's for unstamped lines) */
	double mono_start, mono_end; /* on the step's clock */
	bool counted;
};

void ext_timing_init(struct ext_timing *t, double warmup_s, double duration_s);

/*
 * Places one interval line that arrived arrival_s seconds into the step.
 * Fills sp; returns sp->counted.
 */
bool ext_timing_place(struct ext_timing *t, const struct parse_interval *iv, double arrival_s,
		      struct ext_span *sp);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * {latlog}: a private folder an external step's tool writes its latency log
 * into (pgbench --log --log-prefix={latlog}), read when the command has
 * exited into the step's latency, then removed.  step_external.c keeps one
 * struct ext_latlog per step.
 */
#ifndef SCALETOP_EXT_LATLOG_H
#define SCALETOP_EXT_LATLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/parse.h"
#include "step_ctx.h"

struct ext_latlog {
	char dir[256];    /* the private folder, "" when none was made */
	char prefix[272]; /* what {latlog} becomes: dir/log */
	double real_off;  /* CLOCK_REALTIME less CLOCK_MONOTONIC, in s, when the command started */
	struct pglog_tally tally;
	bool have_tally;
	int nfiles; /* log files read */
};

/* Makes the folder under $TMPDIR or /tmp; 0, or -1 with a message in err. */
int ext_latlog_make(struct ext_latlog *l, char *err, size_t errlen);
/* The clocks' offset, taken as the command starts. */
void ext_latlog_clock(struct ext_latlog *l);
/*
 * The command has exited: reads every dir/log.* against the window asked
 * for, [go + warm-up, go + warm-up + duration], removes them, and feeds the
 * context's latency (a histogram of every transaction, or the intervals'
 * means).  A file that cannot be read or holds bad lines is an event naming
 * it, never a failed step.  True when the log gave the step its latency.
 */
bool ext_latlog_read(struct ext_latlog *l, struct step_ctx *c);
/* Removes whatever the folder holds and the folder; frees the tally.  Safe to call twice. */
void ext_latlog_free(struct ext_latlog *l);

#endif

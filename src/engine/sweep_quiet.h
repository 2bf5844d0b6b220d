/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The quiet check before a sweep's first step (sweep_quiet.c): who else
 * used the CPUs over a second, said as an event when it is more than
 * OTHERS_QUIET_CPUS; with --wait-quiet, measured again each second until
 * it is less, or until the wait is over.
 */
#ifndef SCALETOP_SWEEP_QUIET_H
#define SCALETOP_SWEEP_QUIET_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/others.h"
#include "scaletop/platform.h"
#include "scaletop/session.h"

struct sweep_quiet {
	struct others_book book;
	struct raw_sample cpu0; /* the CPU counters at the second's start */
	uint64_t t0_ns;         /* the second's start */
	uint64_t first_ns;      /* the first second's start: how long it has waited */
	bool busy_said;         /* the machine was said to be busy */
};

void sweep_quiet_init(struct sweep_quiet *q);
void sweep_quiet_free(struct sweep_quiet *q);
/* Starts the check: the counters now (cpu) and every process's CPU time. */
void sweep_quiet_begin(struct sweep_quiet *q, const struct raw_sample *cpu, uint64_t now);
/*
 * On a tick with the newest counters: false while it measures or waits,
 * true when the first step may start (events said in s).  wait_s: how long
 * --wait-quiet waits (0: not at all).
 */
bool sweep_quiet_tick(struct sweep_quiet *q, struct session *s, const struct raw_sample *cpu,
		      uint64_t now, double wait_s);

#endif

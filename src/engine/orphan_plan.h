/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which processes a step left behind, and what to do with each: chosen from
 * a process table alone, so the choice is the same on every OS and is
 * tested on synthetic tables (tests/unit/test_orphan_plan.c).  Carrying it
 * out (kill, waitpid) is pgroup.c's.  Pure code.
 */
#ifndef SCALETOP_ORPHAN_PLAN_H
#define SCALETOP_ORPHAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "scaletop/sample_types.h"

#define ORPHAN_KILL_GROUP 0x1 /* it leads a group other than the monitor's: kill the group */
#define ORPHAN_KILL 0x2       /* still alive: kill it */
#define ORPHAN_COUNT 0x4      /* alive outside every group the step started: left behind */
#define ORPHAN_REAP 0x8       /* the monitor's own child, no group's leader: reap it here */

struct orphan_action {
	pid_t pid;
	unsigned what; /* ORPHAN_* */
};

struct orphan_view {
	pid_t self;     /* the monitor, reaper of the step's orphans */
	pid_t own_pgrp; /* the monitor's own group, never killed */
	/* A group the monitor registered and has still to reap for its status. */
	bool (*live)(pid_t pgid, void *arg);
	/* A group the step started, live or ended: what escaped those is counted. */
	bool (*known)(pid_t pgid, void *arg);
	void *arg;
};

/*
 * Sorts t (n entries) by pid, then writes into out (room for n) one action
 * for every descendant of v->self, but none for a zombie that leads a live
 * group (its owner reaps it).  A parent chain that loops or runs deeper
 * than ORPHAN_MAX_DEPTH ends the walk.  Returns the number of actions.
 */
#define ORPHAN_MAX_DEPTH 4096
size_t orphan_plan(struct proc_link *t, size_t n, const struct orphan_view *v,
		   struct orphan_action *out);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a step left behind, chosen from synthetic process tables: the same
 * choice pgroup.c makes on Linux from /proc and on the BSDs from
 * kern.proc.  The monitor is pid 100 in group 100; the step it started leads
 * group 200 (registered, still to be reaped); a daemon escaped into a
 * session of its own; unrelated processes and a looping parent chain must
 * be left alone.
 */
#include <string.h>

#include "../../src/engine/orphan_plan.h"
#include "../tap.h"

static bool
is_live(pid_t pgid, void *arg)
{
	(void)arg;
	return pgid == 200;
}

static bool
is_known(pid_t pgid, void *arg)
{
	(void)arg;
	return pgid == 200 || pgid == 300; /* 300: a step group already reaped */
}

static const struct orphan_view view = {
	.self = 100,
	.own_pgrp = 100,
	.live = is_live,
	.known = is_known,
};

/* The action for pid, or -1 when the plan has none. */
static long
what_for(const struct orphan_action *a, size_t k, pid_t pid)
{
	size_t i;

	for (i = 0; i < k; i++) {
		if (a[i].pid == pid)
			return (long)a[i].what;
	}
	return -1;
}

static void
test_step_and_daemon(void)
{
	struct proc_link t[] = {
		/* given out of order: the plan sorts */
		{ .pid = 503, .ppid = 100, .pgid = 503 }, /* daemon: setsid, parent gone, adopted */
		{ .pid = 1, .ppid = 0, .pgid = 1 },       /* init */
		{ .pid = 100, .ppid = 50, .pgid = 100 },  /* the monitor */
		{ .pid = 200, .ppid = 100, .pgid = 200 }, /* the step's leader (registered) */
		{ .pid = 201, .ppid = 200, .pgid = 200 }, /* a worker in the step's group */
		{ .pid = 504, .ppid = 503, .pgid = 503 }, /* the daemon's own child */
		{ .pid = 300,
		  .ppid = 100,
		  .pgid = 300,
		  .zombie = true },                       /* an ended step, unreaped */
		{ .pid = 301, .ppid = 100, .pgid = 300 }, /* its straggler, re-parented */
		{ .pid = 700, .ppid = 1, .pgid = 700 },   /* someone else's */
		{ .pid = 800, .ppid = 801, .pgid = 800 }, /* a parent loop, not ours */
		{ .pid = 801, .ppid = 800, .pgid = 800 },
	};
	struct orphan_action a[sizeof(t) / sizeof(t[0])];
	size_t k = orphan_plan(t, sizeof(t) / sizeof(t[0]), &view, a);

	is_int((long long)k, 6, "six descendants of the monitor");
	is_int(what_for(a, k, 200), ORPHAN_KILL_GROUP | ORPHAN_KILL,
	       "the step's leader: killed with its group, not reaped here (its owner wants the "
	       "status)");
	is_int(what_for(a, k, 201), ORPHAN_KILL, "its worker: killed, not counted as left behind");
	is_int(what_for(a, k, 503), ORPHAN_KILL_GROUP | ORPHAN_KILL | ORPHAN_COUNT | ORPHAN_REAP,
	       "the adopted daemon: its group killed, counted, reaped by the monitor");
	is_int(what_for(a, k, 504), ORPHAN_KILL | ORPHAN_COUNT,
	       "the daemon's child: killed and counted, not the monitor's to reap");
	is_int(what_for(a, k, 300), ORPHAN_REAP, "an ended step's zombie: only reaped");
	is_int(what_for(a, k, 301), ORPHAN_KILL | ORPHAN_REAP,
	       "a straggler of an ended step: killed and reaped, not counted (its group was the "
	       "step's)");
	ok(what_for(a, k, 100) < 0 && what_for(a, k, 700) < 0 && what_for(a, k, 1) < 0,
	   "the monitor itself, init and other processes are left alone");
	ok(what_for(a, k, 800) < 0 && what_for(a, k, 801) < 0, "a parent loop ends the walk");
	ok(t[0].pid == 1 && t[1].pid == 100, "the table is sorted by pid");
}

static void
test_edges(void)
{
	struct proc_link self_loop[] = { { .pid = 150, .ppid = 150, .pgid = 150 } };
	struct proc_link zombie_live[] = {
		{ .pid = 200, .ppid = 100, .pgid = 200, .zombie = true },
	};
	struct proc_link own_group[] = {
		{ .pid = 100, .ppid = 50, .pgid = 100 },
		{ .pid = 150, .ppid = 100, .pgid = 100 }, /* a helper in the monitor's own group */
	};
	struct orphan_action a[2];

	is_int((long long)orphan_plan(self_loop, 1, &view, a), 0,
	       "a process that is its own parent");
	is_int((long long)orphan_plan(NULL, 0, &view, a), 0, "an empty table");
	is_int((long long)orphan_plan(zombie_live, 1, &view, a), 0,
	       "a live group's exited leader is its owner's to reap");
	is_int((long long)orphan_plan(own_group, 2, &view, a), 1, "a child in the monitor's group");
	is_int(a[0].what, ORPHAN_KILL | ORPHAN_COUNT | ORPHAN_REAP,
	       "is killed alone: the monitor's own group is never killed");
}

int
main(void)
{
	test_step_and_daemon();
	test_edges();
	return done_testing();
}

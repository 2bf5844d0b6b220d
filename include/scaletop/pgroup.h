/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every process the monitor starts (a step's child, an external command)
 * leads its own process group, and every live group is listed here so that
 * each exit path can kill them all: the engine's signal path, atexit, and
 * the normal teardown.  The list is a fixed array of pids, so killing from a
 * signal handler is safe (kill(2) only).
 */
#ifndef SCALETOP_PGROUP_H
#define SCALETOP_PGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PGROUP_MAX 64

/*
 * What a step leaves running outside its groups (a daemon) is found and
 * killed here too: pgroup_adopt_orphans and pgroup_kill_descendants.
 */

/*
 * Lowers the calling thread's nice value by `by` (the loop's thread: on Linux
 * a nice value is a thread's) where the system allows it (root, or
 * CAP_SYS_NICE), so that a tick is not left waiting for a CPU behind a
 * thousand runnable workers; every process pgroup_fork starts gets the
 * nice value back first, so the workload runs as the user started it.  0,
 * or -1 with errno when it is not allowed (nothing changed).
 */
int pgroup_raise_monitor(int by);
/*
 * Gives the calling thread (the loop's) SCHED_FIFO at prio (self_realtime,
 * with the kernel's limit limit_ns), for the same reason, where the system
 * allows it; every process pgroup_fork starts runs at the ordinary policy.  0, or -1 with errno
 * (EPERM: not allowed; nothing changed).  pgroup_realtime_drop puts the
 * thread back at the ordinary policy (0 when it was not real-time), and
 * pgroup_is_realtime says whether it is.
 */
int pgroup_realtime(int prio, uint64_t limit_ns);
int pgroup_realtime_drop(void);
bool pgroup_is_realtime(void);
/* Records a live group; the first call also registers an atexit hook. -1 when full. */
int pgroup_add(pid_t pgid);
/* Forgets a group once it has been reaped, so a recycled pid is never killed. */
void pgroup_remove(pid_t pgid);
/*
 * Sends sig to every recorded group.  Async-signal-safe.  Does nothing in a
 * forked child, which inherits the list but owns none of the groups.
 */
void pgroup_kill_all(int sig);

/*
 * Forks a child that leads a new process group, registered before this
 * returns.  In the child (return 0): signal dispositions are back to the
 * default, the mask is empty, and the child dies with its parent
 * (proc_parent_death_signal, and a getppid() check everywhere).  In the parent: the child's pid, or
 * -1 with a message.
 */
pid_t pgroup_fork(char *err, size_t errlen);

/*
 * For a process forked by a child of the monitor (a worker process): the
 * same signal reset and parent-death link as pgroup_fork, without a new
 * group.  parent is the pid expected as parent; -1 if it is already gone.
 */
int pgroup_child_link(pid_t parent);

/*
 * Reaps pid, a leader from pgroup_fork, once it has exited (or waits for it
 * when block).  With sweep, whatever is left in its group is killed first,
 * while the unreaped leader still reserves the group id, so a recycled id
 * is never hit.  The group is then forgotten.  1 when reaped (*status set),
 * 0 while it runs, -1 when pid is not a child.
 */
int pgroup_reap(pid_t pid, bool sweep, bool block, int *status);

/*
 * Marks a live group as the monitor's own helper (a --probe run), not part of
 * the workload: when its leader is reaped, what it used (its children's
 * included) is kept apart in pgroup_side_usage, since an external step's
 * CPU figures come from every child the monitor reaped (RUSAGE_CHILDREN).
 */
void pgroup_set_side(pid_t pgid);
/* CPU time and switches of every side group reaped so far (user_ns, sys_ns, vol_csw, invol_csw). */
void pgroup_side_usage(uint64_t out[4]);

/* Whether pgid is a recorded live group (its leader not yet reaped). */
bool pgroup_is_live(pid_t pgid);

/*
 * Makes the monitor the reaper of the orphans of what it starts from now on
 * (proc_reaper), so that a daemon a step leaves behind,
 * outside its group and session, is still found by
 * pgroup_kill_descendants.  Does nothing where the process table cannot be
 * read (proc_table_read), as the adopted would then never be reaped.
 */
void pgroup_adopt_orphans(void);

/*
 * At a step's end: SIGKILL to every descendant of the monitor, their groups
 * included; reaps every one that is no recorded group's leader (those are
 * left to their owners, for their exit status), waiting up to 2 s for them
 * to exit; then stops adopting.  The number of processes killed outside the
 * groups started since pgroup_adopt_orphans: what the step left behind.  Does nothing unless
 * pgroup_adopt_orphans took effect.
 */
int pgroup_kill_descendants(void);

#endif

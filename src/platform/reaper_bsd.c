/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keeping a workload's descendants on FreeBSD and DragonFly: procctl(2).
 * PROC_REAP_ACQUIRE makes the monitor the reaper of its subtree (orphans are
 * re-parented to it, as with Linux's child subreaper), PROC_REAP_RELEASE gives
 * that up, and PROC_PDEATHSIG_CTL asks for a signal when the parent dies
 * (FreeBSD 11.2 and later, DragonFly 6).
 */
#include <sys/types.h>
#include <sys/procctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdbool.h>
#include <unistd.h>

#include "scaletop/platform.h"

/*
 * FreeBSD's PROC_REAP_KILL could kill the subtree in one call, but the
 * monitor must spare the groups it still has to reap for their exit status
 * and count what escaped them, so it walks the process table
 * (proctable_bsd.c) on every OS alike.
 */

int
proc_reaper(bool on)
{
	return procctl(P_PID, getpid(), on ? PROC_REAP_ACQUIRE : PROC_REAP_RELEASE, NULL);
}

int
proc_parent_death_signal(int sig)
{
#ifdef PROC_PDEATHSIG_CTL
	return procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig);
#else
	(void)sig;
	errno = ENOSYS;
	return -1;
#endif
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keeping a workload's descendants on Linux: prctl(2) makes the monitor a
 * child subreaper, so orphans of what it starts are re-parented to it rather
 * than to init, and asks for a signal when a worker's parent dies.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/prctl.h>

#include "scaletop/platform.h"

int
proc_reaper(bool on)
{
#ifdef PR_SET_CHILD_SUBREAPER
	return prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0);
#else
	(void)on;
	errno = ENOSYS;
	return -1;
#endif
}

int
proc_parent_death_signal(int sig)
{
	return prctl(PR_SET_PDEATHSIG, sig);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generic (libstatgrab) backend lists no processes and keeps no
 * orphans: ENOSYS, so the monitor adopts nothing there (pgroup_adopt_orphans
 * adopts only where the process table can be read to reap the adopted).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "scaletop/platform.h"

int
proc_reaper(bool on)
{
	(void)on;
	errno = ENOSYS;
	return -1;
}

int
proc_parent_death_signal(int sig)
{
	(void)sig;
	errno = ENOSYS;
	return -1;
}

int
proc_table_read(struct proc_link **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

int
proc_cpu_read(struct proc_cpu **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

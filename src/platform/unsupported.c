/*
 * What only the Linux backend reads so far, answered ENOSYS by every other
 * backend (FreeBSD, DragonFly, generic) from this one place.
 *
 * The kernel lock profile: FreeBSD's debug.lock.prof.stats needs a kernel
 * built with LOCK_PROFILING and its text is not decoded yet; DragonFly has
 * none that scaletop reads; no portable interface exists.
 *
 * The process table: kern.proc.proc (FreeBSD, DragonFly) would give it, and
 * procctl(PROC_REAP_ACQUIRE) the adoption of orphans, but neither can be
 * built or tested here, so nothing is adopted there yet.
 */
#include <errno.h>
#include <stddef.h>

#include "scaletop/platform.h"

int
platform_lock_profile(struct lockprof_entry **out, int *n)
{
	*out = NULL;
	*n = 0;
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

/*
 * What only the Linux backend reads so far, answered ENOSYS by every other
 * backend (FreeBSD, DragonFly, generic) from this one place.  (The process
 * table and the reaper: proctable_bsd.c and reaper_bsd.c on the BSDs,
 * noreaper.c for generic.)
 *
 * The kernel lock profile: FreeBSD's debug.lock.prof.stats needs a kernel
 * built with LOCK_PROFILING and its text is not decoded yet; DragonFly has
 * none that scaletop reads; no portable interface exists.
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's lock statistics on Linux, OS call only: /proc/lock_stat,
 * present when the kernel is built with CONFIG_LOCK_STAT.  The parsing is
 * in decode_lockstat.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "scaletop/lockprof.h"
#include "scaletop/platform.h"
#include "linux_read.h"

#define PROC_LOCK_STAT "/proc/lock_stat"

int
platform_lock_profile(struct lockprof_entry **out, int *n)
{
	struct linbuf b = { NULL, 0, 0 };
	int r = -1;

	*out = NULL;
	*n = 0;
	if (linbuf_read_at(AT_FDCWD, PROC_LOCK_STAT, &b) == 0)
		r = lockstat_decode_all(b.data, b.len, out, n);
	return linbuf_release(&b, r);
}

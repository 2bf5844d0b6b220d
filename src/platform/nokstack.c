/* SPDX-License-Identifier: BSD-2-Clause */
/* No thread's kernel stack: the answer of DragonFly's backend and the generic one. */
#include <errno.h>
#include <string.h>

#include "scaletop/platform.h"

/*
 * DragonFly has no sysctl of a thread's kernel stack (kern.proc has no
 * KSTACK, and procstat is FreeBSD's), and kvm(3) reading of kernel memory
 * would need the monitor to run with /dev/kmem; elsewhere nothing says.
 */
int
thread_kstack_read(pid_t pid, pid_t tid, struct kstack *out)
{
	(void)pid;
	(void)tid;
	memset(out, 0, sizeof(*out));
	errno = ENOSYS;
	return -1;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The generic backend's answer to a --target: it has no process table, so
 * it can neither find a command's processes nor read a process's threads.
 * (The BSDs read both from kinfo_proc; Linux from /proc.)
 */
#include <errno.h>
#include <stddef.h>

#include "scaletop/platform.h"

int
thread_samples_read(pid_t pid, thread_sample_cb cb, void *arg)
{
	(void)pid;
	(void)cb;
	(void)arg;
	errno = ENOSYS;
	return -1;
}

int
proc_find_comm(const char *comm, pid_t **out, size_t *n)
{
	(void)comm;
	*out = NULL;
	*n = 0;
	errno = ENOSYS;
	return -1;
}

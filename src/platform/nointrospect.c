/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The answer of every backend but Linux's to what names a lock: no syscall
 * line, no other process's memory, no maps, no kernel symbols yet (a mapped
 * file's path is its own).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "scaletop/platform.h"

/*
 * (The FreeBSD equivalents would be kern.proc.kstack, ptrace PT_IO and
 * kern.proc.vmmap; none is built.) Shared by the FreeBSD, DragonFly and
 * generic lists, which is why nothing here is in unsupported.c's way.
 */

int
proc_comm(pid_t pid, char *out, size_t len)
{
	(void)pid;
	if (len > 0)
		out[0] = '\0';
	errno = ENOSYS;
	return -1;
}

int
thread_syscall_open(pid_t pid, pid_t tid)
{
	(void)pid;
	(void)tid;
	errno = ENOSYS;
	return -1;
}

int
thread_syscall_read_fd(int fd, struct syscall_line *out)
{
	(void)fd;
	(void)out;
	errno = ENOSYS;
	return -1;
}

int
thread_syscall_read(pid_t pid, pid_t tid, struct syscall_line *out)
{
	(void)pid;
	(void)tid;
	(void)out;
	errno = ENOSYS;
	return -1;
}

ssize_t
proc_mem_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	(void)pid;
	(void)addr;
	(void)buf;
	(void)len;
	errno = ENOSYS;
	return -1;
}

int
proc_has_thread(pid_t pid, pid_t tid)
{
	(void)pid;
	(void)tid;
	errno = ENOSYS;
	return -1;
}

pid_t
proc_thread_group(pid_t tid)
{
	(void)tid;
	errno = ENOSYS;
	return -1;
}

int
proc_object_path(pid_t pid, const char *path, char *out, size_t len)
{
	(void)pid;
	if (strlen(path) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, path, strlen(path) + 1);
	return 0;
}

int
proc_maps_read(pid_t pid, struct map_list *out)
{
	(void)pid;
	(void)out;
	errno = ENOSYS;
	return -1;
}

int
kernel_symbols_read_for(const uint64_t *addr, size_t n, struct symtab *out, int *hidden)
{
	(void)addr;
	(void)n;
	(void)out;
	*hidden = 0;
	errno = ENOSYS;
	return -1;
}

int
kernel_symbols_read(struct symtab *out, int *hidden)
{
	(void)out;
	*hidden = 0;
	errno = ENOSYS;
	return -1;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux: what names the lock a thread waits on.  A thread's syscall line
 * (the futex call, its address and op, read without stopping the thread),
 * another process's memory by process_vm_readv (a glibc mutex's owner,
 * while its waiters sleep), its mappings, the kernel's symbols, and a
 * blocked thread's kernel stack.
 */
#define _GNU_SOURCE /* process_vm_readv */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "linux_read.h"

/*
 * The text is decoded by decode_syscall.c, decode_maps.c, decode_kallsyms.c
 * and decode_kstack.c; platform.h has the contracts.
 */

/* A syscall line is at most 10 + 8 * 19 bytes; this leaves room. */
#define SYSCALL_LINE_MAX 256
/* The most of kallsyms read (122k symbols are 5 MB here) and of maps (100,000 mappings: 10 MB). */
#define KALLSYMS_MAX (64u << 20)
#define MAPS_MAX (64u << 20)
/* A kernel stack is at most 64 frames of some 80 bytes; deeper text is cut at a line. */
#define KSTACK_TEXT_MAX 8192

int
thread_syscall_open(pid_t pid, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

int
thread_syscall_read_fd(int fd, struct syscall_line *out)
{
	char buf[SYSCALL_LINE_MAX];
	ssize_t n;

	do
		n = pread(fd, buf, sizeof buf, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0) { /* the thread exited: its file reads empty */
		errno = ESRCH;
		return -1;
	}
	return syscall_line_decode(buf, (size_t)n, syscall_arch_native(), out);
}

int
thread_syscall_read(pid_t pid, pid_t tid, struct syscall_line *out)
{
	int fd = thread_syscall_open(pid, tid), r;

	if (fd < 0)
		return errno == ENOENT ? (errno = ESRCH, -1) : -1;
	r = thread_syscall_read_fd(fd, out);
	close_keep_errno(fd);
	return r;
}

/*
 * /proc/PID/task/TID/stack: the kernel refuses it (EACCES, or EPERM from
 * its ptrace check) to all but root, so the caller says so once and stops.
 */
int
thread_kstack_read(pid_t pid, pid_t tid, struct kstack *out)
{
	char path[64], buf[KSTACK_TEXT_MAX];
	const char *nl;
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof path, "/proc/%d/task/%d/stack", (int)pid, (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? (errno = ESRCH, -1) : -1;
	do
		n = read(fd, buf, sizeof buf);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e == ENOENT ? ESRCH : e;
		return -1;
	}
	if ((size_t)n == sizeof buf && (nl = memrchr(buf, '\n', sizeof buf)) != NULL)
		n = nl + 1 - buf; /* the outermost frames are dropped */
	return kstack_text_decode(buf, (size_t)n, out);
}

ssize_t
proc_mem_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

int
proc_has_thread(pid_t pid, pid_t tid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof path, "/proc/%d/task/%d", (int)pid, (int)tid);
	if (stat(path, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

pid_t
proc_thread_group(pid_t tid)
{
	char path[64], buf[512], *p, *end;
	ssize_t n;
	long v;

	int fd;

	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			errno = ESRCH;
		return -1;
	}
	/* Tgid is the status's fourth line, after a name of at most 64 bytes escaped */
	n = pread(fd, buf, sizeof buf - 1, 0);
	close_keep_errno(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:");
	if (p == NULL) {
		errno = EPROTO;
		return -1;
	}
	v = strtol(p + 6, &end, 10);
	if (end == p + 6 || v <= 0 || v > INT32_MAX) {
		errno = EPROTO;
		return -1;
	}
	return (pid_t)v;
}

int
proc_object_path(pid_t pid, const char *path, char *out, size_t len)
{
	int n = snprintf(out, len, "/proc/%d/root%s", (int)pid, path);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int
proc_maps_read(pid_t pid, struct map_list *out)
{
	struct linbuf b = { NULL, 0, 0 };
	char path[64];
	int r;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	r = linbuf_read_path(path, &b, MAPS_MAX);
	if (r != 0 && errno == ENOENT)
		errno = ESRCH;
	if (r == 0 && b.len == 0) { /* a zombie, or a kernel thread: nothing mapped */
		out->n = 0;
		out->plen = 0;
	} else if (r == 0) {
		r = maps_decode(b.data, b.len, out);
	}
	return linbuf_release(&b, r);
}

int
kernel_symbols_read_for(const uint64_t *addr, size_t n, struct symtab *out, int *hidden)
{
	struct linbuf b = { NULL, 0, 0 };
	int r;

	r = linbuf_read_path("/proc/kallsyms", &b, KALLSYMS_MAX);
	if (r == 0)
		r = kallsyms_decode_for(b.data, b.len, addr, n, out, hidden);
	return linbuf_release(&b, r);
}

int
kernel_symbols_read(struct symtab *out, int *hidden)
{
	struct linbuf b = { NULL, 0, 0 };
	int r;

	r = linbuf_read_path("/proc/kallsyms", &b, KALLSYMS_MAX);
	if (r == 0)
		r = kallsyms_decode(b.data, b.len, out, hidden);
	return linbuf_release(&b, r);
}

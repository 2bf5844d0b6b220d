/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kern.proc on FreeBSD and DragonFly, read whole (proctable_bsd.c): shared by
 * the process table and by each sampler's per-thread counters, so the sizing
 * and retrying is written once.
 */
#ifndef SCALETOP_KINFO_BSD_H
#define SCALETOP_KINFO_BSD_H

#include <stddef.h>
#include <sys/types.h>

struct kinfo_proc;

/* One kern.proc answer whole into a malloc'd buffer (*out, *len bytes); -1 with errno. */
int kinfo_sysctl(const int *mib, unsigned miblen, struct kinfo_proc **out, size_t *len);

/*
 * Every thread of pid (kern.proc.pid with the OS's thread flag), at least
 * one; else -1 with a message, "no such process" when it has gone.
 */
int kinfo_threads_read(pid_t pid, struct kinfo_proc **out, size_t *n, char *err, size_t errlen);

#endif

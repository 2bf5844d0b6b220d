/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD: a thread's kernel stack from sysctl kern.proc.kstack.PID, the
 * source of procstat -kk.  The kernel answers every thread of the process
 * at once (a struct kinfo_kstack each: its tid, whether the stack could be
 * read, the trace as text); bsd_kstack_decode (decode_kstack.c) picks the
 * one thread asked for through the layout built here from <sys/user.h>.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#include <sys/user.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/platform.h"
#include "decode_bsd.h"

/*
 * The kernel lets only a process that may debug the target read it
 * (p_candebug), and needs its STACK option (GENERIC has it).  Since one
 * answer walks every thread's stack, the last one is kept for
 * KSTACK_KEEP_NS: the wait sampler's few reads of one process on a tick (a
 * few ms, ticks 250 ms apart) cost one sysctl, not one each.
 * Compile-checked against the sysroot (make check-bsd); not run here.
 */

_Static_assert(KKST_STATE_STACKOK == BSD_KKST_STACKOK && KKST_STATE_SWAPPED == BSD_KKST_SWAPPED &&
		       KKST_STATE_RUNNING == BSD_KKST_RUNNING,
	       "kkst_state: FreeBSD's states are not decode_bsd.h's");

#define KSTACK_MEMBER(f, m, off, len) \
	[BSD_KK_##f] = { offsetof(struct kinfo_kstack, m), sizeof(((struct kinfo_kstack *)0)->m) },
static const struct bsd_kstack_layout kstack_layout = {
	.size = sizeof(struct kinfo_kstack),
	.f = { BSD_FREEBSD14_KSTACK_FIELDS(KSTACK_MEMBER) },
};

#if defined(__amd64__) || defined(__x86_64__)
#define KSTACK_SAME(f, m, off, len)                                            \
	_Static_assert(offsetof(struct kinfo_kstack, m) == (off) &&            \
			       sizeof(((struct kinfo_kstack *)0)->m) == (len), \
		       "kinfo_kstack." #m " is not where decode_bsd.h says");
BSD_FREEBSD14_KSTACK_FIELDS(KSTACK_SAME)
_Static_assert(sizeof(struct kinfo_kstack) == BSD_FREEBSD14_KSTACK_AMD64_SIZE,
	       "struct kinfo_kstack is not the size decode_bsd.h says");
#endif

/* Threads may be born between sizing and reading: room for a few more, and a retry. */
#define KSTACK_SLACK 4
#define KSTACK_TRIES 4

/* The last answer: whose, when, and its bytes (malloc'ed, kept until replaced). */
#define KSTACK_KEEP_NS 20000000u
static struct {
	pid_t pid;
	uint64_t at_ns;
	void *buf;
	size_t len;
} kept;

/* pid's kern.proc.kstack answer into kept: 0, or -1 with errno. */
static int
kstack_sysctl(pid_t pid)
{
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_KSTACK, (int)pid };
	void *buf = NULL;
	size_t size;
	int try, e = ENOMEM;

	for (try = 0; try < KSTACK_TRIES; try++) {
		size = 0;
		if (sysctl(mib, 4, NULL, &size, NULL, 0) != 0) {
			e = errno;
			break;
		}
		size += KSTACK_SLACK * sizeof(struct kinfo_kstack);
		free(buf);
		if ((buf = malloc(size)) == NULL)
			return -1;
		if (sysctl(mib, 4, buf, &size, NULL, 0) == 0) {
			free(kept.buf);
			kept.buf = buf;
			kept.len = size;
			kept.pid = pid;
			kept.at_ns = mono_now_ns();
			return 0;
		}
		if ((e = errno) != ENOMEM)
			break;
	}
	free(buf);
	errno = e == ENOENT ? ESRCH : e;
	return -1;
}

int
thread_kstack_read(pid_t pid, pid_t tid, struct kstack *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	if ((kept.buf == NULL || kept.pid != pid || mono_now_ns() - kept.at_ns > KSTACK_KEEP_NS) &&
	    kstack_sysctl(pid) != 0)
		return -1;
	if ((r = bsd_kstack_decode(&kstack_layout, kept.buf, kept.len, tid, out, NULL, 0)) == 1)
		return 0;
	if (r == 0)
		errno = ESRCH; /* the thread has gone */
	return -1;
}

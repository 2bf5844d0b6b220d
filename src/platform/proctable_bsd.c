/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kern.proc on FreeBSD and DragonFly: the process table (every process's
 * parent and group, to find what a workload left behind), the processes of a
 * command name, and one process's threads with their states and wait
 * channels (--target).
 */
#ifdef __DragonFly__
/*
 * Each is one sysctl of struct kinfo_proc records, read whole into a buffer
 * that grows until it fits; the records are decoded by decode_kinfo.c
 * through this OS's layout, built here from the real header.  The two differ
 * only in field names and MIBs.  Compile-checked against both sysroots (make
 * check-bsd); not run here.
 */

/* kinfo_proc is a kernel structure that userland asks for by name. */
#define _KERNEL_STRUCTURES
#endif

#include <sys/param.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#ifdef __DragonFly__
#include <sys/kinfo.h>
#else
#include <sys/proc.h>
#include <sys/user.h>
#endif

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kinfo_bsd.h"
#include "scaletop/error.h"
#include "scaletop/platform.h"
#include "decode_bsd.h"

#ifdef __DragonFly__
static int proc_mib[] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL };
#define KP_PID(k) ((k)->kp_pid)
#define KP_PPID(k) ((k)->kp_ppid)
#define KP_PGID(k) ((k)->kp_pgid)
#define KP_ZOMBIE(k) ((k)->kp_stat == SZOMB)
#define KINFO_OS BSD_DRAGONFLY
#define KINFO_FIELDS BSD_DRAGONFLY6_FIELDS
#define KINFO_AMD64_SIZE BSD_DRAGONFLY6_X86_64_SIZE
#define KINFO_WITH_THREADS KERN_PROC_FLAG_LWP
_Static_assert(SIDL == BSD_DF_SIDL && SACTIVE == BSD_DF_SACTIVE && SSTOP == BSD_DF_SSTOP &&
		       SZOMB == BSD_DF_SZOMB && SCORE == BSD_DF_SCORE,
	       "kp_stat: DragonFly's process states are not decode_bsd.h's");
_Static_assert(LSRUN == BSD_DF_LSRUN && LSSTOP == BSD_DF_LSSTOP && LSSLEEP == BSD_DF_LSSLEEP,
	       "kl_stat: DragonFly's lwp states are not decode_bsd.h's");
#else
static int proc_mib[] = { CTL_KERN, KERN_PROC, KERN_PROC_PROC, 0 };
#define KP_PID(k) ((k)->ki_pid)
#define KP_PPID(k) ((k)->ki_ppid)
#define KP_PGID(k) ((k)->ki_pgid)
#define KP_ZOMBIE(k) ((k)->ki_stat == SZOMB)
#define KINFO_OS BSD_FREEBSD
#define KINFO_FIELDS BSD_FREEBSD14_FIELDS
#define KINFO_AMD64_SIZE BSD_FREEBSD14_AMD64_SIZE
#define KINFO_WITH_THREADS KERN_PROC_INC_THREAD
_Static_assert(SIDL == BSD_FB_SIDL && SRUN == BSD_FB_SRUN && SSLEEP == BSD_FB_SSLEEP &&
		       SSTOP == BSD_FB_SSTOP && SZOMB == BSD_FB_SZOMB && SWAIT == BSD_FB_SWAIT &&
		       SLOCK == BSD_FB_SLOCK,
	       "ki_stat: FreeBSD's thread states are not decode_bsd.h's");
_Static_assert(NOCPU == BSD_FB_NOCPU && TDF_SINTR == BSD_FB_TDF_SINTR &&
		       KI_LOCKBLOCK == BSD_FB_KI_LOCKBLOCK,
	       "kinfo_proc: NOCPU, TDF_SINTR or KI_LOCKBLOCK is not decode_bsd.h's");
#endif

/* Where this kernel keeps each field the decoders read, on any architecture. */
#define KINFO_MEMBER(f, m, off, len) \
	[BSD_KI_##f] = { offsetof(struct kinfo_proc, m), sizeof(((struct kinfo_proc *)0)->m) },
static const struct bsd_kinfo_layout kinfo_layout = {
	.os = KINFO_OS,
	.size = sizeof(struct kinfo_proc),
	.f = { KINFO_FIELDS(KINFO_MEMBER) },
};

/* On amd64 the tests' records are built from decode_bsd.h's numbers: they must be the header's. */
#if defined(__amd64__) || defined(__x86_64__)
#define KINFO_SAME(f, m, off, len)                                           \
	_Static_assert(offsetof(struct kinfo_proc, m) == (off) &&            \
			       sizeof(((struct kinfo_proc *)0)->m) == (len), \
		       "kinfo_proc." #m " is not where decode_bsd.h says");
KINFO_FIELDS(KINFO_SAME)
_Static_assert(sizeof(struct kinfo_proc) == KINFO_AMD64_SIZE,
	       "struct kinfo_proc is not the size decode_bsd.h says");
#endif

/* Processes and threads may be born between sizing and reading: slack, and a retry. */
#define PROC_SLACK 16
#define PROC_TRIES 8

int
kinfo_sysctl(const int *mib, unsigned miblen, struct kinfo_proc **out, size_t *len)
{
	struct kinfo_proc *buf = NULL;
	size_t size;
	int try, e = ENOMEM;

	for (try = 0; try < PROC_TRIES; try++) {
		size = 0;
		if (sysctl(mib, miblen, NULL, &size, NULL, 0) != 0) {
			e = errno;
			break;
		}
		size += size / 8 + PROC_SLACK * sizeof(*buf);
		free(buf);
		if ((buf = malloc(size)) == NULL)
			return -1;
		if (sysctl(mib, miblen, buf, &size, NULL, 0) == 0) {
			*out = buf;
			*len = size;
			return 0;
		}
		e = errno;
		if (e != ENOMEM)
			break;
	}
	free(buf);
	errno = e;
	return -1;
}

int
kinfo_threads_read(pid_t pid, struct kinfo_proc **out, size_t *n, char *err, size_t errlen)
{
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PID | KINFO_WITH_THREADS, (int)pid };
	size_t len;
	int e;

	*n = 0;
	if (kinfo_sysctl(mib, 4, out, &len) != 0) {
		e = errno;
	} else if ((*n = len / sizeof(**out)) > 0) {
		return 0;
	} else {
		/* FreeBSD answers a pid that has gone with ESRCH, DragonFly with no record. */
		free(*out);
		*out = NULL;
		e = ESRCH;
	}
	if (e == ESRCH)
		st_error(err, errlen, "pid %ld: no such process (the workload exited)", (long)pid);
	else
		st_error(err, errlen, "sysctl kern.proc.pid.%ld with threads: %s", (long)pid,
			 strerror(e));
	errno = e;
	return -1;
}

int
proc_table_read(struct proc_link **out, size_t *n)
{
	struct kinfo_proc *kp;
	struct proc_link *t;
	size_t len, count, i;

	*out = NULL;
	*n = 0;
	if (kinfo_sysctl(proc_mib, sizeof(proc_mib) / sizeof(proc_mib[0]), &kp, &len) != 0)
		return -1;
	count = len / sizeof(*kp);
	if ((t = calloc(count > 0 ? count : 1, sizeof(*t))) == NULL) {
		free(kp);
		return -1;
	}
	for (i = 0; i < count; i++) {
		t[i].pid = KP_PID(&kp[i]);
		t[i].ppid = KP_PPID(&kp[i]);
		t[i].pgid = KP_PGID(&kp[i]);
		t[i].zombie = KP_ZOMBIE(&kp[i]);
	}
	free(kp);
	*out = t;
	*n = count;
	return 0;
}

/*
 * The decoders' messages name the record and field, but this interface
 * carries errno alone: EINVAL means the kernel's records are not the
 * kinfo_proc this build was compiled for.
 */
int
proc_find_comm(const char *comm, pid_t **out, size_t *n)
{
	struct kinfo_proc *kp;
	size_t len;
	int rc, e;

	*out = NULL;
	*n = 0;
	if (kinfo_sysctl(proc_mib, sizeof(proc_mib) / sizeof(proc_mib[0]), &kp, &len) != 0)
		return -1;
	rc = bsd_comm_find(&kinfo_layout, kp, len, comm, out, n, NULL, 0);
	e = errno;
	free(kp);
	errno = e;
	return rc;
}

/*
 * One record per thread.  FreeBSD answers a pid that is gone with ESRCH,
 * DragonFly with no records at all: both become ESRCH.
 */
int
thread_samples_read(pid_t pid, thread_sample_cb cb, void *arg)
{
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PID | KINFO_WITH_THREADS, (int)pid };
	struct kinfo_proc *kp;
	size_t len;
	int nthreads, e;

	if (pid < 0 || cb == NULL) {
		errno = pid < 0 ? ESRCH : EINVAL;
		return -1;
	}
	if (kinfo_sysctl(mib, 4, &kp, &len) != 0)
		return -1;
	nthreads = bsd_threads_decode(&kinfo_layout, kp, len, pid, cb, arg, NULL, 0);
	e = errno;
	free(kp);
	if (nthreads < 0) {
		errno = e;
		return -1;
	}
	if (nthreads == 0) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

/* Every process's CPU time: the same table, decoded by decode_kinfo.c (EINVAL: another layout). */
int
proc_cpu_read(struct proc_cpu **out, size_t *n)
{
	struct kinfo_proc *kp;
	size_t len;
	int rc, e;

	*out = NULL;
	*n = 0;
	if (kinfo_sysctl(proc_mib, sizeof(proc_mib) / sizeof(proc_mib[0]), &kp, &len) != 0)
		return -1;
	rc = bsd_proc_cpu_decode(&kinfo_layout, kp, len, out, n, NULL, 0);
	e = errno;
	free(kp);
	errno = e;
	return rc;
}

/*
 * The process table on FreeBSD and DragonFly: one sysctl of every process's
 * kinfo_proc (kern.proc.proc on FreeBSD, kern.proc.all on DragonFly, neither
 * with a record per thread), mapped to the portable proc_link.  The two
 * differ only in field names and the MIB.  Compile-checked against both
 * sysroots (make check-bsd); not run here.
 */
#ifdef __DragonFly__
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
#include <stdlib.h>

#include "scaletop/platform.h"

#ifdef __DragonFly__
static int proc_mib[] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL };
#define KP_PID(k) ((k)->kp_pid)
#define KP_PPID(k) ((k)->kp_ppid)
#define KP_PGID(k) ((k)->kp_pgid)
#define KP_ZOMBIE(k) ((k)->kp_stat == SZOMB)
#else
static int proc_mib[] = { CTL_KERN, KERN_PROC, KERN_PROC_PROC, 0 };
#define KP_PID(k) ((k)->ki_pid)
#define KP_PPID(k) ((k)->ki_ppid)
#define KP_PGID(k) ((k)->ki_pgid)
#define KP_ZOMBIE(k) ((k)->ki_stat == SZOMB)
#endif

/* Processes may be born between sizing and reading: a little slack, and a retry. */
#define PROC_SLACK 16
#define PROC_TRIES 8

/* The whole table into a malloc'd buffer; -1 with errno. */
static int
proc_sysctl_read(struct kinfo_proc **out, size_t *len)
{
	const u_int miblen = sizeof(proc_mib) / sizeof(proc_mib[0]);
	struct kinfo_proc *buf = NULL;
	size_t size;
	int try;

	for (try = 0; try < PROC_TRIES; try++) {
		if (sysctl(proc_mib, miblen, NULL, &size, NULL, 0) != 0)
			break;
		size += PROC_SLACK * sizeof(*buf);
		free(buf);
		if ((buf = malloc(size)) == NULL)
			return -1;
		if (sysctl(proc_mib, miblen, buf, &size, NULL, 0) == 0) {
			*out = buf;
			*len = size;
			return 0;
		}
		if (errno != ENOMEM)
			break;
	}
	free(buf);
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
	if (proc_sysctl_read(&kp, &len) != 0)
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The FreeBSD sampler: sysctl(3) calls only, with every MIB looked up once at
 * open.  kern.cp_times gives per-CPU ticks, vm.stats.* the system counters,
 * kern.proc.pid the workload's threads; decode_cptimes.c does the decoding.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/pcpu.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <sys/time.h>
#include <sys/user.h>

#include <errno.h>
#include <fcntl.h>
#include <kvm.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinfo_bsd.h"
#include "sampler_bsd.h"
#include "scaletop/error.h"
#include "scaletop/platform.h"
#include "decode_bsd.h"

/* cptimes_decode assumes the kernel's state order; fail the build, not the numbers. */
_Static_assert(CPUSTATES == BSD_CPUSTATES, "kern.cp_times: states per CPU");
_Static_assert(CP_USER == BSD_CP_USER && CP_NICE == BSD_CP_NICE && CP_SYS == BSD_CP_SYS &&
		       CP_INTR == BSD_CP_INTR && CP_IDLE == BSD_CP_IDLE,
	       "kern.cp_times: state order");

static int
freebsd_maxcpus(const struct sampler *s)
{
	size_t len;
	int n = 0;

	len = sizeof(n);
	if (sysctlbyname("kern.smp.maxcpus", &n, &len, NULL, 0) == 0 && len == sizeof(n) && n > 0)
		return n;
	/* Without kern.smp.maxcpus, kern.cp_times itself says how long it is. */
	len = 0;
	if (bsd_mib_read(&s->cpu, NULL, &len) == 0 && len >= CPUSTATES * sizeof(long))
		return (int)(len / (CPUSTATES * sizeof(long)));
	return -1;
}

static int
freebsd_alloc_times(struct sampler *s, char *err, size_t errlen)
{
	if (s->maxcpus <= 0 || s->maxcpus > BSD_CPU_SLOTS_MAX)
		return st_error(err, errlen,
				"kern.smp.maxcpus: %d is not a CPU count; "
				"report the FreeBSD release and `sysctl kern.smp`",
				s->maxcpus);
	s->times_len = (size_t)s->maxcpus * CPUSTATES * sizeof(long);
	s->times = calloc(1, s->times_len);
	if (s->times == NULL)
		return st_error(err, errlen, "FreeBSD sampler: out of memory for %d CPUs",
				s->maxcpus);
	return 0;
}

/*
 * Before kern.cp_times, per-CPU ticks lived only in each CPU's struct pcpu in
 * kernel memory, which libkvm reads through /dev/mem.
 */
static int
freebsd_open_kvm(struct sampler *s, char *err, size_t errlen)
{
	char kerr[_POSIX2_LINE_MAX];

	kerr[0] = '\0';
	s->kd = kvm_openfiles(NULL, NULL, NULL, O_RDONLY, kerr);
	if (s->kd == NULL)
		return st_error(err, errlen,
				"sysctl kern.cp_times is missing and kvm_openfiles, the older "
				"per-CPU source, failed: %s; run scaletop as root or in group "
				"kmem, or on FreeBSD 7.0 or later",
				kerr);
	s->maxcpus = kvm_getmaxcpu(s->kd);
	if (s->maxcpus <= 0)
		return st_error(err, errlen,
				"kvm_getmaxcpu failed: %s; kern.cp_times is missing too, so "
				"per-CPU ticks cannot be read on this kernel",
				kvm_geterr(s->kd));
	return freebsd_alloc_times(s, err, errlen);
}

int
bsd_cpu_open(struct sampler *s, char *err, size_t errlen)
{
	if (!bsd_mib_lookup(&s->cpu, "kern.cp_times"))
		return freebsd_open_kvm(s, err, errlen);
	s->maxcpus = freebsd_maxcpus(s);
	return freebsd_alloc_times(s, err, errlen);
}

static int
freebsd_read_cptimes(struct sampler *s, size_t *len, char *err, size_t errlen)
{
	*len = s->times_len;
	if (bsd_mib_read(&s->cpu, s->times, len) != 0)
		return st_error(err, errlen,
				"sysctl kern.cp_times (buffer for %d CPUs): %s; "
				"report the FreeBSD release and `sysctl kern.smp`",
				s->maxcpus, strerror(errno));
	return 0;
}

/* A CPU id with no struct pcpu is a hole: its slot stays zero and is skipped. */
static int
freebsd_read_pcpu(struct sampler *s, size_t *len, char *err, size_t errlen)
{
	void *p;
	int i;

	memset(s->times, 0, s->times_len);
	for (i = 0; i < s->maxcpus; i++) {
		p = kvm_getpcpu(s->kd, i);
		if (p == (void *)-1)
			return st_error(err, errlen,
					"kvm_getpcpu for CPU %d: %s; per-CPU ticks are "
					"unreadable without kern.cp_times",
					i, kvm_geterr(s->kd));
		if (p == NULL)
			continue;
		/*
		 * By offset: struct pcpu is declared cache-line aligned and
		 * libkvm's malloc'd copy is not, so no struct pointer is formed.
		 */
		memcpy((long *)s->times + (size_t)i * CPUSTATES,
		       (const char *)p + offsetof(struct pcpu, pc_cp_time),
		       CPUSTATES * sizeof(long));
		free(p);
	}
	*len = s->times_len;
	return 0;
}

int
sampler_read(struct sampler *s, struct raw_sample *out, char *err, size_t errlen)
{
	size_t len;
	int rc;

	if (s->kd != NULL)
		rc = freebsd_read_pcpu(s, &len, err, errlen);
	else
		rc = freebsd_read_cptimes(s, &len, err, errlen);
	if (rc != 0)
		return -1;
	out->mono_ns = mono_now_ns();
	if (cptimes_decode(s->times, len, out) != 0)
		return st_error(err, errlen,
				"kern.cp_times: %zu bytes are not whole CPUs of %d longs, or no "
				"CPU has ticked (%s); report the FreeBSD release",
				len, CPUSTATES, strerror(errno));
	memset(&out->sys, 0, sizeof(out->sys));
	bsd_vm_read(&s->vm, &out->sys);
	return 0;
}

const char *
sampler_source(const struct sampler *s)
{
	return s->kd != NULL ? "freebsd kvm pcpu" : "freebsd kern.cp_times";
}

void
bsd_cpu_close(struct sampler *s)
{
	if (s->kd != NULL)
		kvm_close(s->kd);
}

int
task_counters_read(pid_t pid, struct task_counters *out, char *err, size_t errlen)
{
	struct bsd_thread_usage t;
	struct kinfo_proc *kp;
	size_t n, i;
	int ksize;

	memset(out, 0, sizeof(*out));
	if (kinfo_threads_read(pid, &kp, &n, err, errlen) != 0)
		return -1;
	if (kp[0].ki_structsize != (int)sizeof(*kp)) {
		ksize = kp[0].ki_structsize;
		free(kp);
		errno = EINVAL;
		return st_error(err, errlen,
				"kern.proc.pid.%ld: the kernel's kinfo_proc is %d bytes, "
				"scaletop was built for %zu; rebuild scaletop on this release",
				(long)pid, ksize, sizeof(*kp));
	}
	/* With KERN_PROC_INC_THREAD each entry's ki_rusage is that thread's own. */
	for (i = 0; i < n; i++) {
		const struct rusage *ru = &kp[i].ki_rusage;

		t.user_us = bsd_timeval_us(ru->ru_utime.tv_sec, ru->ru_utime.tv_usec);
		t.sys_us = bsd_timeval_us(ru->ru_stime.tv_sec, ru->ru_stime.tv_usec);
		t.nvcsw = ru->ru_nvcsw;
		t.nivcsw = ru->ru_nivcsw;
		bsd_task_add(out, &t);
	}
	free(kp);
	return 0;
}

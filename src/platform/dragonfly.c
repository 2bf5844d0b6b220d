/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DragonFly sampler: sysctl(3) calls only, with every MIB looked up once
 * at open.  kern.cputime gives per-CPU microseconds, vm.stats.* the system
 * counters (32-bit on DragonFly, widened by bsd_vmstats_fold), kern.proc.pid
 * with KERN_PROC_FLAG_LWP the workload's threads.
 */

/*
 * struct kinfo_proc and kinfo_lwp live in kernel headers that hide them from
 * userland unless asked, before the first include as the kernel's own
 * kern_kinfo.c asks when libkvm builds it.
 */
#define _KERNEL_STRUCTURES

#include <sys/param.h>
#include <sys/types.h>
#include <sys/kinfo.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <sys/time.h>

#include <errno.h>
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

/* cputime_decode reads the kernel's bytes through its own mirror: keep them equal. */
_Static_assert(sizeof(struct kinfo_cputime) == sizeof(struct dfly_cputime),
	       "kern.cputime: struct kinfo_cputime changed size");
#define DFLY_SAME(f) (offsetof(struct kinfo_cputime, f) == offsetof(struct dfly_cputime, f))
_Static_assert(DFLY_SAME(cp_user) && DFLY_SAME(cp_nice) && DFLY_SAME(cp_sys) &&
		       DFLY_SAME(cp_intr) && DFLY_SAME(cp_idle),
	       "kern.cputime: struct kinfo_cputime moved a state");

/* kern.cputime answers ncpus entries, a number fixed at boot: size the buffer once. */
int
bsd_cpu_open(struct sampler *s, char *err, size_t errlen)
{
	size_t len = 0;

	if (!bsd_mib_lookup(&s->cpu, "kern.cputime"))
		return st_error(err, errlen,
				"sysctl kern.cputime: %s; per-CPU times cannot be read, "
				"report the DragonFly release",
				strerror(errno));
	if (bsd_mib_read(&s->cpu, NULL, &len) != 0)
		return st_error(err, errlen, "sysctl kern.cputime: cannot size it: %s",
				strerror(errno));
	if (len < sizeof(struct kinfo_cputime))
		return st_error(err, errlen,
				"sysctl kern.cputime: answer of %zu bytes is shorter than one "
				"kinfo_cputime (%zu); rebuild scaletop on this release",
				len, sizeof(struct kinfo_cputime));
	s->times_len = len;
	s->times = calloc(1, len);
	if (s->times == NULL)
		return st_error(err, errlen, "DragonFly sampler: out of memory for kern.cputime");
	return 0;
}

void
bsd_cpu_close(struct sampler *s)
{
	(void)s; /* kern.cputime holds nothing open */
}

int
sampler_read(struct sampler *s, struct raw_sample *out, char *err, size_t errlen)
{
	size_t len = s->times_len;

	if (bsd_mib_read(&s->cpu, s->times, &len) != 0)
		return st_error(err, errlen, "sysctl kern.cputime (%zu bytes): %s", s->times_len,
				strerror(errno));
	out->mono_ns = mono_now_ns();
	if (cputime_decode(s->times, len, out) != 0)
		return st_error(err, errlen,
				"kern.cputime: %zu bytes are not whole kinfo_cputime entries "
				"of %zu (%s); rebuild scaletop on this release",
				len, sizeof(struct kinfo_cputime), strerror(errno));
	memset(&out->sys, 0, sizeof(out->sys));
	bsd_vm_read(&s->vm, &out->sys);
	return 0;
}

const char *
sampler_source(const struct sampler *s)
{
	return "dragonfly kern.cputime";
}

/*
 * kl_uticks, kl_sticks and kl_iticks are microseconds despite the name; the
 * lwp's rusage carries its switch counts but not its CPU time.
 */
int
task_counters_read(pid_t pid, struct task_counters *out, char *err, size_t errlen)
{
	struct bsd_thread_usage t;
	struct kinfo_proc *kp;
	size_t n, i;

	memset(out, 0, sizeof(*out));
	if (kinfo_threads_read(pid, &kp, &n, err, errlen) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct kinfo_lwp *kl = &kp[i].kp_lwp;

		t.user_us = (int64_t)kl->kl_uticks;
		t.sys_us = (int64_t)(kl->kl_sticks + kl->kl_iticks);
		t.nvcsw = kl->kl_ru.ru_nvcsw;
		t.nivcsw = kl->kl_ru.ru_nivcsw;
		bsd_task_add(out, &t);
	}
	free(kp);
	return 0;
}

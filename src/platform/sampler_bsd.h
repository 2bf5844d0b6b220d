/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sampler the FreeBSD and DragonFly builds share (sampler_bsd.c): one
 * buffer of per-CPU times read by sysctl, the vm.stats counters beside it.
 * Each OS's file finds its per-CPU source and decodes it.
 */
#ifndef SCALETOP_SAMPLER_BSD_H
#define SCALETOP_SAMPLER_BSD_H

#include <stddef.h>

#include "sysctl_bsd.h"

struct sampler {
	struct bsd_mib cpu; /* kern.cp_times (FreeBSD) or kern.cputime (DragonFly) */
	void *times;        /* the per-CPU answer */
	size_t times_len;   /* bytes */
	int maxcpus;        /* FreeBSD: CPU slots in times */
	void *kd;           /* FreeBSD: a kvm_t, only where kern.cp_times is missing */
	struct bsd_vm vm;
};

/* Each OS's own: finds its per-CPU source and sizes s->times; -1 with err said. */
int bsd_cpu_open(struct sampler *s, char *err, size_t errlen);

/* Each OS's own: closes what bsd_cpu_open opened besides s->times. */
void bsd_cpu_close(struct sampler *s);

#endif

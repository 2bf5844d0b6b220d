/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sysctl(3) reads the FreeBSD and DragonFly samplers share (sysctl_bsd.c):
 * a MIB looked up once by name and read by number, and the vm.stats counters.
 */
#ifndef SCALETOP_SYSCTL_BSD_H
#define SCALETOP_SYSCTL_BSD_H

#include <sys/types.h>
#include <sys/sysctl.h>

#include <stdbool.h>
#include <stddef.h>

#include "decode_bsd.h"

struct bsd_mib {
	int name[CTL_MAXNAME];
	u_int len;
	bool ok;
};

/* The vm.stats counters' MIBs and their sums, kept to widen 32-bit answers. */
struct bsd_vm {
	struct bsd_mib mib[BSD_V_NSTATS];
	struct bsd_vmstats stats;
};

/* Looks name up into m; false (m->ok too) when this kernel lacks it. */
bool bsd_mib_lookup(struct bsd_mib *m, const char *name);

/* sysctl on m's number: buf NULL asks the length; 0 or -1 with errno. */
int bsd_mib_read(const struct bsd_mib *m, void *buf, size_t *len);

/* Every counter this kernel has; one it lacks is left out of every sample. */
void bsd_vm_open(struct bsd_vm *vm);

/* The counters into sys: one that fails to read is absent from this sample only. */
void bsd_vm_read(struct bsd_vm *vm, struct sys_sample *sys);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sysctl(3) reads FreeBSD's and DragonFly's samplers share: MIBs looked
 * up once at open, the vm.stats counters, the CPU's model.  Compile-checked
 * against both sysroots (make check-bsd); not run here.
 */
#include <sys/types.h>
#include <sys/sysctl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sysctl_bsd.h"
#include "scaletop/platform.h"

bool
bsd_mib_lookup(struct bsd_mib *m, const char *name)
{
	size_t len = CTL_MAXNAME;

	m->ok = sysctlnametomib(name, m->name, &len) == 0;
	m->len = m->ok ? (u_int)len : 0;
	return m->ok;
}

int
bsd_mib_read(const struct bsd_mib *m, void *buf, size_t *len)
{
	return sysctl(m->name, m->len, buf, len, NULL, 0);
}

void
bsd_vm_open(struct bsd_vm *vm)
{
	int i;

	for (i = 0; i < BSD_V_NSTATS; i++)
		bsd_mib_lookup(&vm->mib[i], bsd_vmstat_names[i]);
	bsd_vmstats_init(&vm->stats);
}

/*
 * No run queue: vm.vmtotal walks every thread under the scheduler's locks,
 * the paths a sweep measures (docs/design-notes.md).
 */
void
bsd_vm_read(struct bsd_vm *vm, struct sys_sample *sys)
{
	uint64_t v;
	size_t len;
	int i;

	bsd_vmstats_begin(&vm->stats);
	for (i = 0; i < BSD_V_NSTATS; i++) {
		len = sizeof(v);
		if (vm->mib[i].ok && bsd_mib_read(&vm->mib[i], &v, &len) == 0)
			bsd_vmstats_fold(&vm->stats, i, &v, len);
	}
	bsd_vmstats_to_sys(&vm->stats, sys);
}

int
platform_cpu_model(char *buf, size_t len)
{
	size_t need = 0;
	char *tmp;

	if (buf == NULL || len == 0)
		return -1;
	if (sysctlbyname("hw.model", NULL, &need, NULL, 0) != 0 || need == 0)
		return -1;
	tmp = malloc(need + 1);
	if (tmp == NULL)
		return -1;
	if (sysctlbyname("hw.model", tmp, &need, NULL, 0) != 0) {
		free(tmp);
		return -1;
	}
	tmp[need] = '\0';
	snprintf(buf, len, "%s", tmp);
	free(tmp);
	return buf[0] != '\0' ? 0 : -1;
}

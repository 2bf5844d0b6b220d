/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the BSDs' topology decoders (decode_topology_bsd.c):
 * FreeBSD's kern.sched.topology_spec XML and DragonFly's CPU sets.  Nothing
 * may crash; an accepted spec must be consistent (every known level's units
 * within the online CPUs), and a refused one leaves the topology unknown.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/decode_linux.h"
#include "scaletop/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_topology(const struct topology *t)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	int l, nm, i;

	for (l = 0; l < TOPO_NLEVELS; l++) {
		const struct topo_unit *u = &t->unit[l];

		if (u->count > 0 && (u->cpus < 1 || u->cpus > t->online || u->min_cpus > u->cpus ||
				     u->max_cpus < u->cpus))
			abort();
	}
	nm = topology_marks(t, m, TOPO_MAX_MARKS);
	for (i = 1; i < nm; i++) {
		if (m[i].n <= m[i - 1].n)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topology t;
	struct cpu_list l;
	char *p = malloc(size ? size : 1);
	int i;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	errno = 0;
	if (topology_spec_decode(p, size, &t) == 0)
		check_topology(&t);
	else if (t.online != 0 || (errno != EINVAL && errno != ENOMEM))
		abort();
	cpu_list_init(&l);
	if (bsd_cpuset_decode(p, size, &l) == 0) {
		for (i = 1; i < l.n; i++) {
			if (l.id[i] <= l.id[i - 1])
				abort();
		}
	}
	cpu_list_free(&l);
	free(p);
	return 0;
}

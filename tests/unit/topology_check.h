/* SPDX-License-Identifier: BSD-2-Clause */
/* The checks the topology readers' tests share: one level's units, and the -n topo list. */
#ifndef SCALETOP_TESTS_TOPOLOGY_CHECK_H
#define SCALETOP_TESTS_TOPOLOGY_CHECK_H

#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "scaletop/topology.h"
#include "../tap.h"

/* Level l has count units, cpus CPUs in the first, listed as first. */
static inline void
check_unit(const struct topology *t, enum topo_level l, int count, int cpus, const char *first)
{
	const struct topo_unit *u = &t->unit[l];

	ok(u->count == count && u->cpus == cpus && strcmp(u->first, first) == 0,
	   "  %s: %d units, %d CPUs in the first, '%s' (got %d, %d, '%s')", topo_level_names[l],
	   count, cpus, first, u->count, u->cpus, u->first);
}

/* -n topo on t is want. */
static inline void
check_topo_list(const struct topology *t, const char *want)
{
	char err[ST_ERRLEN] = "", buf[512] = "";
	struct nlist nl;
	int rc = nlist_parse_topo(&nl, "topo", t, err, sizeof(err));

	ok(rc == 0 && strcmp(nlist_format(&nl, buf, sizeof(buf)), want) == 0,
	   "  -n topo: %s (got %s%s)", want, buf, err);
	nlist_free(&nl);
}

#endif

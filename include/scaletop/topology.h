/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The machine's CPU topology (SMT siblings, last-level caches, NUMA nodes,
 * sockets), read once into the host section, and the boundary N it gives:
 * the counts where a sweep's curve tends to bend.
 */
#ifndef SCALETOP_TOPOLOGY_H
#define SCALETOP_TOPOLOGY_H

#include <stddef.h>

#include "scaletop/topology_types.h"

/*
 * The boundaries in t, ascending and one per N (levels closing at the same N
 * are named together, "one LLC = one socket (cpus 0-7)"); a level of one CPU
 * is no boundary.  Returns how many, at most max.
 */
int topology_marks(const struct topology *t, struct topo_mark *m, int max);

/* The mark at exactly n, or NULL. */
const struct topo_mark *topology_mark_at(const struct topo_mark *m, int nm, int n);

/* A level's name in the snapshot: "smt", "llc", "node", "socket", "cores", "all". */
extern const char *const topo_level_names[TOPO_NLEVELS];

/*
 * The topology in one line for a person, "2 sockets x 2 nodes x 4 LLCs (L3)
 * x 8 cores x 2 threads", with offline CPUs and a hybrid machine's faster
 * CPUs after it; "unknown" when nothing is known.  Returns buf.
 */
char *topology_summary(const struct topology *t, char *buf, size_t len);

#endif

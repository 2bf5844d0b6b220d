/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the platform: a struct topology assembled from groups of CPUs,
 * one level at a time, whatever the OS lists them as (Linux's per-CPU list
 * files, FreeBSD's XML groups, DragonFly's per-CPU sysctls).
 */
#ifndef SCALETOP_PLATFORM_TOPO_BUILD_H
#define SCALETOP_PLATFORM_TOPO_BUILD_H

#include "scaletop/decode_linux.h"
#include "scaletop/topology_types.h"

struct topo_build {
	const struct cpu_list *online;
	int nid;     /* CPU ids 0 .. nid-1 have a leader entry */
	int *leader; /* a CPU's unit by its lowest online CPU; -1 in none yet */
	int bad;     /* two groups overlapped, or a group was odd: the level is not known */
};

/* Sets t->online, present and the TOPO_ALL unit from the lists; present NULL: online. */
void topo_build_whole(struct topology *t, const struct cpu_list *online,
		      const struct cpu_list *present);
/* Only the count known: CPUs 0 .. ncpu-1 online, every other level unknown. */
void topo_build_count(struct topology *t, int ncpu, const char *source);
/* 0, or -1 (ENOMEM). */
int topo_build_begin(struct topo_build *b, const struct cpu_list *online);
/* One group of a level (its offline members ignored); the same group twice is one. */
void topo_build_group(struct topo_build *b, const struct cpu_list *members);
/*
 * The level from the groups given since the last call, when every online
 * CPU is in exactly one; TOPO_SMT also gives TOPO_CORES.  Then starts over.
 */
void topo_build_level(struct topo_build *b, struct topology *t, enum topo_level l);
void topo_build_end(struct topo_build *b);

/* ids as "0-7,128-135", ending "..." when it does not fit. */
void topo_list_format(const int *ids, int n, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CPU topology's types alone (topology.h has its functions), so that
 * the host's fingerprint in sample_types.h carries one without the
 * platform, which fills it, using the model, which reads it.
 */
#ifndef SCALETOP_TOPOLOGY_TYPES_H
#define SCALETOP_TOPOLOGY_TYPES_H

#define TOPO_LIST_LEN 96

/* The levels, smallest first; a unit is one group of CPUs at a level. */
enum topo_level {
	TOPO_SMT,    /* the hardware threads of one core */
	TOPO_LLC,    /* the CPUs sharing one last-level cache */
	TOPO_NODE,   /* one NUMA node's CPUs */
	TOPO_SOCKET, /* one package's CPUs */
	TOPO_CORES,  /* one thread on every physical core: cpus is the cores */
	TOPO_ALL,    /* every online CPU */
	TOPO_NLEVELS
};

/* A level as the machine has it; count 0: not known (the OS did not say). */
struct topo_unit {
	int count; /* units at this level (TOPO_CORES, TOPO_ALL: 1) */
	int cpus;  /* online CPUs in the unit that holds the lowest online CPU:
		    * the N at which that unit is full */
	int min_cpus,
		max_cpus; /* the smallest and the largest unit: unequal on an uneven machine */
	char first[TOPO_LIST_LEN]; /* that unit's CPUs as a list, "0-7" or "0,64" */
};

struct topology {
	int online;    /* logical CPUs online; 0: nothing is known */
	int present;   /* present, offline ones included */
	int llc_level; /* the last-level cache's level, 3 for an L3; 0 unknown */
	struct topo_unit unit[TOPO_NLEVELS];
	int big_cpus;    /* a hybrid machine's CPUs of its faster core type; 0: all alike */
	char source[48]; /* where it was read: "sysfs", "kern.sched.topology_spec" */
};

/* One boundary: an N, the level it closes, and its words for the verdict. */
struct topo_mark {
	int n;
	enum topo_level level; /* the smallest level that closes at n; a hybrid machine's
				* faster cores (big_cpus), which no level closes: TOPO_CORES */
	char what[128];        /* "one LLC (cpus 0-7 share L3)", "all 64 physical cores" */
};

#define TOPO_MAX_MARKS 12

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The topology's boundaries (topology.c) and -n topo (nlist.c) on
 * topologies built here: levels closing at one N named together, a level of
 * one CPU or an unknown one no mark, a hybrid machine's P-cores, the summary.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "scaletop/topology.h"
#include "../tap.h"

static void
set_unit(struct topology *t, enum topo_level l, int count, int cpus, int min, int max,
	 const char *first)
{
	struct topo_unit *u = &t->unit[l];

	u->count = count;
	u->cpus = cpus;
	u->min_cpus = min;
	u->max_cpus = max;
	snprintf(u->first, sizeof(u->first), "%s", first);
}

/* 2 sockets x 2 nodes x 4 LLCs x 8 cores x 2 SMT, threads spread (0 and 128 share a core). */
static void
make_256(struct topology *t)
{
	memset(t, 0, sizeof(*t));
	t->online = t->present = 256;
	t->llc_level = 3;
	set_unit(t, TOPO_SMT, 128, 2, 2, 2, "0,128");
	set_unit(t, TOPO_LLC, 16, 16, 16, 16, "0-7,128-135");
	set_unit(t, TOPO_NODE, 4, 64, 64, 64, "0-31,128-159");
	set_unit(t, TOPO_SOCKET, 2, 128, 128, 128, "0-63,128-191");
	set_unit(t, TOPO_CORES, 1, 128, 128, 128, "0-127");
	set_unit(t, TOPO_ALL, 1, 256, 256, 256, "0-255");
}

static void
check_list(const struct topology *t, const char *spec, const char *want)
{
	char err[ST_ERRLEN] = "", buf[1024] = "";
	struct nlist nl;
	int rc = nlist_parse_topo(&nl, spec, t, err, sizeof(err));

	ok(rc == 0 && strcmp(nlist_format(&nl, buf, sizeof(buf)), want) == 0,
	   "-n %s gives %s (got %s%s)", spec, want, buf, err);
	nlist_free(&nl);
}

static void
test_marks_256(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	struct topology t;
	int nm;

	make_256(&t);
	nm = topology_marks(&t, m, TOPO_MAX_MARKS);
	if (!is_int(nm, 5, "256 CPUs: five boundaries"))
		return;
	is_int(m[0].n, 2, "the SMT pair first");
	is_str(m[0].what, "one core's 2 SMT threads (cpus 0,128)", "its words");
	is_int(m[0].level, TOPO_SMT, "its level");
	is_str(m[1].what, "one LLC (cpus 0-7,128-135 share L3)", "one LLC at 16");
	is_str(m[2].what, "one NUMA node (cpus 0-31,128-159)", "one node at 64");
	is_str(m[3].what, "one socket = all 128 physical cores",
	       "socket and cores at 128, together");
	is_int(m[3].level, TOPO_SOCKET, "the smaller level names the mark");
	is_str(m[4].what, "all 256 CPUs", "all CPUs at 256");
	ok(topology_mark_at(m, nm, 64) == &m[2], "the mark at 64 is the node's");
	ok(topology_mark_at(m, nm, 65) == NULL, "no mark at 65");
	is_int(topology_marks(&t, m, 2), 2, "at most max marks");
	check_list(&t, "topo", "1,2,4,8,16,32,64,128,256,512,1024");
	check_list(&t, "topo,12", "1,2,4,8,12,16,32,64,128,256,512,1024");
	check_list(&t, "3, topo", "1,2,3,4,8,16,32,64,128,256,512,1024");
}

/* One socket of 6 cores, no SMT, no cache known: marks at 6 only, the cores folded into all. */
static void
test_marks_small(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	struct topology t;
	char buf[256];
	int nm;

	memset(&t, 0, sizeof(t));
	t.online = t.present = 6;
	set_unit(&t, TOPO_SMT, 6, 1, 1, 1, "0");
	set_unit(&t, TOPO_SOCKET, 1, 6, 6, 6, "0-5");
	set_unit(&t, TOPO_CORES, 1, 6, 6, 6, "0-5");
	set_unit(&t, TOPO_ALL, 1, 6, 6, 6, "0-5");
	nm = topology_marks(&t, m, TOPO_MAX_MARKS);
	ok(nm == 1 && m[0].n == 6, "one boundary at 6: a level of one CPU is none (%d)", nm);
	is_str(m[0].what, "one socket = all 6 CPUs", "the cores are said by all CPUs");
	check_list(&t, "topo", "1,2,4,6,8,12,16,24");
	is_str(topology_summary(&t, buf, sizeof(buf)), "1 socket x 6 cores x 1 thread",
	       "the summary skips what is unknown");
}

/* A hybrid machine: 8 P-cores with SMT, 6 E-cores online, 15 P-core CPUs (one offline). */
static void
test_marks_hybrid(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	struct topology t;
	char buf[256];
	int nm;

	memset(&t, 0, sizeof(t));
	t.online = 21;
	t.present = 24;
	t.big_cpus = 15;
	t.llc_level = 3;
	set_unit(&t, TOPO_SMT, 14, 2, 1, 2, "0-1");
	set_unit(&t, TOPO_LLC, 1, 21, 21, 21, "0-14,16-21");
	set_unit(&t, TOPO_CORES, 1, 14, 14, 14, "0,2,4,6,8,10,12,14,16-21");
	set_unit(&t, TOPO_ALL, 1, 21, 21, 21, "0-14,16-21");
	nm = topology_marks(&t, m, TOPO_MAX_MARKS);
	if (!is_int(nm, 4, "hybrid: four boundaries"))
		return;
	ok(m[0].n == 2 && m[1].n == 14 && m[2].n == 15 && m[3].n == 21, "ascending: 2, 14, 15, 21");
	is_str(m[2].what, "the 15 P-core CPUs", "the P-cores' words");
	is_int(m[2].level, TOPO_CORES, "the P-cores' mark has the cores' level");
	is_str(m[3].what, "one LLC = all 21 CPUs", "the LLC is the machine");
	check_list(&t, "topo", "1,2,4,8,14,15,16,21,32,42,64,84");
	is_str(topology_summary(&t, buf, sizeof(buf)),
	       "1 LLC (L3) x 14 cores x 1-2 threads; 21 of 24 CPUs online; 15 P-core CPUs",
	       "uneven threads, offline CPUs and P-cores in the summary");
}

static void
test_unknown(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	char err[ST_ERRLEN] = "", buf[64];
	struct topology t;
	struct nlist nl;

	memset(&t, 0, sizeof(t));
	is_int(topology_marks(&t, m, TOPO_MAX_MARKS), 0, "nothing known: no boundary");
	is_int(topology_marks(NULL, m, TOPO_MAX_MARKS), 0, "no topology: no boundary");
	is_str(topology_summary(&t, buf, sizeof(buf)), "unknown", "nothing known: 'unknown'");
	ok(nlist_parse_topo(&nl, "1,topo", &t, err, sizeof(err)) == -1 && strstr(err, "column 3") &&
		   strstr(err, "topology") && strstr(err, "1-64x2"),
	   "-n topo on an unknown topology is refused, naming the column: %s", err);
	nlist_free(&nl);
	ok(nlist_parse(&nl, "topo", err, sizeof(err)) == -1, "nlist_parse knows no topology");
	nlist_free(&nl);
	is_int(nlist_topo(&nl, &t), -1, "nlist_topo: -1, for the caller's fallback");
	nlist_free(&nl);
	ok(nlist_parse_topo(&nl, "topology", &t, err, sizeof(err)) == -1 && strstr(err, "'t'"),
	   "a longer word is a syntax error: %s", err);
	nlist_free(&nl);
}

/* 1024 CPUs: 4x is 4096, NLIST_MAX; a bigger machine's 4x is capped, not refused. */
static void
test_cap(void)
{
	char buf[256] = "";
	struct topology t;
	struct nlist nl;
	int rc;

	memset(&t, 0, sizeof(t));
	t.online = t.present = 3000;
	set_unit(&t, TOPO_ALL, 1, 3000, 3000, 3000, "0-2999");
	rc = nlist_topo(&nl, &t);
	ok(rc == 0 && nl.count == 14 && nl.v[11] == 2048 && nl.v[12] == 3000 &&
		   nl.v[13] == NLIST_MAX,
	   "3000 CPUs: the powers of two, the CPUs, and no 2x past NLIST_MAX (%s)",
	   nlist_format(&nl, buf, sizeof(buf)));
	nlist_free(&nl);
}

int
main(void)
{
	test_marks_256();
	test_marks_small();
	test_marks_hybrid();
	test_unknown();
	test_cap();
	return done_testing();
}

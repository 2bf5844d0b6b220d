/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BSDs' topology decoders (decode_topology_bsd.c) on every OS: FreeBSD's
 * kern.sched.topology_spec as posted publicly (2 nodes, 40 CPUs) and as
 * written to its format (two L3 groups), bad XML, and DragonFly's CPU sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/decode_linux.h"
#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "../tap.h"
#include "topology_check.h"

static int
decode_fixture(const char *rel, struct topology *t)
{
	size_t len;
	char *buf = fixture_read(rel, &len);
	int rc = topology_spec_decode(buf, len, t);

	free(buf);
	return rc;
}

static void
test_freebsd_40(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	struct topology t;

	if (!is_int(decode_fixture("topology/freebsd_2node_40cpu.xml", &t), 0,
		    "FreeBSD, 2 nodes of 20 CPUs: decoded"))
		return;
	is_int(t.online, 40, "  40 CPUs");
	check_unit(&t, TOPO_SMT, 20, 2, "0-1");
	check_unit(&t, TOPO_LLC, 2, 20, "0-19");
	is_int(t.llc_level, 3, "  the L3 groups are the LLC, not the SMT pairs' L2");
	check_unit(&t, TOPO_NODE, 2, 20, "0-19");
	is_int(t.unit[TOPO_SOCKET].count, 0, "  the spec names no socket");
	check_unit(&t, TOPO_CORES, 1, 20, "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38");
	check_unit(&t, TOPO_ALL, 1, 40, "0-39");
	is_str(t.source, "kern.sched.topology_spec", "  its source");
	ok(topology_marks(&t, m, TOPO_MAX_MARKS) == 3 &&
		   strcmp(m[1].what, "one LLC = one NUMA node = all 20 physical cores") == 0,
	   "  the node's mark: %s", m[1].what);
	check_topo_list(&t, "1,2,4,8,16,20,32,40,64,80,128,160");
}

static void
test_freebsd_16(void)
{
	struct topology t;

	if (!is_int(decode_fixture("topology/freebsd_2ccx_16cpu.xml", &t), 0,
		    "FreeBSD, two L3 groups of 8: decoded"))
		return;
	check_unit(&t, TOPO_SMT, 8, 2, "0-1");
	check_unit(&t, TOPO_LLC, 2, 8, "0-7");
	is_int(t.unit[TOPO_NODE].count, 0, "  no NODE flag: the nodes are unknown");
	check_unit(&t, TOPO_CORES, 1, 8, "0,2,4,6,8,10,12,14");
	check_topo_list(&t, "1,2,4,8,16,32,64");
}

/* A spec with no SMT groups: each CPU is a core; the root's own cache level is the LLC. */
static void
test_freebsd_flat(void)
{
	static const char spec[] = "<groups>\n <group level=\"1\" cache-level=\"3\">\n"
				   "  <cpu count=\"4\" mask=\"f\">0, 1, 2, 3</cpu>\n </group>\n"
				   "</groups>\n";
	struct topology t;

	if (!is_int(topology_spec_decode(spec, sizeof(spec), &t), 0, "flat spec: decoded"))
		return;
	check_unit(&t, TOPO_SMT, 4, 1, "0");
	check_unit(&t, TOPO_LLC, 1, 4, "0-3");
	check_unit(&t, TOPO_CORES, 1, 4, "0-3");
}

static void
check_bad(const char *spec, const char *why)
{
	struct topology t;

	memset(&t, 0xff, sizeof(t));
	errno = 0;
	ok(topology_spec_decode(spec, strlen(spec), &t) == -1 && errno == EINVAL && t.online == 0 &&
		   t.unit[TOPO_ALL].count == 0,
	   "refused, the topology unknown: %s", why);
}

static void
test_freebsd_bad(void)
{
	check_bad("", "empty");
	check_bad("<groups>\n</groups>\n", "no group");
	check_bad("<groups>\n <group level=\"1\" cache-level=\"1\">\n </group>\n</groups>\n",
		  "a group without CPUs (a kernel with no topology)");
	check_bad("<groups><group level=\"1\" cache-level=\"0\"><cpu count=\"2\" mask=\"3\">0, 1"
		  "</cpu>",
		  "a group never closed");
	check_bad("<groups><group level=\"1\" cache-level=\"0\"><cpu count=\"3\" mask=\"3\">0, 1"
		  "</cpu></group></groups>",
		  "a count that disagrees with the list");
	check_bad("<groups><group level=\"1\" cache-level=\"0\"><cpu count=\"2\" mask=\"3\">1, 1"
		  "</cpu></group></groups>",
		  "a CPU twice");
	check_bad("<groups><group level=\"1\"><cpu count=\"1\" mask=\"1\">0</cpu></group></groups>",
		  "no cache-level");
	check_bad("<groups><group level=\"1\" cache-level=\"0\"><cpu count=\"1\" mask=\"1\">0",
		  "a list cut short");
	check_bad("<groups><group level=\"1\" cache-level=\"0\"><cpu count=\"1\" mask=\"1\">x</cpu>"
		  "</group></groups>",
		  "a CPU that is not a number");
	check_bad("</group>", "a closer first");
}

static void
check_set(const char *text, int rc, const char *want)
{
	struct cpu_list l;
	char got[128] = "";
	int i, r;

	cpu_list_init(&l);
	r = bsd_cpuset_decode(text, strlen(text), &l);
	for (i = 0; r == 0 && i < l.n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d", i ? "," : "",
			 l.id[i]);
	ok(r == rc && (rc != 0 || strcmp(got, want) == 0), "set '%s': %s (got %d, %s)", text,
	   rc == 0 ? want : "refused", r, got);
	cpu_list_free(&l);
}

static void
test_dragonfly_sets(void)
{
	check_set("cpus(0-3, 8) ", 0, "0,1,2,3,8");
	check_set("cpus(0, 16) ", 0, "0,16");
	check_set("0, 1, 2", 0, "0,1,2");
	check_set("cpus(5) \n", 0, "5");
	check_set("cpus(3-1) ", -1, "");
	check_set("cpus(0-1", -1, "");
	check_set("cpus(1, 0) ", -1, "");
	check_set("cpus(0;1) ", -1, "");
	check_set("cpus(99999) ", -1, "");
}

int
main(void)
{
	test_freebsd_40();
	test_freebsd_16();
	test_freebsd_flat();
	test_freebsd_bad();
	test_dragonfly_sets();
	return done_testing();
}

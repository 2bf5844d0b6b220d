/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CPU topology by sysctl: FreeBSD's kern.sched.topology_spec (decoded
 * by decode_topology_bsd.c), DragonFly's hw.cpu_topology.cpuN siblings.
 * What the kernel does not say stays unknown; hw.ncpu at least counts them.
 */
#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/error.h"
#include "scaletop/host.h"
#include "topo_build.h"

/* A string sysctl whole, malloc'd into *buf; 0 or -1. */
static int
topo_sysctl_text(const char *name, char **buf, size_t *len)
{
	*buf = NULL;
	if (sysctlbyname(name, NULL, len, NULL, 0) != 0 || *len == 0 || *len > (1u << 24))
		return -1;
	*len += 4096; /* room for a topology that grew between the two calls */
	if ((*buf = malloc(*len)) == NULL || sysctlbyname(name, *buf, len, NULL, 0) != 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

static int
topo_ncpu(void)
{
	int n = 0;
	size_t len = sizeof(n);

	if (sysctlbyname("hw.ncpu", &n, &len, NULL, 0) != 0 || len != sizeof(n))
		return 0;
	return n;
}

#ifdef __FreeBSD__
/* One memory domain: the node is the machine (the spec flags nodes only when there are more). */
static void
topo_single_node(struct topology *t)
{
	int nd = 0;
	size_t len = sizeof(nd);

	if (t->unit[TOPO_NODE].count == 0 && sysctlbyname("vm.ndomains", &nd, &len, NULL, 0) == 0 &&
	    nd == 1)
		t->unit[TOPO_NODE] = t->unit[TOPO_ALL];
}

void
host_topology_read(struct topology *t)
{
	char *buf;
	size_t len;

	memset(t, 0, sizeof(*t));
	if (topo_sysctl_text("kern.sched.topology_spec", &buf, &len) == 0 &&
	    topology_spec_decode(buf, len, t) == 0)
		topo_single_node(t);
	else
		topo_build_count(t, topo_ncpu(), "hw.ncpu");
	free(buf);
}
#else
/* hw.cpu_topology.cpuN.NAME of every CPU as groups of one level. */
static void
topo_dfly_level(struct topo_build *b, struct topology *t, const char *name, enum topo_level l)
{
	struct cpu_list set;
	char oid[64], *buf;
	size_t len;
	int i;

	cpu_list_init(&set);
	for (i = 0; i < b->online->n && !b->bad; i++) {
		snprintf(oid, sizeof(oid), "hw.cpu_topology.cpu%d.%s", b->online->id[i], name);
		if (topo_sysctl_text(oid, &buf, &len) != 0 ||
		    bsd_cpuset_decode(buf, strnlen(buf, len), &set) != 0)
			b->bad = 1;
		else
			topo_build_group(b, &set);
		free(buf);
	}
	cpu_list_free(&set);
	topo_build_level(b, t, l);
}

void
host_topology_read(struct topology *t)
{
	struct cpu_list online;
	struct topo_build b;
	char *buf;
	size_t len;

	memset(t, 0, sizeof(*t));
	cpu_list_init(&online);
	if (topo_sysctl_text("hw.cpu_topology.members", &buf, &len) != 0 ||
	    bsd_cpuset_decode(buf, strnlen(buf, len), &online) != 0 || online.n == 0 ||
	    topo_build_begin(&b, &online) != 0) {
		free(buf);
		cpu_list_free(&online);
		topo_build_count(t, topo_ncpu(), "hw.ncpu");
		return;
	}
	free(buf);
	topo_build_whole(t, &online, NULL);
	snprintf(t->source, sizeof(t->source), "hw.cpu_topology");
	topo_dfly_level(&b, t, "core_siblings", TOPO_SMT);
	topo_dfly_level(&b, t, "physical_siblings", TOPO_SOCKET);
	topo_build_end(&b);
	cpu_list_free(&online);
}
#endif

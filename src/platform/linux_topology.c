/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Linux CPU topology from sysfs under a root directory: SMT siblings,
 * the last-level cache's sharers, NUMA nodes, packages and a hybrid
 * machine's core types.  A file that is missing or odd leaves its level
 * unknown; topo_build.c does the counting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/host.h"
#include "linux_host.h"
#include "linux_read.h"
#include "topo_build.h"

#define SYS_CPU "sys/devices/system/cpu/"
#define CACHE_INDEX_MAX 16

/* A short word file ("Unified\n", "3\n") into buf without its newline; 0 or -1. */
static int
topo_read_word(int rootfd, const char *path, char *buf, size_t len)
{
	ssize_t n = small_read_at(rootfd, path, buf, len);

	if (n <= 0)
		return -1; /* missing, or EFBIG: no word of ours is that long */
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

/* One group per online CPU from the first of two per-CPU list files that exists. */
static void
topo_per_cpu(int rootfd, struct topo_build *b, const char *file, const char *old)
{
	struct cpu_list l;
	char path[128];
	int i, r;

	cpu_list_init(&l);
	for (i = 0; i < b->online->n && !b->bad; i++) {
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/topology/%s", b->online->id[i], file);
		r = cpulist_read_at(rootfd, path, &l);
		if (r != 0 && old != NULL) {
			snprintf(path, sizeof(path), SYS_CPU "cpu%d/topology/%s", b->online->id[i],
				 old);
			r = cpulist_read_at(rootfd, path, &l);
		}
		if (r != 0)
			b->bad = 1;
		else
			topo_build_group(b, &l);
	}
	cpu_list_free(&l);
}

/* The cache index of cpu with the highest level of type Unified or Data; -1 when none. */
static int
topo_llc_index(int rootfd, int cpu, int *level)
{
	char path[128], word[32];
	int i, best = -1, lv;

	*level = 0;
	for (i = 0; i < CACHE_INDEX_MAX; i++) {
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/cache/index%d/type", cpu, i);
		if (topo_read_word(rootfd, path, word, sizeof(word)) != 0)
			break;
		if (strcmp(word, "Unified") != 0 && strcmp(word, "Data") != 0)
			continue;
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/cache/index%d/level", cpu, i);
		if (topo_read_word(rootfd, path, word, sizeof(word)) != 0 ||
		    (lv = atoi(word)) <= 0 || lv > 9)
			return -1;
		if (lv > *level) {
			*level = lv;
			best = i;
		}
	}
	return best;
}

/* Each online CPU's LLC sharers; the level must be the same on every CPU. */
static void
topo_llc(int rootfd, struct topo_build *b, struct topology *t)
{
	struct cpu_list l;
	char path[128];
	int i, idx, level;

	cpu_list_init(&l);
	for (i = 0; i < b->online->n && !b->bad; i++) {
		idx = topo_llc_index(rootfd, b->online->id[i], &level);
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/cache/index%d/shared_cpu_list",
			 b->online->id[i], idx);
		if (idx < 0 || (i > 0 && level != t->llc_level) ||
		    cpulist_read_at(rootfd, path, &l) != 0)
			b->bad = 1;
		else
			topo_build_group(b, &l);
		t->llc_level = level;
	}
	cpu_list_free(&l);
	topo_build_level(b, t, TOPO_LLC);
	if (t->unit[TOPO_LLC].count == 0)
		t->llc_level = 0;
}

/* sys/devices/system/node/nodeK/cpulist for each node; no node directory: unknown. */
static void
topo_nodes(int rootfd, struct topo_build *b, struct topology *t)
{
	struct cpu_list nodes, l;
	char path[96];
	int i;

	cpu_list_init(&nodes);
	cpu_list_init(&l);
	if (cpulist_read_at(rootfd, "sys/devices/system/node/online", &nodes) != 0 &&
	    cpulist_read_at(rootfd, "sys/devices/system/node/possible", &nodes) != 0)
		b->bad = 1;
	for (i = 0; i < nodes.n && !b->bad; i++) {
		snprintf(path, sizeof(path), "sys/devices/system/node/node%d/cpulist", nodes.id[i]);
		if (cpulist_read_at(rootfd, path, &l) != 0)
			b->bad = 1;
		else
			topo_build_group(b, &l);
	}
	cpu_list_free(&nodes);
	cpu_list_free(&l);
	topo_build_level(b, t, TOPO_NODE);
}

/* A hybrid machine's faster CPUs: cpu_core's online ones, when cpu_atom has some too. */
static void
topo_hybrid(int rootfd, const struct cpu_list *online, struct topology *t)
{
	struct cpu_list big, little;
	int i;

	cpu_list_init(&big);
	cpu_list_init(&little);
	if (cpulist_read_at(rootfd, "sys/devices/cpu_core/cpus", &big) == 0 &&
	    cpulist_read_at(rootfd, "sys/devices/cpu_atom/cpus", &little) == 0 && little.n > 0) {
		for (i = 0; i < big.n; i++)
			t->big_cpus += cpu_list_has(online, big.id[i]);
	}
	cpu_list_free(&big);
	cpu_list_free(&little);
}

void
linux_topology_read_at(int rootfd, struct topology *t)
{
	struct cpu_list online, present;
	struct topo_build b;

	memset(t, 0, sizeof(*t));
	cpu_list_init(&online);
	cpu_list_init(&present);
	if (cpulist_read_at(rootfd, SYS_CPU "online", &online) == 0 && online.n > 0 &&
	    topo_build_begin(&b, &online) == 0) {
		if (cpulist_read_at(rootfd, SYS_CPU "present", &present) != 0)
			present.n = 0;
		snprintf(t->source, sizeof(t->source), "sysfs");
		topo_build_whole(t, &online, present.n > 0 ? &present : NULL);
		topo_per_cpu(rootfd, &b, "core_cpus_list", "thread_siblings_list");
		topo_build_level(&b, t, TOPO_SMT);
		topo_llc(rootfd, &b, t);
		topo_nodes(rootfd, &b, t);
		topo_per_cpu(rootfd, &b, "package_cpus_list", "core_siblings_list");
		topo_build_level(&b, t, TOPO_SOCKET);
		topo_hybrid(rootfd, &online, t);
		topo_build_end(&b);
	}
	cpu_list_free(&online);
	cpu_list_free(&present);
}

void
host_topology_read(struct topology *t)
{
	int rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	memset(t, 0, sizeof(*t));
	if (rootfd < 0)
		return;
	linux_topology_read_at(rootfd, t);
	close(rootfd);
}

int
host_topology_read_root(const char *root, struct topology *t, char *err, size_t errlen)
{
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	memset(t, 0, sizeof(*t));
	if (rootfd < 0)
		return st_error(err, errlen,
				"--root '%s': %s; give a directory holding a sys/devices/system "
				"tree",
				root, strerror(errno));
	linux_topology_read_at(rootfd, t);
	close(rootfd);
	if (t->online == 0)
		return st_error(err, errlen,
				"--root '%s': no readable sys/devices/system/cpu/online under it; "
				"give the directory that holds sys/",
				root);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Linux topology reader (linux_topology.c) through a root fd: this
 * machine's recorded tree (no caches), trees that mksysfs.py writes now
 * (256 and 1024 CPUs, a hybrid machine with offline CPUs), corrupt files,
 * and this machine itself.  Each ends in its marks and its -n topo list.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/nlist.h"
#include "../../src/platform/linux_host.h"
#include "../tap.h"
#include "topology_check.h"

static char tmpdir[] = "/tmp/test_linux_topology.XXXXXX";

/* The tree at dir read into t; -1 when it does not open. */
static int
read_dir(const char *dir, struct topology *t)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	memset(t, 0, sizeof(*t));
	if (fd < 0) {
		diag("cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	linux_topology_read_at(fd, t);
	close(fd);
	return 0;
}

/* mksysfs.py writes the tree name from spec and options; then it is read into t. */
static int
generate(const char *name, const char *args, struct topology *t)
{
	char cmd[1024], dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' %s", fixture_path("topology/mksysfs.py"), dir,
		 args);
	if (!is_int(system(cmd), 0, name))
		return -1;
	return read_dir(dir, t);
}

static void
test_vm(void)
{
	struct topology t;

	if (read_dir(fixture_path("topology/host_vm"), &t) != 0)
		return;
	ok(t.online == 2 && t.present == 2, "vm: 2 CPUs online (%d of %d)", t.online, t.present);
	check_unit(&t, TOPO_SMT, 2, 1, "0");
	is_int(t.unit[TOPO_LLC].count, 0, "  no cache/ directories: the LLC is unknown");
	is_int(t.llc_level, 0, "  and so is its level");
	check_unit(&t, TOPO_NODE, 1, 2, "0-1");
	check_unit(&t, TOPO_SOCKET, 1, 2, "0-1");
	check_unit(&t, TOPO_CORES, 1, 2, "0-1");
	is_int(t.big_cpus, 0, "  not hybrid");
	is_str(t.source, "sysfs", "  read from sysfs");
	check_topo_list(&t, "1,2,4,8");
}

static void
test_256(void)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	struct topology t;

	if (generate("m256", "2x2x4x8x2", &t) != 0)
		return;
	is_int(t.online, 256, "256: every CPU online");
	check_unit(&t, TOPO_SMT, 128, 2, "0,128");
	check_unit(&t, TOPO_LLC, 16, 16, "0-7,128-135");
	is_int(t.llc_level, 3, "  the LLC is the L3, not the L2");
	check_unit(&t, TOPO_NODE, 4, 64, "0-31,128-159");
	check_unit(&t, TOPO_SOCKET, 2, 128, "0-63,128-191");
	check_unit(&t, TOPO_CORES, 1, 128, "0-127");
	check_unit(&t, TOPO_ALL, 1, 256, "0-255");
	ok(topology_marks(&t, m, TOPO_MAX_MARKS) == 5 && m[1].n == 16 &&
		   strcmp(m[1].what, "one LLC (cpus 0-7,128-135 share L3)") == 0,
	   "  the LLC's mark: %s", m[1].what);
	check_topo_list(&t, "1,2,4,8,16,32,64,128,256,512,1024");
}

static void
test_1024(void)
{
	struct topology t;

	if (generate("m1024", "4x4x4x8x2", &t) != 0)
		return;
	is_int(t.online, 1024, "1024: every CPU online");
	check_unit(&t, TOPO_SMT, 512, 2, "0,512");
	check_unit(&t, TOPO_LLC, 64, 16, "0-7,512-519");
	check_unit(&t, TOPO_NODE, 16, 64, "0-31,512-543");
	check_unit(&t, TOPO_SOCKET, 4, 256, "0-127,512-639");
	check_unit(&t, TOPO_CORES, 1, 512, "0-511");
	check_topo_list(&t, "1,2,4,8,16,32,64,128,256,512,1024,2048,4096");
}

static void
test_hybrid(void)
{
	struct topology t;

	if (generate("hybrid", "1x1x1x8x2 --adjacent --ecores 8 --ecluster 4 --offline 15,22,23",
		     &t) != 0)
		return;
	ok(t.online == 21 && t.present == 24, "hybrid: 21 of 24 CPUs online (%d of %d)", t.online,
	   t.present);
	check_unit(&t, TOPO_SMT, 14, 2, "0-1");
	ok(t.unit[TOPO_SMT].min_cpus == 1 && t.unit[TOPO_SMT].max_cpus == 2,
	   "  cores of 1 and 2 threads");
	check_unit(&t, TOPO_LLC, 1, 21, "0-14,16-21");
	is_int(t.llc_level, 3, "  the L3, above the E-cores' shared L2");
	check_unit(&t, TOPO_CORES, 1, 14, "0,2,4,6,8,10,12,14,16-21");
	is_int(t.big_cpus, 15, "  15 P-core CPUs online");
	check_topo_list(&t, "1,2,4,8,14,15,16,21,32,42,64,84");
}

/* A corrupt or contradictory file leaves its level unknown, the rest as they are. */
static void
test_corrupt(void)
{
	char path[512];
	struct topology t;

	if (generate("bad", "1x2x1x2x2", &t) != 0)
		return;
	check_unit(&t, TOPO_NODE, 2, 4, "0-1,4-5");
	snprintf(path, sizeof(path), "%s/bad/sys/devices/system/cpu/cpu3/topology/core_cpus_list",
		 tmpdir);
	write_file(path, "3-x\n");
	snprintf(path, sizeof(path),
		 "%s/bad/sys/devices/system/cpu/cpu3/topology/thread_siblings_list", tmpdir);
	write_file(path, "3,\n");
	snprintf(path, sizeof(path), "%s/bad/sys/devices/system/node/node1/cpulist", tmpdir);
	write_file(path, "0-7\n"); /* overlaps node 0 */
	snprintf(path, sizeof(path), "%s/bad", tmpdir);
	if (read_dir(path, &t) != 0)
		return;
	ok(t.online == 8 && t.unit[TOPO_SMT].count == 0 && t.unit[TOPO_CORES].count == 0,
	   "bad: a malformed sibling list leaves SMT and the cores unknown");
	is_int(t.unit[TOPO_NODE].count, 0, "  overlapping nodes leave the nodes unknown");
	check_unit(&t, TOPO_LLC, 2, 4, "0-1,4-5");
	snprintf(path, sizeof(path), "%s/bad/sys/devices/system/cpu/online", tmpdir);
	write_file(path, "garbage\n");
	snprintf(path, sizeof(path), "%s/bad", tmpdir);
	if (read_dir(path, &t) == 0)
		ok(t.online == 0 && t.source[0] == '\0', "  a bad online list: nothing known");
}

/* This machine: the reader agrees with sysconf and gives a list. */
static void
test_here(void)
{
	char err[ST_ERRLEN] = "";
	struct topology t;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	host_topology_read(&t);
	is_int(t.online, n, "here: the online CPUs as sysconf counts them");
	ok(t.unit[TOPO_ALL].cpus == n && t.unit[TOPO_SMT].count > 0,
	   "here: all CPUs and the SMT level known");
	ok(host_topology_read_root("/nonexistent", &t, err, sizeof(err)) == -1 &&
		   strstr(err, "/nonexistent") && strstr(err, "give"),
	   "a bad root is named, with what to do: %s", err);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_vm();
	test_256();
	test_1024();
	test_hybrid();
	test_corrupt();
	test_here();
	remove_tree(tmpdir);
	return done_testing();
}

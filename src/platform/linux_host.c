/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Linux host fingerprint: the kernel command line, the topology and
 * SMT switch, NUMA nodes, the cpufreq policy, the vulnerabilities sysfs
 * reports, the hypervisor, the clocksource, a sched_ext scheduler and the
 * boot's id; and the CPUs' current frequency for a step's mean.  Only
 * reads: the decoding is decode_host.c's and decode_cpuinfo.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/decode_host.h"
#include "scaletop/decode_linux.h"
#include "linux_host.h"
#include "linux_read.h"

#define SYS_CPU "sys/devices/system/cpu/"

/*
 * A file that is missing or odd leaves its field unknown.
 */

/* The file at path under rootfd, whole, into b (which the caller frees). */
static int
host_read(int rootfd, const char *path, struct linbuf *b)
{
	b->len = 0;
	return linbuf_read_at(rootfd, path, b);
}

/* One line of text at path into out; out is left alone when it cannot be read. */
static void
host_read_text(int rootfd, const char *path, char *out, size_t len)
{
	struct linbuf b = { NULL, 0, 0 };
	char tmp[2048];

	if (host_read(rootfd, path, &b) == 0 &&
	    host_text_decode(b.data, b.len, tmp, sizeof(tmp)) == 0)
		snprintf(out, len, "%s", tmp);
	free(b.data);
}

static int
host_read_int(int rootfd, const char *path, int *out)
{
	struct linbuf b = { NULL, 0, 0 };
	int r = -1;

	if (host_read(rootfd, path, &b) == 0)
		r = host_int_decode(b.data, b.len, out);
	free(b.data);
	return r;
}

/* An arm64 cpuinfo names no package or core: each online CPU's topology files do. */
static void
host_topology_sysfs(int rootfd, const struct cpu_list *online, struct host_info *h)
{
	int *pkg = calloc((size_t)online->n + 1, sizeof(int));
	int *core = calloc((size_t)online->n + 1, sizeof(int));
	char path[96];
	int i;

	for (i = 0; pkg != NULL && core != NULL && i < online->n; i++) {
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/topology/physical_package_id",
			 online->id[i]);
		if (host_read_int(rootfd, path, &pkg[i]) != 0)
			break;
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/topology/core_id", online->id[i]);
		if (host_read_int(rootfd, path, &core[i]) != 0)
			break;
	}
	if (pkg != NULL && core != NULL && i == online->n)
		host_topology_count(pkg, core, online->n, &h->sockets, &h->cores);
	free(pkg);
	free(core);
}

/* What the hypervisor is, when cpuinfo's flag (1, 0, -1: no flags) says there is one. */
static void
host_hypervisor(int rootfd, int flag, struct host_info *h)
{
	char vendor[32] = "", product[31] = "";

	host_read_text(rootfd, "sys/hypervisor/type", h->hypervisor, sizeof(h->hypervisor));
	if (h->hypervisor[0] != '\0' || flag < 0)
		return;
	if (flag == 0) {
		snprintf(h->hypervisor, sizeof(h->hypervisor), "none");
		return;
	}
	/* world-readable DMI names the machine a guest sees: "QEMU Standard PC ...", "KVM" */
	host_read_text(rootfd, "sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	host_read_text(rootfd, "sys/class/dmi/id/product_name", product, sizeof(product));
	snprintf(h->hypervisor, sizeof(h->hypervisor), "%s%s%s",
		 vendor[0] || product[0] ? vendor : "unknown", vendor[0] && product[0] ? " " : "",
		 product);
}

static void
host_cpus(int rootfd, struct host_info *h)
{
	struct linbuf b = { NULL, 0, 0 };
	struct cpuinfo_host ci = { 0, 0, 0, -1, 0 };
	struct cpu_list online;
	int have_online;

	cpu_list_init(&online);
	have_online = cpulist_read_at(rootfd, SYS_CPU "online", &online) == 0 && online.n > 0;
	if (host_read(rootfd, "proc/cpuinfo", &b) != 0 ||
	    cpuinfo_host_decode(b.data, b.len, &ci) != 0)
		ci = (struct cpuinfo_host){ 0, 0, 0, -1, 0 };
	free(b.data);
	h->threads = have_online ? online.n : ci.processors;
	h->sockets = ci.sockets;
	h->cores = ci.cores;
	if (h->sockets == 0 && have_online)
		host_topology_sysfs(rootfd, &online, h);
	cpu_list_free(&online);
	host_hypervisor(rootfd, ci.hypervisor, h);
}

static void
host_smt(int rootfd, struct host_info *h)
{
	struct linbuf c = { NULL, 0, 0 }, a = { NULL, 0, 0 };
	bool have_active = host_read(rootfd, SYS_CPU "smt/active", &a) == 0;

	if (host_read(rootfd, SYS_CPU "smt/control", &c) == 0)
		h->smt = host_smt_decode(c.data, c.len, have_active ? a.data : NULL, a.len);
	/* a kernel without the switch (before 4.19): siblings show in the counts */
	if (h->smt == HOST_SMT_UNKNOWN && h->cores > 0 && h->threads > h->cores)
		h->smt = HOST_SMT_ON;
	free(c.data);
	free(a.data);
}

static void
host_cpufreq(int rootfd, struct host_info *h)
{
	int khz;

	host_read_text(rootfd, SYS_CPU "cpu0/cpufreq/scaling_driver", h->freq_driver,
		       sizeof(h->freq_driver));
	host_read_text(rootfd, SYS_CPU "cpu0/cpufreq/scaling_governor", h->governor,
		       sizeof(h->governor));
	if (host_read_int(rootfd, SYS_CPU "cpu0/cpufreq/scaling_min_freq", &khz) == 0 && khz > 0)
		h->freq_min_mhz = (khz + 500) / 1000;
	if (host_read_int(rootfd, SYS_CPU "cpu0/cpufreq/scaling_max_freq", &khz) == 0 && khz > 0)
		h->freq_max_mhz = (khz + 500) / 1000;
}

static void
host_mitigations(int rootfd, struct host_info *h)
{
	int fd = openat(rootfd, SYS_CPU "vulnerabilities", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct linbuf b = { NULL, 0, 0 };
	struct dirent *e;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || host_read(dirfd(d), e->d_name, &b) != 0)
			continue;
		(void)host_mitigation_add(h, e->d_name, b.data, b.len);
	}
	closedir(d);
	free(b.data);
}

/* sched_ext (6.12): the BPF scheduler that replaced the kernel's own, by name. */
static void
host_scheduler(int rootfd, struct host_info *h)
{
	char state[32] = "", ops[22] = "";

	host_read_text(rootfd, "sys/kernel/sched_ext/state", state, sizeof(state));
	if (strcmp(state, "enabled") != 0)
		return;
	host_read_text(rootfd, "sys/kernel/sched_ext/root/ops", ops, sizeof(ops));
	snprintf(h->scheduler, sizeof(h->scheduler), "sched_ext:%s", ops[0] ? ops : "unknown");
}

void
linux_host_read_at(int rootfd, struct host_info *h)
{
	struct cpu_list nodes;

	host_read_text(rootfd, "proc/cmdline", h->kernel_cmdline, sizeof(h->kernel_cmdline));
	host_cpus(rootfd, h);
	host_smt(rootfd, h);
	cpu_list_init(&nodes);
	if (cpulist_read_at(rootfd, "sys/devices/system/node/online", &nodes) == 0 && nodes.n > 0)
		h->numa_nodes = nodes.n;
	cpu_list_free(&nodes);
	host_cpufreq(rootfd, h);
	host_mitigations(rootfd, h);
	host_read_text(rootfd, "sys/devices/system/clocksource/clocksource0/current_clocksource",
		       h->clocksource, sizeof(h->clocksource));
	host_scheduler(rootfd, h);
	host_read_text(rootfd, "proc/sys/kernel/random/boot_id", h->boot_id, sizeof(h->boot_id));
	linux_topology_read_at(rootfd, &h->topo);
}

/* The mean of the online CPUs' scaling_cur_freq; -1 (ENOENT) when cpufreq is not there. */
static int
freq_sysfs(int rootfd, double *mhz)
{
	struct cpu_list online;
	double sum = 0;
	char path[96];
	int i, khz, n = 0;

	cpu_list_init(&online);
	if (cpulist_read_at(rootfd, SYS_CPU "online", &online) != 0)
		online.n = 0;
	for (i = 0; i < online.n; i++) {
		snprintf(path, sizeof(path), SYS_CPU "cpu%d/cpufreq/scaling_cur_freq",
			 online.id[i]);
		if (host_read_int(rootfd, path, &khz) == 0 && khz > 0) {
			sum += khz;
			n++;
		}
	}
	cpu_list_free(&online);
	if (n == 0) {
		errno = ENOENT;
		return -1;
	}
	*mhz = sum / n / 1000;
	return 0;
}

int
linux_cpu_freq_at(int rootfd, double *mhz)
{
	struct linbuf b = { NULL, 0, 0 };
	struct cpuinfo_host ci;
	int r = -1;

	if (freq_sysfs(rootfd, mhz) == 0)
		return 0;
	if (host_read(rootfd, "proc/cpuinfo", &b) == 0 &&
	    cpuinfo_host_decode(b.data, b.len, &ci) == 0 && ci.mhz_mean > 0) {
		*mhz = ci.mhz_mean;
		r = 0;
	}
	free(b.data);
	if (r != 0)
		errno = ENOENT;
	return r;
}

void
host_fingerprint_read(struct host_info *h)
{
	int rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (rootfd < 0)
		return;
	linux_host_read_at(rootfd, h);
	close(rootfd);
}

/*
 * The live reading, about once a second in a step (freq_sampler.c), keeps
 * what it learns: its descriptors and cpuinfo's buffer stay open, and once
 * no online CPU had scaling_cur_freq (a guest, mostly) it goes straight to
 * cpuinfo, looking at sysfs again every FREQ_RECHECK reads in case a driver
 * came.  Each second it used to open the root, the online list, two absent
 * files a CPU and cpuinfo, which it read three times as its buffer grew:
 * 13 system calls for one figure.
 */
#define FREQ_RECHECK 64
static struct {
	int rootfd, cpuinfo_fd; /* -1: not open */
	bool no_sysfs;
	unsigned reads;
	struct linbuf b;
} freq_live = { -1, -1, false, 0, { NULL, 0, 0 } };

int
host_cpu_freq_mhz(double *mhz)
{
	struct cpuinfo_host ci;

	if (freq_live.rootfd < 0 &&
	    (freq_live.rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (!freq_live.no_sysfs || freq_live.reads++ % FREQ_RECHECK == FREQ_RECHECK - 1) {
		freq_live.no_sysfs = freq_sysfs(freq_live.rootfd, mhz) != 0;
		if (!freq_live.no_sysfs)
			return 0;
	}
	if (freq_live.cpuinfo_fd < 0 &&
	    (freq_live.cpuinfo_fd =
		     openat(freq_live.rootfd, "proc/cpuinfo", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (linbuf_pread(freq_live.cpuinfo_fd, &freq_live.b) == 0 &&
	    cpuinfo_host_decode(freq_live.b.data, freq_live.b.len, &ci) == 0 && ci.mhz_mean > 0) {
		*mhz = ci.mhz_mean;
		return 0;
	}
	errno = ENOENT;
	return -1;
}

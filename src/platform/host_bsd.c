/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host fingerprint on FreeBSD and DragonFly: sysctl(3) reads by name,
 * once at start, and the CPU's current frequency for a step's mean.  The
 * answers are decoded by decode_host.c.  A name this kernel lacks leaves its
 * field unknown; neither has a kernel command line, and FreeBSD's frequency
 * policy (powerd) lives outside the kernel, so its governor is not known.
 */
#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/decode_host.h"
#include "scaletop/host.h"

static int
bsd_int(const char *name, int *out)
{
	size_t len = sizeof(*out);

	if (sysctlbyname(name, out, &len, NULL, 0) != 0 || len != sizeof(*out))
		return -1;
	return 0;
}

/* A string sysctl into out (made safe to print); 0 or -1. */
static int
bsd_text(const char *name, char *out, size_t outlen)
{
	char buf[512];
	size_t len = sizeof(buf);

	if (sysctlbyname(name, buf, &len, NULL, 0) != 0)
		return -1;
	return host_text_decode(buf, len, out, outlen);
}

/* How the kernel answers a mitigation's sysctl: a number or a text. */
struct bsd_mitigation {
	const char *name;
	int is_text;
};

/* The speculative-execution switches FreeBSD exposes (security(7)); DragonFly has none here. */
static const struct bsd_mitigation bsd_mitigations[] = {
#ifdef __FreeBSD__
	{ "vm.pmap.pti", 0 },
	{ "hw.ibrs_active", 0 },
	{ "hw.spec_store_bypass_disable_active", 0 },
	{ "hw.mds_disable_state", 1 },
	{ "machdep.mitigations.taa.state", 1 },
	{ "machdep.mitigations.rngds.state", 1 },
	{ "machdep.mitigations.zenbleed.state", 1 },
#endif
	{ NULL, 0 },
};

static void
bsd_read_mitigations(struct host_info *h)
{
	const struct bsd_mitigation *m;
	char text[HOST_MITIGATION_TEXT_LEN];
	int v;

	for (m = bsd_mitigations; m->name != NULL; m++) {
		if (m->is_text ? bsd_text(m->name, text, sizeof(text)) != 0
			       : bsd_int(m->name, &v) != 0)
			continue;
		if (!m->is_text)
			snprintf(text, sizeof(text), "%d", v);
		(void)host_mitigation_add(h, m->name, text, strlen(text));
	}
}

#ifdef __FreeBSD__
static void
bsd_read_cpus(struct host_info *h)
{
	char levels[512];
	int cores, tpc, ht_allowed = -1;

	if (bsd_int("kern.smp.cpus", &h->threads) != 0 && bsd_int("hw.ncpu", &h->threads) != 0)
		h->threads = 0;
	if (bsd_int("kern.smp.cores", &cores) == 0 && cores > 0)
		h->cores = cores;
	if (bsd_int("kern.smp.threads_per_core", &tpc) != 0)
		tpc = 0;
	(void)bsd_int("machdep.hyperthreading_allowed", &ht_allowed);
	h->smt = bsd_smt_state(tpc, ht_allowed);
	if (bsd_int("vm.ndomains", &h->numa_nodes) != 0 || h->numa_nodes < 1)
		h->numa_nodes = 0;
	if (bsd_text("dev.cpu.0.freq_levels", levels, sizeof(levels)) == 0 &&
	    freq_levels_decode(levels, strlen(levels), &h->freq_min_mhz, &h->freq_max_mhz) != 0)
		h->freq_min_mhz = h->freq_max_mhz = 0;
	(void)bsd_text("dev.cpufreq.0.freq_driver", h->freq_driver, sizeof(h->freq_driver));
	(void)bsd_text("kern.timecounter.hardware", h->clocksource, sizeof(h->clocksource));
	(void)bsd_text("kern.vm_guest", h->hypervisor, sizeof(h->hypervisor));
	(void)bsd_text("kern.sched.name", h->scheduler, sizeof(h->scheduler));
}
#else
/* DragonFly's topology is three counts: packages, cores a package, threads a core. */
static void
bsd_read_cpus(struct host_info *h)
{
	int phys, cores, ht;

	if (bsd_int("hw.ncpu", &h->threads) != 0)
		h->threads = 0;
	if (bsd_int("hw.cpu_topology_phys_ids", &phys) == 0 && phys > 0) {
		h->sockets = phys;
		if (bsd_int("hw.cpu_topology_core_ids", &cores) == 0 && cores > 0)
			h->cores = phys * cores;
	}
	if (bsd_int("hw.cpu_topology_ht_ids", &ht) != 0)
		ht = 0;
	h->smt = bsd_smt_state(ht, -1);
	(void)bsd_text("kern.cputimer.name", h->clocksource, sizeof(h->clocksource));
	(void)bsd_text("kern.vmm_guest", h->hypervisor, sizeof(h->hypervisor));
}
#endif

/* kern.boottime, as bytes: its struct timeval is decoded by bsd_boottime_decode. */
static void
bsd_read_boot(struct host_info *h)
{
	unsigned char tv[32];
	size_t len = sizeof(tv);

	if (sysctlbyname("kern.boottime", tv, &len, NULL, 0) == 0)
		(void)bsd_boottime_decode(tv, len, h->boot_id, sizeof(h->boot_id));
}

void
host_fingerprint_read(struct host_info *h)
{
	bsd_read_cpus(h);
	bsd_read_mitigations(h);
	bsd_read_boot(h);
	host_topology_read(&h->topo);
}

int
host_cpu_freq_mhz(double *mhz)
{
	int v;

#ifdef __FreeBSD__
	if (bsd_int("dev.cpu.0.freq", &v) != 0 || v <= 0) {
#else
	if (bsd_int("hw.acpi.cpu.px_global", &v) != 0 || v <= 0) {
#endif
		errno = ENOENT;
		return -1;
	}
	*mhz = v;
	return 0;
}

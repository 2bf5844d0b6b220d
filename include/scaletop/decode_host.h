/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of what the OS says about the host, for the fingerprint
 * (host.h): Linux's sysfs and /proc text, and the BSDs' sysctl answers.
 * Pure functions over a buffer and its length, built on every OS so
 * recorded and synthetic fixtures are tested everywhere; the OS calls are in
 * linux_host.c and host_bsd.c.
 */
#ifndef SCALETOP_DECODE_HOST_H
#define SCALETOP_DECODE_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/host.h"

struct cpu_list; /* decode_linux.h */

/*
 * Failures return -1 with errno EINVAL (malformed, empty) or ERANGE (a
 * number out of range).
 */

/*
 * One line of text (a sysfs value, /proc/cmdline, a sysctl string) into
 * out: the trailing newline and blanks dropped, a NUL ending it early,
 * control bytes made '?' so nothing reaches a terminal; cut to outlen - 1.
 * EINVAL when nothing is left.
 */
int host_text_decode(const char *buf, size_t len, char *out, size_t outlen);

/* One non-negative integer and an optional newline ("2601000\n"); ERANGE past INT_MAX. */
int host_int_decode(const char *buf, size_t len, int *out);

/*
 * Linux /sys/devices/system/cpu/smt: control ("on", "off", "forceoff",
 * "notsupported", "notimplemented") and active ("1" or "0"; NULL when
 * absent).  Siblings that are allowed but all offline are off.
 */
enum host_smt host_smt_decode(const char *control, size_t clen, const char *active, size_t alen);

/* What /proc/cpuinfo says of the topology, the hypervisor and the frequency. */
struct cpuinfo_host {
	int processors;  /* "processor" lines: the online CPUs */
	int sockets;     /* distinct "physical id"; 0 unless every CPU has one (not on arm64) */
	int cores;       /* distinct ("physical id", "core id") pairs; 0 as above */
	int hypervisor;  /* 1: "flags" has "hypervisor"; 0: flags without it; -1: no flags (not x86)
			  */
	double mhz_mean; /* mean "cpu MHz"; 0 when no CPU has one */
};

/* /proc/cpuinfo into ci.  Only complete lines count.  EINVAL when no "processor" line. */
int cpuinfo_host_decode(const char *buf, size_t len, struct cpuinfo_host *ci);

/*
 * Counts the distinct packages and (package, core) pairs of n CPUs, each
 * given as pkg[i] and core[i] (Linux topology/physical_package_id and
 * core_id): for an arm64 cpuinfo that has neither.  Both 0 when n is 0
 * or memory is short.
 */
void host_topology_count(const int *pkg, const int *core, int n, int *sockets, int *cores);

/*
 * Adds one vulnerability to h->mitigations, kept sorted by name.  The text
 * is decoded as host_text_decode does.  -1 with ENOSPC when the list is
 * full or EINVAL for an empty name or text; h is unchanged then.
 */
int host_mitigation_add(struct host_info *h, const char *name, const char *text, size_t tlen);

/* The text for name in h, or NULL. */
const char *host_mitigation_find(const struct host_info *h, const char *name);

/*
 * FreeBSD dev.cpu.0.freq_levels ("2401/35000 2400/35000 1800/25000 ...",
 * MHz/mW pairs, fastest first) into the lowest and highest MHz.
 */
int freq_levels_decode(const char *buf, size_t len, int *min_mhz, int *max_mhz);

/*
 * The BSDs' SMT state from kern.smp.threads_per_core, and whether the
 * siblings may run (FreeBSD machdep.hyperthreading_allowed: 1, 0, or -1
 * where there is no such sysctl): one thread a core is none; siblings not
 * allowed are off.  Unknown when threads_per_core is not positive.
 */
enum host_smt bsd_smt_state(int threads_per_core, int ht_allowed);

/*
 * The BSDs' kern.boottime (a struct timeval: two 64-bit words on amd64 and
 * arm64, two 32-bit on i386; the host's byte order) into out as
 * "boottime:SECONDS", the boot's identity in a snapshot.  Seconds only: the
 * microseconds move when the clock is stepped.  EINVAL for another length
 * or a time before 1970.
 */
int bsd_boottime_decode(const void *buf, size_t len, char *out, size_t outlen);

/*
 * FreeBSD's kern.sched.topology_spec (XML: nested <group cache-level="L">
 * with a <cpu> list and <flag name="THREAD|SMT|NODE">) into t, which starts
 * zeroed: SMT groups, the groups of the highest cache level as the LLC,
 * NUMA nodes, cores and all CPUs; the spec names no socket.  EINVAL for
 * text that is not that XML, leaving t unknown (t->online 0).
 */
int topology_spec_decode(const char *buf, size_t len, struct topology *t);

/*
 * A DragonFly hw.cpu_topology CPU set, "cpus(0-3, 8) " (also without the
 * cpus( ), as FreeBSD's "0, 1, 2"), into l, ascending: EINVAL when odd.
 */
int bsd_cpuset_decode(const char *buf, size_t len, struct cpu_list *l);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host identity: what a snapshot needs to say which machine and OS it came
 * from, and the fingerprint that decides whether two snapshots measured the
 * same thing (SMT, the frequency policy, mitigations, the hypervisor, the
 * clocksource ...).  Read once at start.
 */
#ifndef SCALETOP_HOST_H
#define SCALETOP_HOST_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the OS does not say is "" or 0 here (as ncpus has always been: no
 * count or frequency is ever 0, and a session zeroed by session_init then
 * knows nothing) and null in the JSON: never a guess.
 */

/* Whether sibling hardware threads run. */
enum host_smt {
	HOST_SMT_UNKNOWN,     /* the OS does not say */
	HOST_SMT_ON,          /* the CPU has siblings and they run */
	HOST_SMT_OFF,         /* the CPU has siblings, switched off or offline */
	HOST_SMT_UNSUPPORTED, /* the kernel sees no siblings (none, or off in the firmware) */
	HOST_SMT_NSTATES
};
/* "on", "off", "unsupported", indexed by enum host_smt; [HOST_SMT_UNKNOWN] is "". */
extern const char *const host_smt_names[HOST_SMT_NSTATES];

#define HOST_MAX_MITIGATIONS 40
#define HOST_MITIGATION_NAME_LEN 48
#define HOST_MITIGATION_TEXT_LEN 256

/* One hardware vulnerability and what the kernel does about it. */
struct host_mitigation {
	char name[HOST_MITIGATION_NAME_LEN]; /* "spectre_v2", "vm.pmap.pti" */
	char text[HOST_MITIGATION_TEXT_LEN]; /* "Mitigation: Retpolines; ...", "1" */
};

struct host_info {
	char os_name[64];     /* "Linux", "FreeBSD" */
	char os_release[128]; /* "6.1.0-18-amd64", "14.0-RELEASE" */
	char os_version[256]; /* kernel build string */
	char platform[64];    /* "x86_64", "amd64" */
	char hostname[256];
	char cpu_model[256];
	int ncpus;          /* CPUs configured */
	uint64_t mem_total; /* bytes */

	/* The fingerprint; 0 or "" where unknown. */
	char kernel_cmdline[2048]; /* Linux /proc/cmdline */
	int sockets, cores;        /* physical packages; physical cores in all of them */
	int threads;               /* hardware threads the kernel runs on (online CPUs) */
	enum host_smt smt;
	int numa_nodes;
	char freq_driver[32]; /* "intel_pstate", "acpi-cpufreq"; FreeBSD's cpufreq driver */
	char governor[32];    /* "performance", "schedutil" */
	int freq_min_mhz;     /* the policy's limits (Linux scaling_min/max_freq) */
	int freq_max_mhz;     /* or the levels the CPU offers (FreeBSD freq_levels) */
	char hypervisor[64];  /* "none" when the OS says bare metal, else its name */
	char clocksource[32]; /* "tsc", "hpet"; FreeBSD kern.timecounter.hardware */
	char scheduler[32];   /* FreeBSD "ULE"; Linux only a sched_ext scheduler's name */
	char boot_id[64];     /* this boot: Linux boot_id, the BSDs' kern.boottime */
	int nmitigations;     /* entries of mitigations[], sorted by name */
	struct host_mitigation mitigations[HOST_MAX_MITIGATIONS];
};

/* Fills h from libstatgrab plus the platform's CPU model and fingerprint; 0, or -1 with a message.
 */
int host_info_read(struct host_info *h, char *err, size_t errlen);
/*
 * The same without the fingerprint, whose fields stay unknown: for a
 * monitor that reads it only when it first runs a sweep.
 */
int host_info_read_id(struct host_info *h, char *err, size_t errlen);

/*
 * The platform's part of the fingerprint into h, whose fields start
 * unknown: each one the OS answers is set, the rest stay as they are.
 * Never fails: a field it cannot read is simply not known.
 */
void host_fingerprint_read(struct host_info *h);

/*
 * The CPUs' mean current frequency in MHz now (Linux scaling_cur_freq of
 * every CPU, else /proc/cpuinfo's "cpu MHz"; FreeBSD dev.cpu.0.freq), for a
 * step's mean.  0, or -1 with errno (ENOENT: this machine does not say;
 * ENOSYS: not on this OS).
 */
int host_cpu_freq_mhz(double *mhz);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The data the platform fills and the model reads, types only: the calls
 * that fill them are platform.h's, host.h's and lockprof.h's, the
 * arithmetic delta.h's.
 */
#ifndef SCALETOP_SAMPLE_TYPES_H
#define SCALETOP_SAMPLE_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/topology_types.h"

/* CPU states, in the order every view prints them.  An OS that lacks a state leaves it 0. */
enum cpu_state {
	CPU_USER,
	CPU_NICE,
	CPU_SYS,
	CPU_IRQ,
	CPU_SOFTIRQ,
	CPU_IOWAIT,
	CPU_STEAL,
	CPU_IDLE,
	CPU_NSTATES
};

/* cpu_ticks.flags */
#define CPU_RAW_OFFLINE 0x1 /* the OS knows this CPU but it is not running: ticks are 0 */

/*
 * Cumulative time per state for one CPU.  Units are the OS's own (USER_HZ
 * ticks, stathz ticks, microseconds): only ratios within one sample pair are
 * meaningful, so no conversion is done.
 */
struct cpu_ticks {
	int id;         /* the OS's CPU number, not the position in the array */
	unsigned flags; /* CPU_RAW_* */
	uint64_t tick[CPU_NSTATES];
};

/* System-wide cumulative counters; `have` has bit (1u << i) for each one the OS provides. */
enum sys_counter {
	SYS_CTXSW,   /* context switches */
	SYS_INTR,    /* hardware interrupts */
	SYS_SOFTIRQ, /* soft interrupts */
	SYS_SYSCALL, /* system calls (not on Linux) */
	SYS_FORK,    /* processes created */
	SYS_NCOUNTERS
};

#define SYS_HAVE_RUNQ 0x1 /* running/blocked are valid */
#define SYS_HAVE_PSI_SOME 0x2
#define SYS_HAVE_PSI_FULL 0x4

struct sys_sample {
	uint64_t count[SYS_NCOUNTERS];
	unsigned have;        /* bit i set when count[i] is valid */
	unsigned flags;       /* SYS_HAVE_* */
	uint32_t running;     /* runnable tasks now (instantaneous, includes the sampler) */
	uint32_t blocked;     /* tasks in uninterruptible wait now */
	uint64_t psi_some_us; /* cumulative time some runnable task waited for a CPU */
	uint64_t psi_full_us; /* cumulative time all non-idle tasks waited */
};

/*
 * One raw sample.  cpu[] holds ncpu entries sorted by id; the array is owned
 * by the sample and grown by the backend as needed (raw_sample_reserve).
 */
struct raw_sample {
	uint64_t mono_ns; /* CLOCK_MONOTONIC when the counters were read */
	int ncpu;
	int cap;
	struct cpu_ticks *cpu;
	struct sys_sample sys;
};

#define TASK_HAVE_CSW 0x1       /* vol_csw / invol_csw valid */
#define TASK_HAVE_CPU 0x2       /* user_ns / sys_ns valid */
#define TASK_HAVE_RUN_DELAY 0x4 /* run_delay_ns valid (Linux schedstat) */
#define TASK_HAVE_CPU_EXACT 0x8 /* cpu_ns valid (Linux schedstat) */

struct task_counters {
	uint64_t vol_csw;   /* voluntary switches: the task blocked */
	uint64_t invol_csw; /* involuntary switches: the task was preempted */
	uint64_t user_ns;   /* on Linux from clock ticks (10 ms): good for the split only */
	uint64_t sys_ns;
	uint64_t cpu_ns;       /* the exact time on a CPU, where the kernel keeps it */
	uint64_t run_delay_ns; /* time runnable but waiting for a CPU */
	unsigned have;         /* TASK_HAVE_* */
	int nthreads;          /* threads summed */
};

struct proc_link {
	pid_t pid;
	pid_t ppid;
	pid_t pgid;
	bool zombie; /* exited, waiting to be reaped */
};

/*
 * Every process's CPU time, for who else was on the CPUs (others.h): one
 * pass over the process table.  start tells a reused pid from the process
 * that had it before (Linux: clock ticks after boot; the BSDs: ki_start in
 * microseconds); it is compared, never read as a time.
 */
struct proc_cpu {
	pid_t pid, ppid;
	uint64_t start;
	uint64_t cpu_ns; /* user + system, since it started */
	char comm[32];
};

/*
 * What one thread was doing when read.  Linux's "R" does not say whether a
 * thread is on a CPU or waiting for one, so there it is THREAD_RUNNABLE
 * and the split comes from the cumulative schedstat times (cpu_ns,
 * run_delay_ns) between two reads; FreeBSD says which by ki_oncpu.
 */
enum thread_state {
	THREAD_RUNNING,  /* on a CPU */
	THREAD_RUNNABLE, /* runnable (Linux: running or waiting; see above) */
	THREAD_SLEEPING, /* blocked in the kernel, interruptibly (the channel says where) */
	THREAD_DISK,     /* uninterruptible: disk or similar */
	THREAD_LOCK,     /* FreeBSD: blocked on a kernel lock; the channel is its name */
	THREAD_STOPPED,  /* stopped or traced */
	THREAD_ZOMBIE,
	THREAD_IDLE, /* idle kernel thread, or a new process not yet running */
	THREAD_OTHER
};

#define THREAD_CHANNEL_LEN 64
#define THREAD_HAVE_TIMES 0x1 /* cpu_ns and run_delay_ns valid */
#define THREAD_HAVE_NEW 0x2   /* thread_handle_read: the tid is a new thread's (reused) */

struct thread_sample {
	pid_t pid, tid;
	enum thread_state state;
	char channel[THREAD_CHANNEL_LEN]; /* wchan (Linux), wmesg or lock name (BSD); "" if none */
	uint64_t cpu_ns;                  /* cumulative time on a CPU */
	uint64_t run_delay_ns;            /* cumulative time runnable but not running */
	unsigned have;                    /* THREAD_HAVE_* */
	int nthreads;                     /* its process's thread count when read; 0: not known */
};

#define CGROUP_HAVE_CPU 0x1 /* usage_us, user_us, system_us valid */
#define CGROUP_HAVE_PSI 0x2 /* psi_some_us valid */

/* A cgroup's cumulative CPU counters (cpu.stat) and CPU pressure (cpu.pressure "some"). */
struct cgroup_cpu {
	uint64_t usage_us, user_us, system_us;
	uint64_t psi_some_us;
	unsigned have; /* CGROUP_HAVE_* */
};

#define KSTACK_FRAMES 24   /* frames kept, innermost first; deeper ones are dropped */
#define KSTACK_NAME_LEN 64 /* a frame's function name, cut to fit */
#define KSTACK_RUNNING 0x1 /* the kernel gave no stack: the thread was on a CPU */
#define KSTACK_SWAPPED 0x2 /* FreeBSD: its kernel stack was swapped out */

/* One thread's kernel stack: function names without offsets, innermost first. */
struct kstack {
	int nframes;
	unsigned flags; /* KSTACK_* */
	char frame[KSTACK_FRAMES][KSTACK_NAME_LEN];
};

/* --- two raw samples' difference (delta.h) ---------------------------- */

/* cpu_usage.flags: why a CPU's figures are missing or adjusted this interval */
#define CPU_USAGE_NEW 0x01       /* appeared since the previous sample: no figures yet */
#define CPU_USAGE_GONE 0x02      /* present before, absent now */
#define CPU_USAGE_OFFLINE 0x04   /* the OS reports it offline */
#define CPU_USAGE_BACKWARDS 0x08 /* a counter went backwards; that state counted as 0 */
#define CPU_USAGE_NO_TICKS 0x10  /* no time elapsed on this CPU (interval too short) */
#define CPU_USAGE_NO_DATA (CPU_USAGE_NEW | CPU_USAGE_GONE | CPU_USAGE_OFFLINE | CPU_USAGE_NO_TICKS)

struct cpu_usage {
	int id;                  /* OS CPU id; -1 for the "all" row */
	unsigned flags;          /* CPU_USAGE_*; pct[] and busy are 0 when NO_DATA is set */
	double pct[CPU_NSTATES]; /* each in [0,100], summing to 100 when there is data */
	double busy;             /* 100 - idle - iowait */
};

struct sample_delta {
	double seconds; /* measured CLOCK_MONOTONIC time between the samples */
	int ncpu;       /* union of the CPUs in both samples, sorted by id */
	int cap;
	struct cpu_usage *cpu;      /* owned; grown by sample_delta_compute */
	struct cpu_usage all;       /* sum over CPUs with data in both samples */
	int ncpu_with_data;         /* how many CPUs went into `all` */
	double rate[SYS_NCOUNTERS]; /* per second */
	unsigned have_rate; /* bit i: rate[i] valid (present in both, did not go backwards) */
	unsigned flags;     /* SYS_HAVE_*: RUNQ from newer sample; PSI_* if % valid */
	uint32_t running, blocked; /* from the newer sample */
	double psi_some_pct;       /* % of wall time some task waited for a CPU */
	double psi_full_pct;
};

/* --- the host's identity and fingerprint (host.h) -------------------- */

/* Whether sibling hardware threads run. */
enum host_smt {
	HOST_SMT_UNKNOWN,     /* the OS does not say */
	HOST_SMT_ON,          /* the CPU has siblings and they run */
	HOST_SMT_OFF,         /* the CPU has siblings, switched off or offline */
	HOST_SMT_UNSUPPORTED, /* the kernel sees no siblings (none, or off in the firmware) */
	HOST_SMT_NSTATES
};

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
	struct topology topo; /* the CPU topology; topo.online 0: not known */
};

/* --- the kernel's lock profile (lockprof.h) ---------------------------- */

/*
 * One line of per-class statistics.  A read/write lock that was taken both
 * ways has two, named with the kernel's "-W" and "-R" suffixes; each is kept
 * as its own entry.  Times are in microseconds, as the kernel prints them.
 */
struct lockprof_entry {
	char name[96];
	uint64_t contentions;
	double wait_total_us;
	double wait_max_us;
	uint64_t acquisitions;
	double hold_total_us;
};

#endif

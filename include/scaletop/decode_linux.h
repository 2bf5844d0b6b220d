/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the Linux text formats the sampler reads (/proc/stat, CPU
 * lists, PSI, cpuinfo, per-thread status/stat/schedstat).  Pure functions over
 * a buffer and its length: no I/O, no NUL terminator needed, nothing read past
 * len.  They build on every OS so recorded fixtures are tested everywhere.
 */
#ifndef SCALETOP_DECODE_LINUX_H
#define SCALETOP_DECODE_LINUX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/platform.h"

/*
 * Every decoder returns 0, or -1 with errno EINVAL when the text is malformed
 * or truncated (a kernel always ends its last line with '\n', so text that does
 * not is treated as cut short), ERANGE for a number or CPU id out of range, or
 * ENOMEM.  On failure the outputs hold unspecified values but remain safe to
 * free.
 */

/* CPU ids above this are rejected: far beyond any kernel's NR_CPUS (8192). */
#define DECODE_CPU_ID_MAX 65535

/*
 * /proc/stat into s: cpu[] gets one entry per "cpuN" line, sorted by N (the
 * aggregate "cpu" line is checked but not kept: the delta code sums CPUs
 * itself); s->sys is reset, then filled from ctxt, intr, softirq, processes and
 * procs_running/procs_blocked.  s->mono_ns is left alone.  States an old kernel
 * does not print stay 0; guest and guest_nice are ignored, since the kernel
 * already counts them in user and nice.
 */
int procstat_decode(const char *buf, size_t len, struct raw_sample *s);

/* A set of CPU ids, ascending and without duplicates; id[] is owned by the list. */
struct cpu_list {
	int n;
	int cap;
	int *id;
};

void cpu_list_init(struct cpu_list *l);
void cpu_list_free(struct cpu_list *l);
/* True when id is in the list (binary search). */
int cpu_list_has(const struct cpu_list *l, int id);

/*
 * The kernel's CPU list format ("0-3,5,7-8\n", as in
 * /sys/devices/system/cpu/online) into l.  Empty text or a lone newline is
 * the empty set.  Ranges must ascend without overlap, as the kernel prints them.
 */
int cpulist_decode(const char *buf, size_t len, struct cpu_list *l);

/*
 * Adds an entry flagged CPU_RAW_OFFLINE with zero ticks for every CPU in
 * present that is in neither online nor s (which must be sorted), keeping
 * s->cpu sorted.  A CPU that /proc/stat still listed keeps its ticks even if
 * online (read a moment later) no longer has it: the ticks were real.
 * Returns 0, or -1 with errno ENOMEM.
 */
int procstat_add_offline(struct raw_sample *s, const struct cpu_list *present,
			 const struct cpu_list *online);

/*
 * /proc/pressure/cpu into sys: clears the PSI flags and totals, then sets
 * SYS_HAVE_PSI_SOME and psi_some_us from the "some" line, and
 * SYS_HAVE_PSI_FULL and psi_full_us from the "full" line when the kernel has
 * one (it was added in 5.13).  The "some" line is required.
 */
int psi_decode(const char *buf, size_t len, struct sys_sample *sys);

/*
 * The CPU model from /proc/cpuinfo into out (always NUL-terminated, runs of
 * blanks folded to one space).  Tries "model name" (x86, 32-bit ARM), then
 * "Hardware" (ARM boards), "cpu model" (MIPS), "cpu" (POWER), "uarch"
 * (RISC-V), "Processor" (old ARM), and last "CPU implementer"/"CPU part"
 * (arm64 servers).  Only complete lines count, so a prefix of a long file
 * may be passed.  -1 with errno ENOENT when no key has a value.
 */
int cpuinfo_model(const char *buf, size_t len, char *out, size_t outlen);

/* /proc/PID/task/TID/status: the two context switch counts. */
struct task_status {
	uint64_t vol_csw;
	uint64_t invol_csw;
};

/*
 * -1 with errno ENOENT when the file is well formed but lacks the switch
 * counts (kernels before 2.6.23), so the caller can tell "not provided" from
 * "garbage".
 */
int task_status_decode(const char *buf, size_t len, struct task_status *st);

/*
 * /proc/PID/stat or /proc/PID/task/TID/stat: the state, parent and group
 * (fields 3 to 5), and fields 14 and 15 in clock ticks (sysconf(_SC_CLK_TCK)).
 */
struct task_stat {
	char state; /* R, S, D, Z, ... */
	uint64_t ppid;
	uint64_t pgid;
	uint64_t utime_ticks;
	uint64_t stime_ticks;
};

/* The comm field may hold spaces and ')', so fields are counted from the last ')'. */
int task_stat_decode(const char *buf, size_t len, struct task_stat *st);

/*
 * /proc/PID/stat into a process's CPU line (platform.h): its pid, comm
 * (cut to the field), parent, start time in ticks and user + system time
 * at hz ticks a second.  0, or -1 with errno EINVAL.
 */
int proc_cpu_stat_decode(const char *buf, size_t len, long hz, struct proc_cpu *out);

/* /proc/PID/task/TID/schedstat. */
struct task_schedstat {
	uint64_t cpu_ns;       /* time on a CPU */
	uint64_t run_delay_ns; /* time runnable, waiting for a CPU */
	uint64_t timeslices;   /* times it was scheduled in */
};

int task_schedstat_decode(const char *buf, size_t len, struct task_schedstat *st);

/* What one thread contributes; have is TASK_HAVE_* for this thread alone. */
struct task_one {
	struct task_status status;
	struct task_stat stat;
	struct task_schedstat sched;
	unsigned have;
};

/* A process's threads summed as they are read: start with task_sum_init. */
struct task_sum {
	struct task_counters c; /* the switch counts, run delay and threads so far */
	uint64_t utime, stime;  /* clock ticks */
	unsigned have;          /* TASK_HAVE_* that every thread so far had */
};

void task_sum_init(struct task_sum *sum);
void task_sum_add(struct task_sum *sum, const struct task_one *t);
/*
 * The counters of the sum, with hz clock ticks a second.  user_ns and
 * sys_ns are the ticks; cpu_ns is schedstat's exact total, flagged
 * TASK_HAVE_CPU_EXACT, for contention_compute to split in the ticks' ratio.
 */
void task_sum_finish(const struct task_sum *sum, long hz, struct task_counters *out);

/* --- the system under test (--target) and its threads' waits ------------- */

/*
 * /proc/PID/stat or /proc/PID/task/TID/stat, the fields a target needs: the
 * state (field 3), the parent (4), the threads (20) and the start time (22,
 * clock ticks after boot), which tells a reused pid from the process that
 * had it before.
 */
struct thread_stat {
	char state;
	uint64_t ppid;
	uint64_t nthreads;
	uint64_t start_ticks;
};

int thread_stat_decode(const char *buf, size_t len, struct thread_stat *st);

/*
 * The Linux stat state letter as a thread state: R runnable, S sleeping, D
 * uninterruptible, T and t stopped or traced, Z and X exited, I idle kernel
 * thread, anything else other.
 */
enum thread_state thread_state_of(char letter);

/*
 * /proc/PID/task/TID/wchan: the kernel function a thread sleeps in, with no
 * newline (one is allowed).  "0" (a running thread, or one the reader may not
 * see into) is "".  A name longer than outlen - 1 is cut; a byte that cannot
 * be in a symbol is EINVAL.
 */
int wchan_decode(const char *buf, size_t len, char *out, size_t outlen);
/* Whether a wait channel is a futex wait's (futex_wait_queue, futex_do_wait...), not a wake's. */
bool wchan_is_futex_wait(const char *channel);

/* /proc/PID/comm: the command name without its '\n' (it may hold blanks); EINVAL past outlen - 1.
 */
int comm_decode(const char *buf, size_t len, char *out, size_t outlen);

/* A cgroup's cgroup.procs: one pid a line, into a malloc'ed *out (NULL for none), *n of them. */
int pid_list_decode(const char *buf, size_t len, pid_t **out, size_t *n);

/*
 * A cgroup v2 cpu.stat: usage_usec, user_usec and system_usec, which every
 * kernel with the cpu.stat file prints; other keys are skipped.  c->have gets
 * CGROUP_HAVE_CPU; the PSI field is left alone.
 */
int cgroup_cpustat_decode(const char *buf, size_t len, struct cgroup_cpu *c);

#endif

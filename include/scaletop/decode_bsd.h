/*
 * Decoders for the BSD backends (freebsd.c, dragonfly.c) and the libstatgrab
 * one (generic.c).  They take what the kernel answered as plain bytes or
 * numbers and include no BSD header, so recorded buffers are tested on every
 * OS; the backends only make the calls and check the layouts at compile time.
 *
 * Every decoder that can fail returns 0, or -1 with errno EINVAL (malformed or
 * empty buffer), ERANGE (more CPUs than any kernel has) or ENOMEM.  On failure
 * the outputs hold unspecified values but remain safe to free.
 */
#ifndef SCALETOP_DECODE_BSD_H
#define SCALETOP_DECODE_BSD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <statgrab.h>

#include "scaletop/platform.h"

/* CPU slots beyond this are rejected: FreeBSD's MAXCPU is 1024, DragonFly's 256. */
#define BSD_CPU_SLOTS_MAX 65536

/* --- FreeBSD kern.cp_times ---------------------------------------------- */

/* One CPU's states in kern.cp_times, numbered as <sys/resource.h> numbers them. */
enum bsd_cp_state { BSD_CP_USER, BSD_CP_NICE, BSD_CP_SYS, BSD_CP_INTR, BSD_CP_IDLE, BSD_CPUSTATES };

/*
 * kern.cp_times into s->cpu[]: len bytes of native longs, BSD_CPUSTATES per
 * slot, slot i being CPU id i, counted in stathz ticks.  The kernel answers
 * mp_maxid + 1 slots (the caller sizes its buffer from kern.smp.maxcpus); a
 * slot whose states are all zero is a hole in the CPU numbering, as FreeBSD's
 * top -P decides too, and is skipped.  CP_INTR becomes CPU_IRQ; softirq,
 * iowait and steal stay 0.  Only cpu[] and ncpu change.  EINVAL also when no
 * slot has any tick, since a running kernel always has one CPU that ticked.
 */
int cptimes_decode(const void *buf, size_t len, struct raw_sample *s);

/* --- vm.stats counters (FreeBSD and DragonFly) -------------------------- */

/* The counters read one sysctl each; their names are bsd_vmstat_names[]. */
enum bsd_vmstat {
	BSD_V_SWTCH,   /* vm.stats.sys.v_swtch -> SYS_CTXSW */
	BSD_V_INTR,    /* vm.stats.sys.v_intr -> SYS_INTR */
	BSD_V_SOFT,    /* vm.stats.sys.v_soft -> SYS_SOFTIRQ */
	BSD_V_SYSCALL, /* vm.stats.sys.v_syscall -> SYS_SYSCALL */
	BSD_V_FORKS,   /* vm.stats.vm.v_forks, plus v_vforks and v_rforks -> SYS_FORK */
	BSD_V_VFORKS,
	BSD_V_RFORKS,
	BSD_V_NSTATS
};
extern const char *const bsd_vmstat_names[BSD_V_NSTATS];

/*
 * The counters as 64-bit running values.  FreeBSD 12 and later answer 8
 * bytes; older FreeBSD and DragonFly answer a 32-bit u_int that wraps (at a
 * million switches a second, in 72 minutes), so the sampler keeps one of these
 * across reads and each 4-byte answer is widened against the previous value.
 */
struct bsd_vmstats {
	uint64_t v[BSD_V_NSTATS];
	unsigned seen; /* bit i: v[i] has been read at least once */
	unsigned have; /* bit i: v[i] was read in the current round */
};

void bsd_vmstats_init(struct bsd_vmstats *vm);
/* Starts a round of reads: no counter is current until folded in again. */
void bsd_vmstats_begin(struct bsd_vmstats *vm);
/*
 * Folds one sysctl answer (len 8: a uint64_t; len 4: the low 32 bits of a
 * wrapping counter, right while fewer than 2^32 events pass between reads)
 * into v[i].  EINVAL for any other length or index.
 */
int bsd_vmstats_fold(struct bsd_vmstats *vm, int i, const void *buf, size_t len);
/*
 * Sets sys->count[] and the `have` bits of the counters read this round.
 * SYS_FORK needs v_forks; v_vforks and v_rforks are added when present.
 */
void bsd_vmstats_to_sys(const struct bsd_vmstats *vm, struct sys_sample *sys);

/* --- per-thread usage (kern.proc.pid with threads) ---------------------- */

/* One thread as kinfo_proc reports it, in microseconds and switch counts. */
struct bsd_thread_usage {
	int64_t user_us;
	int64_t sys_us;
	int64_t nvcsw;  /* voluntary switches (ru_nvcsw) */
	int64_t nivcsw; /* involuntary switches (ru_nivcsw) */
};

/* A struct timeval's two fields as microseconds; negative parts count as 0. */
int64_t bsd_timeval_us(int64_t sec, int64_t usec);
/* Adds one thread to out (which the caller zeroed): CPU time, switches, nthreads. */
void bsd_task_add(struct task_counters *out, const struct bsd_thread_usage *t);

/* --- DragonFly kern.cputime --------------------------------------------- */

/*
 * The layout of DragonFly's struct kinfo_cputime (<sys/kinfo.h>): the first
 * five fields are cumulative microseconds per state; dragonfly.c checks at
 * compile time that size and offsets match the real structure.
 */
struct dfly_cputime {
	uint64_t cp_user;
	uint64_t cp_nice;
	uint64_t cp_sys;
	uint64_t cp_intr;
	uint64_t cp_idle;
	uint64_t cp_unused01;
	uint64_t cp_unused02;
	uint64_t cp_sample_pc;
	uint64_t cp_sample_sp;
	char cp_msg[32];
};

/*
 * kern.cputime into s->cpu[]: len bytes holding one struct dfly_cputime per
 * CPU, entry i being CPU id i.  The kernel lists exactly its ncpus CPUs, so an
 * entry whose states are all zero is kept, flagged CPU_RAW_OFFLINE.  cp_intr
 * becomes CPU_IRQ.  Only cpu[] and ncpu change.
 */
int cputime_decode(const void *buf, size_t len, struct raw_sample *s);

/* --- libstatgrab totals (generic backend) ------------------------------- */

/* The id of the one aggregate CPU that statgrab_decode produces. */
#define STATGRAB_CPU_ID 0

/*
 * sg_cpu_stats (machine-wide totals) into s: one CPU with id STATGRAB_CPU_ID
 * and s->sys reset then filled.  user, nice and idle map directly; kernel goes
 * to CPU_SYS together with whatever `total` holds beyond the named states
 * (interrupt time on NetBSD, interrupt and spin time on OpenBSD: kernel-mode
 * time libstatgrab does not name); iowait plus swap wait go to CPU_IOWAIT.
 * libstatgrab reports 0 for a counter the OS lacks, and no cumulative counter
 * of a running system is 0, so a counter is marked present only when it is
 * non-zero.
 */
int statgrab_decode(const sg_cpu_stats *st, struct raw_sample *s);

#endif

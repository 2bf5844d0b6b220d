/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders for the BSD backends (freebsd.c, dragonfly.c) and the libstatgrab
 * one (generic.c).  They take what the kernel answered as plain bytes or
 * numbers and include no BSD header, so recorded buffers are tested on every
 * OS; the backends only make the calls and check the layouts at compile time.
 */
#ifndef SCALETOP_DECODE_BSD_H
#define SCALETOP_DECODE_BSD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <statgrab.h>

#include "scaletop/platform.h"

/*
 * Every decoder that can fail returns 0, or -1 with errno EINVAL (malformed or
 * empty buffer), ERANGE (more CPUs than any kernel has) or ENOMEM.  On failure
 * the outputs hold unspecified values but remain safe to free.
 */

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

/* --- threads and processes (kern.proc's struct kinfo_proc records) ------- */

/*
 * kern.proc answers an array of struct kinfo_proc, one per thread
 * (FreeBSD KERN_PROC_INC_THREAD, DragonFly KERN_PROC_FLAG_LWP) or one per
 * process.  The decoders read the fields they need by offset and size from
 * a layout the backend fills with offsetof() from the real header, so they
 * include no BSD header and the tests build records for any layout.
 */
struct bsd_field {
	size_t off;
	size_t len; /* bytes: 1, 2, 4 or 8 for a number, the array's size for a string; 0 absent */
};

enum bsd_kinfo_field {
	BSD_KI_STRUCTSIZE, /* FreeBSD ki_structsize: each record's own size */
	BSD_KI_PID,        /* ki_pid; kp_pid */
	BSD_KI_TID,        /* ki_tid; kp_lwp.kl_tid */
	BSD_KI_PSTAT,    /* FreeBSD ki_stat (the thread's S*); DragonFly kp_stat (the process's) */
	BSD_KI_TSTAT,    /* DragonFly kl_stat (the lwp's LS*) */
	BSD_KI_ONCPU,    /* FreeBSD ki_oncpu: the CPU it runs on, or NOCPU */
	BSD_KI_KIFLAG,   /* FreeBSD ki_kiflag (KI_LOCKBLOCK) */
	BSD_KI_TDFLAGS,  /* ki_tdflags; kl_tdflags (the kernel thread's TDF_*) */
	BSD_KI_LWPFLAGS, /* DragonFly kl_flags (LWP_*) */
	BSD_KI_WMESG,    /* ki_wmesg; kl_wmesg: what a sleeping thread waits for */
	BSD_KI_LOCKNAME, /* FreeBSD ki_lockname: the lock a thread is blocked on */
	BSD_KI_COMM,     /* ki_comm; kp_comm: the command name */
	BSD_KI_CPU_US,   /* time on a CPU in microseconds, these three summed: */
	BSD_KI_CPU_US2,  /* FreeBSD ki_runtime alone; DragonFly kl_uticks, */
	BSD_KI_CPU_US3,  /* kl_sticks and kl_iticks (microseconds despite the name) */
	BSD_KI_PPID,     /* ki_ppid; kp_ppid */
	BSD_KI_START,    /* ki_start.tv_sec; kp_start.tv_sec: when the process started */
	BSD_KI_START_US, /* ki_start.tv_usec; kp_start.tv_usec */
	BSD_KI_NFIELDS
};

/* Whose states the records hold: the two kernels name them differently. */
enum bsd_os { BSD_FREEBSD, BSD_DRAGONFLY };

struct bsd_kinfo_layout {
	enum bsd_os os;
	size_t size; /* sizeof(struct kinfo_proc): the stride */
	struct bsd_field f[BSD_KI_NFIELDS];
};

/*
 * The fields each backend reads, as X(FIELD, member, amd64 offset, size):
 * the backend builds its layout from the member names with offsetof() on
 * every architecture, and on amd64 asserts at compile time that the numbers
 * here (clang's, against the sysroots in ../shared/sysroots) are the real
 * ones, so that the tests' records, built from these numbers, are laid out
 * as the kernel lays them out.
 */
#define BSD_FREEBSD14_AMD64_SIZE 1088
#define BSD_FREEBSD14_FIELDS(X)            \
	X(STRUCTSIZE, ki_structsize, 0, 4) \
	X(PID, ki_pid, 72, 4)              \
	X(TID, ki_tid, 600, 4)             \
	X(PSTAT, ki_stat, 388, 1)          \
	X(ONCPU, ki_oncpu, 568, 4)         \
	X(KIFLAG, ki_kiflag, 376, 8)       \
	X(TDFLAGS, ki_tdflags, 1080, 8)    \
	X(WMESG, ki_wmesg, 411, 9)         \
	X(LOCKNAME, ki_lockname, 438, 9)   \
	X(COMM, ki_comm, 447, 20)          \
	X(CPU_US, ki_runtime, 328, 8)      \
	X(PPID, ki_ppid, 76, 4)            \
	X(START, ki_start.tv_sec, 336, 8)  \
	X(START_US, ki_start.tv_usec, 344, 8)
#define BSD_DRAGONFLY6_X86_64_SIZE 992
#define BSD_DRAGONFLY6_FIELDS(X)              \
	X(PID, kp_pid, 220, 4)                \
	X(TID, kp_lwp.kl_tid, 668, 4)         \
	X(PSTAT, kp_stat, 12, 4)              \
	X(TSTAT, kp_lwp.kl_stat, 676, 4)      \
	X(TDFLAGS, kp_lwp.kl_tdflags, 684, 4) \
	X(LWPFLAGS, kp_lwp.kl_flags, 672, 4)  \
	X(WMESG, kp_lwp.kl_wmesg, 944, 9)     \
	X(COMM, kp_comm, 112, 17)             \
	X(CPU_US, kp_lwp.kl_uticks, 704, 8)   \
	X(CPU_US2, kp_lwp.kl_sticks, 712, 8)  \
	X(CPU_US3, kp_lwp.kl_iticks, 720, 8)  \
	X(PPID, kp_ppid, 224, 4)              \
	X(START, kp_start.tv_sec, 96, 8)      \
	X(START_US, kp_start.tv_usec, 104, 8)

/*
 * The kernels' own values the decoders compare with.  FreeBSD's come from
 * <sys/proc.h> and <sys/user.h> and freebsd.c asserts them; DragonFly's
 * process and lwp states from <sys/proc_common.h>, asserted in dragonfly.c.
 * DragonFly's LWP_SINTR (<sys/proc.h>) and TDF_RUNNING, TDF_SINTR
 * (<sys/thread.h>) are kernel headers the sysroot lacks: they are copied
 * from DragonFly's source and cannot be checked here.
 */
enum bsd_freebsd_stat {
	BSD_FB_SIDL = 1, /* being created by fork */
	BSD_FB_SRUN,     /* runnable: on a CPU (ki_oncpu) or waiting for one */
	BSD_FB_SSLEEP,   /* asleep on a wait channel (ki_wmesg) */
	BSD_FB_SSTOP,    /* stopped or being debugged */
	BSD_FB_SZOMB,
	BSD_FB_SWAIT, /* an interrupt thread waiting for its interrupt */
	BSD_FB_SLOCK  /* blocked on a lock (a turnstile: ki_lockname) */
};
#define BSD_FB_NOCPU (-1)
#define BSD_FB_TDF_SINTR 0x8L    /* the sleep is interruptible */
#define BSD_FB_KI_LOCKBLOCK 0x4L /* ki_lockname is valid */

enum bsd_dragonfly_stat {
	BSD_DF_SIDL = 1,
	BSD_DF_SACTIVE,
	BSD_DF_SSTOP,
	BSD_DF_SZOMB,
	BSD_DF_SCORE
};
enum bsd_dragonfly_lwpstat { BSD_DF_LSRUN = 1, BSD_DF_LSSTOP, BSD_DF_LSSLEEP };
#define BSD_DF_LWP_SINTR 0x8L   /* kl_flags: the tsleep is interruptible */
#define BSD_DF_TDF_RUNNING 0x1L /* kl_tdflags: the thread is switched in, on its CPU */
#define BSD_DF_TDF_SINTR 0x40L  /* kl_tdflags: an interruptible LWKT wait */

/*
 * Every thread record in buf (len bytes from kern.proc.pid.PID with
 * threads) to a thread_sample, each passed to cb.  Every record must be
 * whole, of the layout's size (FreeBSD: and say so in ki_structsize),
 * belong to pid, and hold its strings NUL-terminated within their fields;
 * the whole buffer is checked before the first cb, so a refused buffer
 * gives no samples.  cpu_ns is filled (FreeBSD ki_runtime, DragonFly the
 * three tick counters) but neither kernel keeps a run delay, so `have` is
 * 0.  The number of threads (0 for an empty buffer), or -1 with errno
 * EINVAL and a message naming the record and the field.
 */
int bsd_threads_decode(const struct bsd_kinfo_layout *lay, const void *buf, size_t len, pid_t pid,
		       thread_sample_cb cb, void *arg, char *err, size_t errlen);

/*
 * Every process record in buf (kern.proc.proc on FreeBSD, kern.proc.all on
 * DragonFly) as a process's CPU line (platform.h): pid, parent, comm, start
 * (microseconds since the epoch) and CPU time.  DragonFly's kernel threads
 * (pid -1) are left out; a pid repeated in consecutive records is listed
 * once.  *out is malloc'ed (the caller frees it), *n may be 0.  0, or -1
 * with errno (EINVAL and a message for a malformed buffer, ENOMEM).
 */
int bsd_proc_cpu_decode(const struct bsd_kinfo_layout *lay, const void *buf, size_t len,
			struct proc_cpu **out, size_t *n, char *err, size_t errlen);

/*
 * The pids of the process records in buf (kern.proc.proc on FreeBSD,
 * kern.proc.all on DragonFly) whose command name is comm, as the kernel
 * keeps it: a comm longer than the field is compared truncated, as the
 * kernel truncates.  DragonFly's kernel threads (pid -1) never match; a pid
 * repeated in consecutive records is listed once.  *out is malloc'ed (the
 * caller frees it), *n may be 0.  0, or -1 with errno (EINVAL and a message
 * for a malformed buffer or an empty comm, ENOMEM).
 */
int bsd_comm_find(const struct bsd_kinfo_layout *lay, const void *buf, size_t len, const char *comm,
		  pid_t **out, size_t *n, char *err, size_t errlen);

/* --- FreeBSD kern.proc.kstack (procstat -kk's source) ------------------- */

/*
 * kern.proc.kstack.PID answers one struct kinfo_kstack per thread of the
 * process: its tid, a state (KKST_STATE_STACKOK, SWAPPED or RUNNING) and
 * the stack as text, one frame a line, "#0 0xffffffff80bb9f3e at
 * mi_switch+0xbe", NUL-terminated within KKST_MAXLEN bytes (a longer one
 * cut there, mid-line).  Read by offsets as kinfo_proc is; the layout is
 * built in kstack_freebsd.c from the real header.
 */
enum bsd_kstack_field { BSD_KK_TID, BSD_KK_STATE, BSD_KK_TRACE, BSD_KK_NFIELDS };
struct bsd_kstack_layout {
	size_t size; /* sizeof(struct kinfo_kstack): the stride */
	struct bsd_field f[BSD_KK_NFIELDS];
};
#define BSD_FREEBSD14_KSTACK_AMD64_SIZE 1096
#define BSD_FREEBSD14_KSTACK_FIELDS(X) \
	X(TID, kkst_tid, 0, 4)         \
	X(STATE, kkst_state, 4, 4)     \
	X(TRACE, kkst_trace, 8, 1024)
/* <sys/user.h>'s KKST_STATE_*, asserted in kstack_freebsd.c. */
enum bsd_kkst_state { BSD_KKST_STACKOK, BSD_KKST_SWAPPED, BSD_KKST_RUNNING };

/*
 * Thread tid's record in buf (len bytes of kern.proc.kstack) into out: the
 * function names of its frames without offsets, innermost first (a frame
 * with no name, "at ???" or no "at", is its address), KSTACK_RUNNING or
 * KSTACK_SWAPPED with no frames for those states.  A last line cut by the
 * field's size is dropped.  1 when tid was found, 0 when it is not among
 * the records, or -1 with errno EINVAL and a message naming the record and
 * the field: a buffer that is not whole records, a trace not
 * NUL-terminated within its field, a state not one of the three, or a line
 * not of that form.  Every record is checked before any is used.
 */
int bsd_kstack_decode(const struct bsd_kstack_layout *lay, const void *buf, size_t len, pid_t tid,
		      struct kstack *out, char *err, size_t errlen);

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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The platform sampler: raw counters from the OS, with no arithmetic on them.
 * One backend is linked per OS (src/platform/linux_*.c, freebsd.c,
 * dragonfly.c, generic.c); turning raw counters into rates is portable code
 * (delta.h).
 */
#ifndef SCALETOP_PLATFORM_H
#define SCALETOP_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/sample_types.h"

/*
 * Short column names ("usr", "nice", ... "idle"), indexed by enum cpu_state;
 * the system counters' names, indexed by enum sys_counter.
 */
extern const char *const cpu_state_names[CPU_NSTATES];
extern const char *const sys_counter_names[SYS_NCOUNTERS];

void raw_sample_init(struct raw_sample *s);
void raw_sample_free(struct raw_sample *s);
/* Makes room for n CPUs; returns -1 (errno ENOMEM) on failure. */
int raw_sample_reserve(struct raw_sample *s, int n);
/* Deep copy; dst must have been initialised.  Returns -1 on ENOMEM. */
int raw_sample_copy(struct raw_sample *dst, const struct raw_sample *src);
/* The entry for CPU id, or NULL: binary search, since cpu[] is sorted. */
const struct cpu_ticks *raw_sample_find(const struct raw_sample *s, int id);
uint64_t mono_now_ns(void);
/* The calling thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID); 0 where there is none. */
uint64_t self_cpu_ns(void);
/*
 * The calling thread's run delay: its time runnable but off a CPU, in ns,
 * cumulative (Linux: /proc/thread-self/schedstat, kept open, read with
 * pread).  self_sched_open gives the calling thread's descriptor, or -1
 * with errno where the OS does not say (the BSDs and others: ENOSYS; a
 * kernel without schedstats: ENOTSUP); self_run_delay_read reads it, 0 or
 * -1 with errno.  The loop takes it out of the lateness it counts as its own.
 */
int self_sched_open(void);
int self_run_delay_read(int fd, uint64_t *ns);
/*
 * The calling thread at a real-time priority: SCHED_FIFO at prio
 * (self_realtime), or back to the ordinary policy (self_realtime_drop).
 * Linux starts every process and thread the caller creates afterwards at
 * the ordinary policy (SCHED_RESET_ON_FORK); elsewhere a child calls
 * self_realtime_drop itself.  With limit_ns > 0, where the kernel can
 * (Linux's RLIMIT_RTTIME and SIGXCPU) the policy is dropped as soon as the
 * thread has run limit_ns without blocking; self_realtime_drop puts the
 * limit and the signal back as they were.  0, or -1 with errno (EPERM: not
 * privileged; EINVAL: prio out of the OS's range; ENOSYS: no real-time
 * policy here).
 */
int self_realtime(int prio, uint64_t limit_ns);
int self_realtime_drop(void);

/* --- the per-OS backend ------------------------------------------------ */

struct sampler;

/* Opens the OS sources (files, sysctl MIBs).  NULL and a message on failure. */
struct sampler *sampler_open(char *err, size_t errlen);
/* Reads one sample into out (which it may grow).  0, or -1 with a message. */
int sampler_read(struct sampler *s, struct raw_sample *out, char *err, size_t errlen);
/* A note every view must show, e.g. that per-CPU data is unavailable; NULL if none. */
const char *sampler_note(const struct sampler *s);
/* The backend's name and source, e.g. "linux /proc/stat". Static string. */
const char *sampler_source(const struct sampler *s);
void sampler_close(struct sampler *s);

/* --- per-task counters (every thread of one process) ------------------- */

/*
 * Sums the counters of every live thread of pid.  Threads that exited
 * between two reads drop out of the sum, so callers keep their workers alive
 * across a measurement window.  -1 with a message (errno ESRCH: no such pid).
 */
int task_counters_read(pid_t pid, struct task_counters *out, char *err, size_t errlen);

/*
 * The same counters read again and again (a running step's live
 * contention): where the backend can, each process's thread list and its
 * threads' files are kept between readings (Linux); elsewhere a reading is
 * task_counters_read's.  task_reader_read: 0, or -1 with a message (errno
 * ESRCH: no such pid, or it exited), the process then forgotten.  new
 * returns NULL without memory; free closes what the reader keeps.
 */
struct task_reader;
struct task_reader *task_reader_new(void);
int task_reader_read(struct task_reader *r, pid_t pid, struct task_counters *out, char *err,
		     size_t errlen);
void task_reader_free(struct task_reader *r);

/* --- the process table (to find what a workload left behind) ------------ */

/*
 * Every process's parent and group, as a malloc'ed array (*out, *n) the
 * caller frees.  A process that exits during the scan drops out.  Linux
 * /proc, FreeBSD and DragonFly kern.proc (proctable_bsd.c).  -1 with errno
 * ENOSYS on the generic backend, or another errno when the table cannot be
 * read.
 */
int proc_table_read(struct proc_link **out, size_t *n);

/*
 * The table as a malloc'ed array (*out, *n) the caller frees.  A process
 * that exits during the scan drops out.  Linux /proc/PID/stat (one read a
 * process), FreeBSD and DragonFly kern.proc's kinfo_proc.  -1 with errno
 * (ENOSYS on the generic backend).
 */
int proc_cpu_read(struct proc_cpu **out, size_t *n);

/*
 * Makes this process the reaper of its orphaned descendants (on) or stops
 * (off): they are re-parented to it rather than to init, so they stay in its
 * tree to be found and killed.  Linux PR_SET_CHILD_SUBREAPER, FreeBSD and
 * DragonFly procctl(PROC_REAP_ACQUIRE / PROC_REAP_RELEASE).  0, or -1 with
 * errno (ENOSYS where the OS has none).
 */
int proc_reaper(bool on);

/*
 * Asks the kernel to send sig to this process when its parent dies: Linux
 * PR_SET_PDEATHSIG, FreeBSD and DragonFly procctl(PROC_PDEATHSIG_CTL).  0,
 * or -1 with errno (ENOSYS where it cannot; callers check getppid() too).
 */
int proc_parent_death_signal(int sig);

/* --- the system under test (--target): its processes and its threads ---- */

/* Called once per thread read; the sample is the callee's to copy. */
typedef void (*thread_sample_cb)(const struct thread_sample *t, void *arg);

/*
 * Every thread of pid, each passed to cb.  A thread that exits mid-read is
 * skipped: that is normal.  0, or -1 with errno (ESRCH: the process is
 * gone; ENOSYS: this backend cannot read threads).
 */
int thread_samples_read(pid_t pid, thread_sample_cb cb, void *arg);

/*
 * Every process whose command name is comm (Linux /proc/PID/comm, the BSDs'
 * ki_comm), as a malloc'ed array (*out, *n) the caller frees.  0 (perhaps
 * none), or -1 with errno.
 */
int proc_find_comm(const char *comm, pid_t **out, size_t *n);
/* pid's command name (Linux /proc/PID/comm) into out: 0, or -1 with errno (ENOSYS elsewhere). */
int proc_comm(pid_t pid, char *out, size_t len);

/*
 * Part of a process's threads, for a sampler that reads a few each tick and
 * rotates: the threads with tid > after (0: from the first), in ascending
 * tid order, at most max of them, each passed to cb.  *next is the last tid
 * read, or 0 when the list was read to its end.  On Linux a thread's
 * cpu_ns and run_delay_ns (THREAD_HAVE_TIMES) are read only when it is "R",
 * the one state whose split needs them.  0, or -1 with errno as
 * thread_samples_read (ENOSYS: use thread_samples_read).
 */
int thread_samples_read_from(pid_t pid, pid_t after, int max, thread_sample_cb cb, void *arg,
			     pid_t *next);

/*
 * A thread read again and again (the wait sampler), through what the
 * backend keeps between readings: on Linux its open files, read with pread
 * at offset 0, and its last reading, so that a file whose content cannot
 * have changed is not read again (a thread that has not run since still
 * sleeps where it slept).  Each kept file is a row of the backend's table
 * with the condition on which it is read, so another per-thread file is
 * one more row.  The files kept in all are capped below RLIMIT_NOFILE;
 * past the cap a file is opened, read and closed each time.
 */
#define THREAD_FILES 4          /* kept files per thread (Linux: schedstat, stat, wchan, syscall) */
#define THREAD_CALL_CHAN_LEN 24 /* "futex_wait_queue_me" and the like */
struct thread_handle {
	pid_t pid, tid;
	int fd[THREAD_FILES];      /* -1: not open */
	struct thread_sample last; /* the last reading */
	bool have_last;
	bool no_syscall; /* its syscall file was refused (not root, another user's): not tried again
			  */
	bool wchan_named; /* its wchan has named a channel: a "0" there means running */
	bool have_chan;   /* it was read blocked in a channel: chan_hash's, in chan_state */
	uint32_t chan_hash;
	enum thread_state chan_state;
	/*
	 * The futex call it was last read blocked in, from its syscall file
	 * (Linux): the call's number and op, the wait's channel and state.  A
	 * later reading reads that file first (linux_thread_files.c).
	 */
	bool have_call;
	enum thread_state call_state;
	long call_nr;
	uint64_t call_op;
	char call_chan[THREAD_CALL_CHAN_LEN];
};
/* A handle of tid in pid, nothing open yet. */
void thread_handle_init(struct thread_handle *h, pid_t pid, pid_t tid);
/*
 * Reads the thread into *t: 1, or 0 when it is gone (its files are then
 * closed), or -1 with errno (ENOSYS: this backend reads a process's threads
 * in one call, thread_samples_read).  A tid now a new thread's is read
 * afresh and flagged THREAD_HAVE_NEW.
 */
int thread_handle_read(struct thread_handle *h, struct thread_sample *t);
/* Closes what the handle keeps; it may be read again (and reopens). */
void thread_handle_close(struct thread_handle *h);
struct syscall_line;
/*
 * The thread's system call (thread_syscall_read_fd's answer), its file kept
 * in the handle's syscall slot (closed with the others), which
 * thread_handle_read also reads for a thread blocked in another channel
 * than a futex's, and first for a thread known to wait in a futex call:
 * the lock census reads it for futex waiters.  A line the calling
 * thread's last thread_handle_read of h read is handed back once, without
 * a read.  0, or -1 with errno (ENOSYS where the backend keeps no files).
 */
int thread_handle_syscall(struct thread_handle *h, struct syscall_line *out);
/*
 * The tids of pid, ascending, as a malloc'ed array the caller frees.  0, or
 * -1 with errno (ESRCH: gone; ENOSYS: read whole processes instead).
 */
int proc_thread_list(pid_t pid, pid_t **tids, size_t *n);

/*
 * When pid started, in ns on the clock of proc_clock_ns (Linux: since boot),
 * so a pid seen again is known to be the same process or a new one, and a
 * process known to have started after some moment.  0, or -1 with errno
 * (ESRCH: gone; ENOSYS: this backend cannot tell).
 */
int proc_start_ns(pid_t pid, uint64_t *start_ns);
/* Now on proc_start_ns's clock; 0 where there is none. */
uint64_t proc_clock_ns(void);

/* --- cgroup v2 (--target cgroup:PATH): its tasks and its CPU ------------- */

/*
 * The processes of the cgroup v2 group at dir (a path such as
 * /sys/fs/cgroup/unified/x), as a malloc'ed array the caller frees.  0, or
 * -1 with errno (ENOENT: no such group; ENOSYS: not on this OS).
 */
int cgroup_procs_read(const char *dir, pid_t **out, size_t *n);
/* The group's cpu.stat and cpu.pressure; 0 (have says what was there), or -1 with errno. */
int cgroup_cpu_read(const char *dir, struct cgroup_cpu *out);
/*
 * The directory of the group PATH names: an absolute path as it is, a
 * relative one under /sys/fs/cgroup (or, on a hybrid layout, under its
 * unified/ mount).  0 with the directory in out, or -1 with errno (ENOENT: no
 * such group; EINVAL: a directory that is not a cgroup v2 group;
 * ENOSYS: not on this OS).
 */
int cgroup_dir(const char *path, char *out, size_t len);

/* The CPU model string (e.g. from /proc/cpuinfo or hw.model); 0 or -1. */
int platform_cpu_model(char *buf, size_t len);

struct lockprof_entry;
/*
 * The kernel's own lock profile, every class in the kernel's order (Linux
 * /proc/lock_stat, a CONFIG_LOCK_STAT kernel), into *out (malloc'ed; the
 * caller frees it), *n of them.  -1 with errno ENOENT when this kernel
 * keeps none, ENOSYS where scaletop cannot read it yet.
 */
int platform_lock_profile(struct lockprof_entry **out, int *n);

/* --- a blocked thread's kernel stack ------------------------------------ */

/*
 * Thread tid of pid's kernel stack: Linux /proc/PID/task/TID/stack
 * (kstack_text_decode; root only, and never a process the monitor may not
 * trace), FreeBSD sysctl kern.proc.kstack.PID (procstat -kk's source: every
 * thread's struct kinfo_kstack, bsd_kstack_decode picks tid's).  Reading
 * it does not stop the thread.  0 (nframes may be 0, flags say why), or -1
 * with errno (ESRCH: gone; EACCES or EPERM: not permitted, e.g. not root;
 * EINVAL: an answer not understood; ENOSYS: not on this OS, e.g. DragonFly,
 * which has no such sysctl).
 */
int thread_kstack_read(pid_t pid, pid_t tid, struct kstack *out);

/* --- what a thread waits on: its syscall, the lock's memory, the symbols -- */

struct syscall_line;
struct map_list;
struct symtab;

/*
 * A thread's system call (Linux /proc/PID/task/TID/syscall, decoded by
 * syscall_line_decode for the build's arch; decode_proc.h).  Reading it
 * does not stop the thread.  To keep the file open across reads, open it
 * once with thread_syscall_open (an fd, O_CLOEXEC, or -1 with errno) and
 * read it with thread_syscall_read_fd (pread at 0; the caller closes the
 * fd); thread_syscall_read opens, reads and closes.  0, or -1 with errno
 * (ESRCH: gone; EACCES: not ours to read; EINVAL: a line not understood;
 * ENOSYS: not on this OS).
 */
int thread_syscall_open(pid_t pid, pid_t tid);
int thread_syscall_read_fd(int fd, struct syscall_line *out);
int thread_syscall_read(pid_t pid, pid_t tid, struct syscall_line *out);

/*
 * len bytes of pid's memory at addr into buf (Linux process_vm_readv: the
 * process is not stopped).  The bytes read (perhaps fewer, at a mapping's
 * end), or -1 with errno (ESRCH, EPERM, EFAULT: not mapped; ENOSYS).
 */
ssize_t proc_mem_read(pid_t pid, uint64_t addr, void *buf, size_t len);
/* 1 when tid is a thread of pid now, 0 when not, -1 with errno (ENOSYS). */
int proc_has_thread(pid_t pid, pid_t tid);
/* The process thread tid belongs to now (Linux: its status's Tgid), or -1 with errno (ESRCH,
 * ENOSYS). */
pid_t proc_thread_group(pid_t tid);
/*
 * Where this process can open the file pid maps as path: Linux
 * /proc/PID/root/PATH, so a process in another mount namespace (a
 * container) has its own file read, not ours of that name; elsewhere path
 * itself.  Into out (len bytes); 0, or -1 with ENAMETOOLONG.
 */
int proc_object_path(pid_t pid, const char *path, char *out, size_t len);
/* pid's mappings (Linux /proc/PID/maps, maps_decode) into out; 0, or -1 with errno. */
int proc_maps_read(pid_t pid, struct map_list *out);
/*
 * The kernel's symbols (Linux /proc/kallsyms, kallsyms_decode) into out;
 * *hidden is 1 when the kernel printed every address as 0.  0, or -1 with
 * errno (ENOSYS).
 */
int kernel_symbols_read(struct symtab *out, int *hidden);
/* The same, only the symbols that cover the n ascending addresses (kallsyms_decode_for). */
int kernel_symbols_read_for(const uint64_t *addr, size_t n, struct symtab *out, int *hidden);

#endif

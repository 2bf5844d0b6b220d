/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine/: where threads wait.  Every tick of a step (4 Hz by
 * default) the sampler reads threads of the workload's processes and of
 * the target's, and adds to the window's tally (waits.h) the thread-time
 * since each thread was last read, in the state it is in now
 * (thread_wait.h).
 */
#ifndef SCALETOP_ENGINE_WAIT_SAMPLER_H
#define SCALETOP_ENGINE_WAIT_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/census.h"
#include "scaletop/platform.h"
#include "scaletop/thread_wait.h"
#include "scaletop/waits.h"

/*
 * Each process's thread list is kept, and listed again when the processes
 * are found again (once a second), unless a reading since the last listing
 * showed the same thread count in its stat, or at once when a reading shows
 * another count or a thread gone; the hot path lists no directory.  The
 * threads are read in rounds: each round is a fresh random order of every
 * thread, and a tick reads the next part of it, as many as a round of
 * WAIT_SAMPLE_ROUND_NS needs, so a tick's threads are a uniformly random
 * subset and every thread is read once a round.  Since a reading counts the
 * thread's whole time since its last one, its weight is that time, and the
 * shares are unbiased (docs/design-notes.md says with what error).  A tick's
 * reading stops at WAIT_SAMPLE_MAX_CPU_NS whatever is left; the round then
 * just lasts longer.  A backend that reads whole processes (the BSDs) is
 * read a process a tick, in rotation.
 */

struct census;
struct shm_keys;
struct symboliser;
struct kstack_tally;

/* A per-tick cap on the threads read, for tests; the round decides the count. */
#define WAIT_SAMPLE_MAX_THREADS 65536
/*
 * A tick's reading stops once it has taken this much CPU time (1.8% of a
 * 0.25 s tick; checked every WAIT_SAMPLE_CHECK reads), or, as a backstop
 * against a read that blocks, this long on the wall clock; not less, since
 * a monitor preempted by a thousand workers (or a load of 150 on the 2-CPU
 * VM) spends tens of ms of a tick waiting for a CPU.  1024 threads a second are 256 a tick,
 * about 1.4 ms at 5.5 us a thread that ran (stat, schedstat and wchan), far less for sleepers
 * that have not (schedstat alone, 0.44 us).  Among 1024 runnable mutex workers on the 2-CPU VM
 * a reading took some 15 us, and 4 ms a tick read 0.92-0.98 of them a second in
 * bench/target-cost.sh (1.02-1.07 alone): 4.5 ms lets a round's pace (285 a tick) bind there.
 */
#define WAIT_SAMPLE_MAX_CPU_NS 4500000u
#define WAIT_SAMPLE_MAX_NS 100000000u
/*
 * The CPU time is a system call (CLOCK_THREAD_CPUTIME_ID): every 4 reads it
 * was 4.4% of the monitor's CPU among 256 mutex workers; every 16, a tick
 * may overrun the cap by 16 reads, 0.1-0.2 ms.
 */
#define WAIT_SAMPLE_CHECK 16
/* Every thread is read once in this long, time allowing: 1.1 times a second. */
#define WAIT_SAMPLE_ROUND_NS 900000000u
/*
 * The per-tick caps (the CPU time above, the kernel stacks and the census's
 * lines) are for ticks of this period; a longer tick (the TUI's 1 s
 * intervals) gets as much a second, up to WAIT_TICK_SCALE_MAX times the cap.
 */
#define WAIT_TICK_BASE_NS 250000000u
#define WAIT_TICK_SCALE_MAX 4
/*
 * Kernel stacks read a tick and family, at most: 5-8 us each in a loop on
 * the 2-CPU VM (the kernel walks the stack), 19 us on average among 1024
 * mutex workers (the monitor preempted), so at 4 Hz under 0.1 ms of a
 * second whatever the thread count.  4 a tick cost the TUI 4% more CPU
 * among 256 mutex workers (0.355-0.427% of a core against 0.328-0.398, in
 * turns), where each read is an open, a read and a close and the kernel
 * names every frame.
 */
#define WAIT_KSTACK_READS 2
/* Refusals, none read before, that turn a family's kernel stacks off for the sweep. */
#define WAIT_KSTACK_REFUSALS 8
/* A family of at most this many threads is read whole every tick. */
#define WAIT_SAMPLE_MIN_THREADS 8

/* One thread: what the backend keeps to read it, and its mark between readings. */
/*
 * The futex a thread was last seen blocked on (wait_census.c): the blocked
 * time of a later reading that finds it running or runnable is the wait
 * profile's where it was last blocked, and the census's for this lock.
 */
struct ws_census_mem {
	struct syscall_line line;
	struct census_shared where;
	bool have;   /* its last blocked reading was a futex wait whose line was read */
	bool shared; /* where is set */
};

struct ws_thread {
	struct thread_handle h;
	struct thread_mark m;
	struct ws_census_mem cm;
	size_t proc;    /* its process's index in the family's procs */
	unsigned round; /* the round it was last read in (0: never) */
	bool seeded;    /* m holds a reading */
	bool gone;      /* exited or unreadable: not read again until the next listing */
};

/* One process of a family, and how many threads its listing had. */
struct ws_proc {
	pid_t pid;
	int listed;     /* threads listed, the main one included; -1: not listed */
	bool confirmed; /* a reading since the listing showed that count: no need to list again */
	unsigned pass;  /* the finding it was last listed in (0: to be listed) */
};

/* One family's processes, their threads (by pid, tid) and this round's order. */
struct ws_family {
	struct ws_proc *procs;
	size_t nprocs;
	bool skip_main; /* a process's main thread is not read: a built-in step's controller */
	bool relist;    /* list the threads again before the next reading */
	bool whole;     /* the backend reads whole processes: rotate over them */
	unsigned pass;  /* counts the findings of the processes (set_pids) */
	size_t next_proc;
	struct ws_thread *th;
	size_t nth, capth;
	size_t *order; /* this round's order of th */
	size_t pos;    /* the next in order */
	unsigned round;
};

struct wait_sampler {
	struct ws_family fam[2]; /* WAIT_WORKLOAD, WAIT_TARGET */
	bool counting;           /* in a window: the tally gets the time since from_ns */
	uint64_t from_ns;
	int max_threads;       /* per tick and family */
	uint64_t reads, ticks; /* threads read and ticks, for the cost bench and tests */
	uint64_t lists;        /* thread listings made */
	uint64_t last_ns;      /* the last tick */
	uint64_t period_ns;    /* between ticks, as seen; 0: not yet */
	uint64_t worst_ns;     /* the longest a tick's reading took since the reset */
	uint64_t rng;          /* xorshift64* state */
	/*
	 * The lock census of each family in the window (census.h; wait_census.c),
	 * NULL when off: each blocked reading goes to it with the blocked time
	 * it stands for, a futex waiter's with its syscall line.
	 */
	struct census *census[2];
	bool census_fresh[2];      /* a futex waiter was read this tick */
	unsigned census_seen[2];   /* futex waiters met this tick, read or not */
	unsigned census_stride[2]; /* this tick reads every stride-th of them (0: every one) */
	uint64_t census_reads;     /* syscall lines read */
	uint64_t census_ns;        /* their time, and the owners' reads, on the wall clock */
	uint64_t census_worst;     /* the most of it in one tick and family */
	uint64_t census_mark;      /* census_ns at the end of the last family's tick */
	struct symboliser *sym;    /* notes a futex waiter's process when first met; borrowed */
	struct shm_keys *shm;      /* where shared futexes lie (shm_key.h); borrowed */
	/*
	 * The kernel stacks of each tick's first WAIT_KSTACK_READS blocked
	 * readings of a family (kstacks.h; wait_kstack.c), NULL when off.  A
	 * family refused before any was read (EACCES, ENOSYS; EPERM
	 * WAIT_KSTACK_REFUSALS times) is not tried again by this sampler:
	 * kstack_off, kstack_errno say why.
	 */
	struct kstack_tally *kstacks;
	int kstack_tick_reads[2];
	bool kstack_ok[2];  /* a stack of the family has been read */
	bool kstack_off[2]; /* refused before any was read */
	int kstack_refused[2];
	int kstack_errno[2];
	uint64_t kstack_reads, kstack_failed, kstack_ns; /* in the window: stacks, refusals, time */
};

void wait_sampler_init(struct wait_sampler *w);
void wait_sampler_free(struct wait_sampler *w);
/* A new step: no processes, no threads, no files kept. */
void wait_sampler_reset(struct wait_sampler *w);
/*
 * The processes of family f (WAIT_WORKLOAD or WAIT_TARGET), copied; with
 * skip_main, their main threads are left out (a built-in step's child, whose
 * main thread only watches its workers).  0, or -1 (ENOMEM).
 */
int wait_sampler_set_pids(struct wait_sampler *w, enum wait_family f, const pid_t *pids, size_t n,
			  bool skip_main);
/* The window opens (counting from from_ns on) or closes (threads are only marked). */
void wait_sampler_window(struct wait_sampler *w, bool counting, uint64_t from_ns);
/* One tick's reading at now, into t while counting. */
/*
 * A per-tick cap n at the ticks' pace as seen: n at 0.25 s ticks, 4n at 1 s.
 * Here, not in wait_sampler.c: the census and the kernel stacks use it too.
 */
static inline uint64_t
ws_tick_scaled(const struct wait_sampler *w, uint64_t n)
{
	uint64_t p = w->period_ns > WAIT_TICK_BASE_NS ? w->period_ns : WAIT_TICK_BASE_NS;

	if (p > (uint64_t)WAIT_TICK_SCALE_MAX * WAIT_TICK_BASE_NS)
		p = (uint64_t)WAIT_TICK_SCALE_MAX * WAIT_TICK_BASE_NS;
	return (n * p + WAIT_TICK_BASE_NS / 2) / WAIT_TICK_BASE_NS;
}
void wait_sampler_tick(struct wait_sampler *w, struct wait_tally *t, uint64_t now);

/*
 * wait_census.c: one blocked reading of th (family index fi) for weight
 * seconds into the family's census, its syscall line read first when it is
 * a futex wait; and after the family's readings of a tick, the round closed
 * and the owners of the locks waited on read, with their holders' states
 * where the holder was read on this tick.
 */
void ws_census_add(struct wait_sampler *w, int fi, struct ws_thread *th,
		   const struct thread_sample *t, double weight);
void ws_census_tick(struct wait_sampler *w, int fi, uint64_t now);
/*
 * wait_kstack.c: one reading of th (family index fi, family f) that stood
 * for weight seconds of blocked time into the kernel-stack tally, its stack
 * read while the tick's reads last; and the family's tick closed.  Both do
 * nothing while w->kstacks is NULL, and the first nothing unless weight > 0
 * and the thread is blocked now.
 */
void ws_kstack_add(struct wait_sampler *w, int fi, enum wait_family f, struct ws_thread *th,
		   const struct thread_sample *t, double weight);
void ws_kstack_tick(struct wait_sampler *w, int fi, enum wait_family f);

/* wait_list.c: threads ordered by (pid, tid), for qsort and bsearch. */
int ws_thread_cmp(const void *a, const void *b);
/* Room for n threads in v (capacity *cap), first 128 kB (design-notes.md); -1 without memory. */
int ws_reserve(struct ws_thread **v, size_t *cap, size_t n);
/*
 * The family's threads as listed now, by (pid, tid), listing processes
 * until the tick has spent max_cpu from c0 (*more: some are left for the
 * next tick); -1 ENOSYS or ENOMEM.
 */
int ws_list(struct wait_sampler *w, struct ws_family *fam, uint64_t c0, uint64_t max_cpu,
	    struct ws_thread **out, size_t *nout, bool *more);

#endif

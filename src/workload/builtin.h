/*
 * Private to src/workload/: the built-in workload tables (listed by
 * registry.c) and the small inline helpers their worker loops share.
 */
#ifndef SCALETOP_WORKLOAD_BUILTIN_H
#define SCALETOP_WORKLOAD_BUILTIN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "scaletop/workload.h"

extern const struct workload wl_cpu;
extern const struct workload wl_memory;
extern const struct workload wl_mutex;
extern const struct workload wl_spinlock;
extern const struct workload wl_fileio;
extern const struct workload wl_fdshare;
extern const struct workload wl_fdtable;
extern const struct workload wl_unixsock;
extern const struct workload wl_pagefault;

/*
 * The lock workloads' shared state, here so the unit tests can check that
 * the locks exclude: entries is bumped inside the lock without atomics, so
 * it equals the workers' summed ops only if no two were ever inside at once.
 */
struct mutex_shared {
	pthread_mutex_t lock;
	uint64_t data;    /* what the lock protects: the critical section rewrites it */
	uint64_t entries; /* acquisitions */
};

struct spinlock_shared {
	/* The lock words and the data they protect share a line, as in real code. */
	_Alignas(64) atomic_uint flag; /* tas, ttas: 1 while held */
	atomic_uint next;              /* ticket: next ticket to hand out */
	atomic_uint serving;           /* ticket: ticket now allowed in */
	uint64_t data;
	uint64_t entries;
};

/* POSIX.1-2024 spells it MAP_ANONYMOUS; the BSDs and older Linux have MAP_ANON. */
#if !defined(MAP_ANON) && defined(MAP_ANONYMOUS)
#define MAP_ANON MAP_ANONYMOUS
#endif

/* A spin-wait hint, so a spinning hyperthread gives way to its sibling. */
#if defined(__x86_64__) || defined(__i386__)
#define wl_cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__) || defined(__arm__)
#define wl_cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define wl_cpu_relax() ((void)0)
#endif

static inline uint64_t
wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/*
 * n rounds of a multiply-xorshift chain: the unit of "work" for cpu, mutex
 * and spinlock.  Each round needs the previous one, so the compiler can
 * neither fold nor vectorise the loop and a round costs a steady few cycles;
 * callers keep the result and store it at the end so nothing is dead code.
 */
static inline uint64_t
wl_mix(uint64_t x, long long n)
{
	for (long long i = 0; i < n; i++)
		x = (x ^ (x >> 29)) * UINT64_C(0xbf58476d1ce4e5b9) + (uint64_t)i;
	return x;
}

/* xorshift64*: per-worker pseudo-random numbers, seeded from wl_worker.seed. */
static inline uint64_t
wl_random(uint64_t *state)
{
	uint64_t x = *state ? *state : UINT64_C(0x9e3779b97f4a7c15);

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

/*
 * Publishing pace.  A worker publishes its totals every `batch` operations;
 * the batch adapts so that a publish comes every 0.1 to 1 ms whether an
 * operation takes 2 ns or 2 ms.  That keeps the monitor's stall detector fed
 * and bounds how late a worker notices stop, while the clock read and the
 * slot stores stay a negligible share of cheap operations.
 */
#define WL_PACE_MIN_NS 100000
#define WL_PACE_MAX_NS 1000000
#define WL_PACE_TARGET_NS 400000
#define WL_PACE_MAX_BATCH (UINT64_C(1) << 24)

struct wl_pace {
	uint64_t ops;     /* running total, in the workload's unit */
	uint64_t wait_ns; /* lock-wait estimate (WL_LOCK_WAIT workloads) */
	uint64_t busy_ns; /* time the wait estimate covers */
	uint64_t batch;   /* operations between publishes */
	uint64_t left;    /* operations until the next publish */
	uint64_t last_ns; /* time of the last publish */
};

static inline void
wl_pace_init(struct wl_pace *p)
{
	memset(p, 0, sizeof(*p));
	p->batch = p->left = 1;
	p->last_ns = wl_now_ns();
}

/* Publishes the totals and resizes the batch; true when the worker must stop. */
static inline bool
wl_pace_publish(struct wl_pace *p, struct wl_worker *w)
{
	uint64_t now = wl_now_ns(), dt = now - p->last_ns;

	wl_count(w, p->ops, p->wait_ns, p->busy_ns);
	p->last_ns = now;
	if (dt < WL_PACE_MIN_NS && p->batch < WL_PACE_MAX_BATCH)
		p->batch *= 2;
	else if (dt > WL_PACE_MAX_NS) {
		/* Slowed down (contention, a sync write): shrink at once, not by halves. */
		p->batch = p->batch * WL_PACE_TARGET_NS / dt;
		if (p->batch == 0)
			p->batch = 1;
	}
	p->left = p->batch;
	return wl_should_stop(w);
}

/* Counts n more units of work; true when the worker must stop. */
static inline bool
wl_pace_add(struct wl_pace *p, struct wl_worker *w, uint64_t n)
{
	p->ops += n;
	if (--p->left > 0)
		return false;
	return wl_pace_publish(p, w);
}

/*
 * Lock-wait sampling.  Timing every acquisition would cost three clock reads
 * per operation, more than a short critical section; instead about one
 * acquisition in `cur` is timed (wait = the lock call, busy = the whole
 * operation) and stands for the interval before it, so wait/busy estimates
 * the share of time spent waiting.  The interval is drawn at random around
 * `cur` so a periodic hand-off pattern cannot alias with it.
 *
 * cur is the user's period, raised when operations are so short that the
 * timed ones would cost more than 1/WL_LOCKWAIT_BUDGET of the run: three
 * clock reads and some bookkeeping (call it four reads) per interval of cur
 * operations.  The clock's cost is measured at start, the operation's from
 * the samples themselves.  period 0 measures nothing.
 */
#define WL_LOCKWAIT_BUDGET 200 /* timing may take 0.5% of the time */

struct wl_lockwait {
	uint64_t left;     /* acquisitions until the next timed one */
	uint64_t weight;   /* acquisitions the next timed one stands for */
	uint64_t period;   /* the user's mean interval, a floor; 0 = off */
	uint64_t cur;      /* the mean interval in use */
	uint64_t clock_ns; /* cost of one wl_now_ns() */
	uint64_t op_ns;    /* smoothed duration of one operation, 0 until sampled */
	uint64_t rng;
};

static inline void
wl_lockwait_next(struct wl_lockwait *lw)
{
	if (lw->period == 0)
		lw->weight = UINT64_MAX; /* never due, in practice */
	else if (lw->cur == 1)
		lw->weight = 1;
	else
		lw->weight = lw->cur / 2 + wl_random(&lw->rng) % lw->cur;
	lw->left = lw->weight;
}

static inline void
wl_lockwait_init(struct wl_lockwait *lw, long long period, uint64_t seed)
{
	uint64_t t0, t1 = 0;

	memset(lw, 0, sizeof(*lw));
	lw->period = lw->cur = period > 0 ? (uint64_t)period : 0;
	lw->rng = seed ^ UINT64_C(0x6a09e667f3bcc909);
	wl_now_ns(); /* the first read may fault the clock page in */
	t0 = wl_now_ns();
	for (int i = 0; i < 32; i++)
		t1 = wl_now_ns();
	lw->clock_ns = (t1 - t0) / 32 + 1;
	wl_lockwait_next(lw);
}

/* True when this acquisition is the one to time. */
static inline bool
wl_lockwait_due(struct wl_lockwait *lw)
{
	return --lw->left == 0;
}

/*
 * Records a timed operation: started t0, had the lock at t1, finished t2.
 * t1 - t0 also spans about one clock read and t2 - t0 about two, which the
 * untimed operations do not pay, so those are taken off: otherwise an
 * uncontended lock would show the clock's cost as lock wait.
 */
static inline void
wl_lockwait_record(struct wl_lockwait *lw, struct wl_pace *p, uint64_t t0, uint64_t t1, uint64_t t2)
{
	uint64_t c = lw->clock_ns, need;
	uint64_t op = t2 - t0 > 2 * c ? t2 - t0 - 2 * c : 1;
	uint64_t wait = t1 - t0 > c ? t1 - t0 - c : 0;

	if (wait > op)
		wait = op;
	p->wait_ns += wait * lw->weight;
	p->busy_ns += op * lw->weight;
	/* Clamped, so one preempted sample cannot make sampling dense (and dear). */
	if (lw->op_ns == 0)
		lw->op_ns = op;
	else
		lw->op_ns += (op < 2 * lw->op_ns ? op : 2 * lw->op_ns) / 8 - lw->op_ns / 8;
	need = 4 * c * WL_LOCKWAIT_BUDGET / lw->op_ns;
	lw->cur = need > lw->period ? need : lw->period;
	wl_lockwait_next(lw);
}

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/workload/: the small helpers the built-in workloads'
 * worker loops share.  Each workload's table (wl_NAME) is declared by the
 * list in registry.c, the one place a workload is named.
 */
#ifndef SCALETOP_WORKLOAD_BUILTIN_H
#define SCALETOP_WORKLOAD_BUILTIN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "scaletop/lathist.h"
#include "scaletop/workload.h"

/*
 * dir + prefix + i ("/tmp/x/file.3") into buf; -1 if it does not fit.
 * Async-signal-safe, for cleanups on the way out of a signal.
 */
int wl_file_path(char *buf, size_t len, const char *dir, const char *prefix, int i);

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
 * callers pass each result to wl_keep so that none of it is dead code.
 */
static inline uint64_t
wl_mix(uint64_t x, long long n)
{
	long long i;

	for (i = 0; i < n; i++)
		x = (x ^ (x >> 29)) * UINT64_C(0xbf58476d1ce4e5b9) + (uint64_t)i;
	return x;
}

/*
 * wl_keep(v): the compiler must assume v is read and rewritten here, so the
 * work that made it cannot be dropped; it costs no instruction.  Storing the
 * last result in an unread static was not enough: clang -O2 saw the store
 * was dead and removed every round (cpu "did" 20G ops per CPU-second
 * whatever work= said), and FreeBSD's compiler is clang.  wl_keep_mem(p):
 * the same for the memory p points at (memory's copies).
 */
#define wl_keep(v) __asm__ __volatile__("" : "+r,m"(v))
#define wl_keep_mem(p) __asm__ __volatile__("" : : "r"(p) : "memory")

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
	uint64_t ops;       /* running total, in the workload's unit */
	uint64_t wait_ns;   /* time spent waiting for the lock (WL_LOCK_WAIT workloads) */
	uint64_t busy_ns;   /* wall-clock time since start_ns, when wall */
	uint64_t batch;     /* operations between publishes */
	uint64_t left;      /* operations until the next publish */
	uint64_t last_ns;   /* time of the last publish */
	uint64_t start_ns;  /* when the worker started */
	uint64_t lat_t0;    /* when the operation being timed began; 0: none is */
	uint64_t lat_rest;  /* the batch's operations after the timed one */
	uint64_t clock_ns;  /* one wl_now_ns()'s cost, taken off each timed operation */
	unsigned lat_epoch; /* the window w->lat holds */
	bool wall;          /* keep busy_ns (set by wl_lockwait_init) */
};

/* One wl_now_ns()'s cost: the mean of 32, after a first read that may fault the clock page in. */
static inline uint64_t
wl_clock_cost(void)
{
	uint64_t t0, t1 = 0;
	int i;

	wl_now_ns();
	t0 = wl_now_ns();
	for (i = 0; i < 32; i++)
		t1 = wl_now_ns();
	return (t1 - t0) / 32;
}

static inline void
wl_pace_init(struct wl_pace *p)
{
	memset(p, 0, sizeof(*p));
	p->batch = p->left = 1;
	p->clock_ns = wl_clock_cost();
	p->start_ns = p->last_ns = wl_now_ns();
}

/*
 * Latency, one operation a batch: in the window (w->lat_on), the publish
 * ends the batch one operation early, reads the clock, and the next
 * wl_pace_add comes back here when that one operation is done, to record it
 * and finish the batch.  The operations between pay nothing, and which one
 * is timed is set by the count, not by the clock, so a slow one is no more
 * likely to be picked than a fast one.  true: the timed operation was
 * recorded and the batch goes on.
 */
static inline bool
wl_pace_timed(struct wl_pace *p, struct wl_worker *w)
{
	uint64_t d;

	if (p->lat_t0 == 0)
		return false;
	d = wl_now_ns() - p->lat_t0;
	lathist_record(w->lat, d > p->clock_ns ? d - p->clock_ns : 0);
	p->lat_t0 = 0;
	p->left = p->lat_rest;
	return p->left > 0;
}

static inline void
wl_pace_time_next(struct wl_pace *p, struct wl_worker *w)
{
	unsigned epoch;

	if (w->lat == NULL || !atomic_load_explicit(w->lat_on, memory_order_relaxed))
		return;
	if ((epoch = atomic_load_explicit(w->lat_epoch, memory_order_relaxed)) != p->lat_epoch) {
		lathist_clear(w->lat);
		if (w->lat_sync != NULL)
			lathist_clear(w->lat_sync);
		p->lat_epoch = epoch;
	}
	p->lat_rest = p->left - 1;
	p->left = 1;
	p->lat_t0 = wl_now_ns();
}

/*
 * A sync the operation made (fileio's fsync every so many writes), ns long:
 * into the worker's sync histogram while the window is open, and out of the
 * operation's own time when that operation is the one being timed, so a
 * write's latency and an fsync's are kept apart.
 */
static inline void
wl_pace_sync(struct wl_pace *p, struct wl_worker *w, uint64_t ns)
{
	if (w->lat_sync == NULL || !atomic_load_explicit(w->lat_on, memory_order_relaxed))
		return;
	lathist_record(w->lat_sync, ns);
	if (p->lat_t0 != 0)
		p->lat_t0 += ns;
}

/* Publishes the totals and resizes the batch; true when the worker must stop. */
static inline bool
wl_pace_publish(struct wl_pace *p, struct wl_worker *w)
{
	uint64_t now, dt;

	if (wl_pace_timed(p, w))
		return false;
	now = wl_now_ns();
	dt = now - p->last_ns;
	if (p->wall)
		p->busy_ns = now - p->start_ns;
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
	wl_pace_time_next(p, w);
	return wl_should_stop(w);
}

/* The last publish, after the loop: with the wall time up to now. */
static inline void
wl_pace_done(struct wl_pace *p, struct wl_worker *w)
{
	if (p->wall)
		p->busy_ns = wl_now_ns() - p->start_ns;
	wl_count(w, p->ops, p->wait_ns, p->busy_ns);
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
 * Lock wait, measured rather than estimated.  A lock workload first tries
 * the lock untimed; only when that fails does it read the clock, once
 * before waiting (time the waiter would spend spinning or asleep anyway)
 * and once on getting the lock, and add the difference to pace.wait_ns.
 * Uncontended acquisitions cost nothing, and every contended one is timed
 * (or one in `period`, at random intervals so a periodic hand-off cannot
 * alias with it, each standing for the ones skipped).  The denominator is
 * not sampled at all: wl_pace_publish sets busy_ns to the worker's
 * wall-clock time since it started, so wait/busy is the share of the
 * workers' time spent waiting, preempted waiters and holders included.
 * docs/design-notes.md says why the sampled estimate this replaces jumped
 * about once N passed the CPU count.  period 0 measures nothing.
 */
struct wl_lockwait {
	uint64_t left;     /* contended acquisitions until the next timed one */
	uint64_t weight;   /* contended acquisitions the next timed one stands for */
	uint64_t period;   /* the user's mean interval; 0 = off */
	uint64_t clock_ns; /* cost of one wl_now_ns(), taken off each timed wait */
	uint64_t rng;
};

static inline void
wl_lockwait_next(struct wl_lockwait *lw)
{
	if (lw->period == 0)
		lw->weight = UINT64_MAX; /* never due, in practice */
	else if (lw->period == 1)
		lw->weight = 1;
	else
		lw->weight = lw->period / 2 + wl_random(&lw->rng) % lw->period;
	lw->left = lw->weight;
}

/* Also switches the pace's busy_ns to wall-clock time, unless period is 0. */
static inline void
wl_lockwait_init(struct wl_lockwait *lw, struct wl_pace *p, long long period, uint64_t seed)
{
	memset(lw, 0, sizeof(*lw));
	lw->period = period > 0 ? (uint64_t)period : 0;
	lw->rng = seed ^ UINT64_C(0x6a09e667f3bcc909);
	lw->clock_ns = wl_clock_cost();
	wl_lockwait_next(lw);
	p->wall = lw->period > 0;
	p->start_ns = p->last_ns = wl_now_ns();
}

/* On a contended acquisition, before waiting: true when this one is to be timed. */
static inline bool
wl_lockwait_due(struct wl_lockwait *lw)
{
	return --lw->left == 0;
}

/*
 * A timed wait from t0 (first clock read) to t1 (lock held).  t1 - t0 also
 * spans about one clock read, which an untimed wait does not pay.
 */
static inline void
wl_lockwait_record(struct wl_lockwait *lw, struct wl_pace *p, uint64_t t0, uint64_t t1)
{
	uint64_t wait = t1 - t0 > lw->clock_ns ? t1 - t0 - lw->clock_ns : 0;

	p->wait_ns += wait * lw->weight;
	wl_lockwait_next(lw);
}

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-worker counter slots in a MAP_SHARED page.  Each slot has one writer
 * (its worker) and sits on its own 128-byte stretch, so counting never
 * shares a cache line (adjacent-line prefetch pairs 64-byte lines).  The
 * monitor only reads.  A sequence number makes a torn read detectable and a
 * check word makes garbage detectable, so neither is ever reported.
 */
#ifndef SCALETOP_SLOT_H
#define SCALETOP_SLOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SLOT_STRIDE 128
#define SLOT_MAGIC UINT64_C(0x5ca1e70f5ca1e70f)

/*
 * The slot keeps two copies and the writer alternates between them: seq
 * names the latest complete one, so a worker preempted in the middle of an
 * update (common when workers outnumber CPUs) never hides its last total
 * from the monitor, as an odd-while-writing seqlock would.
 */

/* wl_slot.state */
enum slot_state { SLOT_IDLE, SLOT_READY, SLOT_RUNNING, SLOT_DONE, SLOT_FAILED };

/* One complete update. */
struct slot_copy {
	_Atomic uint64_t ops;     /* operations completed */
	_Atomic uint64_t wait_ns; /* lock-wait time (sampled estimate) */
	_Atomic uint64_t busy_ns; /* time covered by the wait sampling, same estimate */
	_Atomic uint64_t check;   /* slot_check() of the fields above */
};

struct wl_slot {
	_Alignas(
		SLOT_STRIDE) _Atomic uint64_t seq; /* updates so far; copy[seq & 1] is the latest */
	struct slot_copy copy[2];
	_Atomic int state; /* enum slot_state, written by the worker */
	_Atomic int error; /* errno when state == SLOT_FAILED */
};

/* A consistent copy of one slot, as the monitor reads it. */
struct slot_view {
	uint64_t ops, wait_ns, busy_ns;
	int state, error;
};

static inline uint64_t
slot_check(uint64_t ops, uint64_t wait_ns, uint64_t busy_ns, int index)
{
	return (ops * UINT64_C(0x9e3779b97f4a7c15)) ^ (wait_ns + busy_ns) ^ SLOT_MAGIC ^
	       (uint64_t)index;
}

/* Writer side: publish new totals.  Cheap: five stores to the worker's own line and a fence. */
static inline void
slot_publish(struct wl_slot *s, int index, uint64_t ops, uint64_t wait_ns, uint64_t busy_ns)
{
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed) + 1;
	struct slot_copy *c = &s->copy[seq & 1];

	/*
	 * c was the latest two updates ago and a reader may still be on it:
	 * the fence makes the previous seq store visible before any of these,
	 * so such a reader sees seq move and retries.
	 */
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&c->ops, ops, memory_order_relaxed);
	atomic_store_explicit(&c->wait_ns, wait_ns, memory_order_relaxed);
	atomic_store_explicit(&c->busy_ns, busy_ns, memory_order_relaxed);
	atomic_store_explicit(&c->check, slot_check(ops, wait_ns, busy_ns, index),
			      memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq, memory_order_release);
}

/*
 * Reader side: a consistent snapshot of the latest complete update, retried
 * a few times while the writer overtakes the reader.  false when no
 * consistent copy could be had or the check word does not match (garbage,
 * or a slot never published): the caller must not use the figures.
 */
static inline bool
slot_read(struct wl_slot *s, int index, struct slot_view *v)
{
	int tries;

	for (tries = 0; tries < 64; tries++) {
		uint64_t s1 = atomic_load_explicit(&s->seq, memory_order_acquire), s2, check;
		struct slot_copy *c = &s->copy[s1 & 1];

		v->ops = atomic_load_explicit(&c->ops, memory_order_relaxed);
		v->wait_ns = atomic_load_explicit(&c->wait_ns, memory_order_relaxed);
		v->busy_ns = atomic_load_explicit(&c->busy_ns, memory_order_relaxed);
		check = atomic_load_explicit(&c->check, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&s->seq, memory_order_relaxed);
		if (s1 != s2)
			continue;
		v->state = atomic_load_explicit(&s->state, memory_order_relaxed);
		v->error = atomic_load_explicit(&s->error, memory_order_relaxed);
		return check == slot_check(v->ops, v->wait_ns, v->busy_ns, index);
	}
	return false;
}

#endif

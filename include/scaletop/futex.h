/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a thread's /proc/PID/task/TID/syscall line says, decoded: the types
 * only, so that the platform's decoder (decode_syscall.c) fills them and the
 * model's lock census (census.h) reads them without either calling the
 * other.
 */
#ifndef SCALETOP_FUTEX_H
#define SCALETOP_FUTEX_H

#include <stdint.h>

/*
 * Which futex call and op a waiter used is decided by the decoder (the
 * syscall numbers are per architecture), so the census only reads the kind
 * and the address.
 */

/* What the line says the thread is doing. */
enum syscall_state {
	SYSCALL_IN,      /* in a system call: nr, arg[], sp and pc are set */
	SYSCALL_RUNNING, /* "running": on a CPU, nothing else is said */
	SYSCALL_NONE     /* "-1 SP PC": blocked, but not in a system call (a fault, a stop) */
};

/*
 * The kind of futex wait, from the call and its op with FUTEX_PRIVATE_FLAG
 * and FUTEX_CLOCK_REALTIME masked off.  glibc's pthread_mutex_lock (and its
 * internal lll_lock) waits with FUTEX_WAIT; pthread_cond_wait, sem_wait,
 * rwlocks and pthread_join wait with FUTEX_WAIT_BITSET; PI mutexes lock with
 * FUTEX_LOCK_PI(2) and keep their owner's TID in the word; futex2 is the
 * futex_wait and futex_waitv calls.
 */
enum futex_kind {
	FUTEX_KIND_NONE,   /* not a futex wait (another call, a wake, a requeue) */
	FUTEX_KIND_MUTEX,  /* FUTEX_WAIT */
	FUTEX_KIND_BITSET, /* FUTEX_WAIT_BITSET: condvars, semaphores, rwlocks */
	FUTEX_KIND_PI,     /* FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_WAIT_REQUEUE_PI */
	FUTEX_KIND_FUTEX2  /* futex_wait, or futex_waitv (futex_vector set) */
};
#define FUTEX_KINDS 5

/* One decoded syscall line.  Plain data: copy it freely. */
struct syscall_line {
	enum syscall_state state;
	long nr;          /* the call's number on the decoding arch; -1 unless SYSCALL_IN */
	uint64_t arg[6];  /* its arguments, SYSCALL_IN only */
	uint64_t sp;      /* user stack pointer (SYSCALL_IN and SYSCALL_NONE) */
	uint64_t pc;      /* user program counter (SYSCALL_IN and SYSCALL_NONE) */
	const char *name; /* the call's name on that arch ("futex", "munmap"), or NULL: static */
	enum futex_kind futex;
	uint64_t futex_addr; /* the futex word; for futex_waitv the address of its vector */
	uint32_t futex_val;  /* the value the waiter expects the word to hold */
	int futex_op;        /* the op with the private and clock flags masked (futex(2) only) */
	int futex_private;   /* FUTEX_PRIVATE_FLAG (futex2: FUTEX2_PRIVATE) was set */
	int futex_vector;    /* futex_waitv: futex_addr is a vector of arg[1] entries */
};

#endif

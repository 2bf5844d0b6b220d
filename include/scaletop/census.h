/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock census: a family's futex waiters grouped into lock objects, one
 * per futex as the kernel keys it, so a step can say "41 of 64 threads waited
 * on one futex", in one process or several.  Pure (model): the caller reads the threads' syscall
 * lines (platform.h), hands each blocked reading in, and later names the locks and reads their
 * owners (lock_census.h, in the engine).
 */
#ifndef SCALETOP_CENSUS_H
#define SCALETOP_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/futex.h"

#define CENSUS_NAME_LEN 160

/*
 * Where a process-shared futex lies, as the kernel keys it: the object
 * mapped shared (its device and inode: a file, shm_open's, SysV's or a
 * MAP_SHARED|MAP_ANONYMOUS region) and the word's offset in it, so that
 * processes mapping it at different addresses wait on one lock.
 */
struct census_shared {
	uint64_t dev, ino, off;
};
/*
 * Feeding it, on the wait sampler's ticks (thread_syscall_read_fd from a
 * kept fd gives the line; census_resolve_waitv first, for futex_waitv):
 *   census_add(c, pid, tid, &line, shared, weight, waiters)   for every blocked reading of
 *       the family, futex or not (line NULL when no syscall line was read;
 *       shared where a futex not private to pid lies, else NULL):
 *       weight is the blocked thread-time the reading stands for, in the
 *       caller's unit; only futex waits make locks, the rest count in the
 *       family's blocked total, which the shares are of.
 *   census_round(c)   after each tick's readings: "at once" is one round.
 * Reading it: census_sort, then census_count and census_lock(c, i).
 *
 * Ownership: the census owns its locks and their thread lists; a pointer
 * from census_lock stays valid until the next census_add, census_sort,
 * census_reset or census_free.  Strings given to census_set_name are
 * copied.
 */

/* Room for why an owner is not known: "TID 123456 is not a thread of 654321". */
#define CENSUS_WHY_LEN 64
/* Distinct threads kept per lock; past it the count stops growing (tids_full set). */
#define CENSUS_TIDS_MAX 65536
/* Distinct processes kept per shared lock; past it the count stops growing (pids_full set). */
#define CENSUS_PIDS_MAX 4096

enum census_owner {
	CENSUS_OWNER_UNREAD, /* not read (not a mutex, or not asked) */
	CENSUS_OWNER_KNOWN,  /* owner is the holder's TID when read */
	CENSUS_OWNER_FREE,   /* released by the time it was read */
	CENSUS_OWNER_UNKNOWN /* not verified: "owner unknown", owner_why says why */
};

struct census_lock {
	/* a private lock's key; a shared lock's latest waiter, whose memory is read */
	pid_t pid;
	uint64_t addr; /* the futex word in pid (futex_waitv: its vector) */
	int shared;    /* keyed by where, not by (pid, addr) */
	struct census_shared where;
	pid_t *pids; /* a shared lock's distinct waiting processes, ascending */
	size_t npids, cappids;
	int pids_full;
	enum futex_kind kind;   /* the latest waiter's */
	unsigned kinds;         /* 1u << kind, of every waiter seen */
	double weight;          /* the waiters' blocked time */
	unsigned long readings; /* waiter readings */
	unsigned max_waiters;   /* most waiters in one round */
	unsigned round_waiters; /* in the round still open */
	unsigned last_waiters;  /* in the round last closed: census_read_owners reads only these */
	pid_t *tids;            /* the distinct waiting threads, ascending */
	size_t ntids, captids;
	int tids_full;
	struct syscall_line last; /* the latest waiter's line (its op and expected value) */
	enum census_owner owner_state;
	pid_t owner;                    /* CENSUS_OWNER_KNOWN: the latest owner read */
	pid_t owner_pid;                /* and its process */
	char owner_why[CENSUS_WHY_LEN]; /* the latest read's reason when it was not KNOWN */
	unsigned long owner_reads;      /* times an owner was read as known */
	pid_t run_tid;                  /* the owner whose state was read with it (0: none) */
	int run_state;                  /* its state then (platform.h's enum thread_state) */
	char name[CENSUS_NAME_LEN];     /* "" until named */
	char comm[16];   /* its process's name, read while it waited; "" until then */
	const char *how; /* how it was named ("symbol", "object", "mapping"...), static */
	/* named by its call site: where it lies ("[heap]+0x40", "zero+0x1000"); else "" */
	char mapping[CENSUS_NAME_LEN];
	/*
	 * Idleness, not contention: its waiters wait for work (a condition
	 * variable's wait, lock_census.h), so it never tops the order.
	 */
	int idle;
};

struct census;

struct census *census_new(void);
void census_free(struct census *c);
/* Forgets every lock and the blocked total: a new step. */
void census_reset(struct census *c);
/*
 * One blocked reading of thread tid of pid, standing for weight of blocked
 * time and for `waiters` waiters in its round (1, or more where only one
 * waiter in so many had its line read: census_add's caller weighs the
 * weight alike).  A futex wait (line->futex != FUTEX_KIND_NONE) counts for
 * its lock, made on first sight: (pid, line->futex_addr)'s, or with shared
 * given the lock at *shared whichever process waits; every reading counts
 * in the blocked total.  waiters 0: blocked time carried to the lock a
 * thread found running was last seen waiting on, which counts in the lock's
 * weight and threads but is no reading of a waiter (readings, last,
 * waiters at once), and in the total alone when the census has no such lock.
 * 0, or -1 with errno ENOMEM (the reading is then counted in the total only).
 */
int census_add(struct census *c, pid_t pid, pid_t tid, const struct syscall_line *line,
	       const struct census_shared *shared, double weight, unsigned waiters);
/*
 * Closes a round: each lock's waiters in it update its max_waiters and are
 * its last_waiters; a round with no futex reading changes nothing.
 */
void census_round(struct census *c);
/* The family's blocked time handed in (futex waits and the rest). */
double census_blocked(const struct census *c);
/*
 * Closes the round, then orders the locks: the contended by weight, the
 * largest first, then the idle ones (census_set_idle) alike.
 */
void census_sort(struct census *c);
size_t census_count(const struct census *c);
const struct census_lock *census_lock(const struct census *c, size_t i);
/* Lock i's share of the family's blocked time, 0 to 1 (0 when nothing was blocked). */
double census_share(const struct census *c, size_t i);
/* Names lock i (copied, cut to CENSUS_NAME_LEN - 1); how is static. */
void census_set_name(struct census *c, size_t i, const char *name, const char *how);
/*
 * Records what was read of lock i's owner (owner, a TID, and owner_pid, its
 * process, ignored unless KNOWN) and, when it is not KNOWN, why (copied;
 * NULL for none).
 */
void census_set_owner(struct census *c, size_t i, enum census_owner st, pid_t owner,
		      pid_t owner_pid, const char *why);
/* Lock i's process is called comm (copied, cut to fit): read while it waited. */
void census_set_comm(struct census *c, size_t i, const char *comm);
/* Lock i is named by its call site; mapping is where it lies (copied). */
void census_set_mapping(struct census *c, size_t i, const char *mapping);
/* Lock i's waiters are idle, not contending (census_sort puts it after the contended). */
void census_set_idle(struct census *c, size_t i, int idle);
/*
 * Lock i's owner tid was read in the state state (an enum thread_state) on
 * the tick its ownership was read: what the lock's holder was doing.
 */
void census_set_owner_run(struct census *c, size_t i, pid_t tid, int state);
/* "known", "free", "unknown", "unread": static. */
const char *census_owner_name(enum census_owner st);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock census's reads (engine): who holds each lock, and what its
 * address is called.  The census itself (census.h) is pure; these two
 * calls make it say "big_lock, held by thread 4711".
 */
#ifndef SCALETOP_LOCK_CENSUS_H
#define SCALETOP_LOCK_CENSUS_H

#include <sys/types.h>

#include "scaletop/census.h"
#include "scaletop/symbols.h"

struct shm_keys;

/*
 *   census_read_owners(c)  right after a round of census_add, while the
 *       waiters still wait: each mutex-like lock waited on in that round
 *       (last_waiters) has its words read from its
 *       process (process_vm_readv) and decoded conservatively
 *       (mutex_owner_decode, decode_proc.h); an owner TID that is not a
 *       thread of that process (a shared lock: of a process that maps its
 *       object) is "unknown", never a guess.
 *   census_name(c, s)  once per step, before the census is shown or kept:
 *       each lock's address through the process's maps and its object's
 *       symbols (symbols.h).
 * Both leave the census's order alone and may be called with any census.
 */

/*
 * Before census_add, for a futex_waitv waiter: its vector's first futex
 * read from pid, so the lock is that futex and not the vector (which is on
 * the waiter's stack).  0 (also when line is no waitv), or -1 with errno
 * when the vector could not be read; the line is then left as it was.
 */
int census_resolve_waitv(pid_t pid, struct syscall_line *line);
/*
 * Reads the owner of every mutex and PI lock waited on in the last round;
 * every other lock is "owner unknown", "not a mutex".  shm (may be NULL:
 * then no shared lock's owner is verified) tells which processes map a
 * shared lock's object.  Returns how many owners are known now.
 */
int census_read_owners(struct census *c, struct shm_keys *shm);
/*
 * Whether thread tid may hold lock l: a thread of l's process, or for a
 * shared lock of any process that maps its object.  1 with *pid set to
 * tid's process, 0, or -1 with errno.  ctx is the caller's.
 */
typedef int (*census_holder_fn)(void *ctx, const struct census_lock *l, pid_t tid, pid_t *pid);
/*
 * Lock l's owner from the n bytes of its word read into buf (n <= 0: the
 * read failed): KNOWN only when holder says the decoded TID may hold it,
 * with *owner_pid its process; else *owner is 0 and why (len bytes) says
 * why: "not a mutex", "the word could not be read", "the word names no
 * owner", "TID 123 is not a thread of 456", "TID 123 is in no process
 * mapping it" (a shared lock), or, FREE, "released before it was read".
 */
enum census_owner census_owner_verify(const struct census_lock *l, const unsigned char *buf,
				      ssize_t n, census_holder_fn holder, void *ctx, pid_t *owner,
				      pid_t *owner_pid, char *why, size_t len);
/* Names every lock not yet named; returns how many were named by a symbol. */
int census_name(struct census *c, struct symboliser *s);
/*
 * After census_name, from the latest waiter's stack: the first word above
 * its SP, in CENSUS_STACK_SCAN bytes, that points into code outside the C
 * library and libstdc++ is the lock's call site.
 *  - A lock that no symbol names (on the heap, in a shared or anonymous
 *    mapping) is named by it, then the kind of memory: "wait_for_tasks (heap)",
 *    "mutex_work (shared memory)" (its function, not the offset, so the
 *    name holds whichever of its call sites the latest waiter used); its mapping's name
 *    ("[heap]+0x24df28") is kept in mapping.  how becomes "stack scan", a
 *    heuristic: without frame pointers a stale return address can be met
 *    first.
 *  - A bitset wait with a condition variable's wait function
 *    (pthread_cond_wait, timedwait, clockwait, cnd_wait,
 *    std::condition_variable) among the frames below the call site is
 *    idle: workers waiting for work, not for a lock someone holds.
 * Only the first CENSUS_SCAN_LOCKS locks in the census's order are scanned
 * (call it after census_sort), so 2000 PostgreSQL semaphores cost 32 reads,
 * not 2000.  Returns how many were named so.
 */
#define CENSUS_STACK_SCAN 2048
#define CENSUS_SCAN_LOCKS 32
int census_name_callers(struct census *c, struct symboliser *s);
/*
 * While the waiters wait (after census_read_owners): up to `most` locks
 * waited on in the last round and not yet looked at are named, scanned as
 * census_name_callers does, and given their process's comm, so that a lock
 * of a command whose processes are gone when the window ends keeps its
 * call site's name and its process's.  Returns how many were looked at.
 */
int census_name_live(struct census *c, struct symboliser *s, int most);

#endif

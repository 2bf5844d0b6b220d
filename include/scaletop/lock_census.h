/*
 * The lock census's reads (engine): who holds each lock, and what its
 * address is called.  The census itself (census.h) is pure; these two
 * calls make it say "big_lock, held by thread 4711".
 *
 *   census_read_owners(c)  right after a round of census_add, while the
 *       waiters still wait: each mutex-like lock waited on in that round
 *       (last_waiters) has its words read from its
 *       process (process_vm_readv) and decoded conservatively
 *       (mutex_owner_decode, decode_proc.h); an owner TID that is not a
 *       thread of that process is "unknown", never a guess.
 *   census_name(c, s)  once per step, before the census is shown or kept:
 *       each lock's address through the process's maps and its object's
 *       symbols (symbols.h).
 * Both leave the census's order alone and may be called with any census.
 */
#ifndef SCALETOP_LOCK_CENSUS_H
#define SCALETOP_LOCK_CENSUS_H

#include "scaletop/census.h"
#include "scaletop/symbols.h"

/*
 * Before census_add, for a futex_waitv waiter: its vector's first futex
 * read from pid, so the lock is that futex and not the vector (which is on
 * the waiter's stack).  0 (also when line is no waitv), or -1 with errno
 * when the vector could not be read; the line is then left as it was.
 */
int census_resolve_waitv(pid_t pid, struct syscall_line *line);
/* Reads the owner of every mutex and PI lock; returns how many owners are known now. */
int census_read_owners(struct census *c);
/* Names every lock not yet named; returns how many were named by a symbol. */
int census_name(struct census *c, struct symboliser *s);
/*
 * After census_name: a lock that no symbol names (on the heap, in a shared
 * or anonymous mapping) is named by where its latest waiter waits from: the
 * first word above its SP, in CENSUS_STACK_SCAN bytes of its stack, that
 * points into code outside the C library ("[heap]+0x40, waited on from
 * mariadbd:trx_commit+0x1d").  A heuristic, so how becomes "stack scan":
 * without frame pointers a stale return address can be met first.  Returns
 * how many were named so.
 */
#define CENSUS_STACK_SCAN 2048
int census_name_callers(struct census *c, struct symboliser *s);

#endif

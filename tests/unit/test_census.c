/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock census (census.c): waiter readings grouped by (process,
 * address), or a shared futex's by where it lies whichever process waits,
 * the blocked total the shares are of, most waiters in one round, distinct
 * threads and processes, kinds, and the order by weight.
 */
#include <string.h>

#include "scaletop/census.h"
#include "../tap.h"

static struct syscall_line
waiter(uint64_t addr, enum futex_kind kind)
{
	struct syscall_line s;

	memset(&s, 0, sizeof s);
	s.state = SYSCALL_IN;
	s.nr = 202;
	s.futex = kind;
	s.futex_addr = addr;
	s.futex_val = 2;
	return s;
}

static const struct census_lock *
find(const struct census *c, pid_t pid, uint64_t addr, size_t *at)
{
	size_t i;

	for (i = 0; i < census_count(c); i++)
		if (census_lock(c, i)->pid == pid && census_lock(c, i)->addr == addr) {
			*at = i;
			return census_lock(c, i);
		}
	return NULL;
}

static void
test_group(void)
{
	struct census *c = census_new();
	struct syscall_line a = waiter(0x1000, FUTEX_KIND_MUTEX),
			    b = waiter(0x2000, FUTEX_KIND_BITSET);
	struct syscall_line sleep, other = waiter(0x1000, FUTEX_KIND_MUTEX);
	const struct census_lock *l;
	size_t i = 0;
	pid_t t;

	memset(&sleep, 0, sizeof sleep);
	sleep.state = SYSCALL_IN;
	sleep.nr = 230;
	/* Round 1: 5 on a, 1 on b, the holder asleep, one thread with no line read. */
	for (t = 101; t <= 105; t++)
		census_add(c, 10, t, &a, NULL, 1.0, 1);
	census_add(c, 10, 200, &b, NULL, 1.0, 1);
	census_add(c, 10, 100, &sleep, NULL, 1.0, 1);
	census_add(c, 10, 300, NULL, NULL, 1.0, 1);
	/* The same address in another process is another lock. */
	census_add(c, 11, 400, &other, NULL, 0.5, 1);
	census_round(c);
	/* Round 2: 3 on a, two of them new threads. */
	census_add(c, 10, 101, &a, NULL, 1.0, 1);
	census_add(c, 10, 106, &a, NULL, 1.0, 1);
	census_add(c, 10, 107, &a, NULL, 1.0, 1);
	census_sort(c);

	is_int((long long)census_count(c), 3, "three locks: (10, a), (10, b), (11, a)");
	is_double(census_blocked(c), 11.5, 1e-9, "the blocked total counts every reading");
	l = census_lock(c, 0);
	ok(l->pid == 10 && l->addr == 0x1000, "the heaviest first");
	is_double(l->weight, 8.0, 1e-9, "a: 8 readings' weight");
	is_int(l->max_waiters, 5, "a: at most 5 at once");
	is_int((long long)l->ntids, 7, "a: 7 distinct threads");
	is_int(l->kind, FUTEX_KIND_MUTEX, "a: a mutex");
	is_double(census_share(c, 0), 8.0 / 11.5, 1e-9, "a: its share of the blocked time");
	l = find(c, 10, 0x2000, &i);
	ok(l != NULL && l->kind == FUTEX_KIND_BITSET && l->max_waiters == 1 && l->ntids == 1,
	   "b: a bitset wait, one waiter");
	l = find(c, 11, 0x1000, &i);
	ok(l != NULL && l->weight == 0.5, "the other process's lock keeps its own weight");
	census_set_name(c, i, "x:big_lock", "symbol");
	census_set_owner(c, i, CENSUS_OWNER_UNKNOWN, 0, 0, "the word names no owner");
	l = census_lock(c, i);
	ok(l->owner_state == CENSUS_OWNER_UNKNOWN && l->owner_reads == 0 &&
		   strcmp(l->owner_why, "the word names no owner") == 0,
	   "an owner not verified keeps why (%s)", l->owner_why);
	census_set_owner(c, i, CENSUS_OWNER_KNOWN, 4711, 10, "ignored");
	l = census_lock(c, i);
	ok(strcmp(l->name, "x:big_lock") == 0 && l->owner == 4711 &&
		   l->owner_state == CENSUS_OWNER_KNOWN && l->owner_reads == 1 &&
		   l->owner_why[0] == '\0',
	   "a name and an owner are kept, with no reason");
	/* Adding after a sort finds the same locks. */
	census_add(c, 10, 108, &a, NULL, 1.0, 1);
	census_sort(c);
	is_int((long long)census_count(c), 3, "an add after a sort finds its lock again");
	is_int((long long)census_lock(c, 0)->ntids, 8, "and counts the new thread");
	census_reset(c);
	ok(census_count(c) == 0 && census_blocked(c) == 0, "reset forgets everything");
	is_double(census_share(c, 0), 0, 0, "no lock, no share");
	census_free(c);
}

static void
test_many(void)
{
	struct census *c = census_new();
	struct syscall_line s;
	size_t i;
	int bad = 0;

	/* PostgreSQL's shape: every backend on its own semaphore. */
	for (i = 0; i < 2000; i++) {
		s = waiter(0x10000 + 64 * (uint64_t)((i * 7919) % 2000), FUTEX_KIND_BITSET);
		census_add(c, 5, (pid_t)(1000 + i), &s, NULL, 1.0, 1);
	}
	census_sort(c);
	is_int((long long)census_count(c), 2000, "2000 addresses, 2000 locks");
	for (i = 0; i < census_count(c); i++)
		bad += census_lock(c, i)->ntids != 1 || census_lock(c, i)->max_waiters != 1;
	is_int(bad, 0, "each with its one waiter");
	census_free(c);
}

/* A tick that read one waiter's line in three: each line stands for three waiters. */
static void
test_thinned(void)
{
	struct census *c = census_new();
	struct syscall_line a = waiter(0x5000, FUTEX_KIND_MUTEX);
	const struct census_lock *l;
	pid_t t;

	for (t = 1; t <= 4; t++)
		census_add(c, 7, t, &a, NULL, 3 * 0.25, 3);
	census_add(c, 7, 9, NULL, NULL, 0.25, 1);
	census_round(c);
	census_add(c, 7, 1, &a, NULL, 0.25, 1);
	census_sort(c);
	l = census_lock(c, 0);
	is_int((long long)l->max_waiters, 12,
	       "4 lines read for 3 waiters each: 12 waiters at once");
	is_int((long long)l->readings, 5, "the readings it rests on are the lines read");
	is_int((long long)l->ntids, 4, "its distinct threads are the ones read");
	ok(census_blocked(c) > 3.49 && census_blocked(c) < 3.51,
	   "the blocked total counts each line's weight as given (%.2f)", census_blocked(c));
	census_free(c);
}

/* An idle lock (a condvar's waiters) sorts after every contended one, whatever its weight. */
static void
test_idle_order(void)
{
	struct census *c = census_new();
	struct syscall_line m = waiter(0x1000, FUTEX_KIND_MUTEX);
	struct syscall_line v = waiter(0x2000, FUTEX_KIND_BITSET);
	const struct census_lock *l;
	size_t i;

	census_add(c, 3, 30, &m, NULL, 1.0, 1);
	census_add(c, 3, 31, &v, NULL, 5.0, 1);
	census_sort(c);
	ok(census_lock(c, 0)->addr == 0x2000, "the heavier first while none is idle");
	l = find(c, 3, 0x2000, &i);
	census_set_idle(c, i, 1);
	census_set_mapping(c, i, "[heap]+0x40");
	census_sort(c);
	l = census_lock(c, 0);
	ok(l->addr == 0x1000 && !l->idle, "an idle lock five times as heavy sorts after the mutex");
	l = census_lock(c, 1);
	ok(l->addr == 0x2000 && l->idle && strcmp(l->mapping, "[heap]+0x40") == 0,
	   "it is kept, idle, with its mapping");
	is_double(census_share(c, 1), 5.0 / 6.0, 1e-9, "and its share of the blocked time");
	census_free(c);
}

/*
 * Three processes map one object at three addresses: one lock, its three
 * processes and four threads, read through the latest waiter; a private
 * futex at the same address in two processes stays two locks.
 */
static void
test_shared(void)
{
	struct census *c = census_new();
	struct census_shared obj = { 0x801, 4242, 0x40 }, other = { 0x801, 4242, 0x80 };
	struct syscall_line a = waiter(0x7f0000000040, FUTEX_KIND_MUTEX),
			    b = waiter(0x7f1000000040, FUTEX_KIND_MUTEX),
			    d = waiter(0x7f2000000040, FUTEX_KIND_MUTEX),
			    p = waiter(0x5000, FUTEX_KIND_MUTEX);
	const struct census_lock *l;
	size_t i;

	census_add(c, 100, 101, &a, &obj, 1.0, 1);
	census_add(c, 200, 201, &b, &obj, 1.0, 1);
	census_add(c, 200, 202, &b, &obj, 1.0, 1);
	census_round(c);
	census_add(c, 300, 301, &d, &obj, 1.0, 1);
	census_add(c, 300, 302, &a, &other, 0.5, 1);
	census_add(c, 100, 102, &p, NULL, 0.25, 1);
	census_add(c, 200, 203, &p, NULL, 0.25, 1);
	census_sort(c);
	is_int((long long)census_count(c), 4,
	       "shared: one lock for the object's word, one for "
	       "its other word, two private ones");
	l = census_lock(c, 0);
	ok(l->shared && l->where.ino == 4242 && l->where.off == 0x40,
	   "shared: the heaviest lock is the object's word");
	ok(l->weight == 4.0 && l->ntids == 4 && l->npids == 3,
	   "shared: the three processes' four threads count for it (weight %g, %zu threads, "
	   "%zu processes)",
	   l->weight, l->ntids, l->npids);
	is_int(l->max_waiters, 3, "shared: three waited at once, in two processes");
	ok(l->pid == 300 && l->addr == 0x7f2000000040,
	   "shared: read through its latest waiter, at that process's address");
	is_double(census_share(c, 0), 4.0 / 5.0, 1e-12, "shared: its share of the blocked total");
	for (i = 1; i < census_count(c); i++) {
		l = census_lock(c, i);
		ok(l->shared ? l->where.off == 0x80 && l->npids == 1
			     : l->addr == 0x5000 && l->npids == 0 && l->ntids == 1,
		   "shared: lock %zu is %s", i, l->shared ? "the other word" : "a private one");
	}
	census_free(c);
}

/*
 * Blocked time carried to the lock a running thread last waited on: weight
 * and threads, no reading, no waiter at once; none made for a lock unseen.
 */
static void
test_carry(void)
{
	struct census *c = census_new();
	struct syscall_line a = waiter(0x1000, FUTEX_KIND_MUTEX),
			    unseen = waiter(0x9000, FUTEX_KIND_MUTEX);
	const struct census_lock *l;
	size_t i = 0;

	census_add(c, 10, 100, &a, NULL, 1.0, 1);
	census_round(c);
	census_add(c, 10, 101, &a, NULL, 0.5, 0);
	census_add(c, 10, 102, &unseen, NULL, 0.25, 0);
	census_sort(c);
	is_int((long long)census_count(c), 1, "carry: no lock made for one never seen waited on");
	l = find(c, 10, 0x1000, &i);
	ok(l != NULL && l->weight == 1.5 && l->readings == 1 && l->ntids == 2,
	   "carry: weight and thread counted, no reading");
	ok(l != NULL && l->max_waiters == 1 && l->last_waiters == 1,
	   "carry: no waiter at once added");
	is_double(census_blocked(c), 1.75, 1e-12, "carry: every carried time is in the total");
	census_free(c);
}

int
main(void)
{
	test_group();
	test_carry();
	test_shared();
	test_idle_order();
	test_many();
	test_thinned();
	return done_testing();
}

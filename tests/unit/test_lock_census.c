/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The census end to end on Linux (census.c, lock_census.c, symbols.c,
 * linux_introspect.c): tests/unit/lock_holders makes threads wait on a
 * global mutex, condvar or semaphore; each of its threads' syscall lines is
 * read and decoded, the waiters grouped, the lock named through the
 * program's maps and .symtab, and the mutex's owner read from its memory.
 * The threads take a moment to block on a busy machine, so each case reads
 * until the waiters are all there, a bounded number of tries, each logged.
 * It also prints the cost of each read, as figures (never asserted).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/census.h"
#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "scaletop/symbols.h"
#include "../../src/engine/lock_census.h"
#include "../tap.h"

#define TRIES 200
#define TRY_MS 25

static char holders[4096];

struct subject {
	pid_t pid;
	FILE *out;
	long holder; /* the mutex case's holder TID, from its "holder TID" line */
	int ready;
	long threads; /* from "ready N" */
};

static int
subject_start(struct subject *s, const char *mode)
{
	int fd[2];
	char line[128];
	long v;

	memset(s, 0, sizeof *s);
	if (pipe(fd) < 0)
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(holders, holders, mode, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	s->out = fdopen(fd[0], "r");
	/* "ready N", and in the mutex case "holder TID", in either order. */
	while (fgets(line, sizeof line, s->out) != NULL) {
		if (sscanf(line, "holder %ld", &v) == 1)
			s->holder = v;
		if (sscanf(line, "ready %ld", &v) == 1) {
			s->ready = 1;
			s->threads = v;
		}
		if (s->ready && ((strcmp(mode, "mutex") != 0 && strcmp(mode, "heap") != 0 &&
				  strcmp(mode, "shared") != 0) ||
				 s->holder != 0))
			return 0;
	}
	return -1;
}

static void
subject_stop(struct subject *s)
{
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	if (s->out != NULL)
		fclose(s->out);
}

/*
 * One round: every thread's syscall line into c; the number of threads
 * read, and in *running those on a CPU (left out of the census).
 */
static int
census_round_of(struct census *c, pid_t pid, int *running)
{
	char path[64];
	struct syscall_line line;
	struct dirent *d;
	DIR *dir;
	int n = 0;

	census_reset(c);
	*running = 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (dir == NULL)
		return -1;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		if (thread_syscall_read(pid, (pid_t)atoi(d->d_name), &line) < 0)
			continue;
		n++;
		if (line.state == SYSCALL_RUNNING) {
			(*running)++;
			continue;
		}
		census_resolve_waitv(pid, &line);
		census_add(c, pid, (pid_t)atoi(d->d_name), &line, NULL, 1.0, 1);
	}
	closedir(dir);
	census_round(c);
	census_sort(c);
	return n;
}

/*
 * Reads rounds until the top lock has want waiters and no thread is on a
 * CPU (the holder may still be printing); the tries it took, or -1.
 */
static int
census_until(struct census *c, pid_t pid, unsigned want)
{
	const struct census_lock *l;
	unsigned got, last = ~0u;
	int i, n, running, last_running = -1;

	for (i = 1; i <= TRIES; i++) {
		n = census_round_of(c, pid, &running);
		l = census_lock(c, 0);
		got = l != NULL ? l->max_waiters : 0;
		if (got == want && running == 0)
			return i;
		if (got != last || running != last_running)
			diag("try %d: %d threads read, %d on a CPU, %u waiting on one lock, want "
			     "%u",
			     i, n, running, got, want);
		last = got;
		last_running = running;
		sleep_ms(TRY_MS);
	}
	return -1;
}

static void
test_mutex(struct symboliser *sym)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, "mutex") < 0) {
		ok(0, "mutex: lock_holders started (%s)", strerror(errno));
		return;
	}
	tries = census_until(c, s.pid, 7);
	ok(tries > 0, "mutex: 7 threads wait on one lock (after %d tries)", tries);
	census_read_owners(c, NULL);
	census_name(c, sym);
	l = census_lock(c, 0);
	if (l == NULL) {
		ok(0, "mutex: a lock was found");
	} else {
		is_str(l->name, "lock_holders:big_lock", "mutex: named big_lock");
		is_str(l->how, "symbol", "mutex: by its symbol");
		is_str(futex_kind_name(l->kind), "mutex", "mutex: FUTEX_WAIT, the mutex kind");
		is_int(l->max_waiters, 7, "mutex: 7 waiters at once");
		is_int((long long)l->ntids, 7, "mutex: 7 distinct threads");
		is_str(census_owner_name(l->owner_state), "known", "mutex: its owner is known");
		is_int(l->owner, s.holder, "mutex: the owner is the thread that printed holder");
		/* 9 threads, all blocked: 7 on the lock, the holder asleep, main in pause(). */
		is_double(census_share(c, 0), 7.0 / 9.0, 1e-9, "mutex: 7 of 9 blocked threads");
		diag("mutex: %s, %s, %u waiters, held by %d", l->name, futex_kind_name(l->kind),
		     l->max_waiters, (int)l->owner);
	}
	subject_stop(&s);
	census_free(c);
}

static void
test_waiters(struct symboliser *sym, const char *mode, const char *prefix)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, mode) < 0) {
		ok(0, "%s: lock_holders started (%s)", mode, strerror(errno));
		return;
	}
	tries = census_until(c, s.pid, 4);
	ok(tries > 0, "%s: 4 threads wait on one futex (after %d tries)", mode, tries);
	census_read_owners(c, NULL);
	census_name(c, sym);
	l = census_lock(c, 0);
	ok(l != NULL && strncmp(l->name, prefix, strlen(prefix)) == 0, "%s: named %s... (%s)", mode,
	   prefix, l != NULL ? l->name : "no lock");
	ok(l != NULL && l->kind == FUTEX_KIND_BITSET, "%s: FUTEX_WAIT_BITSET, the bitset kind (%s)",
	   mode, l != NULL ? futex_kind_name(l->kind) : "no lock");
	ok(l != NULL && l->owner_state == CENSUS_OWNER_UNKNOWN, "%s: owner unknown, not guessed",
	   mode);
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

/* A heap lock: no symbol names it, its waiters' stacks say where it is waited on. */
static void
test_heap(struct symboliser *sym)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, "heap") < 0) {
		ok(0, "heap: lock_holders started (%s)", strerror(errno));
		census_free(c);
		return;
	}
	tries = census_until(c, s.pid, 7);
	ok(tries > 0, "heap: 7 threads wait on one lock (after %d tries)", tries);
	census_read_owners(c, NULL);
	census_name(c, sym);
	l = census_lock(c, 0);
	/* malloc's own mapping: [heap], or an anonymous one (a sanitizer's allocator) */
	ok(l != NULL &&
		   (strncmp(l->name, "[heap]+0x", 9) == 0 || strncmp(l->name, "[anon:", 6) == 0) &&
		   strcmp(l->how, "mapping") == 0,
	   "heap: named by its mapping (%s)", l != NULL ? l->name : "no lock");
	ok(l != NULL && l->owner_state == CENSUS_OWNER_KNOWN && l->owner == s.holder,
	   "heap: its owner is the holder, as for a global");
	is_int(census_name_callers(c, sym), 1, "heap: one lock named by its waiters' stack");
	l = census_lock(c, 0);
	ok(l != NULL &&
		   (strcmp(l->name, "heap_contend (heap)") == 0 ||
		    strcmp(l->name, "heap_contend (anonymous memory)") == 0) &&
		   strcmp(l->how, "stack scan") == 0,
	   "heap: named first by its call site heap_contend, then the heap (%s)",
	   l != NULL ? l->name : "");
	ok(l != NULL && (strncmp(l->mapping, "[heap]+0x", 9) == 0 ||
			 strncmp(l->mapping, "[anon:", 6) == 0),
	   "heap: its mapping kept apart (%s)", l != NULL ? l->mapping : "");
	ok(l != NULL && !l->idle, "heap: a mutex's waiters are contention, not idle");
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

/* A process-shared mutex in MAP_SHARED memory: named by its call site, then "shared memory". */
static void
test_shared(struct symboliser *sym)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, "shared") < 0) {
		ok(0, "shared: lock_holders started (%s)", strerror(errno));
		census_free(c);
		return;
	}
	tries = census_until(c, s.pid, 7);
	ok(tries > 0, "shared: 7 threads wait on one lock (after %d tries)", tries);
	census_read_owners(c, NULL);
	census_name(c, sym);
	census_name_callers(c, sym);
	l = census_lock(c, 0);
	ok(l != NULL && strcmp(l->name, "shared_contend (shared memory)") == 0,
	   "shared: named shared_contend (shared memory) (%s)", l != NULL ? l->name : "");
	ok(l != NULL && l->mapping[0] != '\0', "shared: its mapping kept apart (%s)",
	   l != NULL ? l->mapping : "");
	ok(l != NULL && l->owner_state == CENSUS_OWNER_KNOWN && l->owner == s.holder,
	   "shared: its owner is the holder (%d, want %ld)", l != NULL ? (int)l->owner : 0,
	   s.holder);
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

/* A condvar's waiters: idle, not contention; a semaphore's are not a condvar's. */
static void
test_idle(struct symboliser *sym, const char *mode, int want_idle)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, mode) < 0) {
		ok(0, "%s: lock_holders started (%s)", mode, strerror(errno));
		census_free(c);
		return;
	}
	tries = census_until(c, s.pid, 4);
	ok(tries > 0, "%s: 4 threads wait (after %d tries)", mode, tries);
	census_name(c, sym);
	census_name_callers(c, sym);
	l = census_lock(c, 0);
	ok(l != NULL && (l->idle != 0) == want_idle, "%s: %s (%s)", mode,
	   want_idle ? "idle: a condition variable's waiters" : "not idle",
	   l != NULL ? l->name : "no lock");
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

static int
has_thread_no(void *ctx, const struct census_lock *l, pid_t tid, pid_t *pid)
{
	(void)ctx;
	(void)l;
	(void)tid;
	(void)pid;
	return 0;
}

/* 4711 is a thread of 4700; a shared lock's object is mapped by 4800, whose thread 4811 is. */
static int
has_thread_4711(void *ctx, const struct census_lock *l, pid_t tid, pid_t *pid)
{
	(void)ctx;
	if (l->shared && tid == 4811) {
		*pid = 4800;
		return 1;
	}
	*pid = l->pid;
	return !l->shared && l->pid == 4700 && tid == 4711;
}

/* A shared lock's holder may be a thread of another process that maps it, never of none. */
static void
test_verify_shared(struct census_lock *l, unsigned char *m)
{
	char why[CENSUS_WHY_LEN];
	uint32_t w = 2;
	int32_t tid = 4811;
	pid_t owner, owner_pid;

	l->shared = 1;
	l->kind = l->last.futex = FUTEX_KIND_MUTEX;
	memcpy(m, &w, 4);
	memcpy(m + MUTEX_OWNER_OFFSET, &tid, 4);
	is_int(census_owner_verify(l, m, MUTEX_WORDS, has_thread_4711, NULL, &owner, &owner_pid,
				   why, sizeof why),
	       CENSUS_OWNER_KNOWN, "verify shared: a thread of another process mapping it owns it");
	ok(owner == 4811 && owner_pid == 4800, "verify shared: its TID and its process (%d of %d)",
	   (int)owner, (int)owner_pid);
	tid = 4711; /* a thread of the waiter's own process, which this predicate says maps nothing
		     */
	memcpy(m + MUTEX_OWNER_OFFSET, &tid, 4);
	is_int(census_owner_verify(l, m, MUTEX_WORDS, has_thread_4711, NULL, &owner, &owner_pid,
				   why, sizeof why),
	       CENSUS_OWNER_UNKNOWN, "verify shared: a TID in no process mapping it is unknown");
	is_str(why, "TID 4711 is in no process mapping it", "verify shared: and says so");
	ok(owner == 0 && owner_pid == 0, "verify shared: no owner and no process given");
	l->shared = 0;
}

/* The owner's checks without a live process: the word bytes and a has-thread predicate given. */
static void
test_verify(void)
{
	struct census_lock l;
	unsigned char m[MUTEX_WORDS];
	char why[CENSUS_WHY_LEN];
	uint32_t w = 2;
	int32_t tid = 4711;
	pid_t owner, owner_pid;

	memset(&l, 0, sizeof l);
	l.pid = 4700;
	l.kind = l.last.futex = FUTEX_KIND_MUTEX;
	l.last.state = SYSCALL_IN;
	l.last.futex_val = 2;
	memset(m, 0, sizeof m);
	memcpy(m, &w, 4);
	memcpy(m + MUTEX_OWNER_OFFSET, &tid, 4);
	is_int(census_owner_verify(&l, m, sizeof m, has_thread_4711, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_KNOWN, "verify: a thread of the process is the owner");
	is_int(owner, 4711, "verify: its TID");
	is_int(census_owner_verify(&l, m, sizeof m, has_thread_no, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_UNKNOWN, "verify: a TID that is no thread of the process is unknown");
	is_str(why, "TID 4711 is not a thread of 4700", "verify: and says so");
	is_int(owner, 0, "verify: no owner is given");
	w = 1;
	memcpy(m, &w, 4);
	is_int(census_owner_verify(&l, m, sizeof m, has_thread_4711, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_KNOWN, "verify: a word of 1 (locked, no waiters) names its owner");
	is_int(census_owner_verify(&l, m, -1, has_thread_4711, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_UNKNOWN, "verify: a word not read is unknown");
	is_str(why, "the word could not be read", "verify: and says so");
	w = 7;
	memcpy(m, &w, 4);
	census_owner_verify(&l, m, sizeof m, has_thread_4711, NULL, &owner, &owner_pid, why,
			    sizeof why);
	is_str(why, "the word names no owner", "verify: a word not glibc's names no owner");
	l.kind = l.last.futex = FUTEX_KIND_PI;
	w = 0x40000000u | 4711; /* OWNER_DIED | tid */
	memcpy(m, &w, 4);
	is_int(census_owner_verify(&l, m, 4, has_thread_4711, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_KNOWN, "verify: a PI word with OWNER_DIED still names its TID");
	is_int(owner, 4711, "verify: OWNER_DIED's TID");
	l.kind = l.last.futex = FUTEX_KIND_BITSET;
	is_int(census_owner_verify(&l, m, 4, has_thread_4711, NULL, &owner, &owner_pid, why,
				   sizeof why),
	       CENSUS_OWNER_UNKNOWN, "verify: a bitset wait has no owner");
	is_str(why, "not a mutex", "verify: not a mutex");
	test_verify_shared(&l, m);
}

/* futex2: without census_resolve_waitv each waiter's vector, on its own stack, would be a lock. */
static void
test_waitv(struct symboliser *sym)
{
	struct census *c = census_new();
	const struct census_lock *l;
	struct subject s;
	int tries;

	if (subject_start(&s, "waitv") < 0) {
		ok(0, "waitv: lock_holders started (%s)", strerror(errno));
		census_free(c);
		return;
	}
	if (s.threads == 0) {
		skip("this kernel has no futex_waitv", "waitv: 4 threads on waitv_word");
		subject_stop(&s);
		census_free(c);
		return;
	}
	tries = census_until(c, s.pid, 4);
	ok(tries > 0, "waitv: 4 threads wait on one futex through their vectors (after %d tries)",
	   tries);
	census_name(c, sym);
	l = census_lock(c, 0);
	ok(l != NULL && strcmp(l->name, "lock_holders:waitv_word") == 0,
	   "waitv: named waitv_word (%s)", l != NULL ? l->name : "no lock");
	ok(l != NULL && l->kind == FUTEX_KIND_FUTEX2 && l->last.futex_vector,
	   "waitv: the futex2 kind, from a vector");
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The figures: the cost of a syscall line, a process_vm_readv, a symbol lookup. */
static void
test_costs(struct symboliser *sym)
{
	struct census *c = census_new();
	struct syscall_line line;
	struct sym_answer a;
	struct sym_stats st;
	unsigned char buf[MUTEX_WORDS];
	struct subject s;
	double t0, t_open = 0, t_fd = 0, t_mem, t_mem2, t_sym;
	char name[CENSUS_NAME_LEN];
	int i, r, fd, n = 1000, rounds = 6, bad = 0;
	pid_t tid;

	if (subject_start(&s, "cond") < 0 || census_until(c, s.pid, 4) < 0) {
		ok(0, "costs: lock_holders's 4 waiters");
		return;
	}
	tid = census_lock(c, 0)->tids[0]; /* a waiter, in futex */
	fd = thread_syscall_open(s.pid, tid);
	for (r = 0; r < rounds; r++) { /* alternated, so the machine's load falls on both */
		t0 = now_us();
		for (i = 0; i < n; i++)
			bad += thread_syscall_read(s.pid, tid, &line) < 0;
		t_open += now_us() - t0;
		t0 = now_us();
		for (i = 0; i < n; i++)
			bad += thread_syscall_read_fd(fd, &line) < 0;
		t_fd += now_us() - t0;
	}
	close(fd);
	t0 = now_us();
	for (i = 0; i < n; i++)
		bad += proc_mem_read(s.pid, line.futex_addr, buf, sizeof buf) !=
		       (ssize_t)sizeof buf;
	t_mem = (now_us() - t0) / n;
	t0 = now_us();
	sym_user(sym, s.pid, line.futex_addr, &a); /* reads the process's maps */
	t_sym = now_us() - t0;
	t0 = now_us();
	sym_user(sym, s.pid, line.pc, &a); /* reads libc's symbols */
	t_mem2 = now_us() - t0;
	diag("cost: the first lookup in a process (its maps) %.0f us, the first in libc (its "
	     "ELF; the waiter's PC is %s) %.0f us",
	     t_sym, sym_format(&a, name, sizeof name), t_mem2);
	t0 = now_us();
	for (i = 0; i < n; i++)
		bad += sym_user(sym, s.pid, line.pc + (uint64_t)(i % 64), &a) < 0;
	t_sym = (now_us() - t0) / n;
	sym_get_stats(sym, &st);
	diag("cost: the symboliser holds %zu symbols of %lu objects (%lu from debug files) after "
	     "%lu maps reads",
	     st.symbols, st.elf_loads, st.debug_files, st.maps_reads);
	is_int(bad, 0, "costs: every read succeeded");
	diag("cost: a waiter's syscall line open+read+close %.2f us, from a kept fd %.2f us; "
	     "process_vm_readv of 12 bytes %.2f us; a cached symbol lookup %.3f us",
	     t_open / (rounds * n), t_fd / (rounds * n), t_mem, t_sym);
	subject_stop(&s);
	sym_forget(sym, s.pid);
	census_free(c);
}

int
main(int argc, char **argv)
{
	struct symboliser *sym = sym_new();
	const char *slash = strrchr(argv[0], '/');

	(void)argc;
	snprintf(holders, sizeof holders, "%.*slock_holders",
		 slash != NULL ? (int)(slash - argv[0] + 1) : 0, argv[0]);
	test_verify();
	test_mutex(sym);
	test_waiters(sym, "cond", "lock_holders:big_cond+0x");
	test_idle(sym, "cond", 1);
	test_idle(sym, "sem", 0);
	test_shared(sym);
	test_waiters(sym, "sem", "lock_holders:big_sem");
	test_waitv(sym);
	test_heap(sym);
	test_costs(sym);
	sym_free(sym);
	return done_testing();
}

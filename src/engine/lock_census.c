/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock census's OS side (lock_census.h): owners read from the waiters'
 * process while they wait, names from the symboliser.  Kept out of the
 * census (model, pure) and out of the platform (which knows no census).
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "scaletop/platform.h"
#include "lock_census.h"
#include "shm_key.h"

enum census_owner
census_owner_verify(const struct census_lock *l, const unsigned char *buf, ssize_t n,
		    census_holder_fn holder, void *ctx, pid_t *owner, pid_t *owner_pid, char *why,
		    size_t len)
{
	*owner = *owner_pid = 0;
	snprintf(why, len, "%s", "");
	if (l->kind != FUTEX_KIND_MUTEX && l->kind != FUTEX_KIND_PI) {
		snprintf(why, len, "not a mutex");
		return CENSUS_OWNER_UNKNOWN;
	}
	if (n <= 0) {
		snprintf(why, len, "the word could not be read");
		return CENSUS_OWNER_UNKNOWN;
	}
	switch (mutex_owner_decode(&l->last, buf, (size_t)n, owner)) {
	case MUTEX_OWNER_KNOWN:
		if (holder(ctx, l, *owner, owner_pid) == 1)
			return CENSUS_OWNER_KNOWN;
		if (l->shared)
			snprintf(why, len, "TID %d is in no process mapping it", (int)*owner);
		else
			snprintf(why, len, "TID %d is not a thread of %d", (int)*owner,
				 (int)l->pid);
		*owner = *owner_pid = 0;
		return CENSUS_OWNER_UNKNOWN;
	case MUTEX_OWNER_FREE:
		snprintf(why, len, "released before it was read");
		return CENSUS_OWNER_FREE;
	default:
		snprintf(why, len, "the word names no owner");
		return CENSUS_OWNER_UNKNOWN;
	}
}

int
census_resolve_waitv(pid_t pid, struct syscall_line *line)
{
	unsigned char buf[FUTEX_WAITV_ENTRY];
	ssize_t n;

	if (line->futex != FUTEX_KIND_FUTEX2 || !line->futex_vector)
		return 0;
	n = proc_mem_read(pid, line->futex_addr, buf, sizeof buf);
	if (n < 0)
		return -1;
	return futex_waitv_first(line, buf, (size_t)n);
}

/*
 * census_holder_fn of a live process: a private lock's holder is a thread of
 * its process; a shared lock's is a thread of any process that maps its
 * object now (ctx, the step's shm_keys), the waiters' or another's.
 */
static int
live_holder(void *ctx, const struct census_lock *l, pid_t tid, pid_t *pid)
{
	pid_t tg;

	if (!l->shared) {
		*pid = l->pid;
		return proc_has_thread(l->pid, tid);
	}
	if (ctx == NULL || (tg = proc_thread_group(tid)) <= 0)
		return ctx == NULL ? 0 : -1;
	*pid = tg;
	return shm_keys_maps(ctx, tg, &l->where);
}

int
census_read_owners(struct census *c, struct shm_keys *shm)
{
	const struct census_lock *l;
	unsigned char buf[MUTEX_WORDS];
	char why[CENSUS_WHY_LEN];
	enum census_owner st;
	ssize_t n = 0;
	pid_t owner, owner_pid;
	size_t i;
	int known = 0;

	for (i = 0; i < census_count(c); i++) {
		l = census_lock(c, i);
		if (l->last_waiters == 0 &&
		    (l->kind == FUTEX_KIND_MUTEX || l->kind == FUTEX_KIND_PI))
			continue; /* none waits now: its word says nothing of this lock's waiters */
		if (l->kind == FUTEX_KIND_MUTEX || l->kind == FUTEX_KIND_PI)
			n = proc_mem_read(l->pid, l->addr, buf, sizeof buf);
		st = census_owner_verify(l, buf, n, live_holder, shm, &owner, &owner_pid, why,
					 sizeof why);
		census_set_owner(c, i, st, owner, owner_pid, why);
		known += st == CENSUS_OWNER_KNOWN;
	}
	return known;
}

static const char *
how_name(enum sym_how how)
{
	switch (how) {
	case SYM_SYMBOL:
		return "symbol";
	case SYM_OBJECT:
		return "object";
	case SYM_MAPPING:
		return "mapping";
	default:
		return "address";
	}
}

/* Names lock i by its address, through the symboliser: 1 when a symbol names it, else 0. */
static int
name_one(struct census *c, size_t i, struct symboliser *s)
{
	const struct census_lock *l = census_lock(c, i);
	struct sym_answer a;
	char buf[CENSUS_NAME_LEN];

	if (sym_user(s, l->pid, l->addr, &a) < 0) {
		snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)l->addr);
		census_set_name(c, i, buf, "address");
		return 0;
	}
	census_set_name(c, i, sym_format(&a, buf, sizeof buf), how_name(a.how));
	return a.how == SYM_SYMBOL;
}

int
census_name(struct census *c, struct symboliser *s)
{
	size_t i;
	int named = 0;

	for (i = 0; i < census_count(c); i++)
		if (census_lock(c, i)->name[0] == '\0')
			named += name_one(c, i, s);
	return named;
}

/*
 * The libraries a wait passes through on its way to the futex (the C
 * library, C++'s std::condition_variable): their frames are the lock's,
 * not its caller's.
 */
static int
in_wait_lib(const char *object)
{
	static const char *const lib[] = { "libc.so", "libc-",     "libpthread", "ld-linux",
					   "ld-musl", "libc.musl", "libstdc++" };
	size_t i;

	for (i = 0; i < sizeof lib / sizeof lib[0]; i++)
		if (strncmp(object, lib[i], strlen(lib[i])) == 0)
			return 1;
	return 0;
}

/* Whether a function is a condition variable's wait (glibc, C11 threads, C++). */
static int
is_cond_wait(const char *symbol)
{
	static const char *const fn[] = { "cond_wait", "cond_timedwait", "cond_clockwait",
					  "cnd_wait",  "cnd_timedwait",  "condition_variable" };
	size_t i;

	for (i = 0; symbol != NULL && i < sizeof fn / sizeof fn[0]; i++)
		if (strstr(symbol, fn[i]) != NULL)
			return 1;
	return 0;
}

/*
 * A waiter's stack from sp, CENSUS_STACK_SCAN bytes of it: the first code
 * address outside the wait's libraries (its call site, formatted into out,
 * `symbol` or `object+0xOFF`), and whether a frame before it is a
 * condition variable's wait (*cond).  The function alone, not its offset: a
 * function that takes the lock at two places is one name, whichever the
 * latest waiter used, so a lock keeps its name from step to step.  0, or -1
 * when no call site is found.
 */
static int
scan_waiter(struct symboliser *s, pid_t pid, uint64_t sp, char *out, size_t len, int *cond)
{
	uint64_t words[CENSUS_STACK_SCAN / 8], w;
	struct sym_answer a;
	ssize_t n;
	size_t i;

	*cond = 0;
	n = proc_mem_read(pid, sp, words, sizeof words);
	for (i = 0; n > 0 && i < (size_t)n / 8; i++) {
		w = words[i];
		if (w < 4096 || sym_user_cached(s, pid, w, &a) < 0 || !a.exec ||
		    (a.how != SYM_SYMBOL && a.how != SYM_OBJECT))
			continue;
		if (in_wait_lib(a.object)) {
			*cond = *cond || (a.how == SYM_SYMBOL && is_cond_wait(a.symbol));
			continue;
		}
		if (a.how == SYM_SYMBOL)
			snprintf(out, len, "%s", a.symbol);
		else
			sym_format(&a, out, len);
		return 0;
	}
	return -1;
}

/* What kind of memory holds addr in pid: "shared memory", "heap", "stack", "anonymous memory". */
static const char *
region_of(pid_t pid, uint64_t addr)
{
	struct map_list ml = { 0 };
	const struct map_entry *e;
	const char *what = "anonymous memory", *path;

	if (proc_maps_read(pid, &ml) != 0 || (e = maps_find(&ml, addr)) == NULL) {
		map_list_free(&ml);
		return "memory";
	}
	path = map_path(&ml, e);
	if (e->flags & MAP_SHARED_FLAG)
		what = "shared memory";
	else if (strcmp(path, "[heap]") == 0)
		what = "heap";
	else if (strncmp(path, "[stack", 6) == 0)
		what = "stack";
	else if (path[0] != '\0' && path[0] != '[')
		what = "a mapped file";
	map_list_free(&ml);
	return what;
}

/*
 * Lock i's latest waiter's stack scanned: idle or not, and a lock no symbol
 * names renamed by its call site.  1 when renamed so, 0 when not, -1 when
 * the stack could not be scanned (the waiter gone, no call site).
 */
static int
scan_one(struct census *c, size_t i, struct symboliser *s)
{
	const struct census_lock *l = census_lock(c, i);
	char site[CENSUS_NAME_LEN], buf[CENSUS_NAME_LEN + 32];
	int cond, unnamed;

	unnamed = strcmp(l->how, "mapping") == 0 || strcmp(l->how, "address") == 0;
	if (l->last.sp == 0 || scan_waiter(s, l->pid, l->last.sp, site, sizeof site, &cond) < 0)
		return -1;
	/* a condvar's waiters wait for work; a mutex, PI or futex2 word is a lock held */
	census_set_idle(c, i, cond && l->kind == FUTEX_KIND_BITSET);
	if (!unnamed)
		return 0;
	snprintf(buf, sizeof buf, "%s (%s)", site, region_of(l->pid, l->addr));
	census_set_mapping(c, i, l->name);
	census_set_name(c, i, buf, "stack scan");
	return 1;
}

int
census_name_callers(struct census *c, struct symboliser *s)
{
	size_t i;
	int named = 0;

	for (i = 0; i < census_count(c) && i < CENSUS_SCAN_LOCKS; i++)
		named += scan_one(c, i, s) == 1;
	return named;
}

int
census_name_live(struct census *c, struct symboliser *s, int most)
{
	const struct census_lock *l;
	char comm[32];
	size_t i;
	int done = 0;

	for (i = 0; i < census_count(c) && done < most; i++) {
		l = census_lock(c, i);
		if (l->comm[0] != '\0' || l->last_waiters == 0)
			continue;
		done++;
		if (proc_comm(l->pid, comm, sizeof comm) != 0)
			continue; /* gone already: tried again on a later tick */
		if (l->name[0] == '\0')
			(void)name_one(c, i, s);
		(void)scan_one(c, i, s);
		census_set_comm(c, i, comm);
	}
	return done;
}

/*
 * The lock census's OS side (lock_census.h): owners read from the waiters'
 * process while they wait, names from the symboliser.  Kept out of the
 * census (model, pure) and out of the platform (which knows no census).
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "scaletop/lock_census.h"
#include "scaletop/platform.h"

/* What one lock's words say of its owner. */
static enum census_owner
lock_owner(const struct census_lock *l, pid_t *owner)
{
	unsigned char buf[MUTEX_WORDS];
	ssize_t n;

	*owner = 0;
	n = proc_mem_read(l->pid, l->addr, buf, sizeof buf);
	if (n <= 0)
		return CENSUS_OWNER_UNKNOWN;
	switch (mutex_owner_decode(&l->last, buf, (size_t)n, owner)) {
	case MUTEX_OWNER_KNOWN:
		return proc_has_thread(l->pid, *owner) == 1 ? CENSUS_OWNER_KNOWN
							    : CENSUS_OWNER_UNKNOWN;
	case MUTEX_OWNER_FREE:
		return CENSUS_OWNER_FREE;
	default:
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

int
census_read_owners(struct census *c)
{
	const struct census_lock *l;
	enum census_owner st;
	pid_t owner;
	size_t i;
	int known = 0;

	for (i = 0; i < census_count(c); i++) {
		l = census_lock(c, i);
		if (l->kind != FUTEX_KIND_MUTEX && l->kind != FUTEX_KIND_PI) {
			census_set_owner(c, i, CENSUS_OWNER_UNKNOWN, 0);
			continue;
		}
		if (l->last_waiters == 0)
			continue; /* none waits now: its word says nothing of this lock's waiters */
		st = lock_owner(l, &owner);
		census_set_owner(c, i, st, owner);
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

int
census_name(struct census *c, struct symboliser *s)
{
	const struct census_lock *l;
	struct sym_answer a;
	char buf[CENSUS_NAME_LEN];
	size_t i;
	int named = 0;

	for (i = 0; i < census_count(c); i++) {
		l = census_lock(c, i);
		if (l->name[0] != '\0')
			continue;
		if (sym_user(s, l->pid, l->addr, &a) < 0) {
			snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)l->addr);
			census_set_name(c, i, buf, "address");
			continue;
		}
		census_set_name(c, i, sym_format(&a, buf, sizeof buf), how_name(a.how));
		named += a.how == SYM_SYMBOL;
	}
	return named;
}

/* The C library's own objects, whose frames are the lock's, not its caller's. */
static int
in_libc(const char *object)
{
	static const char *const libc[] = { "libc.so",  "libc-",   "libpthread",
					    "ld-linux", "ld-musl", "libc.musl" };
	size_t i;

	for (i = 0; i < sizeof libc / sizeof libc[0]; i++)
		if (strncmp(object, libc[i], strlen(libc[i])) == 0)
			return 1;
	return 0;
}

/* The first code address above sp outside libc, formatted into out; 0, or -1 when none. */
static int
caller_of(struct symboliser *s, pid_t pid, uint64_t sp, char *out, size_t len)
{
	uint64_t words[CENSUS_STACK_SCAN / 8], w;
	struct sym_answer a;
	ssize_t n;
	size_t i;

	n = proc_mem_read(pid, sp, words, sizeof words);
	if (n <= 0)
		return -1;
	for (i = 0; i < (size_t)n / 8; i++) {
		w = words[i];
		if (w < 4096 || sym_user_cached(s, pid, w, &a) < 0 || !a.exec ||
		    (a.how != SYM_SYMBOL && a.how != SYM_OBJECT) || in_libc(a.object))
			continue;
		sym_format(&a, out, len);
		return 0;
	}
	return -1;
}

int
census_name_callers(struct census *c, struct symboliser *s)
{
	const struct census_lock *l;
	char site[CENSUS_NAME_LEN], buf[2 * CENSUS_NAME_LEN + 32];
	size_t i;
	int named = 0;

	for (i = 0; i < census_count(c); i++) {
		l = census_lock(c, i);
		if (strcmp(l->how, "mapping") != 0 && strcmp(l->how, "address") != 0)
			continue;
		if (l->last.sp == 0 || caller_of(s, l->pid, l->last.sp, site, sizeof site) < 0)
			continue;
		snprintf(buf, sizeof buf, "%s, waited on from %s", l->name, site);
		census_set_name(c, i, buf, "stack scan");
		named++;
	}
	return named;
}

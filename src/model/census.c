/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock census (census.h): futex waiters grouped by (process, address),
 * or a shared futex's by where it lies, with each lock's blocked time, most
 * waiters at once and distinct threads.  The locks are kept sorted by key so
 * a reading finds its lock by binary search; census_sort reorders them by weight.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/census.h"
#include "scaletop/grow.h"

struct census {
	struct census_lock *lock;
	size_t n, cap;
	double blocked;
	unsigned long round_readings; /* futex readings in the round still open */
	int by_key;                   /* the locks are in key order, as census_add needs */
};

/* A lock's identity: the private ones first, by (pid, addr); then the shared by where. */
struct census_key {
	int shared;
	uint64_t k[3];
};

struct census *
census_new(void)
{
	struct census *c = calloc(1, sizeof *c);

	if (c != NULL)
		c->by_key = 1;
	return c;
}

void
census_reset(struct census *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->lock[i].tids);
		free(c->lock[i].pids);
	}
	c->n = 0;
	c->blocked = 0;
	c->round_readings = 0;
	c->by_key = 1;
}

void
census_free(struct census *c)
{
	if (c == NULL)
		return;
	census_reset(c);
	free(c->lock);
	free(c);
}

static struct census_key
lock_key(const struct census_lock *l)
{
	struct census_key k = { l->shared, { 0, 0, 0 } };

	if (l->shared) {
		k.k[0] = l->where.dev;
		k.k[1] = l->where.ino;
		k.k[2] = l->where.off;
	} else {
		k.k[0] = (uint64_t)l->pid;
		k.k[1] = l->addr;
	}
	return k;
}

static int
key_cmp(const struct census_lock *l, const struct census_key *y)
{
	struct census_key x = lock_key(l);
	int i;

	if (x.shared != y->shared)
		return x.shared < y->shared ? -1 : 1;
	for (i = 0; i < 3; i++)
		if (x.k[i] != y->k[i])
			return x.k[i] < y->k[i] ? -1 : 1;
	return 0;
}

static int
lock_key_cmp(const void *a, const void *b)
{
	struct census_key y = lock_key(b);

	return key_cmp(a, &y);
}

/*
 * The lock of key, made in its place when new and create is set (key's
 * fields set); NULL when it is not there and create is not set, or ENOMEM.
 */
static struct census_lock *
census_find(struct census *c, const struct census_key *key, int create)
{
	size_t lo = 0, hi, mid;
	struct census_lock *p;
	int r;

	if (!c->by_key) {
		qsort(c->lock, c->n, sizeof c->lock[0], lock_key_cmp);
		c->by_key = 1;
	}
	hi = c->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = key_cmp(&c->lock[mid], key);
		if (r == 0)
			return &c->lock[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	if (grow_array(&c->lock, &c->cap, c->n + 1, sizeof(*p), 16) != 0)
		return NULL;
	memmove(&c->lock[lo + 1], &c->lock[lo], (c->n - lo) * sizeof c->lock[0]);
	c->n++;
	p = &c->lock[lo];
	memset(p, 0, sizeof *p);
	p->shared = key->shared;
	if (key->shared) {
		p->where.dev = key->k[0];
		p->where.ino = key->k[1];
		p->where.off = key->k[2];
	} else {
		p->pid = (pid_t)key->k[0];
		p->addr = key->k[1];
	}
	p->how = "";
	return p;
}

/*
 * Adds v to the ascending set *set of *n (room *cap), up to max members
 * (past it *full is set and the set stays); -1 with ENOMEM.
 */
static int
pid_set_add(pid_t **set, size_t *n, size_t *cap, int *full, size_t max, pid_t v)
{
	size_t lo = 0, hi = *n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((*set)[mid] == v)
			return 0;
		if ((*set)[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (*n >= max) {
		*full = 1;
		return 0;
	}
	if (grow_array(set, cap, *n + 1, sizeof(**set), 8) != 0)
		return -1;
	memmove(&(*set)[lo + 1], &(*set)[lo], (*n - lo) * sizeof(**set));
	(*set)[lo] = v;
	(*n)++;
	return 0;
}

int
census_add(struct census *c, pid_t pid, pid_t tid, const struct syscall_line *line,
	   const struct census_shared *shared, double weight, unsigned waiters)
{
	struct census_key key = { shared != NULL, { 0, 0, 0 } };
	struct census_lock *l;

	c->blocked += weight;
	if (line == NULL || line->state != SYSCALL_IN || line->futex == FUTEX_KIND_NONE)
		return 0;
	if (shared != NULL) {
		key.k[0] = shared->dev;
		key.k[1] = shared->ino;
		key.k[2] = shared->off;
	} else {
		key.k[0] = (uint64_t)pid;
		key.k[1] = line->futex_addr;
	}
	l = census_find(c, &key, waiters > 0);
	if (l == NULL && waiters == 0)
		return 0; /* carried to a lock this window has not seen waited on: the total only */
	if (l == NULL) {
		errno = ENOMEM;
		return -1;
	}
	if (waiters == 0) { /* carried: weight, no waiter now */
		l->weight += weight;
		return pid_set_add(&l->tids, &l->ntids, &l->captids, &l->tids_full, CENSUS_TIDS_MAX,
				   tid);
	}
	/* a shared lock is read through its latest waiter, whose line is kept below */
	l->pid = pid;
	l->addr = line->futex_addr;
	l->kind = line->futex;
	l->kinds |= 1u << line->futex;
	l->weight += weight;
	l->readings++;
	l->round_waiters += waiters;
	c->round_readings++;
	l->last = *line;
	l->last.name = NULL; /* static in the decoder, but nothing here needs it */
	if (l->shared &&
	    pid_set_add(&l->pids, &l->npids, &l->cappids, &l->pids_full, CENSUS_PIDS_MAX, pid) != 0)
		return -1;
	return pid_set_add(&l->tids, &l->ntids, &l->captids, &l->tids_full, CENSUS_TIDS_MAX, tid);
}

void
census_round(struct census *c)
{
	size_t i;

	/* an empty round (census_sort's) leaves last_waiters as the last real one set them */
	for (i = 0; c->round_readings > 0 && i < c->n; i++) {
		if (c->lock[i].round_waiters > c->lock[i].max_waiters)
			c->lock[i].max_waiters = c->lock[i].round_waiters;
		c->lock[i].last_waiters = c->lock[i].round_waiters;
		c->lock[i].round_waiters = 0;
	}
	c->round_readings = 0;
}

double
census_blocked(const struct census *c)
{
	return c->blocked;
}

/*
 * The contended before the idle, then the heavier first; at equal weight in
 * key order, so the order is stable.
 */
static int
lock_weight_cmp(const void *a, const void *b)
{
	const struct census_lock *x = a, *y = b;

	if ((x->idle != 0) != (y->idle != 0))
		return x->idle ? 1 : -1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return lock_key_cmp(a, b);
}

void
census_sort(struct census *c)
{
	census_round(c);
	if (c->n > 1)
		qsort(c->lock, c->n, sizeof c->lock[0], lock_weight_cmp);
	c->by_key = c->n < 2;
}

size_t
census_count(const struct census *c)
{
	return c->n;
}

const struct census_lock *
census_lock(const struct census *c, size_t i)
{
	return i < c->n ? &c->lock[i] : NULL;
}

double
census_share(const struct census *c, size_t i)
{
	if (i >= c->n || c->blocked <= 0)
		return 0;
	return c->lock[i].weight / c->blocked;
}

/* s into dst of cap bytes, cut to fit. */
static void
copy_cut(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

void
census_set_name(struct census *c, size_t i, const char *name, const char *how)
{
	if (i >= c->n)
		return;
	copy_cut(c->lock[i].name, sizeof c->lock[i].name, name);
	c->lock[i].how = how;
}

void
census_set_owner(struct census *c, size_t i, enum census_owner st, pid_t owner, pid_t owner_pid,
		 const char *why)
{
	if (i >= c->n)
		return;
	c->lock[i].owner_state = st;
	if (st == CENSUS_OWNER_KNOWN) {
		c->lock[i].owner = owner;
		c->lock[i].owner_pid = owner_pid;
		c->lock[i].owner_reads++;
		c->lock[i].owner_why[0] = '\0';
		return;
	}
	copy_cut(c->lock[i].owner_why, sizeof c->lock[i].owner_why, why != NULL ? why : "");
}

void
census_set_comm(struct census *c, size_t i, const char *comm)
{
	if (i < c->n)
		copy_cut(c->lock[i].comm, sizeof c->lock[i].comm, comm);
}

void
census_set_mapping(struct census *c, size_t i, const char *mapping)
{
	if (i < c->n)
		copy_cut(c->lock[i].mapping, sizeof c->lock[i].mapping, mapping);
}

void
census_set_idle(struct census *c, size_t i, int idle)
{
	if (i < c->n)
		c->lock[i].idle = idle;
}

void
census_set_owner_run(struct census *c, size_t i, pid_t tid, int state)
{
	if (i >= c->n)
		return;
	c->lock[i].run_tid = tid;
	c->lock[i].run_state = state;
}

const char *
census_owner_name(enum census_owner st)
{
	switch (st) {
	case CENSUS_OWNER_KNOWN:
		return "known";
	case CENSUS_OWNER_FREE:
		return "free";
	case CENSUS_OWNER_UNKNOWN:
		return "unknown";
	default:
		return "unread";
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's whole stacks for flame graphs (hotstacks.h): names kept once in
 * a table, stacks as runs of their indices, both hashed while the set is
 * built so that equal stacks merge, then capped a family with the rest as
 * one count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/hotstacks.h"
#include "scaletop/grow.h"

/* The hashes of a set being built: open addressing, -1 empty, at most half full. */
struct stacks_index {
	int *nslot, *sslot;
	int nnslots, nsslots;
	uint32_t *nhash, *shash; /* each name's and each stack's hash */
	int capnh, capsh;
};

/* A frame of a tally named once: (pid, ip, kernel) to its name's index. */
struct frame_memo {
	uint64_t ip;
	pid_t pid;
	int kernel; /* -1: empty slot */
	int rc;     /* the namer's answer: 0 named, -2 no executable mapping */
	int name;
};

static uint32_t
fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	return h;
}

#define FNV0 2166136261u

struct hot_stacks *
hot_stacks_new(void)
{
	struct hot_stacks *s = calloc(1, sizeof(*s));

	if (s != NULL && (s->idx = calloc(1, sizeof(*s->idx))) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
index_free(struct stacks_index *x)
{
	if (x == NULL)
		return;
	free(x->nslot);
	free(x->sslot);
	free(x->nhash);
	free(x->shash);
	free(x);
}

void
hot_stacks_free(struct hot_stacks *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nnames; i++)
		free(s->name[i]);
	free(s->name);
	free(s->frame);
	free(s->stack);
	index_free(s->idx);
	free(s);
}

/* Room for one more of *n elements of size sz in *p (cap *cap): 0 or -1. */
static int
room(void **p, int n, int *cap, size_t sz)
{
	int ncap = *cap > 0 ? 2 * *cap : 64;
	void *q;

	if (n < *cap)
		return 0;
	if ((q = realloc(*p, (size_t)ncap * sz)) == NULL)
		return -1;
	*p = q;
	*cap = ncap;
	return 0;
}

/* A table of n slots (a power of two), all empty. */
static int *
slots_new(int n)
{
	int *v = malloc((size_t)n * sizeof(*v)), i;

	for (i = 0; v != NULL && i < n; i++)
		v[i] = -1;
	return v;
}

/* Rebuilds a table at twice its size when it would pass half full with one more. */
static int
slots_grow(int **slot, int *nslots, int used, const uint32_t *hash)
{
	int n = *nslots > 0 ? *nslots : 128, *v, i, j;

	if (2 * (used + 1) <= *nslots)
		return 0;
	while (2 * (used + 1) > n)
		n *= 2;
	if ((v = slots_new(n)) == NULL)
		return -1;
	for (i = 0; i < used; i++) {
		for (j = (int)(hash[i] & (uint32_t)(n - 1)); v[j] >= 0; j = (j + 1) & (n - 1))
			;
		v[j] = i;
	}
	free(*slot);
	*slot = v;
	*nslots = n;
	return 0;
}

int
hot_stacks_name_index(struct hot_stacks *s, const char *name)
{
	struct stacks_index *x = s->idx;
	uint32_t h = fnv(FNV0, name, strlen(name));
	int j;

	if (x == NULL || slots_grow(&x->nslot, &x->nnslots, s->nnames, x->nhash) != 0)
		goto nomem;
	for (j = (int)(h & (uint32_t)(x->nnslots - 1)); x->nslot[j] >= 0;
	     j = (j + 1) & (x->nnslots - 1))
		if (x->nhash[x->nslot[j]] == h && strcmp(s->name[x->nslot[j]], name) == 0)
			return x->nslot[j];
	if (room((void **)&s->name, s->nnames, &s->capnames, sizeof(*s->name)) != 0 ||
	    room((void **)&x->nhash, s->nnames, &x->capnh, sizeof(*x->nhash)) != 0 ||
	    (s->name[s->nnames] = strdup(name)) == NULL)
		goto nomem;
	x->nhash[s->nnames] = h;
	x->nslot[j] = s->nnames;
	return s->nnames++;
nomem:
	errno = ENOMEM;
	return -1;
}

static uint32_t
stack_hash(enum wait_family f, const uint32_t *idx, int n, int nkernel)
{
	uint32_t h = fnv(FNV0, &f, sizeof(f));

	h = fnv(h, &nkernel, sizeof(nkernel));
	return fnv(h, idx, (size_t)n * sizeof(*idx));
}

static bool
stack_is(const struct hot_stacks *s, int i, enum wait_family f, const uint32_t *idx, int n,
	 int nkernel)
{
	const struct hot_stack *k = &s->stack[i];

	return k->family == f && k->nframes == (uint32_t)n && k->nkernel == (uint32_t)nkernel &&
	       (n == 0 || memcmp(s->frame + k->at, idx, (size_t)n * sizeof(*idx)) == 0);
}

/* Room in the frames' pool for n more: 0 or -1. */
static int
frames_room(struct hot_stacks *s, size_t n)
{
	return grow_array(&s->frame, &s->capframe, s->nframe + n, sizeof(*s->frame), 1024);
}

/* A new stack at slot j of the index: 0 or -1. */
static int
stack_new(struct hot_stacks *s, int j, uint32_t h, enum wait_family f, const uint32_t *idx, int n,
	  int nkernel, uint64_t count)
{
	struct stacks_index *x = s->idx;

	if (room((void **)&s->stack, s->nstacks, &s->capstacks, sizeof(*s->stack)) != 0 ||
	    room((void **)&x->shash, s->nstacks, &x->capsh, sizeof(*x->shash)) != 0 ||
	    frames_room(s, (size_t)n) != 0)
		return -1;
	if (n > 0)
		memcpy(s->frame + s->nframe, idx, (size_t)n * sizeof(*idx));
	s->stack[s->nstacks] =
		(struct hot_stack){ f, (uint32_t)s->nframe, (uint32_t)n, (uint32_t)nkernel, count };
	s->nframe += (size_t)n;
	x->shash[s->nstacks] = h;
	x->sslot[j] = s->nstacks++;
	return 0;
}

int
hot_stacks_add(struct hot_stacks *s, enum wait_family f, const uint32_t *idx, int n, int nkernel,
	       uint64_t count)
{
	struct stacks_index *x = s->idx;
	uint32_t h;
	int i, j;

	if (f < 0 || f >= WAIT_NFAMILIES || n < 0 || n > HOT_STACK_DEPTH || nkernel < 0 ||
	    nkernel > n) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (idx[i] >= (uint32_t)s->nnames) {
			errno = EINVAL;
			return -1;
		}
	if (x == NULL || slots_grow(&x->sslot, &x->nsslots, s->nstacks, x->shash) != 0) {
		errno = ENOMEM;
		return -1;
	}
	h = stack_hash(f, idx, n, nkernel);
	for (j = (int)(h & (uint32_t)(x->nsslots - 1)); x->sslot[j] >= 0;
	     j = (j + 1) & (x->nsslots - 1))
		if (x->shash[x->sslot[j]] == h && stack_is(s, x->sslot[j], f, idx, n, nkernel)) {
			s->stack[x->sslot[j]].count += count;
			return 0;
		}
	if (stack_new(s, j, h, f, idx, n, nkernel, count) != 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int
hot_stacks_add_names(struct hot_stacks *s, enum wait_family f, const char *const *names, int n,
		     int nkernel, uint64_t count)
{
	uint32_t idx[HOT_STACK_DEPTH];
	int i, k;

	if (n < 0 || n > HOT_STACK_DEPTH) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((k = hot_stacks_name_index(s, names[i])) < 0)
			return -1;
		idx[i] = (uint32_t)k;
	}
	return hot_stacks_add(s, f, idx, n, nkernel, count);
}

/* The frames' pool of the set being sorted: qsort passes no argument. */
static const uint32_t *sort_frames;

/* Family first, then most count; ties by frames so the order is the same every run. */
static int
stack_cmp(const void *pa, const void *pb)
{
	const struct hot_stack *a = pa, *b = pb;
	const uint32_t *fr = sort_frames;
	uint32_t i;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	for (i = 0; i < a->nframes && i < b->nframes; i++)
		if (fr[a->at + i] != fr[b->at + i])
			return fr[a->at + i] < fr[b->at + i] ? -1 : 1;
	if (a->nframes != b->nframes)
		return a->nframes < b->nframes ? -1 : 1;
	return a->nkernel < b->nkernel ? -1 : a->nkernel > b->nkernel;
}

void
hot_stacks_finish(struct hot_stacks *s, int max)
{
	int i, kept = 0, run = 0;
	enum wait_family last = WAIT_NFAMILIES;

	index_free(s->idx);
	s->idx = NULL;
	if (s->nstacks == 0)
		return;
	sort_frames = s->frame;
	qsort(s->stack, (size_t)s->nstacks, sizeof(*s->stack), stack_cmp);
	sort_frames = NULL;
	for (i = 0; i < s->nstacks; i++) {
		run = s->stack[i].family == last ? run + 1 : 1;
		last = s->stack[i].family;
		if (max > 0 && run > max) {
			s->other[s->stack[i].family] += s->stack[i].count;
			continue;
		}
		s->stack[kept++] = s->stack[i];
	}
	s->nstacks = kept;
}

uint64_t
hot_stacks_total(const struct hot_stacks *s, enum wait_family f)
{
	uint64_t sum = 0;
	int i;

	if (f < 0 || f >= WAIT_NFAMILIES)
		return 0;
	for (i = 0; i < s->nstacks; i++)
		if (s->stack[i].family == f)
			sum += s->stack[i].count;
	return sum + s->other[f];
}

/* --- from a window's tally ---------------------------------------------- */

struct memo {
	struct frame_memo *v;
	int n, nslots;
};

static uint32_t
memo_hash(pid_t pid, uint64_t ip, bool kernel)
{
	uint32_t h = fnv(FNV0, &ip, sizeof(ip));

	h = fnv(h, &pid, sizeof(pid));
	return fnv(h, &kernel, sizeof(kernel));
}

static int
memo_grow(struct memo *m)
{
	struct frame_memo *v, *o = m->v;
	int n = m->nslots > 0 ? 2 * m->nslots : 1024, i, j, on = m->nslots;

	if (2 * (m->n + 1) <= m->nslots)
		return 0;
	if ((v = malloc((size_t)n * sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i].kernel = -1;
	for (i = 0; i < on; i++) {
		if (o[i].kernel < 0)
			continue;
		j = (int)(memo_hash(o[i].pid, o[i].ip, o[i].kernel != 0) & (uint32_t)(n - 1));
		while (v[j].kernel >= 0)
			j = (j + 1) & (n - 1);
		v[j] = o[i];
	}
	free(o);
	m->v = v;
	m->nslots = n;
	return 0;
}

/*
 * Frame (pid, ip) named into *name: 0, or -2 when the namer ends the
 * stack there (a user address in no executable mapping), or -1 (ENOMEM).
 * A kernel frame belongs to no process, so the memo keys it with pid 0.
 */
static int
frame_named(struct hot_stacks *s, struct memo *m, hot_namer namer, void *arg, pid_t pid,
	    uint64_t ip, bool kernel, int *name)
{
	char buf[HOT_STACK_NAME_LEN];
	struct frame_memo *e;
	int j, rc;

	if (kernel)
		pid = 0;
	if (memo_grow(m) != 0)
		return -1;
	j = (int)(memo_hash(pid, ip, kernel) & (uint32_t)(m->nslots - 1));
	for (e = &m->v[j]; e->kernel >= 0; e = &m->v[j = (j + 1) & (m->nslots - 1)])
		if (e->ip == ip && e->pid == pid && e->kernel == (int)kernel) {
			*name = e->name;
			return e->rc;
		}
	buf[0] = '\0';
	rc = namer(arg, pid, ip, kernel, buf, sizeof(buf));
	if (rc == -2 && !kernel) {
		*e = (struct frame_memo){ ip, pid, 0, -2, -1 };
		m->n++;
		return -2;
	}
	if (rc < 0 || buf[0] == '\0')
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)ip);
	if ((*name = hot_stacks_name_index(s, buf)) < 0)
		return -1;
	*e = (struct frame_memo){ ip, pid, kernel, 0, *name };
	m->n++;
	return 0;
}

/* Chain i as a stack, root first: its frames up to the first that ends it. */
static int
chain_add(struct hot_stacks *s, struct memo *m, const struct hot_tally *t, int ci, hot_namer namer,
	  void *arg)
{
	uint32_t idx[HOT_STACK_DEPTH];
	struct hot_chain_view v;
	int i, n = 0, name, rc, nk;

	hot_chain_view(t, ci, &v);
	for (i = 0; i < v.nframes && i < HOT_STACK_DEPTH; i++) {
		rc = frame_named(s, m, namer, arg, v.pid, v.ip[i], i < v.nkernel, &name);
		if (rc == -2)
			break;
		if (rc < 0)
			return -1;
		idx[n++] = (uint32_t)name;
	}
	nk = v.nkernel < n ? v.nkernel : n;
	/* innermost first in the chain, root first in the stack */
	for (i = 0; i < n / 2; i++) {
		uint32_t x = idx[i];

		idx[i] = idx[n - 1 - i];
		idx[n - 1 - i] = x;
	}
	return hot_stacks_add(s, v.family, idx, n, nk, v.count);
}

int
hot_stacks_from_tally(const struct hot_tally *t, hot_namer namer, void *arg, int max,
		      struct hot_stacks **out)
{
	struct memo m = { NULL, 0, 0 };
	struct hot_stacks *s;
	int i;

	*out = NULL;
	if (t->nchains == 0 && t->other[WAIT_WORKLOAD] == 0 && t->other[WAIT_TARGET] == 0)
		return 0;
	if ((s = hot_stacks_new()) == NULL)
		return -1;
	for (i = 0; i < WAIT_NFAMILIES; i++)
		s->other[i] = t->other[i];
	for (i = 0; i < t->nchains; i++)
		if (chain_add(s, &m, t, i, namer, arg) != 0) {
			free(m.v);
			hot_stacks_free(s);
			errno = ENOMEM;
			return -1;
		}
	free(m.v);
	hot_stacks_finish(s, max);
	*out = s;
	return 0;
}

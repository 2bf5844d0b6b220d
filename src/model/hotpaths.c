/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * On-CPU samples by call path (hotpaths.h): a hash of raw chains while the
 * window runs, then names, merged paths, functions' own samples and lock
 * spin at its end (user-space spin: hotspin.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/hotpaths.h"
#include "scaletop/grow.h"

/*
 * A distinct chain; its frames are ips[at .. at + nframes) of the tally's
 * pool.  Most chains are short (a user leaf and its caller: 2 frames), so
 * a fixed HOT_KEY_FRAMES array (160 bytes a chain) was mostly empty: a 30 s
 * window of 256 mutex workers tallied over 1,000 chains.
 */
struct hot_chain {
	uint64_t count;
	uint32_t hash;
	pid_t pid; /* 0 for a chain of kernel frames alone, which no process owns */
	uint32_t at;
	uint8_t family, nkernel, nframes;
};

/* A chain being looked up: its frames are the caller's. */
struct chain_key {
	enum wait_family family;
	pid_t pid;
	int nkernel, nframes;
	const uint64_t *ip;
	uint32_t hash;
};

/* How far a spin frame may sit from the innermost one: interrupts and pv waits sit inside it. */
#define SPIN_DEPTH 6

void
hot_tally_init(struct hot_tally *t)
{
	memset(t, 0, sizeof *t);
}

void
hot_tally_free(struct hot_tally *t)
{
	free(t->chain);
	free(t->slot);
	free(t->ips);
	hot_tally_init(t);
}

void
hot_tally_reset(struct hot_tally *t)
{
	int i;

	t->nchains = 0;
	t->nips = 0;
	for (i = 0; i < t->nslots; i++)
		t->slot[i] = -1;
	memset(t->samples, 0, sizeof t->samples);
	memset(t->other, 0, sizeof t->other);
}

/* FNV-1a over the key's words, folded to 32 bits. */
static uint32_t
key_hash(const struct chain_key *k)
{
	uint64_t h = 1469598103934665603ull, w[3];
	int i, j;

	w[0] = (uint64_t)k->family;
	w[1] = (uint64_t)k->pid;
	w[2] = (uint64_t)k->nkernel << 32 | (uint64_t)k->nframes;
	for (i = 0; i < 3 + k->nframes; i++) {
		uint64_t v = i < 3 ? w[i] : k->ip[i - 3];

		for (j = 0; j < 8; j++) {
			h ^= (v >> (8 * j)) & 0xff;
			h *= 1099511628211ull;
		}
	}
	return (uint32_t)(h ^ h >> 32);
}

static struct chain_key
key_of(const struct hot_tally *t, int i)
{
	const struct hot_chain *c = &t->chain[i];

	return (struct chain_key){
		(enum wait_family)c->family, c->pid, c->nkernel, c->nframes, t->ips + c->at, c->hash
	};
}

static bool
chain_is(const struct hot_tally *t, int i, const struct chain_key *k)
{
	const struct hot_chain *c = &t->chain[i];

	return c->hash == k->hash && c->family == k->family && c->pid == k->pid &&
	       c->nkernel == k->nkernel && c->nframes == k->nframes &&
	       (k->nframes == 0 ||
		memcmp(t->ips + c->at, k->ip, (size_t)k->nframes * sizeof k->ip[0]) == 0);
}

/* The slot where k is, or the empty one where it goes. */
static int
slot_find(const struct hot_tally *t, const struct chain_key *k)
{
	int i = (int)(k->hash & (uint32_t)(t->nslots - 1));

	while (t->slot[i] >= 0 && !chain_is(t, t->slot[i], k))
		i = (i + 1) & (t->nslots - 1);
	return i;
}

/*
 * Doubles the chains the index is for and rebuilds it at twice their
 * number, a power of two.  The chains' array is made once, for
 * HOT_MAX_CHAINS (192 kB), and the frames' pool starts at 128 kB: blocks
 * that size malloc maps apart, their pages touched only as chains fill
 * them, where doubling from 64 left every smaller block in the heap (a
 * 256-thread sweep's window tallies some 2,000 chains in 25 s).
 */
static int
tally_grow(struct hot_tally *t)
{
	int cap = t->cap ? 2 * t->cap : 64, nslots = 2 * cap, i;
	struct chain_key k;
	int *slot;

	if (t->chain == NULL && (t->chain = malloc(HOT_MAX_CHAINS * sizeof *t->chain)) == NULL)
		return -1;
	slot = malloc((size_t)nslots * sizeof *slot);
	if (!slot)
		return -1;
	free(t->slot);
	t->slot = slot;
	t->nslots = nslots;
	t->cap = cap;
	for (i = 0; i < nslots; i++)
		slot[i] = -1;
	for (i = 0; i < t->nchains; i++) {
		k = key_of(t, i);
		slot[slot_find(t, &k)] = i;
	}
	return 0;
}

/* Room in the frame pool for n more; -1 without memory. */
static int
ips_reserve(struct hot_tally *t, size_t n)
{
	return grow_array(&t->ips, &t->capips, t->nips + n, sizeof(*t->ips),
			  128 * 1024 / sizeof(*t->ips));
}

/* A new chain for k, its frames copied to the pool: 0, or -1 (ENOMEM). */
static int
chain_add(struct hot_tally *t, const struct chain_key *k)
{
	struct hot_chain *c;

	if ((t->nchains == t->cap && tally_grow(t) < 0) || ips_reserve(t, (size_t)k->nframes) < 0) {
		errno = ENOMEM;
		return -1;
	}
	c = &t->chain[t->nchains];
	*c = (struct hot_chain){ 1,
				 k->hash,
				 k->pid,
				 (uint32_t)t->nips,
				 (uint8_t)k->family,
				 (uint8_t)k->nkernel,
				 (uint8_t)k->nframes };
	if (k->nframes > 0)
		memcpy(t->ips + t->nips, k->ip, (size_t)k->nframes * sizeof k->ip[0]);
	t->nips += (size_t)k->nframes;
	t->slot[slot_find(t, k)] = t->nchains++;
	return 0;
}

int
hot_tally_add(struct hot_tally *t, enum wait_family f, pid_t pid, const uint64_t *ip, int nkernel,
	      int nframes)
{
	struct chain_key k;
	int s;

	if (f < 0 || f >= WAIT_NFAMILIES || nframes < 0 || nkernel < 0 || nkernel > nframes)
		return 0;
	t->samples[f]++;
	k.family = f;
	k.nframes = nframes < HOT_KEY_FRAMES ? nframes : HOT_KEY_FRAMES;
	k.nkernel = nkernel < k.nframes ? nkernel : k.nframes;
	k.pid = k.nframes > k.nkernel ? pid : 0;
	k.ip = ip;
	k.hash = key_hash(&k);
	if (t->nslots) {
		s = slot_find(t, &k);
		if (t->slot[s] >= 0) {
			t->chain[t->slot[s]].count++;
			return 0;
		}
	}
	if (t->nchains >= HOT_MAX_CHAINS) {
		t->other[f]++;
		return 0;
	}
	if (chain_add(t, &k) < 0) {
		t->other[f]++;
		return -1;
	}
	return 0;
}

void
hot_chain_view(const struct hot_tally *t, int i, struct hot_chain_view *v)
{
	const struct hot_chain *c = &t->chain[i];

	*v = (struct hot_chain_view){ (enum wait_family)c->family,
				      c->pid,
				      c->nkernel,
				      c->nframes,
				      c->count,
				      t->ips + c->at };
}

/* The name without a compiler suffix (".part.0", ".isra.0", ".constprop.0", ".cold"). */
static size_t
base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

static bool
name_is(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && strncmp(name, want, len) == 0;
}

static bool
name_starts(const char *name, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && strncmp(name, prefix, n) == 0;
}

bool
hot_frame_is_spin(const char *name)
{
	static const char *const exact[] = {
		"native_queued_spin_lock_slowpath",
		"__pv_queued_spin_lock_slowpath",
		"queued_spin_lock_slowpath",
		"queued_read_lock_slowpath",
		"queued_write_lock_slowpath",
		"osq_lock",
		"mutex_spin_on_owner",
		"mutex_optimistic_spin",
		"rwsem_spin_on_owner",
		"rwsem_optimistic_spin",
		"do_raw_spin_lock",
	};
	size_t len = base_len(name), i;

	for (i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (name_is(name, len, exact[i]))
			return true;
	/* _raw_spin_lock, _raw_spin_lock_irqsave, _raw_read_lock_bh, _raw_write_lock ... */
	return name_starts(name, len, "_raw_spin_lock") ||
	       name_starts(name, len, "_raw_read_lock") ||
	       name_starts(name, len, "_raw_write_lock");
}

/*
 * A frame of the lock's own code, which names no lock: the spin frames, the
 * wrappers around them and a paravirtual wait inside them.
 */
static bool
frame_is_lock_code(const char *name)
{
	size_t len = base_len(name);

	return hot_frame_is_spin(name) || name_starts(name, len, "_raw_") ||
	       name_starts(name, len, "__raw_") || name_starts(name, len, "do_raw_") ||
	       name_is(name, len, "kvm_wait") || name_is(name, len, "pv_wait") ||
	       name_starts(name, len, "__pv_queued_spin") || name_starts(name, len, "spin_lock") ||
	       name_starts(name, len, "queued_") || name_starts(name, len, "rwsem_down_") ||
	       name_starts(name, len, "__mutex_lock") || name_is(name, len, "mutex_lock");
}

/* A chain with its frames named: the outer ones dropped past a frame in no code (-2). */
struct named {
	char name[HOT_KEY_FRAMES][HOT_NAME_LEN];
	int n, nkernel;
};

static void
chain_name(const struct hot_tally *t, int ci, hot_namer namer, void *arg, struct named *out)
{
	const struct hot_chain *c = &t->chain[ci];
	const uint64_t *ip = t->ips + c->at;
	int i, r;
	bool kernel;

	out->n = 0;
	out->nkernel = c->nkernel;
	for (i = 0; i < c->nframes; i++) {
		kernel = i < c->nkernel;
		r = namer(arg, c->pid, ip[i], kernel, out->name[i], HOT_NAME_LEN);
		if (r == -2 && !kernel && i > c->nkernel)
			break;
		if (r < 0)
			snprintf(out->name[i], HOT_NAME_LEN, "0x%llx", (unsigned long long)ip[i]);
		out->n++;
	}
}

/*
 * Whether the chain spun: a spin frame near its innermost end.  The spin
 * named is the outermost spin frame of the lock's code (_raw_spin_lock over
 * its slow path), so a sample in the slow path and one in the fast path of
 * one lock count together; the caller is the first frame above that code.
 */
static bool
chain_spin(const struct named *nm, struct hot_spin *out)
{
	int i, j, outer;

	out->user = false;
	for (i = 0; i < nm->nkernel && i < SPIN_DEPTH; i++)
		if (hot_frame_is_spin(nm->name[i]))
			break;
	if (i == nm->nkernel || i == SPIN_DEPTH)
		return hot_chain_user_spin((const char(*)[HOT_NAME_LEN])nm->name, nm->n,
					   nm->nkernel, out);
	outer = i;
	for (j = i + 1; j < nm->n && frame_is_lock_code(nm->name[j]); j++)
		if (hot_frame_is_spin(nm->name[j]))
			outer = j;
	snprintf(out->spin, sizeof out->spin, "%s", nm->name[outer]);
	snprintf(out->caller, sizeof out->caller, "%s", j < nm->n ? nm->name[j] : "");
	return true;
}

static int
path_cmp_key(const void *pa, const void *pb)
{
	const struct hot_path *a = pa, *b = pb;
	int i, r;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->nframes != b->nframes)
		return a->nframes < b->nframes ? -1 : 1;
	if (a->nkernel != b->nkernel)
		return a->nkernel < b->nkernel ? -1 : 1;
	for (i = 0; i < a->nframes; i++)
		if ((r = strcmp(a->frame[i], b->frame[i])) != 0)
			return r;
	return 0;
}

static int
spin_cmp_key(const void *pa, const void *pb)
{
	const struct hot_spin *a = pa, *b = pb;
	int r;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if ((r = strcmp(a->caller, b->caller)) != 0)
		return r;
	return strcmp(a->spin, b->spin);
}

static int
self_cmp_key(const void *pa, const void *pb)
{
	const struct hot_self *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->kernel != b->kernel)
		return a->kernel ? 1 : -1;
	return strcmp(a->func, b->func);
}

/* Family first, then most samples; ties by key so the order is the same every run. */
static int
path_cmp_rank(const void *pa, const void *pb)
{
	const struct hot_path *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return path_cmp_key(pa, pb);
}

static int
spin_cmp_rank(const void *pa, const void *pb)
{
	const struct hot_spin *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return spin_cmp_key(pa, pb);
}

static int
self_cmp_rank(const void *pa, const void *pb)
{
	const struct hot_self *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return self_cmp_key(pa, pb);
}

/*
 * Sorts n elements of size sz by key, merges equal neighbours' samples
 * (the uint64_t at offset off), ranks them, and keeps max a family (the
 * enum wait_family at offset 0).  Returns the count kept.
 */
static int
merge_rank(void *v, int n, size_t sz, size_t off, int (*key)(const void *, const void *),
	   int (*rank)(const void *, const void *), int max)
{
	char *a = v;
	int i, m = 0, kept = 0, run = 0;
	uint64_t s, sum;
	enum wait_family f, last = WAIT_NFAMILIES;

	if (n == 0)
		return 0;
	qsort(a, (size_t)n, sz, key);
	for (i = 1; i < n; i++) {
		if (key(a + (size_t)m * sz, a + (size_t)i * sz) == 0) {
			memcpy(&s, a + (size_t)i * sz + off, sizeof s);
			memcpy(&sum, a + (size_t)m * sz + off, sizeof sum);
			sum += s;
			memcpy(a + (size_t)m * sz + off, &sum, sizeof sum);
		} else if (++m != i) {
			memcpy(a + (size_t)m * sz, a + (size_t)i * sz, sz);
		}
	}
	n = m + 1;
	qsort(a, (size_t)n, sz, rank);
	for (i = 0; i < n; i++) {
		memcpy(&f, a + (size_t)i * sz, sizeof f);
		run = f == last ? run + 1 : 1;
		last = f;
		if (run > max)
			continue;
		if (kept != i)
			memcpy(a + (size_t)kept * sz, a + (size_t)i * sz, sz);
		kept++;
	}
	return kept;
}

static void
path_from(struct hot_path *p, const struct hot_chain *c, const struct named *nm)
{
	int i;

	memset(p, 0, sizeof *p);
	p->family = c->family;
	p->nframes = nm->n < HOT_FRAMES ? nm->n : HOT_FRAMES;
	p->nkernel = c->nkernel < p->nframes ? c->nkernel : p->nframes;
	for (i = 0; i < p->nframes; i++)
		memcpy(p->frame[i], nm->name[i], HOT_NAME_LEN);
	p->samples = c->count;
}

/* The chain's innermost function: its own sample, perf's "self". */
static void
self_from(struct hot_self *e, const struct hot_chain *c, const struct named *nm)
{
	memset(e, 0, sizeof(*e));
	e->family = c->family;
	e->kernel = nm->nkernel > 0;
	snprintf(e->func, sizeof(e->func), "%s", nm->n > 0 ? nm->name[0] : "[unknown]");
	e->samples = c->count;
}

static double
share_of(const struct hot_tally *t, enum wait_family f, uint64_t samples)
{
	return t->samples[f] ? (double)samples / (double)t->samples[f] : 0;
}

void
hot_named_free(struct hot_named *out)
{
	free(out->paths);
	free(out->spins);
	free(out->selfs);
	memset(out, 0, sizeof(*out));
}

/* Merges, ranks and keeps max a family of the named lists, and gives each its share. */
static void
named_rank(const struct hot_tally *t, struct hot_named *o, int max)
{
	int i;

	o->npaths =
		merge_rank(o->paths, o->npaths, sizeof(*o->paths),
			   offsetof(struct hot_path, samples), path_cmp_key, path_cmp_rank, max);
	o->nspins =
		merge_rank(o->spins, o->nspins, sizeof(*o->spins),
			   offsetof(struct hot_spin, samples), spin_cmp_key, spin_cmp_rank, max);
	o->nselfs =
		merge_rank(o->selfs, o->nselfs, sizeof(*o->selfs),
			   offsetof(struct hot_self, samples), self_cmp_key, self_cmp_rank, max);
	for (i = 0; i < o->npaths; i++)
		o->paths[i].share = share_of(t, o->paths[i].family, o->paths[i].samples);
	for (i = 0; i < o->nspins; i++)
		o->spins[i].share = share_of(t, o->spins[i].family, o->spins[i].samples);
	for (i = 0; i < o->nselfs; i++)
		o->selfs[i].share = share_of(t, o->selfs[i].family, o->selfs[i].samples);
	if (o->nspins == 0) {
		free(o->spins);
		o->spins = NULL;
	}
}

int
hot_tally_name(const struct hot_tally *t, hot_namer namer, void *arg, int max_per_family,
	       struct hot_named *out)
{
	uint64_t spun[WAIT_NFAMILIES] = { 0 }, uspun[WAIT_NFAMILIES] = { 0 };
	struct hot_spin *sp;
	struct named nm;
	int i, f;

	memset(out, 0, sizeof(*out));
	if (t->nchains == 0)
		return 0;
	out->paths = malloc((size_t)t->nchains * sizeof(*out->paths));
	out->spins = malloc((size_t)t->nchains * sizeof(*out->spins));
	out->selfs = malloc((size_t)t->nchains * sizeof(*out->selfs));
	if (!out->paths || !out->spins || !out->selfs) {
		hot_named_free(out);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < t->nchains; i++) {
		chain_name(t, i, namer, arg, &nm);
		f = t->chain[i].family;
		path_from(&out->paths[out->npaths++], &t->chain[i], &nm);
		self_from(&out->selfs[out->nselfs++], &t->chain[i], &nm);
		sp = &out->spins[out->nspins];
		if (chain_spin(&nm, sp)) {
			sp->family = (enum wait_family)f;
			sp->samples = t->chain[i].count;
			spun[f] += sp->samples;
			uspun[f] += sp->user ? sp->samples : 0;
			out->nspins++;
		}
	}
	named_rank(t, out, max_per_family);
	for (i = 0; i < WAIT_NFAMILIES; i++) {
		out->spin_share[i] = share_of(t, (enum wait_family)i, spun[i]);
		out->user_spin_share[i] = share_of(t, (enum wait_family)i, uspun[i]);
	}
	return 0;
}

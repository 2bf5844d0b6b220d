/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The window's on-CPU samples, by family (hot_sampler.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hot_sampler.h"
#include "scaletop/hotstacks.h"

void
hot_sampler_init(struct hot_sampler *h)
{
	memset(h, 0, sizeof(*h));
	hot_tally_init(&h->tally);
}

void
hot_sampler_free(struct hot_sampler *h)
{
	oncpu_close(h->o);
	hot_tally_free(&h->tally);
	free(h->pids[0]);
	free(h->pids[1]);
	free(h->seen);
	free(h->fresh);
	hot_sampler_init(h);
}

static int
pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

int
hot_sampler_set_pids(struct hot_sampler *h, enum wait_family f, const pid_t *pids, size_t n)
{
	pid_t *p = NULL;

	if (f != WAIT_WORKLOAD && f != WAIT_TARGET)
		return 0;
	if (n > 0) {
		if ((p = malloc(n * sizeof(*p))) == NULL)
			return -1;
		memcpy(p, pids, n * sizeof(*p));
		qsort(p, n, sizeof(*p), pid_cmp);
	}
	free(h->pids[f]);
	h->pids[f] = p;
	h->npids[f] = n;
	return 0;
}

int
hot_sampler_begin(struct hot_sampler *h, char *why, size_t whylen)
{
	if (h->o == NULL) {
		if (h->tried)
			return -1;
		h->tried = true;
		if ((h->o = oncpu_open(HOT_SAMPLE_HZ, why, whylen)) == NULL)
			return 1;
	}
	hot_tally_reset(&h->tally);
	memset(&h->st, 0, sizeof(h->st));
	/* what came before the window is not the window's */
	(void)oncpu_drain(h->o, NULL, NULL, &h->st);
	memset(&h->st, 0, sizeof(h->st));
	h->counting = oncpu_enable(h->o, true) == 0;
	return h->counting ? 0 : -1;
}

/* The family of a sample's process, or -1 when it is neither the workload's nor the target's. */
static int
sample_family(const struct hot_sampler *h, pid_t pid)
{
	int f;

	for (f = WAIT_WORKLOAD; f <= WAIT_TARGET; f++)
		if (h->npids[f] > 0 &&
		    bsearch(&pid, h->pids[f], h->npids[f], sizeof(pid_t), pid_cmp) != NULL)
			return f;
	return -1;
}

/* Grows a pid array to hold one more; -1 without memory. */
static int
pids_room(pid_t **v, size_t n, size_t *cap)
{
	size_t ncap = *cap ? 2 * *cap : 16;
	pid_t *p;

	if (n < *cap)
		return 0;
	if ((p = realloc(*v, ncap * sizeof(*p))) == NULL)
		return -1;
	*v = p;
	*cap = ncap;
	return 0;
}

/* A process sampled for the first time goes on the list to be noted. */
static void
sample_seen(struct hot_sampler *h, pid_t pid)
{
	size_t lo = 0, hi = h->nseen, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->seen[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < h->nseen && h->seen[lo] == pid)
		return;
	if (pids_room(&h->seen, h->nseen, &h->capseen) < 0 ||
	    pids_room(&h->fresh, h->nfresh, &h->capfresh) < 0)
		return;
	memmove(h->seen + lo + 1, h->seen + lo, (h->nseen - lo) * sizeof(pid_t));
	h->seen[lo] = pid;
	h->nseen++;
	h->fresh[h->nfresh++] = pid;
}

static void
sample_keep(const struct oncpu_sample *s, void *arg)
{
	struct hot_sampler *h = arg;
	int f = sample_family(h, s->pid);

	if (f < 0)
		return;
	(void)hot_tally_add(&h->tally, (enum wait_family)f, s->pid, s->ip, s->nkernel, s->nframes);
	if (s->nframes > s->nkernel)
		sample_seen(h, s->pid);
}

/* Notes up to max fresh processes (all with max 0). */
static void
notes_run(struct hot_sampler *h, hot_note_fn note, void *arg, size_t max)
{
	size_t k = max == 0 || max > h->nfresh ? h->nfresh : max, i;

	if (k == 0)
		return;
	for (i = 0; note != NULL && i < k; i++)
		note(arg, h->fresh[i]);
	memmove(h->fresh, h->fresh + k, (h->nfresh - k) * sizeof(pid_t));
	h->nfresh -= k;
}

void
hot_sampler_tick(struct hot_sampler *h, hot_note_fn note, void *arg)
{
	if (h->o == NULL || !h->counting)
		return;
	(void)oncpu_drain(h->o, sample_keep, h, &h->st);
	notes_run(h, note, arg, HOT_NOTES_PER_TICK);
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t *
hot_sampler_kernel_addrs(const struct hot_sampler *h, size_t *n)
{
	const struct hot_tally *t = &h->tally;
	struct hot_chain_view c;
	uint64_t *v;
	size_t k = 0, total = 0, i, out = 0;
	int j;

	*n = 0;
	for (i = 0; i < (size_t)t->nchains; i++) {
		hot_chain_view(t, (int)i, &c);
		total += (size_t)c.nkernel;
	}
	if (total == 0 || (v = malloc(total * sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < (size_t)t->nchains; i++) {
		hot_chain_view(t, (int)i, &c);
		for (j = 0; j < c.nkernel; j++)
			v[k++] = c.ip[j];
	}
	qsort(v, k, sizeof(*v), u64_cmp);
	for (i = 0; i < k; i++)
		if (out == 0 || v[out - 1] != v[i])
			v[out++] = v[i];
	*n = out;
	return v;
}

int
hot_sampler_end(struct hot_sampler *h, hot_namer namer, void *arg, hot_note_fn note,
		struct step_hot *out)
{
	struct hot_named nm;
	int f;

	step_hot_clear(out);
	if (h->o == NULL || !h->counting)
		return 0;
	(void)oncpu_drain(h->o, sample_keep, h, &h->st);
	(void)oncpu_enable(h->o, false);
	h->counting = false;
	notes_run(h, note, arg, 0);
	if (hot_tally_name(&h->tally, namer, arg, HOT_PER_FAMILY, &nm) != 0)
		return -1;
	out->paths = nm.paths;
	out->npaths = nm.npaths;
	out->spins = nm.spins;
	out->nspins = nm.nspins;
	out->selfs = nm.selfs;
	out->nselfs = nm.nselfs;
	for (f = 0; f < WAIT_NFAMILIES; f++) {
		out->spin_share[f] = nm.spin_share[f];
		out->user_spin_share[f] = nm.user_spin_share[f];
	}
	/* without memory for them the stacks are NULL: the paths stand alone */
	(void)hot_stacks_from_tally(&h->tally, namer, arg, HOT_STACKS_MAX, &out->stacks);
	memcpy(out->samples, h->tally.samples, sizeof(out->samples));
	out->present = true;
	return 0;
}

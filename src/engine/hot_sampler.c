/*
 * The window's on-CPU samples, by family (hot_sampler.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hot_sampler.h"

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

static void
sample_keep(const struct oncpu_sample *s, void *arg)
{
	struct hot_sampler *h = arg;
	int f = sample_family(h, s->pid);

	if (f >= 0)
		(void)hot_tally_add(&h->tally, (enum wait_family)f, s->pid, s->ip, s->nkernel,
				    s->nframes);
}

void
hot_sampler_tick(struct hot_sampler *h)
{
	if (h->o != NULL && h->counting)
		(void)oncpu_drain(h->o, sample_keep, h, &h->st);
}

int
hot_sampler_end(struct hot_sampler *h, hot_namer namer, void *arg, struct step_hot *out)
{
	step_hot_clear(out);
	if (h->o == NULL || !h->counting)
		return 0;
	(void)oncpu_drain(h->o, sample_keep, h, &h->st);
	(void)oncpu_enable(h->o, false);
	h->counting = false;
	if (hot_tally_name(&h->tally, namer, arg, HOT_PER_FAMILY, &out->paths, &out->npaths,
			   &out->spins, &out->nspins, out->spin_share) != 0)
		return -1;
	memcpy(out->samples, h->tally.samples, sizeof(out->samples));
	out->present = true;
	return 0;
}

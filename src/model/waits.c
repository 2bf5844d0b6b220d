/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wait profile's arithmetic (waits.h): weights tallied by family, state
 * and channel, turned into shares per family.  A linear search is enough:
 * a step sees tens of distinct channels, not thousands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/waits.h"
#include "scaletop/grow.h"

const char *const wait_family_names[] = { "workload", "target", "probe" };
const char *const wait_state_names[] = { "running",         "runnable", "sleeping",
					 "uninterruptible", "reported", "other" };

void
wait_tally_init(struct wait_tally *t)
{
	memset(t, 0, sizeof(*t));
}

void
wait_tally_free(struct wait_tally *t)
{
	free(t->e);
	wait_tally_init(t);
}

void
wait_tally_reset(struct wait_tally *t)
{
	t->n = 0;
}

static int
wait_find(const struct wait_tally *t, enum wait_family f, enum wait_state s, const char *channel)
{
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->e[i].family == f && t->e[i].state == s &&
		    strncmp(t->e[i].channel, channel, WAIT_CHANNEL_LEN - 1) == 0)
			return i;
	}
	return -1;
}

int
wait_tally_add(struct wait_tally *t, enum wait_family f, enum wait_state s, const char *channel,
	       double weight)
{
	struct wait_share *e;
	int i;

	if (channel == NULL)
		channel = "";
	if (!(weight > 0) || (unsigned)f >= WAIT_NFAMILIES || (unsigned)s >= WS_NSTATES)
		return 0;
	i = wait_find(t, f, s, channel);
	if (i >= 0) {
		t->e[i].share += weight;
		t->e[i].readings++;
		return 0;
	}
	if (grow_array_int(&t->e, &t->cap, t->n + 1, sizeof(*e), 16) != 0)
		return -1;
	e = &t->e[t->n++];
	e->family = f;
	e->state = s;
	strncpy(e->channel, channel, WAIT_CHANNEL_LEN - 1);
	e->channel[WAIT_CHANNEL_LEN - 1] = '\0';
	e->share = weight;
	e->readings = 1;
	return 0;
}

double
wait_tally_total(const struct wait_tally *t, enum wait_family f)
{
	double sum = 0;
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->e[i].family == f)
			sum += t->e[i].share;
	}
	return sum;
}

/* Family first, then the larger weight, then the name: a stable order for files and tests. */
static int
wait_cmp(const void *pa, const void *pb)
{
	const struct wait_share *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->share != b->share)
		return a->share > b->share ? -1 : 1;
	if (a->state != b->state)
		return a->state < b->state ? -1 : 1;
	return strcmp(a->channel, b->channel);
}

/* Folds lines [from, to) of one family into the line at from, as "(rest)". */
static void
wait_fold(struct wait_share *w, int from, int to)
{
	int i;

	for (i = from + 1; i < to; i++) {
		w[from].share += w[i].share;
		w[from].readings += w[i].readings;
	}
	w[from].state = WS_OTHER;
	strcpy(w[from].channel, "(rest)");
}

int
wait_tally_shares(const struct wait_tally *t, int max_per_family, struct wait_share **out, int *n)
{
	struct wait_share *w;
	int i, j, k, m = 0;

	*out = NULL;
	*n = 0;
	if (t->n == 0)
		return 0;
	w = malloc((size_t)t->n * sizeof(*w));
	if (w == NULL)
		return -1;
	memcpy(w, t->e, (size_t)t->n * sizeof(*w));
	qsort(w, (size_t)t->n, sizeof(*w), wait_cmp);
	for (i = 0; i < t->n; i = j) {
		double total = 0;
		int keep;

		for (j = i; j < t->n && w[j].family == w[i].family; j++)
			total += w[j].share;
		keep = j - i;
		if (max_per_family > 0 && keep > max_per_family) {
			wait_fold(w, i + max_per_family - 1, j);
			keep = max_per_family;
		}
		for (k = 0; k < keep; k++) {
			w[m] = w[i + k];
			w[m].share = total > 0 ? w[m].share / total : 0;
			m++;
		}
	}
	*out = w;
	*n = m;
	return 0;
}

double
wait_share_of(const struct wait_share *w, int n, enum wait_family f, enum wait_state s,
	      const char *channel)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].family == f && w[i].state == s &&
		    (channel == NULL || strcmp(w[i].channel, channel) == 0))
			sum += w[i].share;
	}
	return sum;
}

bool
wait_has_family(const struct wait_share *w, int n, enum wait_family f)
{
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].family == f)
			return true;
	}
	return false;
}

static int
name_index(const char *const *names, int count, const char *name)
{
	int i;

	for (i = 0; i < count; i++) {
		if (strcmp(names[i], name) == 0)
			return i;
	}
	return -1;
}

int
wait_family_from_name(const char *name)
{
	return name_index(wait_family_names, WAIT_NFAMILIES, name);
}

int
wait_state_from_name(const char *name)
{
	return name_index(wait_state_names, WS_NSTATES, name);
}

/*
 * The kernel-stack histogram (kstacks.h): stacks tallied by key, a window
 * of them.  Few distinct stacks come from a few reads a tick (tens in a
 * window), so they are kept in an array searched linearly; a tick's reads
 * wait in a small list until its end says how many blocked readings they
 * stand for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/kstacks.h"

struct kstack_count {
	enum wait_family family;
	char key[STEP_KSTACK_LEN];
	double weight;
	unsigned long readings;
};

/* A stack read in the open tick: its count and the weight to be scaled. */
struct kstack_pending {
	int idx; /* into counts, or -1: past KSTACK_MAX_KEYS, the total only */
	enum wait_family family;
	double weight;
};

struct kstack_tally {
	struct kstack_count *c;
	size_t n, cap;
	struct kstack_pending pend[KSTACK_TICK_MAX];
	size_t npend;
	unsigned tick_blocked[WAIT_NFAMILIES], tick_read[WAIT_NFAMILIES];
	double total[WAIT_NFAMILIES];
	unsigned long reads;
};

/* Frames of the switch itself, Linux's and FreeBSD's (Linux's stack file leaves most out). */
static const char *const switch_frames[] = {
	"__schedule", "schedule",      "preempt_schedule",     "preempt_schedule_common",
	"mi_switch",  "sleepq_switch", "sleepq_catch_signals",
};

bool
kstack_frame_is_switch(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(switch_frames) / sizeof(switch_frames[0]); i++)
		if (strcmp(name, switch_frames[i]) == 0)
			return true;
	return false;
}

void
kstack_key(const struct kstack *ks, char *out, size_t len)
{
	int first = 0, i;
	size_t off = 0;

	if (len == 0)
		return;
	out[0] = '\0';
	while (first < ks->nframes && kstack_frame_is_switch(ks->frame[first]))
		first++;
	if (first == ks->nframes)
		first = 0; /* nothing but the switch: say so */
	for (i = first; i < ks->nframes && i < first + KSTACK_KEY_FRAMES && off < len; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i > first ? ";" : "",
					ks->frame[i]);
}

struct kstack_tally *
kstack_tally_new(void)
{
	return calloc(1, sizeof(struct kstack_tally));
}

void
kstack_tally_free(struct kstack_tally *t)
{
	if (t == NULL)
		return;
	free(t->c);
	free(t);
}

void
kstack_tally_reset(struct kstack_tally *t)
{
	struct kstack_count *c = t->c;
	size_t cap = t->cap;

	memset(t, 0, sizeof(*t));
	t->c = c;
	t->cap = cap;
}

void
kstack_tally_blocked(struct kstack_tally *t, enum wait_family f)
{
	if (f >= 0 && f < WAIT_NFAMILIES)
		t->tick_blocked[f]++;
}

/* The count of (f, key), made when new; -1 past KSTACK_MAX_KEYS or without memory. */
static int
kstack_find(struct kstack_tally *t, enum wait_family f, const char *key)
{
	struct kstack_count *c;
	size_t i, ncap;

	for (i = 0; i < t->n; i++)
		if (t->c[i].family == f && strcmp(t->c[i].key, key) == 0)
			return (int)i;
	if (t->n >= KSTACK_MAX_KEYS)
		return -1;
	if (t->n == t->cap) {
		ncap = t->cap > 0 ? 2 * t->cap : 16;
		if ((c = realloc(t->c, ncap * sizeof(*c))) == NULL)
			return -1;
		t->c = c;
		t->cap = ncap;
	}
	c = &t->c[t->n];
	memset(c, 0, sizeof(*c));
	c->family = f;
	snprintf(c->key, sizeof(c->key), "%s", key);
	return (int)t->n++;
}

int
kstack_tally_add(struct kstack_tally *t, enum wait_family f, const struct kstack *ks, double weight)
{
	char key[STEP_KSTACK_LEN];
	int idx;

	if (f < 0 || f >= WAIT_NFAMILIES || ks->nframes == 0 || !(weight >= 0)) {
		errno = EINVAL;
		return -1;
	}
	if (t->npend >= KSTACK_TICK_MAX) {
		errno = ENOSPC;
		return -1;
	}
	kstack_key(ks, key, sizeof(key));
	if ((idx = kstack_find(t, f, key)) >= 0)
		t->c[idx].readings++;
	t->pend[t->npend++] = (struct kstack_pending){ idx, f, weight };
	t->tick_read[f]++;
	t->reads++;
	return 0;
}

void
kstack_tally_tick(struct kstack_tally *t, enum wait_family f)
{
	double scale;
	size_t i, j;

	if (f < 0 || f >= WAIT_NFAMILIES)
		return;
	scale = t->tick_read[f] > 0 && t->tick_blocked[f] > t->tick_read[f]
			? (double)t->tick_blocked[f] / t->tick_read[f]
			: 1;
	for (i = j = 0; i < t->npend; i++) {
		if (t->pend[i].family != f) {
			t->pend[j++] = t->pend[i];
			continue;
		}
		if (t->pend[i].idx >= 0)
			t->c[t->pend[i].idx].weight += t->pend[i].weight * scale;
		t->total[f] += t->pend[i].weight * scale;
	}
	t->npend = j;
	t->tick_blocked[f] = t->tick_read[f] = 0;
}

unsigned long
kstack_tally_reads(const struct kstack_tally *t)
{
	return t->reads;
}

int
kstack_tally_top(const struct kstack_tally *t, enum wait_family f, struct step_kstack *out, int max)
{
	bool *taken;
	size_t i, best;
	int n = 0;

	if (t->n == 0 || (taken = calloc(t->n, sizeof(*taken))) == NULL)
		return 0;
	while (n < max) {
		best = t->n;
		for (i = 0; i < t->n; i++) {
			if (taken[i] || t->c[i].family != f || t->c[i].readings == 0)
				continue;
			if (best == t->n || t->c[i].weight > t->c[best].weight ||
			    (t->c[i].weight == t->c[best].weight &&
			     t->c[i].readings > t->c[best].readings))
				best = i;
		}
		if (best == t->n)
			break;
		taken[best] = true;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].family = f;
		snprintf(out[n].stack, sizeof(out[n].stack), "%s", t->c[best].key);
		out[n].share = t->total[f] > 0 ? t->c[best].weight / t->total[f] : 0;
		out[n].readings = t->c[best].readings;
		n++;
	}
	free(taken);
	return n;
}

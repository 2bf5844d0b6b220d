/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel-stack histogram (kstacks.h): stacks tallied by key, a window
 * of them.  Few distinct stacks come from a few reads a tick (tens in a
 * window), so they are kept in an array searched linearly; a tick's reads
 * wait in a small list until its end says how many blocked readings they
 * stand for.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/hotstacks.h"
#include "scaletop/kstacks.h"

/*
 * Each read is also tallied by its whole stack (up to KSTACK_MAX_WHOLE of
 * them, found by a hash and a compare) for the step's flame graph of blocked
 * time.
 */

struct kstack_count {
	enum wait_family family;
	char key[STEP_KSTACK_LEN];
	double weight;
	unsigned long readings;
};

/* A whole stack: its frames innermost first, each ending in '\n'. */
struct kstack_whole {
	enum wait_family family;
	uint32_t hash;
	char *frames;
	double weight;
};

/* A stack read in the open tick: its count and the weight to be scaled. */
struct kstack_pending {
	int idx;   /* into counts, or -1: past KSTACK_MAX_KEYS, the total only */
	int whole; /* into whole, or -1: past KSTACK_MAX_WHOLE */
	enum wait_family family;
	double weight;
};

struct kstack_tally {
	struct kstack_count *c;
	size_t n, cap;
	struct kstack_whole *w;
	size_t nw, capw;
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
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nw; i++)
		free(t->w[i].frames);
	free(t->w);
	free(t->c);
	free(t);
}

void
kstack_tally_reset(struct kstack_tally *t)
{
	struct kstack_count *c = t->c;
	struct kstack_whole *w = t->w;
	size_t cap = t->cap, capw = t->capw, i;

	for (i = 0; i < t->nw; i++)
		free(w[i].frames);
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->cap = cap;
	t->w = w;
	t->capw = capw;
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

/* The whole stack ks of family f, made when new; -1 past KSTACK_MAX_WHOLE or without memory. */
static int
kstack_whole_find(struct kstack_tally *t, enum wait_family f, const struct kstack *ks)
{
	char buf[KSTACK_FRAMES * (KSTACK_NAME_LEN + 1) + 1];
	struct kstack_whole *w;
	size_t off = 0, i, ncap;
	uint32_t h = 2166136261u;
	int j;

	for (j = 0; j < ks->nframes && j < KSTACK_FRAMES; j++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%.*s\n", KSTACK_NAME_LEN - 1,
					ks->frame[j]);
	for (i = 0; i < off; i++)
		h = (h ^ (unsigned char)buf[i]) * 16777619u;
	for (i = 0; i < t->nw; i++)
		if (t->w[i].hash == h && t->w[i].family == f && strcmp(t->w[i].frames, buf) == 0)
			return (int)i;
	if (t->nw >= KSTACK_MAX_WHOLE)
		return -1;
	if (t->nw == t->capw) {
		ncap = t->capw > 0 ? 2 * t->capw : 16;
		if ((w = realloc(t->w, ncap * sizeof(*w))) == NULL)
			return -1;
		t->w = w;
		t->capw = ncap;
	}
	if ((t->w[t->nw].frames = strdup(buf)) == NULL)
		return -1;
	t->w[t->nw].family = f;
	t->w[t->nw].hash = h;
	t->w[t->nw].weight = 0;
	return (int)t->nw++;
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
	t->pend[t->npend++] =
		(struct kstack_pending){ idx, kstack_whole_find(t, f, ks), f, weight };
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
		if (t->pend[i].whole >= 0)
			t->w[t->pend[i].whole].weight += t->pend[i].weight * scale;
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

/* Whole stack w as a stack of st, root first, with count ms. */
static int
whole_add(struct hot_stacks *st, const struct kstack_whole *w, uint64_t ms)
{
	const char *name[KSTACK_FRAMES];
	char buf[KSTACK_FRAMES * (KSTACK_NAME_LEN + 1) + 1], *p, *nl;
	int n = 0, i;

	snprintf(buf, sizeof(buf), "%s", w->frames);
	for (p = buf; n < KSTACK_FRAMES && (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		*nl = '\0';
		name[n++] = p;
	}
	for (i = 0; i < n / 2; i++) {
		p = (char *)name[i];
		name[i] = name[n - 1 - i];
		name[n - 1 - i] = p;
	}
	return hot_stacks_add_names(st, w->family, name, n, n, ms);
}

/*
 * Family f's whole stacks into st, in milliseconds rounded so that they
 * and other[f] add up to the family's weighed time rounded: each stack
 * gets the rounded running sum less the one before it.
 */
static int
whole_family(const struct kstack_tally *t, enum wait_family f, struct hot_stacks *st)
{
	uint64_t total = (uint64_t)llround(t->total[f] * 1e3), prev = 0, now;
	double cum = 0;
	size_t i;

	for (i = 0; i < t->nw; i++) {
		if (t->w[i].family != f)
			continue;
		cum += t->w[i].weight * 1e3;
		now = (uint64_t)llround(cum);
		if (now > prev && whole_add(st, &t->w[i], now - prev) != 0)
			return -1;
		prev = now > prev ? now : prev;
	}
	st->other[f] = total > prev ? total - prev : 0;
	return 0;
}

int
kstack_tally_stacks(const struct kstack_tally *t, struct hot_stacks **out)
{
	struct hot_stacks *st;
	int f;

	*out = NULL;
	if (t->nw == 0 && t->total[WAIT_WORKLOAD] <= 0 && t->total[WAIT_TARGET] <= 0)
		return 0;
	if ((st = hot_stacks_new()) == NULL)
		return -1;
	for (f = WAIT_WORKLOAD; f <= WAIT_TARGET; f++)
		if (whole_family(t, (enum wait_family)f, st) != 0) {
			hot_stacks_free(st);
			return -1;
		}
	hot_stacks_finish(st, HOT_STACKS_MAX);
	*out = st;
	return 0;
}

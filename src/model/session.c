/* SPDX-License-Identifier: BSD-2-Clause */
/* Session bookkeeping: growing the step and event lists. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/hotstacks.h"
#include "scaletop/latency.h"
#include "scaletop/session.h"

const char *const step_status_names[] = {
	"running", "ok", "unstable", "failed", "interrupted",
};

const char *const event_kind_names[] = {
	"info", "step", "failure", "unstable", "warning", "collapse",
};

void
session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
}

void
step_hot_clear(struct step_hot *h)
{
	free(h->paths);
	free(h->spins);
	free(h->selfs);
	hot_stacks_free(h->stacks);
	memset(h, 0, sizeof(*h));
}

void
step_kstacks_clear(struct step_kstacks *k)
{
	hot_stacks_free(k->stacks);
	memset(k, 0, sizeof(*k));
	k->read_us = -1;
}

void
step_slots_free(struct step *st)
{
	int i;

	for (i = 0; i < STEP_SLOTS; i++) {
		if (st->slot[i].data != NULL && st->slot[i].free != NULL)
			st->slot[i].free(st->slot[i].data);
		st->slot[i].data = NULL;
		st->slot[i].free = NULL;
	}
}

void
step_free(struct step *st)
{
	step_slots_free(st);
	free(st->iv);
	free(st->cpu);
	free(st->waits);
	step_hot_clear(&st->hot);
	step_kstacks_clear(&st->kstacks);
	step_latency_clear(&st->lat);
	step_latency_clear(&st->lat_sync);
	st->iv = NULL;
	st->cpu = NULL;
	st->waits = NULL;
	st->niv = st->capiv = st->ncpu = st->nwaits = 0;
}

void
session_free(struct session *s)
{
	int i;

	for (i = 0; i < s->nsteps; i++)
		step_free(&s->steps[i]);
	free(s->steps);
	free(s->events);
	series_free(&s->ticks);
	free(s->set.n);
	if (s->wl.argv != NULL) {
		for (i = 0; s->wl.argv[i] != NULL; i++)
			free(s->wl.argv[i]);
		free(s->wl.argv);
	}
	session_init(s);
}

/* A settings' trials, 1 for files and tests that predate them. */
static int
plan_trials(const struct sweep_settings *set)
{
	return set->trials > 1 ? set->trials : 1;
}

int
session_plan_len(const struct sweep_settings *set)
{
	return plan_trials(set) * set->nn * (set->repeat > 1 ? set->repeat : 1);
}

void
session_plan_step(const struct sweep_settings *set, int i, int *ni, int *rep, int *trial)
{
	int r = set->repeat > 1 ? set->repeat : 1, per = set->nn * r, p;

	*trial = per > 0 ? i / per : 0;
	p = per > 0 ? (i % per) / r : 0;
	*rep = per > 0 ? (i % per) % r : 0;
	*ni = *trial % 2 == 0 ? p : set->nn - 1 - p;
}

struct step *
session_add_step(struct session *s, int n, int rep)
{
	struct step *st;

	if (grow_array_int(&s->steps, &s->capsteps, s->nsteps + 1, sizeof(*s->steps), 16) != 0)
		return NULL;
	st = &s->steps[s->nsteps++];
	memset(st, 0, sizeof(*st));
	st->tick_late_ms = st->tick_busy_ms = st->wait_read_ms = -1;
	st->kstacks.read_us = -1;
	st->wait_reads = -1;
	st->n = n;
	st->rep = rep;
	st->status = STEP_RUNNING;
	st->all.id = -1;
	return st;
}

int
step_add_interval(struct step *st, double rate)
{
	if (grow_array_int(&st->iv, &st->capiv, st->niv + 1, sizeof(*st->iv), 16) != 0)
		return -1;
	st->iv[st->niv++] = rate;
	return 0;
}

int
step_set_cpus(struct step *st, const struct sample_delta *d)
{
	struct cpu_usage *cpu = NULL;

	if (d->ncpu > 0) {
		cpu = malloc((size_t)d->ncpu * sizeof(*cpu));
		if (cpu == NULL)
			return -1;
		memcpy(cpu, d->cpu, (size_t)d->ncpu * sizeof(*cpu));
	}
	free(st->cpu);
	st->cpu = cpu;
	st->ncpu = d->ncpu;
	st->all = d->all;
	return 0;
}

int
session_add_event(struct session *s, int step, enum event_kind kind, double t, const char *fmt, ...)
{
	struct event *ev;
	va_list ap;

	if (grow_array_int(&s->events, &s->capevents, s->nevents + 1, sizeof(*s->events), 16) != 0)
		return -1;
	ev = &s->events[s->nevents++];
	ev->t = t;
	ev->step = step;
	ev->kind = kind;
	va_start(ap, fmt);
	vsnprintf(ev->text, sizeof(ev->text), fmt, ap);
	va_end(ap);
	return 0;
}

double
session_time(const struct session *s, uint64_t mono_ns)
{
	return mono_ns >= s->t0_ns ? (double)(mono_ns - s->t0_ns) / 1e9 : 0.0;
}

int
session_start_series(struct session *s, int ncpu, int cap)
{
	series_free(&s->ticks);
	if (series_init(&s->ticks, ncpu, cap) != 0)
		return -1;
	s->ticks.owner = s->ticks.tags = s->series_tag;
	s->series_from = 0;
	return 0;
}

/* Gives every tick stamped old the tag new. */
static void
series_retag(struct series *r, uint32_t old, uint32_t new)
{
	int i, n = series_len(r); /* the filled slots: the rest were never touched */

	for (i = 0; i < n; i++) {
		if (r->ring[i].owner == old)
			r->ring[i].owner = new;
	}
}

/*
 * Tag 0 is a ring's first owner's until the ring moves on: then the first
 * owner gets a tag of its own (its ticks retagged), so that 0 never names
 * two sessions.  A session new to the ring gets the next tag.
 */
void
session_take_series(struct session *to, struct session *from)
{
	struct series *r = &from->ticks;

	series_free(&to->ticks);
	if (r->cap > 0) {
		if (from->series_tag == 0) {
			from->series_tag = ++r->tags;
			series_retag(r, 0, from->series_tag);
		}
		if (to->series_tag == 0) {
			to->series_tag = ++r->tags;
			to->series_from = r->count;
		}
		r->owner = to->series_tag;
	}
	to->ticks = *r;
	memset(r, 0, sizeof(*r));
}

bool
session_owns_tick(const struct session *s, const struct tick *t)
{
	return t->owner == s->series_tag;
}

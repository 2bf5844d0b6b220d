/* SPDX-License-Identifier: BSD-2-Clause */
/* Sampling between sweeps; see idle.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/sweep.h"
#include "idle.h"

void
idle_init(struct idle *id, struct sampler *smp, int fake_cpus)
{
	memset(id, 0, sizeof(*id));
	id->smp = smp;
	id->fake = fake_cpus;
	raw_sample_init(&id->prev);
	raw_sample_init(&id->cur);
	sample_delta_init(&id->d);
}

void
idle_free(struct idle *id)
{
	raw_sample_free(&id->prev);
	raw_sample_free(&id->cur);
	sample_delta_free(&id->d);
}

static void idle_sample(struct idle *id);

void
idle_reset(struct idle *id)
{
	id->have_prev = false;
	id->have = false;
}

/* Shows d (a sweep's last figures) until our own next interval, so no gap shows "n/a". */
void
idle_adopt(struct idle *id, const struct sample_delta *d)
{
	struct cpu_usage *c;

	idle_reset(id);
	if (id->fake > 0 || d->ncpu <= 0)
		return;
	c = realloc(id->d.cpu, (size_t)d->ncpu * sizeof(*c));
	if (c == NULL)
		return;
	memcpy(c, d->cpu, (size_t)d->ncpu * sizeof(*c));
	id->d.cpu = c;
	id->d.cap = id->d.ncpu = d->ncpu;
	id->d.all = d->all;
	id->have = true;
	idle_sample(id);
	id->have = true;
}

/* A moving pattern with some CPUs idle, some saturated, so every shade shows. */
static void
idle_fake(struct idle *id)
{
	int i;
	int s;
	struct sample_delta *d = &id->d;

	if (d->cap < id->fake) {
		struct cpu_usage *c = realloc(d->cpu, (size_t)id->fake * sizeof(*c));
		if (c == NULL)
			return;
		d->cpu = c;
		d->cap = id->fake;
	}
	d->ncpu = d->ncpu_with_data = id->fake;
	memset(&d->all, 0, sizeof(d->all));
	d->all.id = -1;
	for (i = 0; i < id->fake; i++) {
		struct cpu_usage *c = &d->cpu[i];
		double busy = 50 + 50 * sin((double)id->k * 0.15 + i * 0.07) * cos(i * 0.013);

		busy = busy < 0 ? 0 : busy > 100 ? 100 : busy;
		memset(c, 0, sizeof(*c));
		c->id = i;
		c->pct[CPU_USER] = busy * 0.7;
		c->pct[CPU_NICE] = busy * 0.05;
		c->pct[CPU_SYS] = busy * 0.2;
		c->pct[CPU_SOFTIRQ] = busy * 0.05;
		c->pct[CPU_IOWAIT] = (100 - busy) * 0.02;
		c->pct[CPU_IDLE] = 100 - busy - c->pct[CPU_IOWAIT];
		c->busy = busy;
		for (s = 0; s < CPU_NSTATES; s++)
			d->all.pct[s] += c->pct[s] / id->fake;
		d->all.busy += busy / id->fake;
	}
	d->seconds = 1;
	id->have = true;
	id->k++;
}

static void
idle_sample(struct idle *id)
{
	struct raw_sample tmp;
	char err[ST_ERRLEN];

	if (sampler_read(id->smp, &id->cur, err, sizeof(err)) != 0) {
		id->have = false;
		return;
	}
	id->have = id->have_prev && sample_delta_compute(&id->d, &id->prev, &id->cur) == 0;
	tmp = id->prev;
	id->prev = id->cur;
	id->cur = tmp;
	id->have_prev = true;
}

/* The series holds CPU ids 0 .. highest; started on the first sample. */
static void
idle_record(struct idle *id, struct session *s, uint64_t now)
{
	int i;
	const struct sample_delta *d = &id->d;
	int ncpu;

	if (s->ticks.cap == 0 && id->have && d->ncpu > 0) {
		ncpu = d->cpu[d->ncpu - 1].id + 1;
		session_start_series(s, ncpu, SERIES_DEFAULT_CAP);
	}
	if (s->ticks.cap == 0)
		return;
	ncpu = s->ticks.ncpu;
	float *busy = malloc((size_t)(ncpu > 0 ? ncpu : 1) * sizeof(float));
	struct tick t = {
		.t = session_time(s, now),
		.step = -1,
		.phase = PHASE_IDLE,
		.rate = NAN,
		.busy_all = id->have ? (float)d->all.busy : NAN,
	};

	if (busy == NULL)
		return;
	for (i = 0; i < ncpu; i++)
		busy[i] = NAN;
	for (i = 0; id->have && i < d->ncpu; i++) {
		if (d->cpu[i].id >= 0 && d->cpu[i].id < ncpu &&
		    !(d->cpu[i].flags & CPU_USAGE_NO_DATA))
			busy[d->cpu[i].id] = (float)d->cpu[i].busy;
	}
	series_add(&s->ticks, &t, busy);
	free(busy);
}

void
idle_tick(struct idle *id, struct session *s, uint64_t now_ns)
{
	if (id->fake > 0)
		idle_fake(id);
	else
		idle_sample(id);
	idle_record(id, s, now_ns);
}

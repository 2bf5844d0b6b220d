/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's mean CPU frequency: a handful of reads spread over its window
 * (freq_sampler.h).  The frequency moves with load and temperature, so one
 * read at an edge would say little; a read every tick would cost a
 * many-CPU machine hundreds of sysfs files four times a second.
 */
#include "scaletop/host.h"
#include "scaletop/platform.h"
#include "freq_sampler.h"

static void
freq_read(struct freq_sampler *f, uint64_t now)
{
	uint64_t (*clock)(void) = f->clock != NULL ? f->clock : mono_now_ns;
	int (*read)(double *) = f->read != NULL ? f->read : host_cpu_freq_mhz;
	uint64_t t0 = clock(), cost;
	double mhz = 0;
	int r = read(&mhz);

	cost = clock() - t0;
	if (cost > f->cost_ns)
		f->cost_ns = cost;
	if (r != 0 || !(mhz > 0)) {
		f->off = true;
		return;
	}
	if (f->n == 0 || mhz < f->min_mhz)
		f->min_mhz = mhz;
	if (f->n == 0 || mhz > f->max_mhz)
		f->max_mhz = mhz;
	f->sum += mhz;
	f->n++;
	f->next_ns = now + (cost * FREQ_COST_SHARE > FREQ_PERIOD_NS ? cost * FREQ_COST_SHARE
								    : FREQ_PERIOD_NS);
}

void
freq_sampler_begin(struct freq_sampler *f, uint64_t now)
{
	f->sum = 0;
	f->n = 0;
	f->off = false;
	freq_read(f, now);
}

void
freq_sampler_tick(struct freq_sampler *f, uint64_t now)
{
	if (!f->off && now >= f->next_ns)
		freq_read(f, now);
}

double
freq_sampler_end(struct freq_sampler *f, uint64_t now)
{
	freq_sampler_tick(f, now);
	return f->n > 0 ? f->sum / f->n : 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The arithmetic between two raw samples: per-CPU shares of each state and
 * system rates per second.  Every figure is bounded here, so no view has to
 * guard against negative or >100% values.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/delta.h"

void
sample_delta_init(struct sample_delta *d)
{
	memset(d, 0, sizeof(*d));
	d->all.id = -1;
}

void
sample_delta_free(struct sample_delta *d)
{
	free(d->cpu);
	sample_delta_init(d);
}

/* The union of both samples can hold at most prev->ncpu + cur->ncpu ids. */
static int
delta_reserve(struct sample_delta *d, int n)
{
	struct cpu_usage *p;

	if (n <= d->cap)
		return 0;
	p = realloc(d->cpu, (size_t)n * sizeof(*p));
	if (p == NULL) {
		errno = ENOMEM;
		return -1;
	}
	d->cpu = p;
	d->cap = n;
	return 0;
}

static double
delta_clamp_pct(double v)
{
	if (!(v > 0.0)) /* also catches NaN */
		return 0.0;
	return v > 100.0 ? 100.0 : v;
}

/*
 * Per-state tick deltas of one CPU present in both samples.  A counter that
 * went backwards (Linux iowait does, since it is estimated per CPU) counts as
 * no time in that state rather than a huge unsigned difference.
 */
static unsigned
delta_ticks(uint64_t out[CPU_NSTATES], const struct cpu_ticks *a, const struct cpu_ticks *b)
{
	unsigned flags = 0;
	int i;

	for (i = 0; i < CPU_NSTATES; i++) {
		if (b->tick[i] >= a->tick[i])
			out[i] = b->tick[i] - a->tick[i];
		else {
			out[i] = 0;
			flags |= CPU_USAGE_BACKWARDS;
		}
	}
	return flags;
}

/* Shares of each state from tick deltas; NO_TICKS when nothing elapsed. */
static void
delta_fill(struct cpu_usage *u, const uint64_t t[CPU_NSTATES])
{
	uint64_t total = 0, busy;
	int i;

	for (i = 0; i < CPU_NSTATES; i++)
		total += t[i];
	if (total == 0) {
		u->flags |= CPU_USAGE_NO_TICKS;
		return;
	}
	for (i = 0; i < CPU_NSTATES; i++)
		u->pct[i] = delta_clamp_pct(100.0 * (double)t[i] / (double)total);
	/* Integer subtraction keeps busy exact instead of 100 - x - y rounding below 0. */
	busy = total - t[CPU_IDLE] - t[CPU_IOWAIT];
	u->busy = delta_clamp_pct(100.0 * (double)busy / (double)total);
}

/*
 * One row of the union.  a or b is NULL when the CPU is missing from that
 * sample.  A CPU that was offline and is now online is treated as new: the
 * backend reports offline CPUs with zero ticks, so a difference against that
 * would be the CPU's whole lifetime, not this interval.
 */
static void
delta_cpu(struct cpu_usage *u, const struct cpu_ticks *a, const struct cpu_ticks *b,
	  uint64_t sum[CPU_NSTATES], int *nwith)
{
	uint64_t t[CPU_NSTATES];
	int i;

	memset(u, 0, sizeof(*u));
	u->id = a != NULL ? a->id : b->id;
	if (b == NULL) {
		u->flags = CPU_USAGE_GONE;
		return;
	}
	if (b->flags & CPU_RAW_OFFLINE)
		u->flags |= CPU_USAGE_OFFLINE;
	if (a == NULL || ((a->flags & CPU_RAW_OFFLINE) && !(b->flags & CPU_RAW_OFFLINE)))
		u->flags |= CPU_USAGE_NEW;
	if (u->flags & CPU_USAGE_NO_DATA)
		return;

	u->flags |= delta_ticks(t, a, b);
	delta_fill(u, t);
	if (u->flags & CPU_USAGE_NO_DATA) {
		memset(u->pct, 0, sizeof(u->pct));
		u->busy = 0.0;
		return;
	}
	for (i = 0; i < CPU_NSTATES; i++)
		sum[i] += t[i];
	(*nwith)++;
}

/* Walks both sorted arrays at once, producing the sorted union of ids. */
static void
delta_cpus(struct sample_delta *d, const struct raw_sample *prev, const struct raw_sample *cur)
{
	uint64_t sum[CPU_NSTATES] = { 0 };
	const struct cpu_ticks *a, *b;
	int i = 0, j = 0, n = 0;
	unsigned backwards = 0;

	d->ncpu_with_data = 0;
	while (i < prev->ncpu || j < cur->ncpu) {
		a = i < prev->ncpu ? &prev->cpu[i] : NULL;
		b = j < cur->ncpu ? &cur->cpu[j] : NULL;
		if (a != NULL && b != NULL && a->id != b->id) {
			if (a->id < b->id)
				b = NULL;
			else
				a = NULL;
		}
		if (a != NULL)
			i++;
		if (b != NULL)
			j++;
		delta_cpu(&d->cpu[n], a, b, sum, &d->ncpu_with_data);
		backwards |= d->cpu[n].flags & CPU_USAGE_BACKWARDS;
		n++;
	}
	d->ncpu = n;

	/* The "all" row comes from the CPUs summed here, never an OS aggregate line. */
	memset(&d->all, 0, sizeof(d->all));
	d->all.id = -1;
	d->all.flags = backwards;
	delta_fill(&d->all, sum);
}

/* Rates of system counters; a counter missing from either sample or going backwards has none. */
static void
delta_sys(struct sample_delta *d, const struct sys_sample *a, const struct sys_sample *b)
{
	double usec = d->seconds * 1e6;
	int i;

	d->have_rate = 0;
	for (i = 0; i < SYS_NCOUNTERS; i++) {
		unsigned bit = 1u << i;

		d->rate[i] = 0.0;
		if (!(a->have & bit) || !(b->have & bit) || b->count[i] < a->count[i])
			continue;
		d->rate[i] = (double)(b->count[i] - a->count[i]) / d->seconds;
		d->have_rate |= bit;
	}

	/* Run queue is instantaneous, PSI a difference: PSI needs both samples. */
	d->flags = b->flags & SYS_HAVE_RUNQ;
	d->running = (d->flags & SYS_HAVE_RUNQ) ? b->running : 0;
	d->blocked = (d->flags & SYS_HAVE_RUNQ) ? b->blocked : 0;
	d->psi_some_pct = d->psi_full_pct = 0.0;
	if ((a->flags & b->flags & SYS_HAVE_PSI_SOME) && b->psi_some_us >= a->psi_some_us) {
		d->psi_some_pct =
			delta_clamp_pct((double)(b->psi_some_us - a->psi_some_us) / usec * 100.0);
		d->flags |= SYS_HAVE_PSI_SOME;
	}
	if ((a->flags & b->flags & SYS_HAVE_PSI_FULL) && b->psi_full_us >= a->psi_full_us) {
		d->psi_full_pct =
			delta_clamp_pct((double)(b->psi_full_us - a->psi_full_us) / usec * 100.0);
		d->flags |= SYS_HAVE_PSI_FULL;
	}
}

int
sample_delta_compute(struct sample_delta *d, const struct raw_sample *prev,
		     const struct raw_sample *cur)
{
	if (cur->mono_ns <= prev->mono_ns) {
		errno = EINVAL;
		return -1;
	}
	if (prev->ncpu < 0 || cur->ncpu < 0 || prev->ncpu > INT_MAX - cur->ncpu) {
		errno = EINVAL;
		return -1;
	}
	if (delta_reserve(d, prev->ncpu + cur->ncpu) != 0)
		return -1;

	/* Measured time, never the intended interval: sleeps overshoot and ticks get missed. */
	d->seconds = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	delta_cpus(d, prev, cur);
	delta_sys(d, &prev->sys, &cur->sys);
	return 0;
}

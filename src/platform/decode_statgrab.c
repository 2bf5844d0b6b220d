/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libstatgrab's machine-wide CPU totals turned into a raw sample with one
 * aggregate CPU, for the generic backend on OSes without a backend of their
 * own.  Pure code over the struct, so it is tested with made-up and live data.
 */
#include <errno.h>
#include <string.h>

#include "decode_bsd.h"

/* A counter libstatgrab leaves at 0 is one the OS does not provide. */
static void
statgrab_counter(struct sys_sample *sys, enum sys_counter c, unsigned long long v)
{
	if (v == 0)
		return;
	sys->count[c] = v;
	sys->have |= 1u << c;
}

/*
 * Time in `total` but in none of the named states.  On Linux libstatgrab
 * leaves iowait out of total, so the sum can exceed it: then nothing is left.
 */
static uint64_t
statgrab_unnamed(const sg_cpu_stats *st)
{
	unsigned long long named;

	named = st->user + st->nice + st->kernel + st->idle + st->iowait + st->swap;
	return st->total > named ? st->total - named : 0;
}

int
statgrab_decode(const sg_cpu_stats *st, struct raw_sample *s)
{
	struct cpu_ticks *c;

	if (st == NULL || (st->user | st->nice | st->kernel | st->idle | st->iowait | st->swap |
			   st->total) == 0) {
		errno = EINVAL;
		return -1;
	}
	if (raw_sample_reserve(s, 1) != 0)
		return -1;
	c = &s->cpu[0];
	memset(c, 0, sizeof(*c));
	c->id = STATGRAB_CPU_ID;
	c->tick[CPU_USER] = st->user;
	c->tick[CPU_NICE] = st->nice;
	c->tick[CPU_SYS] = st->kernel + statgrab_unnamed(st);
	c->tick[CPU_IOWAIT] = st->iowait + st->swap;
	c->tick[CPU_IDLE] = st->idle;
	s->ncpu = 1;

	memset(&s->sys, 0, sizeof(s->sys));
	statgrab_counter(&s->sys, SYS_CTXSW, st->context_switches);
	statgrab_counter(&s->sys, SYS_INTR, st->interrupts);
	statgrab_counter(&s->sys, SYS_SOFTIRQ, st->soft_interrupts);
	statgrab_counter(&s->sys, SYS_SYSCALL, st->syscalls);
	return 0;
}

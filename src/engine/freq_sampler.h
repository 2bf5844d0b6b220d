/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine/: the CPUs' mean frequency over a step's window
 * (host_cpu_freq_mhz), read at the window's start and then at most once a
 * second, and never more than 0.5% of the time: a read that cost 10 ms
 * waits 2 s for the next.  A machine that does not say is asked once a
 * window.
 */
#ifndef SCALETOP_ENGINE_FREQ_SAMPLER_H
#define SCALETOP_ENGINE_FREQ_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#define FREQ_PERIOD_NS 1000000000u /* at most one read a second */
#define FREQ_COST_SHARE 200        /* the next read waits at least 200 times the last one's cost */

/*
 * The step context owns one; test_freq_sampler drives it with a reader and a
 * clock of its own.
 */

struct freq_sampler {
	int (*read)(double *mhz); /* NULL: host_cpu_freq_mhz */
	uint64_t (*clock)(void);  /* NULL: mono_now_ns; times the reads */
	double sum;
	double min_mhz, max_mhz; /* the window's lowest and highest read, when n > 0 */
	int n;
	bool off;         /* the machine did not say this window */
	uint64_t next_ns; /* the next read is due */
	uint64_t cost_ns; /* the dearest read so far, for the measurement's record */
};

/* A new window at now: the mean starts afresh with a read now. */
void freq_sampler_begin(struct freq_sampler *f, uint64_t now);
/* A tick in the window: a read when one is due. */
void freq_sampler_tick(struct freq_sampler *f, uint64_t now);
/* The window ends: a last read if due; the mean in MHz, or 0 when nothing was read. */
double freq_sampler_end(struct freq_sampler *f, uint64_t now);

#endif

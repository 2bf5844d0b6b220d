/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Turning two raw samples into what a person reads: per-CPU percentages and
 * system rates per second.  Portable and pure; every backend shares it.
 */
#ifndef SCALETOP_DELTA_H
#define SCALETOP_DELTA_H

#include <stdbool.h>

#include "scaletop/platform.h"

/* cpu_usage.flags: why a CPU's figures are missing or adjusted this interval */
#define CPU_USAGE_NEW 0x01       /* appeared since the previous sample: no figures yet */
#define CPU_USAGE_GONE 0x02      /* present before, absent now */
#define CPU_USAGE_OFFLINE 0x04   /* the OS reports it offline */
#define CPU_USAGE_BACKWARDS 0x08 /* a counter went backwards; that state counted as 0 */
#define CPU_USAGE_NO_TICKS 0x10  /* no time elapsed on this CPU (interval too short) */
#define CPU_USAGE_NO_DATA (CPU_USAGE_NEW | CPU_USAGE_GONE | CPU_USAGE_OFFLINE | CPU_USAGE_NO_TICKS)

struct cpu_usage {
	int id;                  /* OS CPU id; -1 for the "all" row */
	unsigned flags;          /* CPU_USAGE_*; pct[] and busy are 0 when NO_DATA is set */
	double pct[CPU_NSTATES]; /* each in [0,100], summing to 100 when there is data */
	double busy;             /* 100 - idle - iowait */
};

struct sample_delta {
	double seconds; /* measured CLOCK_MONOTONIC time between the samples */
	int ncpu;       /* union of the CPUs in both samples, sorted by id */
	int cap;
	struct cpu_usage *cpu;      /* owned; grown by sample_delta_compute */
	struct cpu_usage all;       /* sum over CPUs with data in both samples */
	int ncpu_with_data;         /* how many CPUs went into `all` */
	double rate[SYS_NCOUNTERS]; /* per second */
	unsigned have_rate; /* bit i: rate[i] valid (present in both, did not go backwards) */
	unsigned flags;     /* SYS_HAVE_*: RUNQ from newer sample; PSI_* if % valid */
	uint32_t running, blocked; /* from the newer sample */
	double psi_some_pct;       /* % of wall time some task waited for a CPU */
	double psi_full_pct;
};

void sample_delta_init(struct sample_delta *d);
void sample_delta_free(struct sample_delta *d);

/*
 * Computes the change from prev to cur.  Never yields a negative or >100%
 * figure: backwards counters are clamped and flagged, CPUs that come and go
 * are flagged.  Returns -1 only on ENOMEM or when cur is not newer than prev.
 */
int sample_delta_compute(struct sample_delta *d, const struct raw_sample *prev,
			 const struct raw_sample *cur);

#endif

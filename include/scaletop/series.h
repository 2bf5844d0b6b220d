/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recent time series: one entry per engine tick, kept in a ring so a long run
 * costs bounded memory.  Live views draw sparklines and the per-CPU heatmap
 * from it; the JSON Lines recorder writes each entry as it is added, and the
 * replay reader rebuilds it.  Pure data, no I/O.
 */
#ifndef SCALETOP_SERIES_H
#define SCALETOP_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#define SERIES_DEFAULT_CAP 4096 /* ~17 minutes at 4 ticks a second */

struct tick {
	double t;       /* session seconds */
	int step;       /* session step index, -1 when none runs */
	int phase;      /* enum sweep_phase */
	double rate;    /* throughput over the last interval; NaN if none */
	float busy_all; /* % of all CPUs busy; NaN if unknown */
	uint32_t owner; /* the session's series_tag when it was added (series_add stamps it) */
	float *busy;    /* busy % by CPU id, ncpu entries (NaN: no data); the series owns it */
};

struct series {
	int ncpu;       /* entries per tick's busy[]: highest CPU id + 1, fixed at init */
	int cap;        /* ring capacity */
	int64_t count;  /* ticks ever added (the ring holds the last min(count, cap)) */
	uint32_t owner; /* stamped on each tick added: the owning session's series_tag */
	uint32_t tags;  /* the highest tag handed out (session_take_series) */
	struct tick *ring;
	float *busy_store; /* cap * ncpu floats backing every filled tick's busy[] */
};

int series_init(struct series *s, int ncpu, int cap);
void series_free(struct series *s);
/*
 * Appends a tick (busy may be NULL), stamped with s->owner; copies
 * busy[0..ncpu-1].  Overwrites the oldest.
 */
void series_add(struct series *s, const struct tick *t, const float *busy);
/* The ring's slot for tick number idx (count order), with its busy[] row attached. */
struct tick *series_slot(struct series *s, int64_t idx);
/* Ticks currently held. */
int series_len(const struct series *s);
/* The i-th held tick, 0 = oldest, series_len-1 = newest; NULL if out of range. */
const struct tick *series_at(const struct series *s, int i);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/* A step's latency figures (struct step_latency, session.h): made from a histogram or intervals. */
#ifndef SCALETOP_LATENCY_H
#define SCALETOP_LATENCY_H

#include <stdbool.h>

#include "scaletop/lathist.h"
#include "scaletop/session.h"

/* "none", "exact", "histogram", "interval": enum lat_method's names in the JSON. */
extern const char *const lat_method_names[];

/* Frees the buckets and leaves l not measured. */
void step_latency_clear(struct step_latency *l);

/*
 * l from a histogram of count operations: its percentiles, mean and max,
 * and its used buckets.  -1 when memory for the buckets runs out (the
 * figures are set even then, without buckets); 0 otherwise, an empty
 * histogram leaving l not measured.
 */
int latency_from_hist(struct step_latency *l, const struct lathist *h, enum lat_method m);

/*
 * l from a tool's per-interval figure (its pct-th percentile, or its mean
 * when pct is 0) over n intervals: their median, and the percentile field
 * it is when the tool printed one of p50, p90, p99 or p99.9.
 */
void latency_from_intervals(struct step_latency *l, const double *ms, int n, int pct);

/*
 * The tail a step is judged on: p99, else the tool's percentile when it is
 * the 90th or higher; its percentile in *pct.  NAN when l has neither.
 */
double latency_tail(const struct step_latency *l, double *pct);

#endif

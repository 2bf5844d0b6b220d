/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Turning two raw samples into what a person reads: per-CPU percentages and
 * system rates per second.  Portable and pure; every backend shares it.
 */
#ifndef SCALETOP_DELTA_H
#define SCALETOP_DELTA_H

#include "scaletop/sample_types.h"

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

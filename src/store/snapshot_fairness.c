/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's "fairness" member, written and read back, and pooled at an N for
 * compare and export.  Optional: snapshots and streams from before it, and
 * steps of external commands (no per-worker counts), have none, and load
 * with fairness.have false.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "scaletop/fairness.h"
#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

/* Jain's index is at most 1; arithmetic may land a rounding error above it. */
#define FAIR_JAIN_MAX (1 + 1e-9)

json_t *
snapshot_fairness_json(const struct fairness *f)
{
	if (!f->have)
		return json_null();
	return json_pack("{s:i, s:I, s:f, s:I, s:o, s:i}", "workers", f->workers, "min",
			 (json_int_t)f->min, "median", f->median, "max", (json_int_t)f->max, "jain",
			 isfinite(f->jain) ? json_real(f->jain) : json_null(), "starved",
			 f->starved);
}

/* What no honest writer produces: the counts out of order, or more starved than workers. */
static int
fairness_check(struct field_ctx *c, const char *P, const struct fairness *f)
{
	if ((double)f->min > f->median || f->median > (double)f->max)
		return field_fail(c, P, "min %llu, median %g and max %llu are not in order",
				  (unsigned long long)f->min, f->median,
				  (unsigned long long)f->max);
	if (f->starved > f->workers)
		return field_fail(c, P, "%d starved of %d workers", f->starved, f->workers);
	if ((f->starved > 0) != (f->min == 0))
		return field_fail(c, P, "starved %d does not fit min %llu", f->starved,
				  (unsigned long long)f->min);
	return 0;
}

int
snapshot_fairness_read(struct field_ctx *c, const json_t *step, const char *spath,
		       struct fairness *f)
{
	json_t *v = json_object_get(step, "fairness");
	long long workers, min, max, starved;
	char P[96];

	memset(f, 0, sizeof(*f));
	if (v == NULL || json_is_null(v))
		return 0;
	field_path(P, sizeof(P), spath, "fairness");
	if (field_type(c, v, P, F_OBJ) != 0 ||
	    field_int(c, v, P, "workers", 1, INT32_MAX, 0, 0, &workers) != 0 ||
	    field_int(c, v, P, "min", 0, INT64_MAX, 0, 0, &min) != 0 ||
	    field_num(c, v, P, "median", 0, INFINITY, 0, &f->median) != 0 ||
	    field_int(c, v, P, "max", 0, INT64_MAX, 0, 0, &max) != 0 ||
	    field_num(c, v, P, "jain", 0, FAIR_JAIN_MAX, F_NULL, &f->jain) != 0 ||
	    field_int(c, v, P, "starved", 0, INT32_MAX, 0, 0, &starved) != 0)
		return -1;
	f->workers = (int)workers;
	f->min = (uint64_t)min;
	f->max = (uint64_t)max;
	f->starved = (int)starved;
	if (fairness_check(c, P, f) != 0)
		return -1;
	f->have = true;
	return 0;
}

bool
snapshot_fairness_at(const struct snapshot *sn, int n, double *jain, int *starved)
{
	const struct step *st;
	double sum = 0;
	int i, k = 0, kj = 0;

	*starved = 0;
	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (st->n != n || !step_usable(st) || !st->fair.have)
			continue;
		k++;
		if (st->fair.starved > *starved)
			*starved = st->fair.starved;
		if (isfinite(st->fair.jain)) {
			sum += st->fair.jain;
			kj++;
		}
	}
	*jain = kj > 0 ? sum / kj : NAN;
	return k > 0;
}

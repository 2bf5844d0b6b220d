/* SPDX-License-Identifier: BSD-2-Clause */
/* Placing an external command's interval lines in time (see ext_timing.h). */
#include <string.h>

#include "ext_timing.h"

/* A middle exactly on an edge of the window counts. */
#define EXT_EPS 1e-9

void
ext_timing_init(struct ext_timing *t, double warmup_s, double duration_s)
{
	memset(t, 0, sizeof(*t));
	t->warmup_s = warmup_s;
	t->duration_s = duration_s;
}

/*
 * The line's end on its own clock.  *origin_only is set for the first stamp
 * of a foreign clock, whose interval has no known start.
 */
static double
ext_timing_end(struct ext_timing *t, const struct parse_interval *iv, double arrival_s,
	       bool *origin_only)
{
	*origin_only = false;
	if (!(iv->have & PARSE_HAVE_T))
		return arrival_s;
	if (!t->stamped_seen) {
		t->stamped_seen = true;
		if (iv->t_end > arrival_s + EXT_FOREIGN_STAMP_S) {
			t->offset = iv->t_end - arrival_s;
			*origin_only = true;
		}
	}
	return iv->t_end - t->offset;
}

bool
ext_timing_place(struct ext_timing *t, const struct parse_interval *iv, double arrival_s,
		 struct ext_span *sp)
{
	bool origin_only;
	double end = ext_timing_end(t, iv, arrival_s, &origin_only);
	double dt = origin_only ? 0 : end - t->prev_end;
	double mid = end - dt / 2;

	sp->start = end - dt;
	sp->end = end;
	sp->mono_end = arrival_s;
	sp->mono_start = arrival_s - (dt > 0 ? dt : 0);
	if (sp->mono_start < 0)
		sp->mono_start = 0;
	t->prev_end = end;
	sp->counted = dt > 0 && mid >= t->warmup_s - EXT_EPS &&
		      mid <= t->warmup_s + t->duration_s + EXT_EPS;
	return sp->counted;
}

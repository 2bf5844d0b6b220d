/* SPDX-License-Identifier: BSD-2-Clause */
/* --refine in a sweep: what the steps so far say, to the refiner, and its pick run as a listed N.
 */
#include <math.h>
#include <stdlib.h>

#include "scaletop/analysis.h"
#include "scaletop/refine.h"
#include "sweep_refine.h"

/* Each N's pooled throughput and CI, as the analysis has them, for the refiner. */
static int
refine_points(const struct session *s, const struct analysis_opts *o, struct refine_point **pts,
	      size_t *npts)
{
	struct analysis a;
	int i;

	if (analysis_run(s, o, &a) != 0)
		return -1;
	*npts = 0;
	*pts = calloc(a.npoints > 0 ? (size_t)a.npoints : 1, sizeof(**pts));
	for (i = 0; *pts != NULL && i < a.npoints; i++) {
		double ci = isfinite(a.pts[i].ci) ? a.pts[i].ci : 0;

		(*pts)[i] = (struct refine_point){ a.pts[i].n, a.pts[i].x, a.pts[i].x - ci,
						   a.pts[i].x + ci };
		*npts = (size_t)i + 1;
	}
	analysis_free(&a);
	return *pts != NULL ? 0 : -1;
}

/* The sweep's steps per N: one a trial and repeat. */
static int
refine_per_n(const struct sweep_settings *set)
{
	return (set->trials > 1 ? set->trials : 1) * (set->repeat > 1 ? set->repeat : 1);
}

/* Asks the refiner for the next N; false (and said) when there is none. */
static bool
refine_pick(struct session *s, struct sweep_refine *r, double t)
{
	struct refine_point *pts = NULL;
	struct refine_pick pick = { 0, "" };
	struct analysis_opts o;
	size_t npts = 0;

	if (r->picked >= s->set.refine) {
		session_add_event(s, -1, EV_INFO, t, "refine: the budget of %d N is spent",
				  s->set.refine);
		return false;
	}
	analysis_opts_for(s, &o);
	if (refine_points(s, &o, &pts, &npts) == 0 && npts > 0 && s->set.nn > 0)
		refine_next(pts, npts, s->set.n[s->set.nn - 1], o.collapse_theta,
			    (uint64_t)r->picked, &pick);
	free(pts);
	if (npts < 2) {
		/* a lone point has no neighbour to bisect towards: nothing is located */
		session_add_event(s, -1, EV_INFO, t,
				  "refine: %s gave a usable figure, and refining needs two; see "
				  "each step's status",
				  npts == 0 ? "no step" : "only one N");
		return false;
	}
	if (pick.n <= 0) {
		session_add_event(s, -1, EV_INFO, t,
				  "refine: nothing left to learn after %d added N: the peak and "
				  "the collapse edge are located",
				  r->picked);
		return false;
	}
	session_add_event(s, -1, EV_INFO, t, "refine: N=%d, %s", pick.n, pick.why);
	r->picked++;
	r->n = pick.n;
	r->next = 0;
	return true;
}

bool
sweep_refine_step(struct session *s, struct sweep_refine *r, double t, int *n, int *rep, int *trial,
		  int *added)
{
	int per = refine_per_n(&s->set), rr = s->set.repeat > 1 ? s->set.repeat : 1;

	*added = 0;
	if (r->over || s->set.refine <= 0)
		return false;
	if (r->n == 0 || r->next >= per) {
		if (!refine_pick(s, r, t)) {
			r->over = true;
			r->n = 0;
			return false;
		}
		*added = per;
	}
	/* Trial by trial as the list ran; a repeat's runs back to back. */
	*n = r->n;
	*trial = r->next / rr;
	*rep = r->next % rr;
	r->next++;
	return true;
}

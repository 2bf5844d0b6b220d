/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analysis in a snapshot: written as the writer computed it, so a
 * reader without scaletop sees the verdict; read back so the loader can
 * recompute it from the steps and say when the two disagree (a file edited
 * by hand, or written by a scaletop whose analysis has changed since).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot_priv.h"

static json_t *
an_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
an_point(const struct scaling_point *p)
{
	return json_pack("{s:i, s:o, s:o, s:i, s:o, s:o, s:o}", "n", p->n, "x", an_num(p->x), "ci",
			 an_num(p->ci), "runs", p->runs, "speedup", an_num(p->speedup),
			 "efficiency", an_num(p->efficiency), "increment", an_num(p->increment));
}

/* The figures that say what the fit means; null without a fit. */
static int
an_usl_terms(json_t *o, const struct usl_fit *f)
{
	if (!f->ok)
		return json_object_update_new(o, json_pack("{s:n, s:n, s:n, s:n, s:b}", "n_max",
							   "n_cross", "bound_measured",
							   "bound_at_peak", "n_star_extrapolated",
							   false));
	return json_object_update_new(o,
				      json_pack("{s:o, s:o, s:s, s:s, s:b}", "n_max",
						an_num(f->n_max), "n_cross", an_num(f->n_cross),
						"bound_measured", usl_term_names[f->bound_measured],
						"bound_at_peak", usl_term_names[f->bound_at_peak],
						"n_star_extrapolated", f->n_star_extrapolated));
}

static json_t *
an_usl(const struct usl_fit *f)
{
	/* contention_bound is kept for readers older than bound_measured, which require it */
	json_t *o =
		json_pack("{s:b, s:i, s:b, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			  "s:b, s:o}",
			  "ok", f->ok, "points", f->npoints, "few_points", f->few_points, "amdahl",
			  f->amdahl, "sigma", an_num(f->sigma), "kappa", an_num(f->kappa), "lambda",
			  an_num(f->lambda), "se_sigma", an_num(f->se_sigma), "se_kappa",
			  an_num(f->se_kappa), "se_lambda", an_num(f->se_lambda), "rse",
			  an_num(f->rse), "n_star", an_num(f->n_star), "x_star", an_num(f->x_star),
			  "contention_bound", f->ok && f->bound_measured == USL_TERM_CONTENTION,
			  "why", f->ok || f->why[0] == '\0' ? json_null() : json_string(f->why));

	if (o != NULL && an_usl_terms(o, f) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The latency knee, written only where the verdict names one: older readers never see it. */
static int
an_knee(json_t *o, const struct analysis_knee *k)
{
	if (o == NULL || !k->found)
		return 0;
	return json_object_set_new(o, "knee",
				   json_pack("{s:i, s:i, s:i, s:o, s:o, s:i, s:o}", "pct", k->pct,
					     "n_from", k->n_from, "n_to", k->n_to, "from_ms",
					     an_num(k->from_ms), "to_ms", an_num(k->to_ms),
					     "n_peak", k->n_peak, "rise", an_num(k->rise)));
}

json_t *
snapshot_analysis_json(const struct analysis *a, const struct analysis_opts *o)
{
	json_t *pts = json_array(), *j;
	int i;

	for (i = 0; pts != NULL && i < a->npoints; i++) {
		if (json_array_append_new(pts, an_point(&a->pts[i])) != 0) {
			json_decref(pts);
			pts = NULL;
		}
	}
	j = json_pack("{s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:s}", "efficiency_min",
		      o->efficiency_min, "collapse_theta", o->collapse_theta, "points", pts, "x1",
		      a->have_x1 ? an_num(a->x1) : json_null(), "peak",
		      a->npoints > 0 ? json_pack("{s:i, s:o, s:o}", "n", a->n_peak, "x",
						 an_num(a->x_peak), "ci", an_num(a->x_peak_ci))
				     : json_null(),
		      "linear_n", a->linear_n > 0 ? json_integer(a->linear_n) : json_null(),
		      "collapse_n", a->collapse ? json_integer(a->collapse_n) : json_null(), "last",
		      a->npoints > 0 ? json_pack("{s:i, s:o}", "n", a->last_n, "fraction",
						 an_num(a->last_frac))
				     : json_null(),
		      "no_smp", a->no_smp, "usl", an_usl(&a->usl), "verdict", a->verdict);
	if (an_knee(j, &a->knee) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static int
an_parse_point(struct field_ctx *c, const json_t *j, const char *path, struct scaling_point *p)
{
	long long n, runs;

	if (field_type(c, j, path, F_OBJ) != 0 ||
	    field_int(c, j, path, "n", 1, 1 << 20, 0, 0, &n) != 0 ||
	    field_num(c, j, path, "x", 0, INFINITY, F_NULL, &p->x) != 0 ||
	    field_num(c, j, path, "ci", 0, INFINITY, F_NULL, &p->ci) != 0 ||
	    field_int(c, j, path, "runs", 0, 1 << 30, 0, 0, &runs) != 0 ||
	    field_num(c, j, path, "speedup", 0, INFINITY, F_NULL, &p->speedup) != 0 ||
	    field_num(c, j, path, "efficiency", 0, INFINITY, F_NULL, &p->efficiency) != 0 ||
	    field_num(c, j, path, "increment", -INFINITY, INFINITY, F_NULL, &p->increment) != 0)
		return -1;
	p->n = (int)n;
	p->runs = (int)runs;
	return 0;
}

static int
an_parse_points(struct field_ctx *c, const json_t *j, struct analysis *a)
{
	char p[64];
	json_t *arr = field_get(c, j, "analysis", "points", F_ARR), *m;
	size_t i;

	if (arr == NULL)
		return -1;
	if (json_array_size(arr) > 0) {
		a->pts = calloc(json_array_size(arr), sizeof(*a->pts));
		if (a->pts == NULL)
			return field_fail(c, "analysis.points", "out of memory");
	}
	json_array_foreach(arr, i, m)
	{
		field_index(p, sizeof(p), "analysis.points", i);
		if (an_parse_point(c, m, p, &a->pts[i]) != 0)
			return -1;
		a->npoints = (int)i + 1;
	}
	return 0;
}

/*
 * The terms' figures.  A file older than them has only contention_bound
 * (sigma > kappa, which compared numbers of different units): they are
 * derived from sigma, kappa, N* and the largest analysed N instead.
 */
static int
an_parse_usl_terms(struct field_ctx *c, const json_t *j, const struct analysis *a,
		   struct usl_fit *f)
{
	const char *P = "analysis.usl";
	bool old_bound;
	int dm, dp;

	if (field_bool(c, j, P, "contention_bound", &old_bound) != 0)
		return -1;
	if (json_object_get(j, "bound_measured") == NULL) {
		usl_terms(f, a->npoints > 0 ? a->pts[a->npoints - 1].n : 0);
		return 0;
	}
	if (!f->ok)
		return 0;
	if (field_num(c, j, P, "n_max", 1, INFINITY, 0, &f->n_max) != 0 ||
	    field_num(c, j, P, "n_cross", 0, INFINITY, F_NULL, &f->n_cross) != 0 ||
	    field_enum(c, j, P, "bound_measured", usl_term_names, USL_TERM_COUNT, &dm) != 0 ||
	    field_enum(c, j, P, "bound_at_peak", usl_term_names, USL_TERM_COUNT, &dp) != 0 ||
	    field_bool(c, j, P, "n_star_extrapolated", &f->n_star_extrapolated) != 0)
		return -1;
	f->bound_measured = (enum usl_term)dm;
	f->bound_at_peak = (enum usl_term)dp;
	/* sigma / kappa with kappa 0 is infinite, which JSON writes as null */
	if (isnan(f->n_cross) && f->kappa == 0)
		f->n_cross = INFINITY;
	return 0;
}

static int
an_parse_usl(struct field_ctx *c, const json_t *j, const struct analysis *a, struct usl_fit *f)
{
	const char *P = "analysis.usl";
	long long npoints;

	if (field_bool(c, j, P, "ok", &f->ok) != 0 ||
	    field_int(c, j, P, "points", 0, 1 << 20, 0, 0, &npoints) != 0 ||
	    field_bool(c, j, P, "few_points", &f->few_points) != 0 ||
	    field_bool(c, j, P, "amdahl", &f->amdahl) != 0 ||
	    field_num(c, j, P, "sigma", -INFINITY, INFINITY, F_NULL, &f->sigma) != 0 ||
	    field_num(c, j, P, "kappa", -INFINITY, INFINITY, F_NULL, &f->kappa) != 0 ||
	    field_num(c, j, P, "lambda", -INFINITY, INFINITY, F_NULL, &f->lambda) != 0 ||
	    field_num(c, j, P, "se_sigma", 0, INFINITY, F_NULL, &f->se_sigma) != 0 ||
	    field_num(c, j, P, "se_kappa", 0, INFINITY, F_NULL, &f->se_kappa) != 0 ||
	    field_num(c, j, P, "se_lambda", 0, INFINITY, F_NULL, &f->se_lambda) != 0 ||
	    field_num(c, j, P, "rse", 0, INFINITY, F_NULL, &f->rse) != 0 ||
	    field_num(c, j, P, "n_star", 0, INFINITY, F_NULL, &f->n_star) != 0 ||
	    field_num(c, j, P, "x_star", 0, INFINITY, F_NULL, &f->x_star) != 0 ||
	    field_str(c, j, P, "why", F_NULL, f->why, sizeof(f->why)) != 0)
		return -1;
	f->npoints = (int)npoints;
	/* Without coherency cost the peak is at infinity, which JSON writes as null. */
	if (f->ok && f->kappa == 0 && isnan(f->n_star))
		f->n_star = INFINITY;
	return an_parse_usl_terms(c, j, a, f);
}

static int
an_parse_peak(struct field_ctx *c, const json_t *j, struct analysis *a)
{
	json_t *peak = field_get(c, j, "analysis", "peak", F_OBJ | F_NULL);
	json_t *last = field_get(c, j, "analysis", "last", F_OBJ | F_NULL);
	long long n;

	if (peak == NULL || last == NULL)
		return -1;
	a->x_peak = a->x_peak_ci = a->last_frac = NAN;
	if (!json_is_null(peak)) {
		if (field_int(c, peak, "analysis.peak", "n", 1, 1 << 20, 0, 0, &n) != 0 ||
		    field_num(c, peak, "analysis.peak", "x", 0, INFINITY, F_NULL, &a->x_peak) !=
			    0 ||
		    field_num(c, peak, "analysis.peak", "ci", 0, INFINITY, F_NULL, &a->x_peak_ci) !=
			    0)
			return -1;
		a->n_peak = (int)n;
	}
	if (!json_is_null(last)) {
		if (field_int(c, last, "analysis.last", "n", 1, 1 << 20, 0, 0, &n) != 0 ||
		    field_num(c, last, "analysis.last", "fraction", 0, INFINITY, F_NULL,
			      &a->last_frac) != 0)
			return -1;
		a->last_n = (int)n;
	}
	return 0;
}

/* The knee, when the file has one (analysis.knee); a file without it has none. */
static int
an_parse_knee(struct field_ctx *c, const json_t *j, struct analysis_knee *k)
{
	const char *P = "analysis.knee";
	json_t *m = json_object_get(j, "knee");
	long long pct, from, to, peak;

	memset(k, 0, sizeof(*k));
	if (m == NULL || json_is_null(m))
		return 0;
	if (field_type(c, m, P, F_OBJ) != 0 || field_int(c, m, P, "pct", 1, 100, 0, 0, &pct) != 0 ||
	    field_int(c, m, P, "n_from", 1, 1 << 20, 0, 0, &from) != 0 ||
	    field_int(c, m, P, "n_to", 1, 1 << 20, 0, 0, &to) != 0 ||
	    field_num(c, m, P, "from_ms", 0, INFINITY, 0, &k->from_ms) != 0 ||
	    field_num(c, m, P, "to_ms", 0, INFINITY, 0, &k->to_ms) != 0 ||
	    field_int(c, m, P, "n_peak", 1, 1 << 20, 0, 0, &peak) != 0 ||
	    field_num(c, m, P, "rise", 0, INFINITY, 0, &k->rise) != 0)
		return -1;
	if (from >= to || peak <= to)
		return field_fail(c, P, "n_from %lld, n_to %lld, n_peak %lld: expected ascending",
				  from, to, peak);
	k->found = true;
	k->pct = (int)pct;
	k->n_from = (int)from;
	k->n_to = (int)to;
	k->n_peak = (int)peak;
	return 0;
}

int
snapshot_analysis_parse(struct field_ctx *c, const json_t *j, struct analysis *a,
			struct analysis_opts *o)
{
	const char *P = "analysis";
	long long linear, collapse;

	memset(a, 0, sizeof(*a));
	analysis_opts_default(o);
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_num(c, j, P, "efficiency_min", 0, 1, 0, &o->efficiency_min) != 0 ||
	    field_num(c, j, P, "collapse_theta", 0, 1, 0, &o->collapse_theta) != 0 ||
	    an_parse_points(c, j, a) != 0 ||
	    field_num(c, j, P, "x1", 0, INFINITY, F_NULL, &a->x1) != 0 ||
	    an_parse_peak(c, j, a) != 0 ||
	    field_int(c, j, P, "linear_n", 1, 1 << 20, F_NULL, 0, &linear) != 0 ||
	    field_int(c, j, P, "collapse_n", 1, 1 << 20, F_NULL, 0, &collapse) != 0 ||
	    field_bool(c, j, P, "no_smp", &a->no_smp) != 0 ||
	    field_get(c, j, P, "usl", F_OBJ) == NULL ||
	    an_parse_usl(c, json_object_get(j, "usl"), a, &a->usl) != 0 ||
	    field_str(c, j, P, "verdict", 0, a->verdict, sizeof(a->verdict)) != 0 ||
	    an_parse_knee(c, j, &a->knee) != 0)
		return -1;
	a->have_x1 = !isnan(a->x1);
	a->linear_n = (int)linear;
	a->collapse = collapse > 0;
	a->collapse_n = (int)collapse;
	return 0;
}

/* Equal, both unknown, or within a relative 1e-6 (the printing of reals loses nothing). */
static bool
an_same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b)) + 1e-12;
}

void
snapshot_analysis_diff(const struct analysis *was, const struct analysis *now, char *buf,
		       size_t len)
{
	buf[0] = '\0';
	if (strcmp(was->verdict, now->verdict) != 0)
		snprintf(buf, len, "verdict was '%s', is now '%s'", was->verdict, now->verdict);
	else if (was->npoints != now->npoints)
		snprintf(buf, len, "%d points were analysed, now %d", was->npoints, now->npoints);
	else if (was->n_peak != now->n_peak || !an_same(was->x_peak, now->x_peak))
		snprintf(buf, len, "peak was %.6g at N=%d, is now %.6g at N=%d", was->x_peak,
			 was->n_peak, now->x_peak, now->n_peak);
	else if (was->collapse != now->collapse || was->collapse_n != now->collapse_n)
		snprintf(buf, len, "collapse was at N=%d, is now at N=%d (0: none)",
			 was->collapse ? was->collapse_n : 0, now->collapse ? now->collapse_n : 0);
	else if (was->knee.found != now->knee.found || was->knee.n_to != now->knee.n_to)
		snprintf(buf, len, "latency knee was at N=%d, is now at N=%d (0: none)",
			 was->knee.found ? was->knee.n_to : 0,
			 now->knee.found ? now->knee.n_to : 0);
	else if (was->linear_n != now->linear_n)
		snprintf(buf, len, "linear up to N=%d, is now N=%d", was->linear_n, now->linear_n);
	else if (was->usl.ok != now->usl.ok)
		snprintf(buf, len, "USL fit %s, now %s", was->usl.ok ? "made" : "not made",
			 now->usl.ok ? "made" : "not made");
	else if (was->usl.ok && (!an_same(was->usl.sigma, now->usl.sigma) ||
				 !an_same(was->usl.kappa, now->usl.kappa) ||
				 !an_same(was->usl.lambda, now->usl.lambda)))
		snprintf(buf, len,
			 "USL sigma, kappa, lambda were %.4g, %.4g, %.6g, are now "
			 "%.4g, %.4g, %.6g",
			 was->usl.sigma, was->usl.kappa, was->usl.lambda, now->usl.sigma,
			 now->usl.kappa, now->usl.lambda);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The operations' latency over the window (struct step_latency), as a
 * collector: made at the window's end from what the step's kind fed
 * (step_ctx.h, struct lat_feed), written and read as "latency", and printed
 * after the table.
 */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scaletop/field_read.h"
#include "scaletop/format.h"
#include "scaletop/latency.h"
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

/* A latency past this many ms (about 11.6 days) is not a measurement. */
#define LAT_MAX_MS 1e9

/* A histogram fed wins over interval figures: it is of every operation, not of a few seconds. */
static void
latency_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	struct lat_feed *f = &c->lat;

	(void)state, (void)slot, (void)now;
	if (f->hist != NULL && f->hist->count > 0) {
		latency_from_hist(&st->lat, f->hist, f->exact ? LAT_EXACT : LAT_HISTOGRAM);
		st->lat.whole_run = f->whole_run;
	} else {
		latency_from_intervals(&st->lat, f->iv_ms, f->niv, f->iv_pct);
	}
	f->hist = NULL;
	f->exact = false;
	f->niv = 0;
}

/* --- its section of a step: "latency" --------------------------------------- */

static json_t *
latency_buckets_json(const struct step_latency *l)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < l->nhist; i++) {
		if (json_array_append_new(a, json_pack("[I, I]", (json_int_t)l->hist[i].ns,
						       (json_int_t)l->hist[i].n)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
latency_obj(const struct step_latency *l)
{
	if (l->method == LAT_NONE)
		return NULL;
	if (l->method == LAT_INTERVAL)
		return json_pack("{s:s, s:I, s:i, s:f}", "method", lat_method_names[l->method],
				 "count", (json_int_t)l->count, "pct", l->pct, "pct_ms", l->pct_ms);
	return json_pack("{s:s, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:o*}", "method",
			 lat_method_names[l->method], "span", l->whole_run ? "run" : "window",
			 "count", (json_int_t)l->count, "mean_ms", l->mean_ms, "p50_ms", l->p50_ms,
			 "p90_ms", l->p90_ms, "p99_ms", l->p99_ms, "p999_ms", l->p999_ms, "max_ms",
			 l->max_ms, "buckets", latency_buckets_json(l));
}

/* The operations' latency, and inside it their syncs' (fileio's fsyncs) where there were any. */
static json_t *
latency_write(const struct step *st, const struct step_slot *slot)
{
	json_t *o = latency_obj(&st->lat);

	(void)slot;
	if (o != NULL && st->lat_sync.method != LAT_NONE &&
	    json_object_set_new(o, "fsync", latency_obj(&st->lat_sync)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* [[ns, count], ...]: each a bucket's lowest value, strictly rising, each count at least 1. */
static int
latency_read_buckets(struct field_ctx *f, const json_t *v, const char *path, struct step_latency *l)
{
	json_t *a, *e;
	char p[176], q[192];
	long long ns, n, sum = 0;
	size_t i;

	if ((a = field_array(f, v, path, "buckets", 0, LATHIST_NBUCKETS, "buckets")) == NULL)
		return -1;
	if (json_array_size(a) > 0 &&
	    (l->hist = malloc(json_array_size(a) * sizeof(*l->hist))) == NULL)
		return field_fail(f, path, "out of memory");
	field_path(p, sizeof(p), path, "buckets");
	json_array_foreach(a, i, e)
	{
		field_index(q, sizeof(q), p, i);
		if (json_unpack(e, "[II]", &ns, &n) != 0 || ns < 0 || n < 1 ||
		    (i > 0 && (uint64_t)ns <= l->hist[i - 1].ns) || n > LLONG_MAX - sum)
			return field_fail(f, q,
					  "expected [ns, count]: ns above the bucket before, "
					  "count at least 1");
		sum += n;
		l->hist[i].ns = (uint64_t)ns;
		l->hist[i].n = (uint64_t)n;
		l->nhist = (int)i + 1;
	}
	if ((uint64_t)sum > l->count)
		return field_fail(f, path, "the buckets hold %lld operations, more than count %llu",
				  sum, (unsigned long long)l->count);
	return 0;
}

/* p50 <= p90 <= p99 <= p99.9 <= max, each from 0 to LAT_MAX_MS. */
static int
latency_read_pcts(struct field_ctx *f, const json_t *v, const char *path, struct step_latency *l)
{
	double lo = 0;

	if (field_num(f, v, path, "mean_ms", 0, LAT_MAX_MS, 0, &l->mean_ms) != 0 ||
	    field_num(f, v, path, "p50_ms", lo, LAT_MAX_MS, 0, &l->p50_ms) != 0 ||
	    field_num(f, v, path, "p90_ms", l->p50_ms, LAT_MAX_MS, 0, &l->p90_ms) != 0 ||
	    field_num(f, v, path, "p99_ms", l->p90_ms, LAT_MAX_MS, 0, &l->p99_ms) != 0 ||
	    field_num(f, v, path, "p999_ms", l->p99_ms, LAT_MAX_MS, 0, &l->p999_ms) != 0 ||
	    field_num(f, v, path, "max_ms", l->p999_ms, LAT_MAX_MS, 0, &l->max_ms) != 0)
		return -1;
	return 0;
}

static int
latency_read_interval(struct field_ctx *f, const json_t *v, const char *path,
		      struct step_latency *l)
{
	long long pct;
	double ms;

	if (field_int(f, v, path, "pct", 0, 100, 0, 0, &pct) != 0 ||
	    field_num(f, v, path, "pct_ms", 0, LAT_MAX_MS, 0, &ms) != 0)
		return -1;
	/* The same figures as the run made: one interval of the median. */
	latency_from_intervals(l, &ms, 1, (int)pct);
	return 0;
}

/* A histogram's or every operation's figures: where they span, the percentiles, the buckets. */
static int
latency_read_hist(struct field_ctx *f, const json_t *v, const char *path, struct step_latency *l)
{
	static const char *const spans[] = { "window", "run" };
	int span;

	if (field_enum(f, v, path, "span", spans, 2, &span) != 0 ||
	    latency_read_pcts(f, v, path, l) != 0 || latency_read_buckets(f, v, path, l) != 0)
		return -1;
	l->whole_run = span == 1;
	return 0;
}

/* One latency object into l (cleared first, and left clear on a refusal). */
static int
latency_read_one(struct field_ctx *f, const json_t *v, const char *path, struct step_latency *l)
{
	long long count;
	int method, rc;

	step_latency_clear(l);
	if (field_type(f, v, path, F_OBJ) != 0 ||
	    field_enum(f, v, path, "method", lat_method_names + 1, LAT_INTERVAL, &method) != 0 ||
	    field_int(f, v, path, "count", 1, LLONG_MAX, 0, 0, &count) != 0)
		return -1;
	l->count = (uint64_t)count;
	if (method + 1 == LAT_INTERVAL)
		rc = latency_read_interval(f, v, path, l);
	else
		rc = latency_read_hist(f, v, path, l);
	if (rc != 0) {
		step_latency_clear(l);
		return -1;
	}
	l->method = (enum lat_method)(method + 1);
	l->count = (uint64_t)count;
	return 0;
}

/* Absent or null where it was not measured (and in files from before it); fsync optional. */
static int
latency_read(struct field_ctx *f, const json_t *v, const char *path, struct step *st,
	     struct step_slot *slot)
{
	const json_t *sync;
	char p[176];

	(void)slot;
	step_latency_clear(&st->lat);
	step_latency_clear(&st->lat_sync);
	if (v == NULL || json_is_null(v))
		return 0;
	if (latency_read_one(f, v, path, &st->lat) != 0)
		return -1;
	if ((sync = json_object_get(v, "fsync")) == NULL)
		return 0;
	field_path(p, sizeof(p), path, "fsync");
	if (latency_read_one(f, sync, p, &st->lat_sync) != 0)
		return -1;
	if (st->lat_sync.method != LAT_INTERVAL)
		return 0;
	step_latency_clear(&st->lat_sync);
	return field_fail(f, p, "method interval; expected histogram or exact");
}

/* --- its lines after the table ---------------------------------------------- */

static const char *
latency_how(const struct step_latency *l, char *buf, size_t len)
{
	if (l->method == LAT_INTERVAL && l->pct == 0)
		snprintf(buf, len, "the median of the tool's interval means");
	else if (l->method == LAT_INTERVAL)
		snprintf(buf, len, "the median of the tool's interval p%d", l->pct);
	else
		snprintf(buf, len, "%s of %s",
			 l->method == LAT_EXACT ? "every operation" : "a histogram",
			 l->whole_run ? "the tool's whole run, warm-up included" : "the window");
	return buf;
}

static void
latency_row(FILE *f, const struct step *st, const struct step_latency *l)
{
	const double v[] = { l->mean_ms, l->p50_ms, l->p90_ms, l->p99_ms, l->p999_ms, l->max_ms };
	char b[16];
	size_t i;

	fprintf(f, "%6d", st->n);
	if (l->method == LAT_INTERVAL)
		fprintf(f, " %9s", fmt_ms(l->pct_ms, b, sizeof(b)));
	for (i = 0; l->method != LAT_INTERVAL && i < sizeof(v) / sizeof(v[0]); i++)
		fprintf(f, " %9s", fmt_ms(v[i], b, sizeof(b)));
	fprintf(f, " %9llu\n", (unsigned long long)l->count);
}

/* Step i's operations' latency, or (sync) its syncs'. */
static const struct step_latency *
latency_of(const struct session *s, int i, bool sync)
{
	return sync ? &s->steps[i].lat_sync : &s->steps[i].lat;
}

/* "latency (a histogram of the window):" and a row a step, when any step has it. */
static void
latency_section(FILE *f, const struct session *s, bool sync)
{
	const struct step_latency *first = NULL;
	char how[96], pc[16];
	int i;

	for (i = 0; i < s->nsteps && first == NULL; i++)
		first = latency_of(s, i, sync)->method != LAT_NONE ? latency_of(s, i, sync) : NULL;
	if (first == NULL)
		return;
	fprintf(f, "%s (%s):\n", sync ? "fsync latency" : "latency",
		latency_how(first, how, sizeof(how)));
	snprintf(pc, sizeof(pc), first->pct ? "p%d" : "mean", first->pct);
	if (first->method == LAT_INTERVAL)
		fprintf(f, "%6s %9s %9s\n", "N", pc, "intervals");
	else
		fprintf(f, "%6s %9s %9s %9s %9s %9s %9s %9s\n", "N", "mean", "p50", "p90", "p99",
			"p99.9", "max", "timed");
	for (i = 0; i < s->nsteps; i++) {
		if (latency_of(s, i, sync)->method == first->method)
			latency_row(f, &s->steps[i], latency_of(s, i, sync));
	}
}

/* The operations' latency, then their syncs' where a step has them. */
static void
latency_table(FILE *f, const struct session *s, int slot)
{
	(void)slot;
	latency_section(f, s, false);
	latency_section(f, s, true);
}

const struct collector latency_collector = {
	.key = "latency",
	.end = latency_end,
	.write = latency_write,
	.read = latency_read,
	.table = latency_table,
};

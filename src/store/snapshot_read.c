/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The snapshot loader: from a buffer to a struct session, refusing anything
 * that is not what session_json.c writes.  Every field's type and range is
 * checked, because the views and the analysis trust the model's invariants
 * (ascending N, percentages within 0..100, no NaN where a count is meant)
 * and a snapshot may come from anyone's mailing-list post.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/nlist.h"
#include "scaletop/phase.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "session_read.h"
#include "snapshot_priv.h"

/*
 * No I/O here, so a fuzzer can drive it.  The session's own objects are read
 * by session_read.c and session_read_step.c, which the stream reader shares;
 * here are the snapshot's frame (format, label, tool), its steps and events
 * arrays, and its tick series.
 */

/* A tick read that names a step the file does not hold, until read_series drops it. */
#define TICK_NO_STEP (-2)

static int
read_meta(struct field_ctx *c, const json_t *root, struct session *s, struct snapshot_meta *m)
{
	json_t *tool;

	memset(m, 0, sizeof(*m));
	if (field_str(c, root, "", "label", 0, m->label, sizeof(m->label)) != 0 ||
	    field_utc(c, root, "", "taken", 0, m->taken, sizeof(m->taken)) != 0 ||
	    field_utc(c, root, "", "started", F_NULL, s->started_utc, sizeof(s->started_utc)) !=
		    0 ||
	    (tool = field_get(c, root, "", "tool", F_OBJ)) == NULL ||
	    field_str(c, tool, "tool", "name", 0, m->tool_name, sizeof(m->tool_name)) != 0 ||
	    field_str(c, tool, "tool", "version", 0, m->tool_version, sizeof(m->tool_version)) != 0)
		return -1;
	return 0;
}

static int
read_steps(struct field_ctx *c, const json_t *root, struct session *s)
{
	char p[64];
	json_t *arr = field_array(c, root, "", "steps", 0, SESSION_READ_MAX_STEPS, "steps"), *v;
	struct step st, *slot;
	size_t i;

	if (arr == NULL)
		return -1;
	json_array_foreach(arr, i, v)
	{
		field_index(p, sizeof(p), "steps", i);
		if (session_read_step(c, v, p, &st) != 0) {
			step_free(&st);
			return -1;
		}
		if ((slot = session_add_step(s, st.n, st.rep)) == NULL) {
			step_free(&st);
			return field_fail(c, p, "out of memory");
		}
		*slot = st;
	}
	return 0;
}

static int
read_events(struct field_ctx *c, const json_t *root, struct session *s)
{
	char p[64];
	json_t *arr = field_get(c, root, "", "events", F_ARR), *v;
	struct event e;
	size_t i;

	if (arr == NULL)
		return -1;
	json_array_foreach(arr, i, v)
	{
		field_index(p, sizeof(p), "events", i);
		if (session_read_event(c, v, p, INT_MAX, false, &e) != 0)
			return -1;
		if (e.step >= s->nsteps) { /* nothing is lost: the event stays, as no step's */
			e.step = -1;
			c->events_unbound++;
		}
		if (session_add_event(s, e.step, e.kind, e.t, "%s", e.text) != 0)
			return field_fail(c, p, "out of memory");
	}
	return 0;
}

/* One tick: [t, step, phase, rate, busy_all] and, when ncpu > 0, [busy per CPU]. */
static int
read_tick(struct field_ctx *c, const json_t *row, const char *p, const struct session *s, int ncpu,
	  struct tick *tk)
{
	char q[128], r0[128];
	double busy_all;
	size_t i, want = ncpu > 0 ? 6 : 5;
	json_t *v;
	int k;

	if (field_type(c, row, p, F_ARR) != 0)
		return -1;
	if (json_array_size(row) != want)
		return field_fail(c, p,
				  "%zu elements; expected %zu (t, step, phase, rate, "
				  "busy_all%s)",
				  json_array_size(row), want, ncpu > 0 ? ", busy" : "");
	v = json_array_get(row, 1);
	field_index(q, sizeof(q), p, 1);
	field_index(r0, sizeof(r0), p, 0);
	if (field_num_of(c, json_array_get(row, 0), r0, 0, INFINITY, F_NULL, &tk->t) != 0 ||
	    field_type(c, v, q, F_INT | F_NULL) != 0)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) < 0)
		return field_fail(c, q,
				  "step %" JSON_INTEGER_FORMAT " is negative; expected "
				  "0 to %d or null",
				  json_integer_value(v), s->nsteps - 1);
	/* A step the file does not hold: read_series drops the tick (TICK_NO_STEP). */
	tk->step = !json_is_integer(v)                  ? -1
		   : json_integer_value(v) >= s->nsteps ? TICK_NO_STEP
							: (int)json_integer_value(v);
	v = json_array_get(row, 2);
	field_index(q, sizeof(q), p, 2);
	if (field_type(c, v, q, F_STR) != 0)
		return -1;
	for (k = 0; k <= PHASE_DONE && strcmp(json_string_value(v), sweep_phase_names[k]); k++)
		;
	if (k > PHASE_DONE)
		return field_fail(c, q,
				  "'%s' is not a phase; expected idle, starting, warm-up, "
				  "measuring, stopping or done",
				  json_string_value(v));
	tk->phase = k;
	field_index(q, sizeof(q), p, 3);
	if (field_num_of(c, json_array_get(row, 3), q, 0, INFINITY, F_NULL, &tk->rate) != 0)
		return -1;
	field_index(q, sizeof(q), p, 4);
	if (field_num_of(c, json_array_get(row, 4), q, 0, 100, F_NULL, &busy_all) != 0)
		return -1;
	tk->busy_all = (float)busy_all;
	if (ncpu == 0)
		return 0;
	v = json_array_get(row, 5);
	field_index(q, sizeof(q), p, 5);
	if (field_type(c, v, q, F_ARR) != 0)
		return -1;
	if (json_array_size(v) != (size_t)ncpu)
		return field_fail(c, q, "%zu CPUs; expected %d (series.ncpu)", json_array_size(v),
				  ncpu);
	for (i = 0; i < (size_t)ncpu; i++) {
		char r[160];
		double b;

		field_index(r, sizeof(r), q, i);
		if (field_num_of(c, json_array_get(v, i), r, 0, 100, F_NULL, &b) != 0)
			return -1;
		tk->busy[i] = (float)b;
	}
	return 0;
}

/*
 * The ticks that name a step (kept, oldest first, count as before), once a
 * tick naming a step the file does not hold was read: such a tick belongs
 * to an earlier sweep (scaletop 0.x's TUI saved its ring whole), so it is
 * dropped and the rest is kept.
 */
static int
series_without_strays(struct field_ctx *c, struct series *ser, int64_t dropped)
{
	struct series kept;
	int len = series_len(ser), n = 0, i;

	for (i = 0; i < len; i++)
		n += series_at(ser, i)->step != TICK_NO_STEP;
	c->ticks_dropped = len - n;
	if (n == len)
		return 0;
	if (n == 0) {
		series_free(ser);
		return 0;
	}
	if (series_init(&kept, ser->ncpu, n) != 0)
		return field_fail(c, "series", "out of memory");
	kept.count = dropped; /* so the kept ticks sit where the ring had them */
	for (i = 0; i < len; i++) {
		const struct tick *tk = series_at(ser, i);

		if (tk->step != TICK_NO_STEP)
			series_add(&kept, tk, tk->busy);
	}
	series_free(ser);
	*ser = kept;
	return 0;
}

/* The ring is refilled as it was: the oldest held tick first, count as before. */
static int
read_series(struct field_ctx *c, const json_t *root, struct session *s)
{
	const char *P = "series";
	json_t *j = field_get(c, root, "", P, F_OBJ | F_NULL), *ticks, *row;
	long long ncpu, dropped, ncpu_dropped;
	char p[64];
	size_t i, len;

	if (j == NULL)
		return -1;
	if (json_is_null(j))
		return 0;
	if (field_int(c, j, P, "ncpu", 0, SESSION_READ_MAX_CPUS, 0, 0, &ncpu) != 0 ||
	    field_int(c, j, P, "ncpu_dropped", 0, SESSION_READ_MAX_CPUS, 0, 0, &ncpu_dropped) !=
		    0 ||
	    field_int(c, j, P, "dropped", 0, INT64_MAX / 2, 0, 0, &dropped) != 0 ||
	    (ticks = field_get(c, j, P, "ticks", F_ARR)) == NULL)
		return -1;
	len = json_array_size(ticks);
	if (len == 0 || len > SESSION_READ_MAX_SAMPLES ||
	    len * (size_t)ncpu > SNAPSHOT_SERIES_MAX_VALUES)
		return field_fail(c, "series.ticks",
				  "%zu ticks of %lld CPUs; expected 1 to %d "
				  "ticks and at most %d values",
				  len, ncpu, SESSION_READ_MAX_SAMPLES, SNAPSHOT_SERIES_MAX_VALUES);
	if (series_init(&s->ticks, (int)ncpu, (int)len) != 0)
		return field_fail(c, P, "out of memory");
	s->ticks.count = dropped + (int64_t)len;
	json_array_foreach(ticks, i, row)
	{
		struct tick *tk = series_slot(&s->ticks, dropped + (int64_t)i);

		field_index(p, sizeof(p), "series.ticks", i);
		if (read_tick(c, row, p, s, (int)ncpu, tk) != 0)
			return -1;
	}
	return series_without_strays(c, &s->ticks, dropped);
}

/* The text to a JSON object, or NULL after "name:LINE:COLUMN: why". */
static json_t *
read_decode(struct field_ctx *c, const char *buf, size_t len)
{
	json_error_t je;
	json_t *root;

	if (len > SNAPSHOT_MAX_BYTES) {
		field_fail(c, "",
			   "%zu bytes is over the %zu MiB a snapshot may have; not a "
			   "snapshot, or a damaged one",
			   len, SNAPSHOT_MAX_BYTES >> 20);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		if (c->err != NULL)
			snprintf(c->err, c->errlen, "%s:%d:%d: %s: %s; expected a JSON snapshot",
				 c->name, je.line, je.column,
				 json_error_code(&je) == json_error_premature_end_of_input
					 ? "truncated"
					 : "not JSON",
				 je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		field_type(c, root, "", F_OBJ);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* What a file must say first: which format and version, before its contents are judged. */
static int
read_format(struct field_ctx *c, const json_t *root)
{
	char format[64];
	long long version;

	if (field_str(c, root, "", "format", 0, format, sizeof(format)) != 0)
		return -1;
	if (strcmp(format, SNAPSHOT_FORMAT) != 0)
		return field_fail(c, "format", "'%s' is not a scaletop snapshot; expected '%s'",
				  format, SNAPSHOT_FORMAT);
	if (field_int(c, root, "", "version", 1, INT32_MAX, 0, 0, &version) != 0)
		return -1;
	if (version > SNAPSHOT_VERSION)
		return field_fail(c, "version",
				  "%lld is newer than this scaletop reads (%d); "
				  "use a newer scaletop",
				  version, SNAPSHOT_VERSION);
	return 0;
}

static int
read_all(struct field_ctx *c, const char *buf, size_t len, struct session *s,
	 struct snapshot_meta *m, struct analysis *a, struct analysis_opts *o)
{
	json_t *root = read_decode(c, buf, len);
	int rc = -1;

	if (root == NULL)
		return -1;
	if (read_format(c, root) == 0 && read_meta(c, root, s, m) == 0 &&
	    session_read_host(c, root, s) == 0 && session_read_workload(c, root, s) == 0 &&
	    session_read_settings(c, root, s) == 0 && read_steps(c, root, s) == 0 &&
	    read_events(c, root, s) == 0 && field_get(c, root, "", "analysis", F_OBJ) != NULL &&
	    snapshot_analysis_parse(c, json_object_get(root, "analysis"), a, o) == 0 &&
	    read_series(c, root, s) == 0)
		rc = 0;
	json_decref(root);
	return rc;
}

int
snapshot_parse(const char *buf, size_t len, const char *name, struct session *s, char *err,
	       size_t errlen)
{
	struct field_ctx c = { .name = name, .err = err, .errlen = errlen };
	struct snapshot_meta m;
	struct analysis_opts o;
	struct analysis a;
	int rc;

	session_init(s);
	memset(&a, 0, sizeof(a));
	rc = read_all(&c, buf, len, s, &m, &a, &o);
	analysis_free(&a);
	return rc;
}

void
snapshot_init(struct snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	session_init(&snap->s);
}

void
snapshot_free(struct snapshot *snap)
{
	session_free(&snap->s);
	analysis_free(&snap->saved);
	analysis_free(&snap->now);
	snapshot_init(snap);
}

/*
 * What the reader set aside, in one line.  Written by the TUI of scaletop
 * 0.1.0 after a sweep that followed a longer one (r, n, w): its tick ring
 * still held the earlier sweep's ticks, which name its steps; and by s in
 * a replay mid-step, whose step under way is not in the file.
 */
static void
snapshot_repair_note(const struct field_ctx *c, struct snapshot *snap)
{
	char t[96] = "", e[96] = "";

	if (c->ticks_dropped == 0 && c->events_unbound == 0)
		return;
	if (c->ticks_dropped > 0)
		snprintf(t, sizeof(t), "dropped %d tick%s", c->ticks_dropped,
			 c->ticks_dropped == 1 ? "" : "s");
	if (c->events_unbound > 0)
		snprintf(e, sizeof(e), "%sread %d event%s as no step's", t[0] ? " and " : "",
			 c->events_unbound, c->events_unbound == 1 ? "" : "s");
	snprintf(snap->repair, sizeof(snap->repair),
		 "%.300s: %s%s that named a step the file does not hold (an earlier sweep's, "
		 "or one under way, written by scaletop %.40s); its steps are all read",
		 c->name, t, e, snap->meta.tool_version);
}

int
snapshot_read(const char *buf, size_t len, const char *name, struct snapshot *snap, char *err,
	      size_t errlen)
{
	struct field_ctx c = { .name = name, .err = err, .errlen = errlen };
	struct analysis_opts o;
	char why[256];

	snapshot_init(snap);
	snprintf(snap->name, sizeof(snap->name), "%s", name);
	if (read_all(&c, buf, len, &snap->s, &snap->meta, &snap->saved, &o) != 0)
		return -1;
	/* The thresholds the snapshot was judged by are its settings from now on. */
	snap->s.set.efficiency_min = o.efficiency_min;
	snap->s.set.collapse_theta = o.collapse_theta;
	analysis_opts_for(&snap->s, &o);
	if (analysis_run(&snap->s, &o, &snap->now) != 0)
		return field_fail(&c, "analysis", "out of memory recomputing it");
	snapshot_repair_note(&c, snap);
	snapshot_analysis_diff(&snap->saved, &snap->now, why, sizeof(why));
	if (why[0] != '\0')
		snprintf(snap->warning, sizeof(snap->warning),
			 "%s: the saved analysis (scaletop %s) differs from the one recomputed "
			 "now: %s; showing the recomputed one",
			 name, snap->meta.tool_version, why);
	return 0;
}

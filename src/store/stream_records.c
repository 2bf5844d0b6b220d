/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stream's lines that carry the session: the header (host, workload,
 * settings), each finished step, each event, the analysis as it stands, and
 * the end.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_read.h"
#include "snapshot_priv.h"
#include "stream_priv.h"

/*
 * Their objects are the snapshot's, read by the snapshot's own reader
 * (session_read.h, snapshot_analysis.c), so a stream is refused wherever a
 * snapshot with the same data would be, in the same words after the line:
 * "x.jsonl: line 1: header: settings.n[2]: 2 after 4; ...".
 */

/* Messages about one record name it; stream_fail puts "name: line N: " first. */
#define RECORD_CTX(rec, buf)                                                       \
	{                                                                          \
		.name = (rec), .err = (buf), .errlen = sizeof(buf), .record = true \
	}

/* "started" is when the run began; older writers had only "taken", written then too. */
static int
stream_header_started(struct field_ctx *c, const json_t *o, struct session *s)
{
	if (json_object_get(o, "started") != NULL)
		return field_utc(c, o, "", "started", F_NULL, s->started_utc,
				 sizeof(s->started_utc));
	return field_utc(c, o, "", "taken", 0, s->started_utc, sizeof(s->started_utc));
}

/*
 * The label, time and tool a snapshot has too, kept for a recording loaded
 * as one; each is optional here (the reader never needed them), but typed.
 */
static int
stream_header_meta(struct field_ctx *c, const json_t *o, struct stream_reader *r)
{
	const json_t *tool = json_object_get(o, "tool");

	if ((json_object_get(o, "label") != NULL &&
	     field_str(c, o, "", "label", F_NULL, r->label, sizeof(r->label)) != 0) ||
	    (json_object_get(o, "taken") != NULL &&
	     field_utc(c, o, "", "taken", F_NULL, r->taken, sizeof(r->taken)) != 0))
		return -1;
	if (!json_is_object(tool))
		return 0;
	if (field_str(c, tool, "tool", "name", F_NULL, r->tool_name, sizeof(r->tool_name)) != 0 ||
	    field_str(c, tool, "tool", "version", F_NULL, r->tool_version,
		      sizeof(r->tool_version)) != 0)
		return -1;
	return 0;
}

/* An analysis threshold the settings may carry; absent or null is 0, the default. */
static int
stream_header_threshold(struct field_ctx *c, const json_t *o, const char *key, double *out)
{
	const json_t *set = json_object_get(o, "settings");

	*out = 0;
	if (json_object_get(set, key) == NULL)
		return 0;
	if (field_num(c, set, "settings", key, 0, 1, F_NULL, out) != 0)
		return -1;
	if (isnan(*out))
		*out = 0;
	return 0;
}

int
stream_read_header(struct stream_reader *r, json_t *o)
{
	char why[ST_ERRLEN], format[64];
	struct field_ctx c = RECORD_CTX("header", why);
	struct session *s = &r->s;
	long long version;

	if (r->have_header)
		return stream_fail(r, "a second header: a stream holds one run");
	if (field_str(&c, o, "", "format", 0, format, sizeof(format)) != 0 ||
	    field_int(&c, o, "", "version", 1, INT_MAX, 0, 0, &version) != 0)
		return stream_fail(r, "%s", why);
	if (strcmp(format, STREAM_FORMAT) != 0)
		return stream_fail(r,
				   "header: the format is \"%s\", not \"%s\": this is not a "
				   "scaletop stream",
				   format, STREAM_FORMAT);
	if (version > STREAM_VERSION)
		return stream_fail(r,
				   "header: stream version %lld is newer than this scaletop "
				   "reads (%d): use a newer scaletop",
				   version, STREAM_VERSION);
	if (stream_header_started(&c, o, s) != 0 || stream_header_meta(&c, o, r) != 0 ||
	    session_read_host(&c, o, s) != 0 || session_read_workload(&c, o, s) != 0 ||
	    session_read_settings(&c, o, s) != 0 ||
	    stream_header_threshold(&c, o, "efficiency_min", &s->set.efficiency_min) != 0 ||
	    stream_header_threshold(&c, o, "collapse_theta", &s->set.collapse_theta) != 0)
		return stream_fail(r, "%s", why);
	r->have_header = true;
	r->changes |= STREAM_GOT_HEADER;
	return 0;
}

/* true when the session holds max records of what already: the rest are skipped, noted once. */
static bool
stream_full(struct stream_reader *r, int have, int max, bool *noted, const char *what)
{
	if (have < max)
		return false;
	if (!*noted)
		stream_note(r, "kept the first %d %s; later ones are skipped", max, what);
	*noted = true;
	return true;
}

/* A step as session_json_step writes it, with its "index" in the session. */
int
stream_read_step(struct stream_reader *r, json_t *o)
{
	char why[ST_ERRLEN];
	struct field_ctx c = RECORD_CTX("step", why);
	struct step st, *slot;
	long long idx;

	memset(&st, 0, sizeof(st));
	if (field_int(&c, o, "", "index", 0, INT_MAX, 0, 0, &idx) != 0 ||
	    session_read_step(&c, o, "", &st) != 0) {
		step_free(&st);
		return stream_fail(r, "%s", why);
	}
	if (idx >= r->s.nsteps &&
	    stream_full(r, r->s.nsteps, STREAM_MAX_STEPS, &r->noted_steps, "steps")) {
		step_free(&st);
		return 0;
	}
	if (idx > r->s.nsteps) {
		step_free(&st);
		return stream_fail(r, "step: index %lld skips step %d: steps are written in order",
				   idx, r->s.nsteps);
	}
	slot = idx < r->s.nsteps ? &r->s.steps[idx] : session_add_step(&r->s, st.n, st.rep);
	if (slot == NULL) {
		step_free(&st);
		return stream_fail(r, "step: out of memory");
	}
	/* A step written again (a newer scaletop may send running steps) replaces it. */
	step_free(slot);
	*slot = st;
	r->changes |= STREAM_GOT_STEP;
	return 0;
}

/*
 * An event may name the step that runs, which is written only once it ends;
 * and an unknown kind is only a way of showing the text: it shows as info.
 */
int
stream_read_event(struct stream_reader *r, json_t *o)
{
	char why[ST_ERRLEN];
	struct field_ctx c = RECORD_CTX("event", why);
	struct event e;

	if (session_read_event(&c, o, "", INT_MAX, true, &e) != 0)
		return stream_fail(r, "%s", why);
	if (stream_full(r, r->s.nevents, STREAM_MAX_EVENTS, &r->noted_events, "events"))
		return 0;
	if (session_add_event(&r->s, e.step, e.kind, e.t, "%s", e.text) != 0)
		return stream_fail(r, "event: out of memory");
	r->changes |= STREAM_GOT_EVENT;
	return 0;
}

/* The analysis object is the snapshot's "analysis" member, named as there ("analysis.usl"). */
int
stream_read_analysis(struct stream_reader *r, json_t *o)
{
	char why[ST_ERRLEN];
	struct field_ctx c = { .name = NULL, .err = why, .errlen = sizeof(why) };
	struct analysis_opts opts;
	struct analysis an;

	why[0] = '\0';
	if (snapshot_analysis_parse(&c, o, &an, &opts) != 0) {
		free(an.pts);
		return stream_fail(r, "%s", why);
	}
	free(r->an.pts);
	r->an = an;
	r->an_opts = opts;
	/* As a loaded snapshot does: the thresholds it was judged by become the settings. */
	r->s.set.efficiency_min = opts.efficiency_min;
	r->s.set.collapse_theta = opts.collapse_theta;
	r->have_an = true;
	r->changes |= STREAM_GOT_ANALYSIS;
	return 0;
}

int
stream_read_end(struct stream_reader *r, json_t *o)
{
	char why[ST_ERRLEN];
	struct field_ctx c = RECORD_CTX("end", why);
	long long lines;

	if (field_int(&c, o, "", "lines", 0, LLONG_MAX, 0, 0, &lines) != 0)
		return stream_fail(r, "%s", why);
	/* The recorder writes no blank lines, so a difference means lines were lost or added. */
	if ((uint64_t)lines != r->line - 1)
		stream_note(r, "the end line counts %lld lines before it, but %llu were read",
			    lines, (unsigned long long)(r->line - 1));
	r->ended = true;
	r->changes |= STREAM_GOT_END;
	return 0;
}

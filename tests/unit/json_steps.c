/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-step JSON tests' shared frame (json_steps.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "json_edit.h"
#include "json_steps.h"

void
json_steps_session(struct session *s, const char *wl, const int *n, int nn)
{
	struct step *st;
	int i;

	session_init(s);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "box");
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	snprintf(s->wl.name, sizeof(s->wl.name), "%s", wl);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "threads");
	s->set.n = malloc(sizeof(*n) * (size_t)nn);
	memcpy(s->set.n, n, sizeof(*n) * (size_t)nn);
	s->set.nn = nn;
	s->set.duration_s = 2;
	s->set.interval_s = 0.25;
	s->set.repeat = 1;
	for (i = 0; i < nn; i++) {
		st = session_add_step(s, n[i], 0);
		step_add_interval(st, 1000);
		step_add_interval(st, 1010);
		stats_compute(&st->st, st->iv, (size_t)st->niv);
		st->status = STEP_OK;
		st->window_s = 2;
		st->ops = 2010;
		st->ops_s = 1005;
	}
}

/* The stream: its header and every step, written and read back. */
static int
stream_round_trip(const struct session *s, const char *path, struct stream_reader **r)
{
	char err[ST_ERRLEN] = "";
	struct recorder *rec = recorder_open(path, 0, err, sizeof(err));
	int i, bad = rec == NULL || recorder_header(rec, s) != 0;

	for (i = 0; !bad && i < s->nsteps; i++)
		bad = recorder_step(rec, s, i) != 0;
	if (rec != NULL && recorder_close(rec, err, sizeof(err)) != 0)
		bad = 1;
	ok(!bad, "a stream is written (%s)", err);
	*r = stream_reader_new(NULL);
	bad = stream_reader_load(*r, path) != 0 || stream_reader_session(*r)->nsteps != s->nsteps;
	ok(!bad, "and read back with its %d steps", s->nsteps);
	return bad ? -1 : 0;
}

int
json_steps_round_trip(const struct session *s, const char *dir, struct snapshot *snap,
		      struct stream_reader **r)
{
	char err[ST_ERRLEN] = "", path[512];
	int bad;

	snprintf(path, sizeof(path), "%s/a.json", dir);
	ok(snapshot_save(path, s, NULL, false, err, sizeof(err)) == 0, "saves (%s)", err);
	bad = snapshot_load(path, snap, err, sizeof(err)) != 0;
	ok(!bad && snap->s.nsteps == s->nsteps, "loads (%s)", err);
	snprintf(path, sizeof(path), "%s/a.jsonl", dir);
	if (stream_round_trip(s, path, r) != 0 || bad || snap->s.nsteps != s->nsteps) {
		if (!bad)
			snapshot_free(snap);
		stream_reader_free(*r);
		*r = NULL;
		return -1;
	}
	return 0;
}

void
json_steps_refused(void (*make)(struct session *), const char *path, json_t *v, const char *want)
{
	char err[ST_ERRLEN];
	struct session s;

	make(&s);
	snapshot_error(&s, path, v, err, sizeof(err));
	ok(strstr(err, want) != NULL, "%s refused: %s", path, err);
	session_free(&s);
}

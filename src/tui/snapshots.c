/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * s saves the session as a snapshot; o loads one as an overlay on the
 * chart.  Saving never replaces a file without a yes; the snapshot module
 * writes atomically.  In a replay, s saves the recording as it stands at
 * the moment on screen when s was pressed: the steps finished by then (G
 * first saves them all), as a sweep stopped there would have been saved.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/runs.h"
#include "scaletop/snapshot.h"
#include "app.h"
#include "replay.h"

/*
 * The session s saves: the sweep's, or the replay's up to the tick s was
 * pressed at, in tmp (series_free its ticks after: snap_session_done).
 */
static const struct session *
snap_session(struct app *a, struct session *tmp)
{
	if (a->rp == NULL)
		return a->s;
	return replay_session_at(a->rp, a->snap_tick, tmp) == 0 ? tmp : NULL;
}

static void
snap_session_done(struct app *a, struct session *tmp)
{
	if (a->rp != NULL)
		series_free(&tmp->ticks);
}

void
snap_save_prompt(struct app *a)
{
	char name[256], label[96];
	struct session tmp;
	const struct session *s;

	if (a->rp != NULL)
		a->snap_tick = replay_pos(a->rp);
	if ((s = snap_session(a, &tmp)) == NULL) {
		app_message(a, true, "not saved: out of memory");
		return;
	}
	if (s->nsteps == 0) {
		app_message(a, true, "%s",
			    a->rp != NULL
				    ? "nothing to save yet: no recorded step has finished "
				      "by this moment (G goes to the end)"
				    : "nothing to save yet: a snapshot needs at least one step");
		snap_session_done(a, &tmp);
		return;
	}
	runs_name(s, time(NULL), name, sizeof(name)); /* the name a kept run has */
	snprintf(label, sizeof(label),
		 "save %s%d step%s as snapshot:", a->rp != NULL ? "the replay's " : "", s->nsteps,
		 s->nsteps == 1 ? "" : "s");
	snap_session_done(a, &tmp);
	prompt_open(&a->ui, PR_SNAPSHOT, label, name);
}

void
snap_save(struct app *a, const char *path, bool overwrite)
{
	char err[ST_ERRLEN];
	struct session tmp;
	const struct session *s;

	if (path[0] == '\0') {
		app_message(a, true, "not saved: no file name");
		return;
	}
	if (!overwrite && access(path, F_OK) == 0) {
		snprintf(a->snap_path, sizeof(a->snap_path), "%s", path);
		prompt_open(&a->ui, PR_CONFIRM_OVERWRITE, "", "");
		snprintf(a->ui.pr.label, sizeof(a->ui.pr.label), "%.60s exists: overwrite? (y/N)",
			 path);
		return;
	}
	if ((s = snap_session(a, &tmp)) == NULL) {
		app_message(a, true, "not saved: out of memory");
		return;
	}
	if (snapshot_save(path, s, NULL, overwrite, err, sizeof(err)) != 0) {
		app_message(a, true, "%s", err);
	} else {
		app_message(a, false, "saved %s: %d step%s", path, s->nsteps,
			    s->nsteps == 1 ? "" : "s");
		if (a->keep.s == a->s && s == a->s)
			a->keep.may_drop = true; /* saved where the user chose: r need not ask */
	}
	snap_session_done(a, &tmp);
}

/* An overlay is the snapshot's pooled throughput per N, as recomputed here. */
static int
snap_overlay(struct overlay *ov, const char *path, const struct analysis *an)
{
	int i;
	char copy[1024], *base, *dot;

	ov->n = calloc((size_t)(an->npoints > 0 ? an->npoints : 1), sizeof(*ov->n));
	ov->x = calloc((size_t)(an->npoints > 0 ? an->npoints : 1), sizeof(*ov->x));
	if (ov->n == NULL || ov->x == NULL) {
		free(ov->n);
		free(ov->x);
		return -1;
	}
	for (i = 0; i < an->npoints; i++)
		ov->n[i] = an->pts[i].n, ov->x[i] = an->pts[i].x;
	ov->npts = an->npoints;
	snprintf(copy, sizeof(copy), "%s", path);
	base = basename(copy);
	if ((dot = strrchr(base, '.')) != NULL && dot != base)
		*dot = '\0';
	snprintf(ov->label, sizeof(ov->label), "%s", base);
	return 0;
}

void
snap_open(struct app *a, const char *path)
{
	struct snapshot snap;
	char err[ST_ERRLEN];

	if (a->ui.nov == UI_MAX_OVERLAYS) {
		app_message(a, true, "%d overlays at most: c clears them", UI_MAX_OVERLAYS);
		return;
	}
	snapshot_init(&snap);
	if (snapshot_load(path, &snap, err, sizeof(err)) != 0) {
		app_message(a, true, "%s", err);
	} else if (snap_overlay(&a->ui.ov[a->ui.nov], path, &snap.now) != 0) {
		app_message(a, true, "%s: out of memory", path);
	} else {
		app_message(a, false, "overlay %s: %d points%s%s", a->ui.ov[a->ui.nov].label,
			    a->ui.ov[a->ui.nov].npts, snap.warning[0] ? "; " : "", snap.warning);
		a->ui.nov++;
	}
	snapshot_free(&snap);
}

void
snap_clear(struct app *a)
{
	int i;

	for (i = 0; i < a->ui.nov; i++) {
		free(a->ui.ov[i].n);
		free(a->ui.ov[i].x);
	}
	memset(a->ui.ov, 0, sizeof(a->ui.ov));
	a->ui.nov = 0;
}

int
snap_save_at_exit(struct app *a)
{
	const char *path = a->args.output;
	char err[ST_ERRLEN];

	if (path == NULL || a->rp != NULL || a->s == NULL)
		return 0;
	if (a->s->nsteps == 0) {
		fprintf(stderr, "%s: -o %s: no step ran, so there was nothing to save\n", progname,
			path);
		return 0;
	}
	if (snapshot_save(path, a->s, NULL, a->args.force, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: -o: %s\n", progname, err);
		return -1;
	}
	fprintf(stderr, "%s: saved %s: %d step%s\n", progname, path, a->s->nsteps,
		a->s->nsteps == 1 ? "" : "s");
	return 0;
}

/*
 * s saves the session as a snapshot; o loads one as an overlay on the
 * chart.  Saving never replaces a file without a yes; the snapshot module
 * writes atomically.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/runs.h"
#include "scaletop/snapshot.h"
#include "app.h"

void
snap_save_prompt(struct app *a)
{
	char name[256];

	if (a->rp != NULL || a->s->nsteps == 0) {
		app_message(a, true, "nothing to save yet: a snapshot needs at least one step");
		return;
	}
	runs_name(a->s, time(NULL), name, sizeof(name)); /* the name a kept run has */
	prompt_open(&a->ui, PR_SNAPSHOT, "save snapshot as:", name);
}

void
snap_save(struct app *a, const char *path, bool overwrite)
{
	char err[ST_ERRLEN];

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
	if (snapshot_save(path, a->s, NULL, overwrite, err, sizeof(err)) != 0) {
		app_message(a, true, "%s", err);
		return;
	}
	app_message(a, false, "saved %s", path);
	if (a->keep.s == a->s)
		a->keep.may_drop = true; /* saved where the user chose: r need not ask */
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

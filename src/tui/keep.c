/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Nothing a user measured is lost: the sweep's session is kept as a
 * snapshot in the runs directory (store/runs.c) at every point where the
 * TUI could drop it -- the end of a sweep, x, r, n, w, +/- and every exit
 * (sweeps.c and app.c call keep_run there).  One file per sweep: a later
 * keep of the same session replaces its file, atomically.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/runs.h"
#include "app.h"

/*
 * Nothing is written while a step measures: a snapshot's write and fsync
 * in the middle of a sweep would be measured as part of the next step (a
 * fileio workload shares the disk), so the running sweep is kept when it
 * ends or is stopped, not after each step.
 */

void
keep_reset(struct app *a)
{
	memset(&a->keep, 0, sizeof(a->keep));
	a->keep.s = a->s;
	a->keep.born = time(NULL);
}

void
keep_adopt(struct app *a, const char *path)
{
	keep_reset(a);
	snprintf(a->keep.path, sizeof(a->keep.path), "%s", path);
	a->keep.nsteps = a->s->nsteps;
	a->keep.nevents = a->s->nevents;
}

/* Kept already, as it is now. */
static bool
keep_current(const struct app *a)
{
	return a->keep.s == a->s && a->keep.path[0] != '\0' && a->keep.nsteps == a->s->nsteps &&
	       a->keep.nevents == a->s->nevents;
}

int
keep_run(struct app *a)
{
	char dir[PATH_MAX], err[ST_ERRLEN];

	/*
	 * A sweep with no finished step has no result to compare or show: a
	 * file for it would only crowd the list.  Its interrupted step is kept
	 * with the others once one step has finished.
	 */
	if (a->opts.no_autosave || a->s == NULL || a->rp != NULL || !runs_worth_keeping(a->s) ||
	    keep_current(a))
		return 0;
	if (a->keep.s != a->s)
		keep_reset(a);
	if (runs_dir(dir, sizeof(dir), err, sizeof(err)) != 0 ||
	    runs_keep(dir, a->s, a->keep.born, a->keep.path, sizeof(a->keep.path), err,
		      sizeof(err)) != 0) {
		a->keep.failed = true;
		snprintf(a->keep.err, sizeof(a->keep.err), "cannot keep this run: %.480s", err);
		app_message(a, true, "%s; press s to save elsewhere", a->keep.err);
		return -1;
	}
	a->keep.failed = false;
	a->keep.nsteps = a->s->nsteps;
	a->keep.nevents = a->s->nevents;
	if (ui_view(&a->ui) == &view_history &&
	    a->ui.hist != NULL) /* the list shows the run just kept */
		history_scan(a->ui.hist);
	return 0;
}

bool
keep_holds(struct app *a)
{
	if (a->keep.s != a->s || a->keep.may_drop || keep_run(a) == 0 || !a->keep.failed)
		return false;
	a->keep.may_drop = true;
	app_message(a, true,
		    "not kept, so not dropped: s saves it elsewhere; the same key again drops it");
	return true;
}

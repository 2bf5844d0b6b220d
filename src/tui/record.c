/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recording while you watch (--record FILE, and W): the sweep on screen goes
 * into a JSON Lines stream as `run --record` writes one, so `replay` plays it
 * and show, compare and export read it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/error.h"
#include "scaletop/stream.h"
#include "app.h"

/*
 * A stream holds one run, so a recording follows one sweep's session:
 * started mid-sweep it first writes what that session already holds (its
 * finished steps, events and analysis), then every tick as it comes; when r,
 * n or w replace the session it ends with the sweep it recorded.  Started
 * with no sweep to follow, it waits for the next one (the file exists from
 * the start, so a bad name fails at once).  A live N (+/-) runs outside the
 * sweep and is not recorded.
 *
 * Each line leaves in one write(2), so every exit loses nothing: q and the
 * signals the loop catches write the end line; a crash leaves the lines
 * written, which replay and show read with a note.
 */

/* The analysis as app_analyse made it, with the same options. */
static void
record_analysis(struct app *a)
{
	struct analysis_opts o;

	if (!a->have_an)
		return;
	analysis_opts_default(&o);
	o.n_unit = a->s->wl.n_unit[0] ? a->s->wl.n_unit : NULL;
	recorder_analysis(a->rec, &a->an, &o);
}

static void
record_events(struct app *a)
{
	while (a->rec_events < a->s->nevents)
		recorder_event(a->rec, &a->s->events[a->rec_events++]);
}

/* The first write that fails ends the recording, with its reason on screen. */
static void
record_check(struct app *a)
{
	char err[ST_ERRLEN];

	if (a->rec == NULL || recorder_error(a->rec) == NULL)
		return;
	app_message(a, true, "recording %.60s stopped: %s", a->rec_path, recorder_error(a->rec));
	recorder_close(a->rec, err, sizeof(err));
	a->rec = NULL;
	a->ui.recording = false;
}

/* The session's header, and what it holds already: its finished steps in order. */
static void
record_attach(struct app *a)
{
	a->rec_attached = true;
	a->rec_events = 0;
	a->rec_steps = 0;
	recorder_header(a->rec, a->s);
	while (a->rec_steps < a->s->nsteps && a->s->steps[a->rec_steps].status != STEP_RUNNING)
		recorder_step(a->rec, a->s, a->rec_steps++);
	record_events(a);
	if (a->rec_steps > 0)
		record_analysis(a);
	record_check(a);
}

/* A sweep (not a live N) runs on a->s, or has left its steps there. */
static bool
record_have_sweep(const struct app *a)
{
	return a->s != NULL && (app_sweeping(a) || a->s->nsteps > 0);
}

int
record_open(struct app *a, const char *path, bool force, char *err, size_t errlen)
{
	if (a->rec != NULL)
		return st_error(err, errlen, "already recording to %s", a->rec_path);
	a->rec = recorder_open(path, force ? RECORDER_FORCE : 0, err, errlen);
	if (a->rec == NULL)
		return -1;
	if (path != a->rec_path) /* the overwrite answer passes the name kept here */
		snprintf(a->rec_path, sizeof(a->rec_path), "%s", path);
	a->rec_attached = false;
	a->ui.recording = true;
	if (record_have_sweep(a))
		record_attach(a);
	return 0;
}

void
record_sweep_started(struct app *a)
{
	if (a->rec != NULL && !a->rec_attached)
		record_attach(a);
}

void
record_observe(struct app *a, enum sweep_note note, int step)
{
	if (a->rec == NULL || !a->rec_attached || a->live_s != NULL || a->sw == NULL)
		return;
	if (note == SWEEP_TICK)
		recorder_tick(a->rec, a->s, sweep_live(a->sw),
			      sweep_live(a->sw)->have_ct ? &sweep_live(a->sw)->ct : NULL);
	if (note == SWEEP_STEP_DONE && step >= a->rec_steps && step < a->s->nsteps) {
		a->rec_steps = step + 1;
		recorder_step(a->rec, a->s, step);
		record_events(a);
		record_analysis(a);
	}
	record_events(a);
	record_check(a);
}

/*
 * Ends the recording: the events not yet written and the end line.  One
 * that never found a sweep holds nothing a reader could take, so its file
 * goes.  What happened goes into msg.
 */
static void
record_end(struct app *a, char *msg, size_t len)
{
	char err[ST_ERRLEN];
	int steps = a->rec_steps;

	if (a->rec_attached)
		record_events(a);
	if (recorder_close(a->rec, err, sizeof(err)) != 0)
		snprintf(msg, len, "recording %.60s: %.300s", a->rec_path, err);
	else if (!a->rec_attached && unlink(a->rec_path) == 0)
		snprintf(msg, len, "no sweep ran while recording: nothing recorded, %.60s removed",
			 a->rec_path);
	else
		snprintf(msg, len, "recorded %.60s: %d step%s ('scaletop replay %.60s' plays it)",
			 a->rec_path, steps, steps == 1 ? "" : "s", a->rec_path);
	a->rec = NULL;
	a->rec_attached = false;
	a->ui.recording = false;
}

void
record_stop(struct app *a, const char *why)
{
	char msg[512];

	if (a->rec == NULL)
		return;
	record_end(a, msg, sizeof(msg));
	app_message(a, false, "%s%s%s", why != NULL ? why : "", why != NULL ? ": " : "", msg);
}

void
record_session_ends(struct app *a)
{
	if (a->rec != NULL && a->rec_attached)
		record_stop(a, "a new sweep: W records it to a new file");
}

void
record_at_exit(struct app *a)
{
	char msg[512];

	if (a->rec == NULL)
		return;
	record_end(a, msg, sizeof(msg));
	fprintf(stderr, "%s: %s\n", progname, msg);
}

/* W: stop, or ask for a name as s does (the sweep's workload, host and time). */
void
record_prompt(struct app *a)
{
	const struct session *s = a->s;
	char name[256], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (a->rec != NULL) {
		record_stop(a, NULL);
		return;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "scaletop-%.40s-%.64s-%s.jsonl",
		 s != NULL && s->wl.name[0] ? s->wl.name : "monitor",
		 s != NULL ? s->host.hostname : "host", stamp);
	prompt_open(
		&a->ui, PR_RECORD,
		record_have_sweep(a) ? "record this sweep to:" : "record the next sweep to:", name);
}

/* The name was given: an existing file is replaced only after a yes, as s asks. */
void
record_prompt_done(struct app *a, const char *path, bool overwrite)
{
	char err[ST_ERRLEN];

	if (path[0] == '\0') {
		app_message(a, true, "not recording: no file name");
		return;
	}
	if (!overwrite && access(path, F_OK) == 0) {
		snprintf(a->rec_path, sizeof(a->rec_path), "%s", path);
		prompt_open(&a->ui, PR_CONFIRM_RECORD, "", "");
		snprintf(a->ui.pr.label, sizeof(a->ui.pr.label), "%.60s exists: overwrite? (y/N)",
			 path);
		return;
	}
	if (record_open(a, path, overwrite, err, sizeof(err)) != 0) {
		app_message(a, true, "%s", err);
		return;
	}
	app_message(a, false, "recording to %.80s%s (W stops)", path,
		    a->rec_attached ? "" : " from the next sweep: r starts one");
}

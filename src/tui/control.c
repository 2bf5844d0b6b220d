/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs the commands that input.c makes of keys and clicks: the view state
 * (views, help, selection, theme, refresh), the prompts and what their
 * answers start, and the replay's clock.  What runs is sweeps.c's; this
 * file only decides which of its calls a command means.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "app.h"
#include "replay.h"

static const double refresh_steps[] = { 0.1, 0.25, 0.5, 1, 2, 5 };
#define NREFRESH (int)(sizeof(refresh_steps) / sizeof(refresh_steps[0]))

static void
control_refresh(struct app *a)
{
	int i = 0;

	while (i < NREFRESH && refresh_steps[i] <= a->ui.refresh_s + 1e-9)
		i++;
	sweeps_set_refresh(a, refresh_steps[i % NREFRESH]);
	app_message(a, false, "refresh every %g s", a->ui.refresh_s);
	app_save_prefs(a);
}

/* "theme NAME", or its warning: a theme with bad lines is used all the same. */
static void
control_theme_kept(struct app *a, const char *name, int rc, const char *warn)
{
	snprintf(a->ui.theme, sizeof(a->ui.theme), "%s", name);
	if (rc > 0)
		app_message(a, true, "%s", warn); /* it names the file, and so the theme */
	else
		app_message(a, false, "theme %s", name);
	app_save_prefs(a);
}

/* t: the next theme that can be read; one that cannot is skipped, so t never sticks on it. */
static void
control_theme(struct app *a)
{
	char cur[sizeof(a->ui.theme)], err[ST_ERRLEN], skipped[ST_ERRLEN] = "";
	int tries, rc = -1;

	snprintf(cur, sizeof(cur), "%s", a->ui.theme);
	for (tries = 0; tries < TP_MAX && rc < 0; tries++) {
		snprintf(cur, sizeof(cur), "%s", theme_next(cur));
		if (strcmp(cur, a->ui.theme) == 0)
			break;
		if ((rc = theme_use(cur, err, sizeof(err))) < 0 && skipped[0] == '\0')
			snprintf(skipped, sizeof(skipped), "%s", err);
	}
	if (rc < 0) {
		app_message(a, true, "%s", skipped[0] ? skipped : "no other theme to switch to");
		return;
	}
	control_theme_kept(a, cur, rc, err);
	if (skipped[0] != '\0' && rc == 0)
		app_message(a, true, "theme %s; skipped one: %s", cur, skipped);
}

/* A key for the open picker: each move applies the theme; Esc puts the old one back. */
static void
control_theme_pick(struct app *a, int ch)
{
	struct theme_pick *tp = a->ui.tp;
	char err[ST_ERRLEN];
	int rc;

	if (tp == NULL)
		return;
	switch (theme_pick_key(tp, ch, theme_pick_rows(LINES))) {
	case TP_MOVED:
		theme_pick_preview(tp);
		break;
	case TP_KEEP:
		if (tp->unusable) {
			theme_use(tp->prev, NULL, 0);
			app_message(a, true, "%s; still %s", tp->warn, tp->prev);
			break;
		}
		rc = tp->warn[0] != '\0';
		control_theme_kept(a, tp->name[tp->sel], rc, tp->warn);
		break;
	case TP_CANCEL:
		if (theme_use(tp->prev, err, sizeof(err)) < 0)
			app_message(a, true, "%s", err);
		else
			app_message(a, false, "theme %s kept", tp->prev);
		break;
	case TP_NONE:
		break;
	}
}

/* The workload's parameters as "k=v k=v", for the picker's second step. */
static void
control_params_text(struct app *a, const struct workload *wl, char *buf, size_t len)
{
	bool same = strcmp(wl->name, a->s->wl.name) == 0;
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < wl->nparams && off < len; i++)
		off += (size_t)snprintf(
			buf + off, len - off, "%s%s=%s", i ? " " : "", wl->params[i].name,
			same && i < a->s->wl.nparams ? a->s->wl.value[i] : wl->params[i].def);
}

/* --- the history view ------------------------------------------------------- */

/* y to the question D asked: the selected run's file goes. */
static void
control_hist_delete(struct app *a)
{
	const struct run_entry *e = a->ui.hist != NULL ? history_selected(a->ui.hist) : NULL;
	char err[ST_ERRLEN], name[sizeof(e->path)];

	if (e == NULL)
		return;
	snprintf(name, sizeof(name), "%s", e->path);
	if (history_delete(a->ui.hist, err, sizeof(err)) != 0)
		app_message(a, true, "%s", err);
	else
		app_message(a, false, "deleted %s", name);
}

/* Enter, o and D on the selected kept run; Esc and q go back. */
static void
control_hist(struct app *a, const struct command *c)
{
	const struct run_entry *e;
	char msg[ST_ERRLEN + 64];

	if (a->ui.hist == NULL)
		return;
	e = history_selected(a->ui.hist);
	if (c->id == CMD_HIST_BACK) {
		a->ui.view = a->ui.hist->back;
		return;
	}
	if (c->id == CMD_HIST_MOVE) {
		history_move(a->ui.hist, (enum history_move)c->arg);
		return;
	}
	if (e == NULL) {
		app_message(a, true, "no kept run here yet: a sweep is kept when it ends");
		return;
	}
	if (c->id == CMD_HIST_OVERLAY) {
		snap_open(a, e->path);
	} else if (c->id == CMD_HIST_OPEN) {
		if (sweeps_open_run(a, e->path, msg, sizeof(msg)) == 0) {
			a->ui.view = VIEW_STEPS;
			app_message(a, false, "opened %s: %s",
				    strrchr(e->path, '/') != NULL ? strrchr(e->path, '/') + 1
								  : e->path,
				    msg);
		}
	} else if (c->id == CMD_HIST_DELETE) {
		prompt_open(&a->ui, PR_CONFIRM_DELETE, "", "");
		snprintf(a->ui.pr.label, sizeof(a->ui.pr.label), "delete %.70s? (y/N)",
			 strrchr(e->path, '/') != NULL ? strrchr(e->path, '/') + 1 : e->path);
	}
}

/*
 * A view was chosen: the history view lists the runs anew each time it
 * opens (its state allocated the first time: a monitor never shown the
 * runs does without it).
 */
static void
control_view_entered(struct app *a, enum ui_view before)
{
	if (a->ui.view != VIEW_HISTORY || before == VIEW_HISTORY)
		return;
	if (a->ui.hist == NULL && (a->ui.hist = calloc(1, sizeof(*a->ui.hist))) == NULL) {
		a->ui.view = before;
		app_message(a, true, "the runs view: out of memory");
		return;
	}
	a->ui.hist->back = before;
	history_scan(a->ui.hist);
}

/* A prompt was answered: what its text starts. */
static void
control_prompt_done(struct app *a, enum prompt_kind kind, const char *text)
{
	char buf[512], label[96];
	const struct workload *wl;

	switch (kind) {
	case PR_NLIST:
		sweeps_set_nlist(a, text);
		break;
	case PR_WORKLOAD:
		wl = workloads[a->ui.pr.pick];
		control_params_text(a, wl, buf, sizeof(buf));
		snprintf(label, sizeof(label), "%s parameters (enter runs):", wl->name);
		prompt_open(&a->ui, PR_PARAMS, label, buf);
		break;
	case PR_PARAMS:
		sweeps_set_workload(a, workloads[a->ui.pr.pick]->name, text);
		break;
	case PR_SNAPSHOT:
		snap_save(a, text, false);
		break;
	case PR_CONFIRM_OVERWRITE:
		snap_save(a, a->snap_path, true);
		break;
	case PR_OPEN:
		snap_open(a, text);
		break;
	case PR_CONFIRM_DELETE:
		control_hist_delete(a);
		break;
	case PR_RECORD:
		record_prompt_done(a, text, false);
		break;
	case PR_CONFIRM_RECORD:
		record_prompt_done(a, a->rec_path, true);
		break;
	default:
		break;
	}
}

/* A key for the open prompt: edited there until it is submitted or cancelled. */
static void
control_prompt_key(struct app *a, int ch)
{
	enum prompt_kind kind = a->ui.pr.kind;
	char text[sizeof(a->ui.pr.text)];
	int r = prompt_key(&a->ui, ch);

	if (r == 0)
		return;
	memcpy(text, a->ui.pr.text, sizeof(text));
	a->ui.pr.kind = PR_NONE;
	if (r > 0)
		control_prompt_done(a, kind, text);
	else if (kind == PR_CONFIRM_OVERWRITE)
		app_message(a, false, "not saved: %s exists", a->snap_path);
	else if (kind == PR_CONFIRM_DELETE)
		app_message(a, false, "not deleted");
	else if (kind == PR_CONFIRM_RECORD)
		app_message(a, false, "not recording: %s exists", a->rec_path);
}

/* Up/down through the steps shown. */
static void
control_select(struct app *a, int delta)
{
	const struct session *s = app_shown_session(a);
	int n = s != NULL ? s->nsteps : 0;

	if (n == 0)
		return;
	a->ui.sel_step = a->ui.sel_step < 0 ? (delta > 0 ? 0 : n - 1) : a->ui.sel_step + delta;
	if (a->ui.sel_step < 0)
		a->ui.sel_step = 0;
	if (a->ui.sel_step >= n)
		a->ui.sel_step = n - 1;
}

/* Home, End: the first or the last step shown. */
static void
control_select_edge(struct app *a, int dir)
{
	const struct session *s = app_shown_session(a);

	if (s != NULL && s->nsteps > 0)
		a->ui.sel_step = dir < 0 ? 0 : s->nsteps - 1;
}

/* The event log, delta events towards the newer; it never ends above its oldest page. */
static void
control_events(struct app *a, int delta)
{
	const struct session *s = app_shown_session(a);
	int rows = a->hits.ev_rows > 0 ? a->hits.ev_rows : 1;
	int most = s != NULL && s->nevents > rows ? s->nevents - rows : 0;

	a->ui.ev_back -= delta;
	if (a->ui.ev_back > most)
		a->ui.ev_back = most;
	if (a->ui.ev_back < 0)
		a->ui.ev_back = 0;
}

/* Lists, pages and the screen itself: view state alone.  False if c is none of these. */
static bool
control_scroll(struct app *a, const struct command *c)
{
	int page = a->hits.list_rows > 1 ? a->hits.list_rows - 1 : 1;
	int ev_page = a->hits.ev_rows > 1 ? a->hits.ev_rows - 1 : 1;

	switch (c->id) {
	case CMD_SELECT_PAGE:
		control_select(a, c->arg * page);
		break;
	case CMD_SELECT_EDGE:
		control_select_edge(a, c->arg);
		break;
	case CMD_EVENTS_SCROLL:
		control_events(a, c->arg);
		break;
	case CMD_EVENTS_PAGE:
		control_events(a, c->arg * ev_page);
		break;
	case CMD_EVENTS_EDGE:
		control_events(a, c->arg < 0 ? -(1 << 30) : 1 << 30);
		break;
	case CMD_REDRAW:
		clearok(curscr, TRUE); /* the next frame repaints every cell */
		break;
	case CMD_HELP_PAGE:
		a->ui.help_page =
			a->hits.help_pages > 0 ? (a->ui.help_page + 1) % a->hits.help_pages : 0;
		break;
	default:
		return false;
	}
	return true;
}

/* +/-: the first press starts at the sweep's peak (or N=1), then steps by one. */
static void
control_live(struct app *a, int delta)
{
	int n = a->live_s != NULL ? a->live_n + delta
				  : (a->have_an && a->an.n_peak > 0 ? a->an.n_peak : 1);

	sweeps_live(a, n);
}

static void
control_nlist(struct app *a)
{
	char buf[256];
	struct nlist nl = { a->s->set.n, (size_t)a->s->set.nn };

	nlist_format(&nl, buf, sizeof(buf));
	prompt_open(&a->ui, PR_NLIST, "N list (1,2,4 or 1-64x2; enter restarts the sweep):", buf);
}

/*
 * Space pauses the sweep itself (its workload is stopped and the step
 * re-measured on resume); with no sweep running it freezes the display.
 */
static void
control_pause(struct app *a)
{
	if (app_sweeping(a)) {
		sweep_pause(a->sw, !sweep_live(a->sw)->paused);
		app_message(a, false, "%s",
			    sweep_live(a->sw)->paused
				    ? "paused: the workload is stopped; space resumes and "
				      "re-measures the step"
				    : "resumed: the step warms up and measures again");
		return;
	}
	a->ui.paused = !a->ui.paused;
}

static void
control_stop(struct app *a)
{
	if (a->sw == NULL)
		return;
	sweeps_stop(a, "stopped by the user");
	app_message(a, false, "stopped");
}

/* The replay's clock; the commands come only while a replay is open. */
static void
control_replay(struct app *a, enum replay_move m)
{
	if (a->rp != NULL)
		replay_move(a->rp, m);
}

/* The view state alone: nothing starts or stops.  False if c is not one of these. */
static bool
control_view(struct app *a, const struct command *c)
{
	switch (c->id) {
	case CMD_QUIT:
		a->quit = true;
		break;
	case CMD_HELP:
		a->ui.help = true;
		a->ui.help_page = 0;
		break;
	case CMD_HELP_CLOSE:
		a->ui.help = false;
		break;
	case CMD_VIEW_NEXT:
		a->ui.view = (a->ui.view + 1) % VIEW_COUNT;
		break;
	case CMD_VIEW_PREV:
		a->ui.view = (a->ui.view + VIEW_COUNT - 1) % VIEW_COUNT;
		break;
	case CMD_VIEW:
		if (c->arg >= 0 && c->arg < VIEW_COUNT)
			a->ui.view = (enum ui_view)c->arg;
		break;
	case CMD_SELECT_MOVE:
		control_select(a, c->arg);
		break;
	case CMD_SELECT_STEP:
		a->ui.sel_step = c->arg;
		a->ui.detail = true;
		break;
	case CMD_DETAIL_TOGGLE:
		a->ui.detail = !a->ui.detail;
		break;
	case CMD_DETAIL_CLOSE:
		a->ui.detail = false;
		break;
	default:
		return false;
	}
	return true;
}

void
control_run(struct app *a, const struct command *c)
{
	enum ui_view before = a->ui.view;

	if (control_view(a, c)) {
		control_view_entered(a, before);
		return;
	}
	if (control_scroll(a, c))
		return;
	switch (c->id) {
	case CMD_HIST_MOVE:
	case CMD_HIST_OPEN:
	case CMD_HIST_OVERLAY:
	case CMD_HIST_DELETE:
	case CMD_HIST_BACK:
		control_hist(a, c);
		break;
	case CMD_PAUSE:
		control_pause(a);
		break;
	case CMD_THEME_NEXT:
		control_theme(a);
		break;
	case CMD_THEME_PICK:
		/* allocated when first opened: a monitor never shown it does without its list */
		if (a->ui.tp == NULL && (a->ui.tp = calloc(1, sizeof(*a->ui.tp))) == NULL) {
			app_message(a, true, "the theme picker: out of memory");
			break;
		}
		theme_pick_open(a->ui.tp, a->ui.theme);
		theme_pick_preview(a->ui.tp);
		break;
	case CMD_THEME_PICK_KEY:
		control_theme_pick(a, c->arg);
		break;
	case CMD_REFRESH_NEXT:
		control_refresh(a);
		break;
	case CMD_SWEEP:
		if (!rerun_holds(a))
			sweeps_start(a);
		break;
	case CMD_STOP:
		control_stop(a);
		break;
	case CMD_LIVE:
		control_live(a, c->arg);
		break;
	case CMD_PICK_WORKLOAD: /* on the workload on screen, else the one a sweep starts with */
		prompt_pick_open(&a->ui, a->s != NULL && workload_find(a->s->wl.name) != NULL
						 ? a->s->wl.name
						 : a->args.default_workload);
		break;
	case CMD_EDIT_NLIST:
		control_nlist(a);
		break;
	case CMD_SAVE:
		snap_save_prompt(a);
		break;
	case CMD_RECORD:
		record_prompt(a);
		break;
	case CMD_OPEN:
		prompt_open(&a->ui, PR_OPEN, "open snapshot as overlay:", "");
		break;
	case CMD_CLEAR_OVERLAYS:
		snap_clear(a);
		app_message(a, false, "overlays cleared");
		break;
	case CMD_PROMPT_KEY:
		control_prompt_key(a, c->arg);
		break;
	case CMD_REPLAY_PLAY:
		control_replay(a, REPLAY_PLAY);
		break;
	case CMD_REPLAY_BACK:
		control_replay(a, REPLAY_BACK);
		break;
	case CMD_REPLAY_ON:
		control_replay(a, REPLAY_ON);
		break;
	case CMD_REPLAY_START:
		control_replay(a, REPLAY_START);
		break;
	case CMD_REPLAY_END:
		control_replay(a, REPLAY_END);
		break;
	case CMD_NOT_IN_REPLAY:
		app_message(a, true, "a replay shows a recorded run: nothing runs here");
		break;
	default:
		break;
	}
}

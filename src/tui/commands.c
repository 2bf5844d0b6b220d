/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs the commands that input.c makes of keys and clicks, each through
 * its handler in cmd_table: the view state (views, help, selection, theme,
 * refresh), what starts a prompt (commands_prompts.c runs the answers),
 * and the replay's clock.  What runs is sweeps.c's; a handler only decides
 * which of its calls a command means.
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
do_refresh(struct app *a, const struct command *c)
{
	int i = 0;

	(void)c;
	while (i < NREFRESH && refresh_steps[i] <= a->ui.refresh_s + 1e-9)
		i++;
	sweeps_set_refresh(a, refresh_steps[i % NREFRESH]);
	app_message(a, false, "refresh every %g s", a->ui.refresh_s);
	app_save_prefs(a);
}

/* "theme NAME", or its warning: a theme with bad lines is used all the same. */
static void
do_theme_kept(struct app *a, const char *name, int rc, const char *warn)
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
do_theme(struct app *a, const struct command *c)
{
	char cur[sizeof(a->ui.theme)], err[ST_ERRLEN], skipped[ST_ERRLEN] = "";
	int tries, rc = -1;

	(void)c;
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
	do_theme_kept(a, cur, rc, err);
	if (skipped[0] != '\0' && rc == 0)
		app_message(a, true, "theme %s; skipped one: %s", cur, skipped);
}

/* A key for the open picker: each move applies the theme; Esc puts the old one back. */
static void
do_theme_pick(struct app *a, const struct command *c)
{
	struct theme_pick *tp = a->ui.tp;
	char err[ST_ERRLEN];
	int rc, ch = c->arg;

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
		do_theme_kept(a, tp->name[tp->sel], rc, tp->warn);
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

/* A view was chosen: the view's enter op, if it has one, may refuse it. */
static void
do_view_entered(struct app *a, int before)
{
	const struct view *v = ui_view(&a->ui);

	if (a->ui.view == before || v->enter == NULL)
		return;
	if (v->enter(&a->ui, before) != 0) {
		a->ui.view = before;
		app_message(a, true, "the %s view: out of memory", v->name);
	}
}

/* Up/down through the steps shown. */
static void
do_select(struct app *a, int delta)
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
do_select_edge(struct app *a, const struct command *c)
{
	const struct session *s = app_shown_session(a);
	int dir = c->arg;

	if (s != NULL && s->nsteps > 0)
		a->ui.sel_step = dir < 0 ? 0 : s->nsteps - 1;
}

/* The event log, delta events towards the newer; it never ends above its oldest page. */
static void
do_events(struct app *a, int delta)
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

/* +/-: the first press starts at the sweep's peak (or N=1), then steps by one. */
static void
do_live(struct app *a, const struct command *c)
{
	int n = a->live_s != NULL ? a->live_n + c->arg
				  : (a->have_an && a->an.n_peak > 0 ? a->an.n_peak : 1);

	sweeps_live(a, n);
}

static void
do_nlist(struct app *a, const struct command *c)
{
	char buf[256];
	struct nlist nl = { a->s->set.n, (size_t)a->s->set.nn };

	(void)c;
	nlist_format(&nl, buf, sizeof(buf));
	prompt_open(&a->ui, PR_NLIST, "N list (1,2,4 or 1-64x2; enter restarts the sweep):", buf);
}

/*
 * Space pauses the sweep itself (its workload is stopped and the step
 * re-measured on resume); with no sweep running it freezes the display.
 */
static void
do_pause(struct app *a, const struct command *c)
{
	(void)c;
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
do_stop(struct app *a, const struct command *c)
{
	(void)c;
	if (a->sw == NULL)
		return;
	sweeps_stop(a, "stopped by the user");
	app_message(a, false, "stopped");
}

/* The replay's clock; the commands come only while a replay is open. */
static void
do_replay(struct app *a, enum replay_move m)
{
	if (a->rp != NULL)
		replay_move(a->rp, m);
}

/* --- the handlers: one per command, each given the command -------------------- */

typedef void cmd_fn(struct app *a, const struct command *c);

static void
do_quit(struct app *a, const struct command *c)
{
	(void)c;
	a->quit = true;
}

static void
do_help(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.help = true;
	a->ui.help_page = 0;
}

static void
do_help_close(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.help = false;
}

/* Space in a help of several pages: the next one. */
static void
do_help_page(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.help_page = a->hits.help_pages > 0 ? (a->ui.help_page + 1) % a->hits.help_pages : 0;
}

static void
do_view_next(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.view = (a->ui.view + 1) % nviews;
}

static void
do_view_prev(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.view = (a->ui.view + nviews - 1) % nviews;
}

/* A view's digit, its key, or a click on its tab. */
static void
do_view(struct app *a, const struct command *c)
{
	if (c->arg >= 0 && c->arg < nviews)
		a->ui.view = c->arg;
}

static void
do_select_move(struct app *a, const struct command *c)
{
	do_select(a, c->arg);
}

/* A click on a step: it is selected, and its detail shown. */
static void
do_select_step(struct app *a, const struct command *c)
{
	a->ui.sel_step = c->arg;
	a->ui.detail = true;
}

/* PgUp, PgDn in a list: a page less one row. */
static void
do_select_page(struct app *a, const struct command *c)
{
	do_select(a, c->arg * (a->hits.list_rows > 1 ? a->hits.list_rows - 1 : 1));
}

static void
do_events_page(struct app *a, const struct command *c)
{
	do_events(a, c->arg * (a->hits.ev_rows > 1 ? a->hits.ev_rows - 1 : 1));
}

static void
do_events_edge(struct app *a, const struct command *c)
{
	do_events(a, c->arg < 0 ? -(1 << 30) : 1 << 30);
}

static void
do_redraw(struct app *a, const struct command *c)
{
	(void)a, (void)c;
	clearok(curscr, TRUE); /* the next frame repaints every cell */
}

static void
do_detail_toggle(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.detail = !a->ui.detail;
}

/* L: the chart's mode stays for the session, whatever sweep is on screen. */
static void
do_chart_mode(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.chart_lat = !a->ui.chart_lat;
	app_message(a, false, "chart: %s against N (L switches)",
		    a->ui.chart_lat ? "latency" : "throughput");
}

static void
do_detail_close(struct app *a, const struct command *c)
{
	(void)c;
	a->ui.detail = false;
}

/* T: the picker, allocated when first opened (a monitor never shown it does without). */
static void
do_theme_open(struct app *a, const struct command *c)
{
	(void)c;
	if (a->ui.tp == NULL && (a->ui.tp = calloc(1, sizeof(*a->ui.tp))) == NULL) {
		app_message(a, true, "the theme picker: out of memory");
		return;
	}
	theme_pick_open(a->ui.tp, a->ui.theme);
	theme_pick_preview(a->ui.tp);
}

static void
do_sweep(struct app *a, const struct command *c)
{
	(void)c;
	if (!rerun_holds(a))
		sweeps_start(a);
}

/* w: the picker on the workload on screen, else the one a sweep starts with. */
static void
do_pick_workload(struct app *a, const struct command *c)
{
	(void)c;
	prompt_pick_open(&a->ui, a->s != NULL && workload_find(a->s->wl.name) != NULL
					 ? a->s->wl.name
					 : a->args.default_workload);
}

static void
do_save(struct app *a, const struct command *c)
{
	(void)c;
	snap_save_prompt(a);
}

static void
do_record(struct app *a, const struct command *c)
{
	(void)c;
	record_prompt(a);
}

static void
do_open(struct app *a, const struct command *c)
{
	(void)c;
	prompt_open(&a->ui, PR_OPEN, "open snapshot as overlay:", "");
}

static void
do_clear_overlays(struct app *a, const struct command *c)
{
	(void)c;
	snap_clear(a);
	app_message(a, false, "overlays cleared");
}

static void
do_replay_move(struct app *a, const struct command *c)
{
	do_replay(a, (enum replay_move)c->arg);
}

static void
do_not_in_replay(struct app *a, const struct command *c)
{
	(void)c;
	app_message(a, true, "a replay shows a recorded run: nothing runs here");
}

static void
do_events_scroll(struct app *a, const struct command *c)
{
	do_events(a, c->arg);
}

/* Each command's handler, by its id; CMD_NONE has none. */
static cmd_fn *const cmd_table[CMD_COUNT] = {
	[CMD_QUIT] = do_quit,
	[CMD_HELP] = do_help,
	[CMD_HELP_CLOSE] = do_help_close,
	[CMD_PAUSE] = do_pause,
	[CMD_VIEW_NEXT] = do_view_next,
	[CMD_VIEW_PREV] = do_view_prev,
	[CMD_VIEW] = do_view,
	[CMD_THEME_NEXT] = do_theme,
	[CMD_THEME_PICK] = do_theme_open,
	[CMD_THEME_PICK_KEY] = do_theme_pick,
	[CMD_REFRESH_NEXT] = do_refresh,
	[CMD_SWEEP] = do_sweep,
	[CMD_STOP] = do_stop,
	[CMD_LIVE] = do_live,
	[CMD_PICK_WORKLOAD] = do_pick_workload,
	[CMD_EDIT_NLIST] = do_nlist,
	[CMD_SAVE] = do_save,
	[CMD_RECORD] = do_record,
	[CMD_OPEN] = do_open,
	[CMD_CLEAR_OVERLAYS] = do_clear_overlays,
	[CMD_SELECT_MOVE] = do_select_move,
	[CMD_SELECT_STEP] = do_select_step,
	[CMD_SELECT_PAGE] = do_select_page,
	[CMD_SELECT_EDGE] = do_select_edge,
	[CMD_EVENTS_SCROLL] = do_events_scroll,
	[CMD_EVENTS_PAGE] = do_events_page,
	[CMD_EVENTS_EDGE] = do_events_edge,
	[CMD_REDRAW] = do_redraw,
	[CMD_HELP_PAGE] = do_help_page,
	[CMD_DETAIL_TOGGLE] = do_detail_toggle,
	[CMD_DETAIL_CLOSE] = do_detail_close,
	[CMD_CHART_MODE] = do_chart_mode,
	[CMD_PROMPT_KEY] = commands_prompt_key,
	[CMD_REPLAY] = do_replay_move,
	[CMD_NOT_IN_REPLAY] = do_not_in_replay,
	[CMD_HIST_MOVE] = commands_hist,
	[CMD_HIST_OPEN] = commands_hist,
	[CMD_HIST_OVERLAY] = commands_hist,
	[CMD_HIST_DELETE] = commands_hist,
	[CMD_HIST_BACK] = commands_hist,
};

bool
command_known(enum command_id id)
{
	return id > CMD_NONE && id < CMD_COUNT && cmd_table[id] != NULL;
}

void
command_run(struct app *a, const struct command *c)
{
	int before = a->ui.view;

	if (!command_known(c->id))
		return;
	cmd_table[c->id](a, c);
	do_view_entered(a, before);
}

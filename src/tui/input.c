/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keys and the mouse to commands.  The tables say what each key means: in
 * the history view its keys come first, in the steps view its list's keys,
 * then in a replay the replay's, then everywhere's; an open prompt takes
 * every key, and open help closes on any key but space, which turns its
 * page.
 */
#include <stddef.h>

#include "app.h"

/*
 * So Home and End move the list in the steps and history views, and
 * elsewhere the replay's clock or the event log.  Nothing here changes the
 * state: control.c runs what comes out.  Every key bound here has a line in
 * help.c (tests/unit/test_keys holds them to it).
 */

struct binding {
	int key;
	enum command_id id;
	int arg;
};

#define KEY_CTRL_L ('L' & 0x1f)

/* In the steps view: the list (the event log below it follows the wheel). */
static const struct binding list_keys[] = {
	{ KEY_PPAGE, CMD_SELECT_PAGE, -1 }, { KEY_NPAGE, CMD_SELECT_PAGE, +1 },
	{ KEY_HOME, CMD_SELECT_EDGE, -1 },  { 'g', CMD_SELECT_EDGE, -1 },
	{ KEY_END, CMD_SELECT_EDGE, +1 },   { 'G', CMD_SELECT_EDGE, +1 },
};

/* In a replay: its clock, and the keys that would start something. */
static const struct binding replay_keys[] = {
	{ ' ', CMD_REPLAY_PLAY, 0 },     { '<', CMD_REPLAY_BACK, 0 },
	{ ',', CMD_REPLAY_BACK, 0 },     { KEY_LEFT, CMD_REPLAY_BACK, 0 },
	{ '>', CMD_REPLAY_ON, 0 },       { '.', CMD_REPLAY_ON, 0 },
	{ KEY_RIGHT, CMD_REPLAY_ON, 0 }, { KEY_HOME, CMD_REPLAY_START, 0 },
	{ 'g', CMD_REPLAY_START, 0 },    { KEY_END, CMD_REPLAY_END, 0 },
	{ 'G', CMD_REPLAY_END, 0 },      { 'r', CMD_NOT_IN_REPLAY, 0 },
	{ 'x', CMD_NOT_IN_REPLAY, 0 },   { '+', CMD_NOT_IN_REPLAY, 0 },
	{ '-', CMD_NOT_IN_REPLAY, 0 },   { '=', CMD_NOT_IN_REPLAY, 0 },
	{ 'w', CMD_NOT_IN_REPLAY, 0 },   { 'n', CMD_NOT_IN_REPLAY, 0 },
	{ '_', CMD_NOT_IN_REPLAY, 0 },   { 'W', CMD_NOT_IN_REPLAY, 0 },
};

/* From every view: the history view of the kept runs (R, as its tab, 6). */
static const struct binding history_open_keys[] = {
	{ 'R', CMD_VIEW, VIEW_HISTORY },
	{ '6', CMD_VIEW, VIEW_HISTORY },
};

/* In the history view (history.c): the list's keys come before all others. */
static const struct binding history_keys[] = {
	{ KEY_UP, CMD_HIST_MOVE, HM_UP },
	{ 'k', CMD_HIST_MOVE, HM_UP },
	{ KEY_DOWN, CMD_HIST_MOVE, HM_DOWN },
	{ 'j', CMD_HIST_MOVE, HM_DOWN },
	{ KEY_PPAGE, CMD_HIST_MOVE, HM_PGUP },
	{ KEY_NPAGE, CMD_HIST_MOVE, HM_PGDN },
	{ KEY_HOME, CMD_HIST_MOVE, HM_HOME },
	{ 'g', CMD_HIST_MOVE, HM_HOME },
	{ KEY_END, CMD_HIST_MOVE, HM_END },
	{ 'G', CMD_HIST_MOVE, HM_END },
	{ '\n', CMD_HIST_OPEN, 0 },
	{ '\r', CMD_HIST_OPEN, 0 },
	{ KEY_ENTER, CMD_HIST_OPEN, 0 },
	{ 'o', CMD_HIST_OVERLAY, 0 },
	{ 'D', CMD_HIST_DELETE, 0 },
	{ KEY_DC, CMD_HIST_DELETE, 0 },
	{ 27, CMD_HIST_BACK, 0 },
	{ 'q', CMD_HIST_BACK, 0 },
};

static const struct binding keys[] = {
	{ 'q', CMD_QUIT, 0 },           { 'Q', CMD_QUIT, 0 },
	{ KEY_F(10), CMD_QUIT, 0 },     { '?', CMD_HELP, 0 },
	{ 'h', CMD_HELP, 0 },           { KEY_F(1), CMD_HELP, 0 },
	{ ' ', CMD_PAUSE, 0 },          { 'v', CMD_VIEW_NEXT, 0 },
	{ '\t', CMD_VIEW_NEXT, 0 },     { 'V', CMD_VIEW_PREV, 0 },
	{ KEY_BTAB, CMD_VIEW_PREV, 0 }, { '1', CMD_VIEW, VIEW_OVERVIEW },
	{ '2', CMD_VIEW, VIEW_CPUS },   { '3', CMD_VIEW, VIEW_CHART },
	{ '4', CMD_VIEW, VIEW_STEPS },  { '5', CMD_VIEW, VIEW_WAITS },
	{ 't', CMD_THEME_NEXT, 0 },     { 'd', CMD_REFRESH_NEXT, 0 },
	{ 'r', CMD_SWEEP, 0 },          { 'x', CMD_STOP, 0 },
	{ '+', CMD_LIVE, +1 },          { '=', CMD_LIVE, +1 },
	{ '-', CMD_LIVE, -1 },          { '_', CMD_LIVE, -1 },
	{ 'w', CMD_PICK_WORKLOAD, 0 },  { 'n', CMD_EDIT_NLIST, 0 },
	{ 's', CMD_SAVE, 0 },           { 'o', CMD_OPEN, 0 },
	{ 'c', CMD_CLEAR_OVERLAYS, 0 }, { KEY_UP, CMD_SELECT_MOVE, -1 },
	{ 'k', CMD_SELECT_MOVE, -1 },   { KEY_DOWN, CMD_SELECT_MOVE, +1 },
	{ 'j', CMD_SELECT_MOVE, +1 },   { '\n', CMD_DETAIL_TOGGLE, 0 },
	{ '\r', CMD_DETAIL_TOGGLE, 0 }, { KEY_ENTER, CMD_DETAIL_TOGGLE, 0 },
	{ 27, CMD_DETAIL_CLOSE, 0 },    { 'T', CMD_THEME_PICK, 0 },
	{ 'W', CMD_RECORD, 0 },
};

/* Outside the steps view, after the replay's clock: the event log, and the screen. */
static const struct binding log_keys[] = {
	{ KEY_PPAGE, CMD_EVENTS_PAGE, -1 }, { KEY_NPAGE, CMD_EVENTS_PAGE, +1 },
	{ KEY_HOME, CMD_EVENTS_EDGE, -1 },  { 'g', CMD_EVENTS_EDGE, -1 },
	{ KEY_END, CMD_EVENTS_EDGE, +1 },   { 'G', CMD_EVENTS_EDGE, +1 },
	{ KEY_CTRL_L, CMD_REDRAW, 0 },
};

#define NBINDINGS(t) (sizeof(t) / sizeof((t)[0]))

/* The command bound to ch in t, or CMD_NONE. */
static struct command
input_lookup(const struct binding *t, size_t n, int ch)
{
	struct command c = { CMD_NONE, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].key == ch) {
			c.id = t[i].id;
			c.arg = t[i].arg;
			break;
		}
	}
	return c;
}

/* Notches of the wheel: a step each, three events each. */
#define INPUT_WHEEL_EVENTS 3

/* The wheel: the event log under the pointer, else the steps (steps view), else the log. */
static struct command
input_wheel(const struct app *a, const MEVENT *ev, int dir)
{
	struct command c = { CMD_EVENTS_SCROLL, dir * INPUT_WHEEL_EVENTS };
	const struct ui_hits *h = &a->hits;
	bool on_log = h->ev_rows > 0 && ev->y >= h->ev_y0 - 1 && ev->y < h->ev_y0 + h->ev_rows;

	if (!on_log && a->ui.view == VIEW_STEPS) {
		c.id = CMD_SELECT_MOVE;
		c.arg = dir;
	}
	return c;
}

struct command
input_mouse_event(const struct app *a, const MEVENT *ev)
{
	struct command c = { CMD_NONE, 0 };
	const struct ui_hit *h;
	int i;

	if (ev->bstate & BUTTON4_PRESSED)
		return input_wheel(a, ev, -1);
	if (ev->bstate & BUTTON5_PRESSED)
		return input_wheel(a, ev, +1);
	if (!(ev->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return c;
	for (i = 0; i < a->hits.n; i++) {
		h = &a->hits.hit[i];
		if (h->y != ev->y || ev->x < h->x0 || ev->x > h->x1)
			continue;
		if (h->step <= -2) {
			c.id = CMD_VIEW;
			c.arg = -2 - h->step;
		} else if (h->step >= 0) {
			c.id = CMD_SELECT_STEP;
			c.arg = h->step;
		}
		break;
	}
	return c;
}

/* A click on something the last frame drew (a view's tab, a step), or the wheel. */
static struct command
input_mouse(const struct app *a)
{
	struct command c = { CMD_NONE, 0 };
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return c;
	return input_mouse_event(a, &ev);
}

/* What ch means now. */
static struct command
input_command(const struct app *a, int ch)
{
	struct command c = { CMD_NONE, 0 };

	if (ch == KEY_MOUSE)
		return input_mouse(a);
	if (a->ui.view == VIEW_HISTORY)
		c = input_lookup(history_keys, NBINDINGS(history_keys), ch);
	else if (a->ui.view == VIEW_STEPS)
		c = input_lookup(list_keys, NBINDINGS(list_keys), ch);
	if (c.id == CMD_NONE && a->rp != NULL)
		c = input_lookup(replay_keys, NBINDINGS(replay_keys), ch);
	if (c.id == CMD_NONE)
		c = input_lookup(keys, NBINDINGS(keys), ch);
	if (c.id == CMD_NONE)
		c = input_lookup(log_keys, NBINDINGS(log_keys), ch);
	if (c.id == CMD_NONE)
		c = input_lookup(history_open_keys, NBINDINGS(history_open_keys), ch);
	return c;
}

void
input_key(struct app *a, int ch)
{
	struct command c = { CMD_PROMPT_KEY, ch };

	if (a->ui.pr.kind != PR_NONE) {
		control_run(a, &c);
		return;
	}
	if (a->ui.tp != NULL && a->ui.tp->open && ch != KEY_MOUSE) {
		c.id = CMD_THEME_PICK_KEY; /* the picker takes every key until it closes */
		control_run(a, &c);
		return;
	}
	if (a->ui.help && ch != KEY_MOUSE) {
		if ((ch == ' ' || ch == KEY_NPAGE) && a->hits.help_pages > 1) {
			c.id = CMD_HELP_PAGE;
			control_run(a, &c);
			return;
		}
		c.id = CMD_HELP_CLOSE; /* any other key closes help; q and F10 still quit */
		control_run(a, &c);
		if (ch != 'q' && ch != KEY_F(10))
			return;
	}
	c = input_command(a, ch);
	if (c.id != CMD_NONE)
		control_run(a, &c);
}

/* Every key of one table into keys[] from *n on, at most max in all. */
static void
input_table_keys(const struct binding *t, size_t nt, int *out, int max, int *n)
{
	size_t i;

	for (i = 0; i < nt && *n < max; i++)
		out[(*n)++] = t[i].key;
}

int
input_bound_keys(int *out, int max)
{
	int n = 0;

	input_table_keys(list_keys, NBINDINGS(list_keys), out, max, &n);
	input_table_keys(replay_keys, NBINDINGS(replay_keys), out, max, &n);
	input_table_keys(keys, NBINDINGS(keys), out, max, &n);
	input_table_keys(log_keys, NBINDINGS(log_keys), out, max, &n);
	input_table_keys(history_keys, NBINDINGS(history_keys), out, max, &n);
	input_table_keys(history_open_keys, NBINDINGS(history_open_keys), out, max, &n);
	return n;
}

/*
 * Keys and the mouse to commands.  The tables say what each key means, in
 * a replay first and then everywhere; an open prompt takes every key, and
 * open help closes on any key.  Nothing here changes the state: control.c
 * runs what comes out.
 */
#include <stddef.h>

#include "app.h"

struct binding {
	int key;
	enum command_id id;
	int arg;
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
	{ 27, CMD_DETAIL_CLOSE, 0 },    { 'W', CMD_RECORD, 0 },
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

/* A click on something the last frame drew: a view's tab, or a step. */
static struct command
input_mouse(const struct app *a)
{
	struct command c = { CMD_NONE, 0 };
	const struct ui_hit *h;
	MEVENT ev;
	int i;

	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return c;
	for (i = 0; i < a->hits.n; i++) {
		h = &a->hits.hit[i];
		if (h->y != ev.y || ev.x < h->x0 || ev.x > h->x1)
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

/* What ch means now. */
static struct command
input_command(const struct app *a, int ch)
{
	struct command c = { CMD_NONE, 0 };

	if (ch == KEY_MOUSE)
		return input_mouse(a);
	if (a->rp != NULL)
		c = input_lookup(replay_keys, NBINDINGS(replay_keys), ch);
	if (c.id == CMD_NONE)
		c = input_lookup(keys, NBINDINGS(keys), ch);
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
	if (a->ui.help && ch != KEY_MOUSE) {
		c.id = CMD_HELP_CLOSE; /* any key closes help; q and F10 still quit */
		control_run(a, &c);
		if (ch != 'q' && ch != KEY_F(10))
			return;
	}
	c = input_command(a, ch);
	if (c.id != CMD_NONE)
		control_run(a, &c);
}

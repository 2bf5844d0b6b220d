/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Keys and the mouse to commands, looked up in the key tables.
 */
#include <stddef.h>

#include "app.h"

/*
 * The tables say what each key means: the view's own keys come first (view.h), then keymap.c's, a
 * replay's (in a replay), everywhere's and the event log's, then the views' tabs (views.c); an open
 * prompt takes every key, and open help closes on any key but space, which turns its page.  So Home
 * and End move the list in the steps and runs views, and elsewhere the replay's clock or the event
 * log.  Nothing here changes the state: commands.c runs what comes out.
 */

/* The command bound to ch in a view's keys, or CMD_NONE. */
static struct command
input_lookup(const struct binding *t, int n, int ch)
{
	struct command c = { CMD_NONE, 0 };
	int i;

	for (i = 0; i < n; i++) {
		if (t[i].key == ch) {
			c.id = t[i].id;
			c.arg = t[i].arg;
			break;
		}
	}
	return c;
}

/* The command the keymap binds to ch in ctx, or CMD_NONE. */
static struct command
input_keymap(enum key_context ctx, int ch)
{
	struct command c = { CMD_NONE, 0 };
	const struct key_bind *b;
	int i, k;

	for (i = 0; i < nkeymap; i++) {
		for (k = 0; k < KEY_MAX_BINDS && keymap[i].bind[k].key != 0; k++) {
			b = &keymap[i].bind[k];
			if (b->ctx == ctx && b->key == ch) {
				c.id = b->id;
				c.arg = b->arg;
				return c;
			}
		}
	}
	return c;
}

/* A view's tab: its digit, or its own key. */
static struct command
input_view_tab(int ch)
{
	struct command c = { CMD_NONE, 0 };
	int i;

	for (i = 0; i < nviews; i++) {
		if (ch == '1' + i || (views[i]->key != 0 && ch == views[i]->key)) {
			c.id = CMD_VIEW;
			c.arg = i;
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

	if (!on_log && ui_view(&a->ui) == &view_steps) {
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
	const struct view *v = ui_view(&a->ui);
	struct command c = { CMD_NONE, 0 };

	if (ch == KEY_MOUSE)
		return input_mouse(a);
	if (v->keys != NULL)
		c = input_lookup(v->keys, v->nkeys, ch);
	if (c.id == CMD_NONE && a->rp != NULL)
		c = input_keymap(KC_REPLAY, ch);
	if (c.id == CMD_NONE)
		c = input_keymap(KC_ANY, ch);
	if (c.id == CMD_NONE)
		c = input_keymap(KC_LOG, ch);
	if (c.id == CMD_NONE)
		c = input_view_tab(ch);
	return c;
}

void
input_key(struct app *a, int ch)
{
	struct command c = { CMD_PROMPT_KEY, ch };

	if (a->ui.pr.kind != PR_NONE) {
		command_run(a, &c);
		return;
	}
	if (a->ui.tp != NULL && a->ui.tp->open && ch != KEY_MOUSE) {
		c.id = CMD_THEME_PICK_KEY; /* the picker takes every key until it closes */
		command_run(a, &c);
		return;
	}
	if (a->ui.help && ch != KEY_MOUSE) {
		if ((ch == ' ' || ch == KEY_NPAGE) && a->hits.help_pages > 1) {
			c.id = CMD_HELP_PAGE;
			command_run(a, &c);
			return;
		}
		c.id = CMD_HELP_CLOSE; /* any other key closes help; q and F10 still quit */
		command_run(a, &c);
		if (ch != 'q' && ch != KEY_F(10))
			return;
	}
	c = input_command(a, ch);
	if (c.id != CMD_NONE)
		command_run(a, &c);
}

int
input_bound_keys(int *out, int max)
{
	int n = 0, i, k;

	for (i = 0; i < nkeymap; i++) {
		for (k = 0; k < KEY_MAX_BINDS && keymap[i].bind[k].key != 0 && n < max; k++)
			out[n++] = keymap[i].bind[k].key;
	}
	for (i = 0; i < nviews; i++) {
		for (k = 0; k < views[i]->nkeys && n < max; k++)
			out[n++] = views[i]->keys[k].key;
		if (n < max)
			out[n++] = '1' + i;
		if (views[i]->key != 0 && n < max)
			out[n++] = views[i]->key;
	}
	return n;
}

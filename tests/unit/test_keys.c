/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TUI's keys without a terminal: the bound keys against the help made
 * from the tables (a key bound and not in the help fails here), the views'
 * table against its rules (a view with keys and no help, or a key that
 * opens two things, fails), and what a key or the wheel means where: the
 * list's keys in the steps view, the replay's clock elsewhere in a replay,
 * the event log otherwise.  command_run is this file's: it keeps the
 * command input.c asked for.
 */
#include <stdio.h>
#include <string.h>

#include "../../src/tui/app.h"
#include "../../src/tui/replay.h"
#include "../tap.h"

static struct command last;
static int nrun;

void
command_run(struct app *a, const struct command *c)
{
	(void)a;
	last = *c;
	nrun++;
}

/* The command a key gives (CMD_NONE when none ran). */
static struct command
key(struct app *a, int ch)
{
	last.id = CMD_NONE;
	last.arg = 0;
	input_key(a, ch);
	return last;
}

static void
test_help_lists_every_key(void)
{
	int keys[512];
	int n = input_bound_keys(keys, 512), i, missing = 0;
	const char *wide;

	ok(n > 40, "the tables bind keys (%d)", n);
	for (i = 0; i < n; i++) {
		if (!help_lists_key(keys[i])) {
			diag("key code %d (%s) is bound but not in the help", keys[i],
			     keyname(keys[i]) != NULL ? keyname(keys[i]) : "?");
			missing++;
		}
	}
	is_int(missing, 0, "every bound key has a line in the help");
	ok(!help_lists_key('Z'), "and the help is no catch-all: Z is in no line");
	wide = help_too_wide();
	ok(wide == NULL, "every help line fits its column at 80x24%s%s", wide ? ": " : "",
	   wide ? wide : "");
}

/*
 * At every size from the smallest the TUI draws to a large one, no heading
 * ends a column, or has fewer than two of its lines under it.
 */
static void
test_help_headings(void)
{
	static const int sizes[][2] = { { 60, 16 },  { 80, 24 },  { 80, 25 },  { 80, 40 },
					{ 100, 30 }, { 120, 40 }, { 160, 50 }, { 200, 60 } };
	const char *head, *bad = NULL;
	int i, w, h, bw = 0, bh = 0;

	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		head = help_heading_cut(sizes[i][0], sizes[i][1]);
		ok(head == NULL, "%dx%d: no help heading is cut from its lines%s%s", sizes[i][0],
		   sizes[i][1], head ? ": " : "", head ? head : "");
	}
	for (w = 60; w <= 200 && bad == NULL; w++) {
		for (h = 16; h <= 60 && bad == NULL; h++) {
			if ((bad = help_heading_cut(w, h)) != NULL)
				bw = w, bh = h;
		}
	}
	ok(bad == NULL, "nor at any size from 60x16 to 200x60%s%s at %dx%d", bad ? ": " : "",
	   bad ? bad : "", bw, bh);
}

static void
test_lists_and_replay(void)
{
	struct app a;
	struct command c;

	memset(&a, 0, sizeof(a));
	a.ui.sel_step = -1;
	c = key(&a, KEY_END);
	ok(c.id == CMD_EVENTS_EDGE && c.arg == +1, "End outside a replay: the newest events");
	c = key(&a, KEY_PPAGE);
	ok(c.id == CMD_EVENTS_PAGE && c.arg == -1, "PgUp: the event log a page back");
	a.ui.view = view_index(&view_steps);
	c = key(&a, KEY_NPAGE);
	ok(c.id == CMD_SELECT_PAGE && c.arg == +1, "PgDn in the steps view: a page of steps");
	c = key(&a, KEY_HOME);
	ok(c.id == CMD_SELECT_EDGE && c.arg == -1, "Home in the steps view: the first step");
	a.rp = (struct replay *)&a; /* input.c only asks whether there is one */
	c = key(&a, 'G');
	ok(c.id == CMD_SELECT_EDGE && c.arg == +1, "G in a replay's steps view: still the list");
	a.ui.view = view_index(&view_overview);
	c = key(&a, KEY_END);
	ok(c.id == CMD_REPLAY && c.arg == REPLAY_END,
	   "End in a replay's other views: the replay's end");
	c = key(&a, 'g');
	ok(c.id == CMD_REPLAY && c.arg == REPLAY_START, "g there: its start");
	c = key(&a, 'L' & 0x1f);
	is_int(c.id, CMD_REDRAW, "Ctrl-L redraws, in a replay too");
}

static void
test_help_pages(void)
{
	struct app a;
	struct command c;

	memset(&a, 0, sizeof(a));
	a.ui.help = true;
	a.hits.help_pages = 2;
	c = key(&a, ' ');
	is_int(c.id, CMD_HELP_PAGE, "space in a help of two pages: the next page");
	a.hits.help_pages = 1;
	c = key(&a, ' ');
	is_int(c.id, CMD_HELP_CLOSE, "space in a help of one page closes it");
	nrun = 0;
	c = key(&a, 'q');
	ok(nrun == 2 && c.id == CMD_QUIT, "q closes the help and quits");
}

static void
test_wheel(void)
{
	struct app a;
	MEVENT ev;
	struct command c;

	memset(&a, 0, sizeof(a));
	memset(&ev, 0, sizeof(ev));
	a.hits.ev_y0 = 12;
	a.hits.ev_rows = 5;
	ev.bstate = BUTTON5_PRESSED;
	ev.y = 3;
	c = input_mouse_event(&a, &ev);
	ok(c.id == CMD_EVENTS_SCROLL && c.arg > 0, "the wheel down in the overview: newer events");
	a.ui.view = view_index(&view_steps);
	c = input_mouse_event(&a, &ev);
	ok(c.id == CMD_SELECT_MOVE && c.arg == +1, "over the steps table: the next step");
	ev.bstate = BUTTON4_PRESSED;
	c = input_mouse_event(&a, &ev);
	ok(c.id == CMD_SELECT_MOVE && c.arg == -1, "the wheel up: the step before");
	ev.y = 14;
	c = input_mouse_event(&a, &ev);
	ok(c.id == CMD_EVENTS_SCROLL && c.arg < 0, "over the event log: older events");
	ev.bstate = BUTTON1_CLICKED;
	a.hits.n = 1;
	a.hits.hit[0] = (struct ui_hit){ 14, 0, 79, 3 };
	c = input_mouse_event(&a, &ev);
	ok(c.id == CMD_SELECT_STEP && c.arg == 3, "a click on an event still selects its step");
}

/* Every line of the keymap that binds a key says so in the help, and each view's key is its own. */
static void
test_tables(void)
{
	static const struct binding one_key[] = { { 'Z', CMD_SELECT_MOVE, -1 } };
	struct view quiet = view_waits, keyed = view_history, twin = view_history;
	const struct view *t[VIEW_MAX + 1];
	char why[256] = "";
	int i, bad = 0;

	for (i = 0; i < nkeymap; i++) {
		if (keymap[i].bind[0].key != 0 &&
		    (keymap[i].keys == NULL || keymap[i].what == NULL))
			bad++;
	}
	is_int(bad, 0, "every keymap line that binds a key has its keys and words in the help");
	ok(views_check(views, nviews, why, sizeof(why)) == 0, "the views' table holds%s%s",
	   why[0] ? ": " : "", why);
	memcpy(t, views, (size_t)nviews * sizeof(t[0]));
	quiet.keys = one_key;
	quiet.nkeys = 1;
	t[4] = &quiet;
	ok(views_check(t, nviews, why, sizeof(why)) != 0,
	   "a view with a key no line explains fails: %s", why);
	t[4] = views[4];
	keyed.help = NULL;
	t[5] = &keyed;
	ok(views_check(t, nviews, why, sizeof(why)) != 0,
	   "a view with a key of its own and no help fails: %s", why);
	t[5] = views[5];
	t[nviews] = &twin;
	ok(views_check(t, nviews + 1, why, sizeof(why)) != 0, "two views on one key fail: %s", why);
	twin.key = 'q';
	ok(views_check(t, nviews + 1, why, sizeof(why)) != 0,
	   "a view on a key the keymap binds fails: %s", why);
	twin.key = '7';
	ok(views_check(t, nviews + 1, why, sizeof(why)) != 0, "a view on a tab's digit fails: %s",
	   why);
	twin.key = 'Z';
	ok(views_check(t, nviews + 1, why, sizeof(why)) == 0,
	   "a seventh view on its own key holds");
	twin.name = "";
	ok(views_check(t, nviews + 1, why, sizeof(why)) != 0, "a view without a name fails: %s",
	   why);
}

/* A view's digit and its key open it; v and V go round the table. */
static void
test_view_keys(void)
{
	struct app a;
	struct command c;
	int i;

	memset(&a, 0, sizeof(a));
	for (i = 0; i < nviews; i++) {
		c = key(&a, '1' + i);
		ok(c.id == CMD_VIEW && c.arg == i, "%c opens the %s view", '1' + i, views[i]->name);
	}
	c = key(&a, 'R');
	ok(c.id == CMD_VIEW && c.arg == view_index(&view_history), "R opens the runs view");
	c = key(&a, '1' + nviews);
	is_int(c.id, CMD_NONE, "the digit after the last view opens nothing");
	a.ui.view = view_index(&view_history);
	c = key(&a, 'q');
	is_int(c.id, CMD_HIST_BACK, "q in the runs view: its own key, back");
}

int
main(void)
{
	test_tables();
	test_view_keys();
	test_help_lists_every_key();
	test_help_headings();
	test_lists_and_replay();
	test_help_pages();
	test_wheel();
	return done_testing();
}

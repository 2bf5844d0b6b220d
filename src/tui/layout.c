/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The frame around the view on screen (views.h: each view places its own
 * panels), and the one place a frame reaches the terminal: everything is
 * drawn into stdscr, then one wnoutrefresh + doupdate sends only what
 * changed, so nothing flickers.
 */
#include <stdio.h>
#include <string.h>

#include "views.h"

static void
layout_too_small(int h, int w)
{
	char msg[64];
	int len = snprintf(msg, sizeof(msg), "terminal too small (need %dx%d)", UI_MIN_W, UI_MIN_H);

	mvaddnstr(h / 2, w > len ? (w - len) / 2 : 0, msg, w);
}

void
ui_draw(const struct ui *u, const struct frame *f, struct ui_hits *hits)
{
	int h = LINES, w = COLS;
	struct rect body = { 2, 0, h - 4, w };
	const struct view *v = ui_view(u);
	int det_h;

	hits->n = 0;
	hits->list_rows = hits->ev_rows = hits->help_pages = 0;
	erase();
	curs_set(0);
	if (w < UI_MIN_W || h < UI_MIN_H) {
		layout_too_small(h, w);
		theme_pick_draw(u, (struct rect){ 0, 0, h, w });
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	header_draw(u, f, (struct rect){ 0, 0, 2, w });
	v->draw(u, f, body, hits);
	if (!v->has_detail && u->detail && u->sel_step >= 0) {
		det_h = step_detail_h(u, f, body.h);
		step_detail_draw(u, f, (struct rect){ h - 2 - det_h, 0, det_h, w });
	}
	verdict_draw(u, f, (struct rect){ h - 2, 0, 1, w });
	footer_draw(u, f, (struct rect){ h - 1, 0, 1, w }, hits);
	if (u->help)
		help_draw(u, (struct rect){ 0, 0, h, w }, hits);
	theme_pick_draw(u, (struct rect){ 0, 0, h, w });
	if (u->pr.kind != PR_NONE) {
		prompt_draw(u, (struct rect){ 0, 0, h, w });
		if (u->pr.kind != PR_WORKLOAD && !PR_IS_CONFIRM(u->pr.kind))
			curs_set(1);
	}
	wnoutrefresh(stdscr);
	doupdate();
}

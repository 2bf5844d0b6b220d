/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where each panel goes, per view and terminal size, and the one place a
 * frame reaches the terminal: everything is drawn into stdscr, then one
 * wnoutrefresh + doupdate sends only what changed, so nothing flickers.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"

static void
layout_overview(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int ev_h = b.h >= 36 ? 5 : b.h >= 28 ? 3 : 0;
	int ct_h = b.h - ev_h >= 26 ? 8 : 5;
	int top = b.h - ev_h - ct_h;
	int cw, ch;

	if (b.w >= 110) {
		cw = b.w * 2 / 5;
		cpus_draw(u, f, (struct rect){ b.y, b.x, top, cw }, true);
		chart_draw(u, f, (struct rect){ b.y, b.x + cw + 1, top, b.w - cw - 1 }, h);
	} else {
		ch = cpus_rows_wanted(f, b.w);
		if (ch > top / 2)
			ch = top / 2;
		cpus_draw(u, f, (struct rect){ b.y, b.x, ch, b.w }, false);
		chart_draw(u, f, (struct rect){ b.y + ch, b.x, top - ch, b.w }, h);
	}
	contention_draw(u, f, (struct rect){ b.y + top, b.x, ct_h, b.w });
	if (ev_h > 0)
		events_draw(u, f, (struct rect){ b.y + top + ct_h, b.x, ev_h, b.w }, h);
}

static void
layout_chart(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int ct_h = b.h / 3 < 8 ? 8 : b.h / 3;

	if (ct_h > b.h - 6)
		ct_h = b.h - 6;
	chart_draw(u, f, (struct rect){ b.y, b.x, b.h - ct_h, b.w }, h);
	contention_draw(u, f, (struct rect){ b.y + b.h - ct_h, b.x, ct_h, b.w });
}

static void
layout_steps(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int det_h = u->sel_step >= 0 ? STEP_DETAIL_H : 0;
	int tab_h = f->s->nsteps + 3;
	int ev_h;

	if (tab_h > b.h - det_h - 3)
		tab_h = b.h - det_h - 3;
	ev_h = b.h - tab_h - det_h;
	steps_draw(u, f, (struct rect){ b.y, b.x, tab_h, b.w }, h);
	if (det_h > 0)
		step_detail_draw(u, f, (struct rect){ b.y + tab_h, b.x, det_h, b.w });
	events_draw(u, f, (struct rect){ b.y + tab_h + det_h, b.x, ev_h, b.w }, h);
}

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
	switch (u->view) {
	case VIEW_CPUS:
		cpus_draw(u, f, body, true);
		break;
	case VIEW_CHART:
		layout_chart(u, f, body, hits);
		break;
	case VIEW_STEPS:
		layout_steps(u, f, body, hits);
		break;
	case VIEW_WAITS:
		/* the selected step's detail (enter) goes below the view, not over it */
		if (u->detail && u->sel_step >= 0)
			body.h -= STEP_DETAIL_H;
		waits_draw(u, f, body);
		break;
	case VIEW_HISTORY:
		history_draw(u, f, body);
		break;
	default:
		layout_overview(u, f, body, hits);
		break;
	}
	if (u->view != VIEW_STEPS && u->view != VIEW_HISTORY && u->detail && u->sel_step >= 0)
		step_detail_draw(u, f, (struct rect){ h - 2 - STEP_DETAIL_H, 0, STEP_DETAIL_H, w });
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The history view: the kept runs (store/runs.c), newest first, with what
 * each measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view.h"

/*
 * Listing is one readdir; a row's summary is read only when the row is on
 * screen, and at most a few files a frame (HISTORY_READS,
 * HISTORY_BUDGET_S), so hundreds of runs, or one huge snapshot, never hold
 * up a key.  commands_prompts.c moves and deletes; frame.c fills the rows the
 * next frame shows; history_draw only reads.
 */

#define HISTORY_READS 8       /* files read for one frame, at most */
#define HISTORY_BUDGET_S 0.05 /* ... and no more once this long was spent */
#define HISTORY_TIME_W 16     /* "2026-12-01 17:05" */
#define HISTORY_WHAT_MIN 16   /* "mutex hold=30..." */
#define HISTORY_WHAT_MAX 48
/* The row's other columns (" when  ", host, N, steps) and 24 of the verdict. */
#define HISTORY_FIXED_W (1 + HISTORY_TIME_W + 2 + 1 + 14 + 1 + 9 + 1 + 5 + 2 + 24)

void
history_scan(struct history *h)
{
	char keep[sizeof(h->l.v[0].path)] = "";
	int i;

	if (h->sel >= 0 && h->sel < h->l.n)
		snprintf(keep, sizeof(keep), "%s", h->l.v[h->sel].path);
	runs_list_free(&h->l);
	h->err[0] = '\0';
	if (runs_dir(h->dir, sizeof(h->dir), h->err, sizeof(h->err)) == 0)
		runs_list(h->dir, &h->l, h->err, sizeof(h->err));
	h->sel = 0;
	for (i = 0; keep[0] != '\0' && i < h->l.n; i++) {
		if (strcmp(h->l.v[i].path, keep) == 0)
			h->sel = i;
	}
}

/* The first row shown keeps the selection on screen. */
static void
history_scroll(struct history *h, int rows)
{
	if (rows < 1)
		rows = 1;
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + rows)
		h->top = h->sel - rows + 1;
	if (h->top > h->l.n - rows)
		h->top = h->l.n - rows;
	if (h->top < 0)
		h->top = 0;
}

void
history_fill(struct history *h, int rows)
{
	double t0 = ui_now();
	int i, reads = 0;

	h->rows = rows;
	history_scroll(h, rows);
	for (i = h->top; i < h->l.n && i < h->top + rows; i++) {
		if (h->l.v[i].loaded)
			continue;
		if (reads == HISTORY_READS || (reads > 0 && ui_now() - t0 > HISTORY_BUDGET_S))
			break;
		runs_entry_load(&h->l.v[i]);
		reads++;
	}
}

void
history_move(struct history *h, enum history_move m)
{
	int page = h->rows > 1 ? h->rows - 1 : 1;

	switch (m) {
	case HM_UP:
		h->sel--;
		break;
	case HM_DOWN:
		h->sel++;
		break;
	case HM_PGUP:
		h->sel -= page;
		break;
	case HM_PGDN:
		h->sel += page;
		break;
	case HM_HOME:
		h->sel = 0;
		break;
	case HM_END:
		h->sel = h->l.n - 1;
		break;
	}
	if (h->sel >= h->l.n)
		h->sel = h->l.n - 1;
	if (h->sel < 0)
		h->sel = 0;
	history_scroll(h, h->rows);
}

const struct run_entry *
history_selected(const struct history *h)
{
	return h->sel >= 0 && h->sel < h->l.n ? &h->l.v[h->sel] : NULL;
}

int
history_delete(struct history *h, char *err, size_t errlen)
{
	const struct run_entry *e = history_selected(h);

	if (e == NULL)
		return st_error(err, errlen, "no kept run to delete");
	if (unlink(e->path) != 0 && errno != ENOENT)
		return st_error(err, errlen, "cannot delete %s: %s", e->path, strerror(errno));
	memmove(&h->l.v[h->sel], &h->l.v[h->sel + 1],
		(size_t)(h->l.n - h->sel - 1) * sizeof(h->l.v[0]));
	h->l.n--;
	if (h->sel >= h->l.n && h->sel > 0)
		h->sel--;
	return 0;
}

void
history_free(struct history *h)
{
	runs_list_free(&h->l);
}

/*
 * The workload column's width in a row of w: what the fixed columns and a
 * short verdict leave, within [HISTORY_WHAT_MIN, HISTORY_WHAT_MAX]; a narrow
 * window cuts the parameters, not the date or the name.
 */
static int
history_what_width(int w)
{
	int ww = w - HISTORY_FIXED_W;

	return ww < HISTORY_WHAT_MIN   ? HISTORY_WHAT_MIN
	       : ww > HISTORY_WHAT_MAX ? HISTORY_WHAT_MAX
				       : ww;
}

/* One row: when, what ran, host, N, steps, verdict (or why the file could not be read). */
static void
history_row(const struct run_entry *e, const char *dir, int y, int x, int w, attr_t a)
{
	char when[32], nr[32], what[512];
	int ww = history_what_width(w);
	struct tm tm;

	localtime_r(&e->mtime, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	if (!e->loaded) {
		ui_putf(y, x, w, a, " %-*s  reading...", HISTORY_TIME_W, when);
		return;
	}
	if (e->err[0] != '\0') { /* the file's name, not the directory the title gives */
		ui_putf(y, x, w, a, " %-*s  cannot read: %s", HISTORY_TIME_W, when,
			strncmp(e->err, dir, strlen(dir)) == 0 && e->err[strlen(dir)] == '/'
				? e->err + strlen(dir) + 1
				: e->err);
		return;
	}
	runs_entry_nrange(e, nr, sizeof(nr));
	runs_entry_what(e, ww, what, sizeof(what));
	ui_putf(y, x, w, a, " %-*s  %-*s %-14.14s %-9s %5d  %s%s%s", HISTORY_TIME_W, when, ww, what,
		e->host, nr, e->nsteps, e->interrupted ? "(stopped) " : "",
		e->repair[0] ? "(read with a warning) " : "", e->verdict);
}

void
history_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct history *h = u->hist;
	char title[128];
	struct rect in;
	int i, y;

	if (h == NULL)
		return;
	snprintf(title, sizeof(title),
		 "runs kept: %d, newest first   enter opens  o overlays  D deletes  esc back",
		 h->l.n);
	in = ui_titled(r, title);
	if (in.h < 2)
		return;
	ui_putf(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE), " %-*s  %-*s %-14s %-9s %5s  %s",
		HISTORY_TIME_W, "kept", history_what_width(in.w), "workload", "host", "N", "steps",
		"verdict");
	if (h->err[0] != '\0' || h->l.n == 0) {
		ui_putf(in.y + 2, in.x, in.w, theme_attr(h->err[0] ? ROLE_WARNING : ROLE_MAIN),
			" %s", h->err[0] ? h->err : "no kept runs yet");
		ui_putf(in.y + 3, in.x, in.w, theme_attr(ROLE_INACTIVE), " %s%s",
			u->autosave ? "every sweep is kept here when it ends or is stopped: "
				    : "autosave is off: ",
			h->dir);
		return;
	}
	for (i = h->top, y = in.y + 1; i < h->l.n && y < in.y + in.h; i++, y++)
		history_row(&h->l.v[i], h->dir, y, in.x, in.w,
			    i == h->sel ? theme_attr(ROLE_TITLE) | A_REVERSE
					: theme_attr(ROLE_MAIN));
	(void)f;
}

/* The runs view's keys: its list's come before all others. */
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
	{ KEY_ESC, CMD_HIST_BACK, 0 },
	{ 'q', CMD_HIST_BACK, 0 },
};

/*
 * The list is read anew each time the view opens; its state is allocated
 * the first time, so a monitor never shown the runs does without it.
 */
static int
history_view_enter(struct ui *u, int before)
{
	if (u->hist == NULL && (u->hist = calloc(1, sizeof(*u->hist))) == NULL)
		return -1;
	u->hist->back = before;
	history_scan(u->hist);
	return 0;
}

static void
history_view_draw(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	(void)h;
	history_draw(u, f, b);
}

const struct view view_history = {
	.name = "runs",
	.key = 'R',
	.help = "kept runs: Enter o D Del",
	.help_codes = { 'D', KEY_DC },
	.draw = history_view_draw,
	.keys = history_keys,
	.nkeys = (int)(sizeof(history_keys) / sizeof(history_keys[0])),
	.has_detail = true,
	.enter = history_view_enter,
};

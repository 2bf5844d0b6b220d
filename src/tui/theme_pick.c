/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The theme picker (T), as btop's menu has one: a list of every theme the
 * look-up finds (scaletop's, the user's, btop's) with where each is from,
 * and the selected one in use at once, so the screen behind is the preview;
 * the box adds a sample of every role, so that colours the current view
 * does not show (the overlays, the heat scale, a bad verdict) are seen too.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "ui.h"

#define TP_LIST_W 42 /* the list column: a 26-column name and its origin */
#define TP_MIN_PREVIEW 26

static void
tp_add(const char *name, const char *path, enum theme_origin origin, void *arg)
{
	struct theme_pick *tp = arg;

	(void)path;
	if (tp->n >= TP_MAX)
		return;
	snprintf(tp->name[tp->n], sizeof(tp->name[0]), "%s", name);
	tp->origin[tp->n++] = (unsigned char)origin;
}

void
theme_pick_open(struct theme_pick *tp, const char *current)
{
	int i;

	memset(tp, 0, sizeof(*tp));
	tp->sel = -1;
	theme_list(tp_add, tp);
	snprintf(tp->prev, sizeof(tp->prev), "%s", current);
	for (i = 0; i < tp->n; i++) {
		if (strcmp(tp->name[i], current) == 0)
			tp->sel = i;
	}
	/* A theme given as a path is in no folder: it leads the list, so opening changes nothing.
	 */
	if (tp->sel < 0 && tp->n < TP_MAX) {
		memmove(tp->name[1], tp->name[0], sizeof(tp->name[0]) * (size_t)tp->n);
		memmove(tp->origin + 1, tp->origin, (size_t)tp->n);
		snprintf(tp->name[0], sizeof(tp->name[0]), "%s", current);
		tp->origin[0] = THEME_FROM_PATH;
		tp->n++;
	}
	tp->sel = tp->sel < 0 ? 0 : tp->sel;
	tp->open = tp->n > 0;
}

void
theme_pick_preview(struct theme_pick *tp)
{
	char path[PATH_MAX], err[ST_ERRLEN];
	const char *name = tp->name[tp->sel];
	int rc;

	tp->path[0] = tp->warn[0] = '\0';
	if (theme_find(name, path, sizeof(path), NULL, 0) == 1)
		snprintf(tp->path, sizeof(tp->path), "%s", path);
	rc = theme_use(name, err, sizeof(err));
	tp->unusable = rc < 0;
	if (rc != 0)
		snprintf(tp->warn, sizeof(tp->warn), "%s", err);
}

/* The box: the screen less a margin, up to 100 columns; the list's rows are what is left. */
static struct rect
tp_box(struct rect screen)
{
	struct rect b = screen;

	if (b.h >= 10) {
		b.h -= 2;
		b.y += 1;
	}
	if (b.w >= 30) {
		b.w = b.w - 4 < 100 ? b.w - 4 : 100;
		b.x += (screen.w - b.w) / 2;
	}
	return b;
}

int
theme_pick_rows(int h)
{
	struct rect b = tp_box((struct rect){ 0, 0, h, 80 });

	return b.h - 4 > 1 ? b.h - 4 : 1;
}

static void
tp_move(struct theme_pick *tp, int to, int rows)
{
	tp->sel = to < 0 ? 0 : to >= tp->n ? tp->n - 1 : to;
	if (tp->sel < tp->top)
		tp->top = tp->sel;
	if (tp->sel >= tp->top + rows)
		tp->top = tp->sel - rows + 1;
}

enum tp_action
theme_pick_key(struct theme_pick *tp, int ch, int rows)
{
	int was = tp->sel;

	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		tp->open = false;
		return TP_KEEP;
	case 27:
	case 'q':
	case 'T':
		tp->open = false;
		return TP_CANCEL;
	case KEY_UP:
	case 'k':
		tp_move(tp, tp->sel - 1, rows);
		break;
	case KEY_DOWN:
	case 'j':
		tp_move(tp, tp->sel + 1, rows);
		break;
	case KEY_PPAGE:
		tp_move(tp, tp->sel - rows, rows);
		break;
	case KEY_NPAGE:
		tp_move(tp, tp->sel + rows, rows);
		break;
	case KEY_HOME:
	case 'g':
		tp_move(tp, 0, rows);
		break;
	case KEY_END:
	case 'G':
		tp_move(tp, tp->n - 1, rows);
		break;
	default:
		return TP_NONE;
	}
	return tp->sel != was ? TP_MOVED : TP_NONE;
}

/* --- drawing ----------------------------------------------------------------- */

/* One sample: a label in the main colour, then glyph cells in role r. */
static int
tp_cells(int y, int x, int maxw, enum theme_role r, const char *glyph, int n)
{
	int i, used = 0;

	for (i = 0; i < n && used < maxw; i++)
		used += ui_put(y, x + used, maxw - used, theme_attr(r), glyph);
	return used;
}

/* Words, each in its role, separated by a blank. */
static void
tp_words(int y, int x, int w, const enum theme_role *r, const char *const *word, int n)
{
	int i, used = 0;

	for (i = 0; i < n && used < w; i++)
		used += ui_put(y, x + used, w - used, theme_attr(r[i]), word[i]) + 1;
}

static void
tp_sample_text(int y, int x, int w)
{
	static const enum theme_role r[] = { ROLE_MAIN, ROLE_TITLE, ROLE_HI, ROLE_INACTIVE,
					     ROLE_GRAPH };
	static const char *const word[] = { "text", "title", "key", "stale", "axis" };

	tp_words(y, x, w, r, word, 5);
}

static void
tp_sample_cpu(int y, int x, int w)
{
	static const enum theme_role r[] = { ROLE_CPU_USER, ROLE_CPU_NICE,   ROLE_CPU_SYS,
					     ROLE_CPU_IRQ,  ROLE_CPU_IOWAIT, ROLE_CPU_STEAL };
	static const char *const word[] = { "usr", "nic", "sys", "irq", "iow", "stl" };
	int i, used = ui_put(y, x, w, theme_attr(ROLE_MAIN), "cpu  ");

	/* Each part of the bar three cells wide, its name under it. */
	for (i = 0; i < 6; i++)
		used += tp_cells(y, x + used, w - used, r[i], glyph_level(1.0), 3);
	tp_cells(y, x + used, w - used, ROLE_METER, glyph_level(1.0), 3);
	tp_words(y + 1, x + 5, w - 5, r, word, 6);
}

static void
tp_sample_chart(int y, int x, int w)
{
	static const enum theme_role ov[] = { ROLE_OVERLAY1, ROLE_OVERLAY2, ROLE_OVERLAY3,
					      ROLE_OVERLAY4, ROLE_OVERLAY5, ROLE_OVERLAY6 };
	int i, used = ui_put(y, x, w, theme_attr(ROLE_MAIN), "heat ");

	for (i = 0; i < 5; i++)
		used += tp_cells(y, x + used, w - used, (enum theme_role)(ROLE_HEAT0 + i),
				 glyph_shade(4), 2);
	used = ui_put(y + 1, x, w, theme_attr(ROLE_MAIN), "runs ");
	for (i = 0; i < 6; i++)
		used += tp_cells(y + 1, x + used, w - used, ov[i], glyph_swatch(), 2);
	used = tp_cells(y + 2, x, w, ROLE_IDEAL, glyph_hline(), 3);
	used += ui_put(y + 2, x + used, w - used, theme_attr(ROLE_IDEAL), " ideal  ");
	used += tp_cells(y + 2, x + used, w - used, ROLE_USL, glyph_hline(), 3);
	ui_put(y + 2, x + used, w - used, theme_attr(ROLE_USL), " usl fit");
	used = ui_put(y + 3, x, w, theme_attr(ROLE_PEAK), glyph_peak());
	used += ui_put(y + 3, x + used, w - used, theme_attr(ROLE_PEAK), " peak  ");
	used += ui_put(y + 3, x + used, w - used, theme_attr(ROLE_COLLAPSE), glyph_collapse());
	ui_put(y + 3, x + used, w - used, theme_attr(ROLE_COLLAPSE), " collapse");
}

static void
tp_sample_verdict(int y, int x, int w, int h)
{
	ui_put(y, x, w, theme_attr(ROLE_VERDICT_OK), "scales to 8 clients");
	if (h > 1)
		ui_put(y + 1, x, w, theme_attr(ROLE_VERDICT_BAD), "collapse above 8 clients");
	if (h > 2)
		ui_put(y + 2, x, w, theme_attr(ROLE_WARNING), "N=16 unstable");
	if (h > 3)
		ui_putf(y + 3, x, w, theme_attr(ROLE_SELECTED), "%-*s", w < 24 ? w : 24,
			" a selected row");
}

/* Samples of every role, top to bottom, as many as fit in h rows. */
static void
tp_preview(struct rect r)
{
	if (r.h < 1 || r.w < 8)
		return;
	tp_sample_text(r.y, r.x, r.w);
	if (r.h >= 4)
		tp_sample_cpu(r.y + 2, r.x, r.w);
	if (r.h >= 9)
		tp_sample_chart(r.y + 5, r.x, r.w);
	if (r.h >= 11)
		tp_sample_verdict(r.y + 10, r.x, r.w, r.h - 10);
}

static void
tp_list(const struct theme_pick *tp, struct rect r)
{
	int i, row, top = tp->top;
	attr_t a;

	/* The screen may have shrunk since the last move: the selected row stays in sight. */
	if (tp->sel >= top + r.h)
		top = tp->sel - r.h + 1;
	if (tp->sel < top)
		top = tp->sel;
	for (row = 0; row < r.h && top + row < tp->n; row++) {
		i = top + row;
		a = i == tp->sel ? theme_attr(ROLE_SELECTED) : theme_attr(ROLE_MAIN);
		ui_putf(r.y + row, r.x, r.w, a, " %-*.*s %-*s", r.w - 16, r.w - 16, tp->name[i], 14,
			theme_origin_name((enum theme_origin)tp->origin[i]));
	}
}

/* Under the list: the file, then its warning or what the terminal can show. */
static void
tp_notes(const struct theme_pick *tp, int y, int x, int w)
{
	ui_putf(y, x, w, theme_attr(ROLE_INACTIVE), "%s", tp->path[0] ? tp->path : "built in");
	if (tp->warn[0] != '\0')
		ui_put(y + 1, x, w, theme_attr(ROLE_WARNING), tp->warn);
	else if (theme_depth() == THEME_DEPTH_MONO)
		ui_put(y + 1, x, w, theme_attr(ROLE_HI),
		       "no colour here (terminal, NO_COLOR or mono theme): attributes only");
	else
		ui_putf(y + 1, x, w, theme_attr(ROLE_INACTIVE), "no warnings; %s colour",
			theme_depth() == THEME_DEPTH_DIRECT ? "24-bit"
			: theme_depth() == THEME_DEPTH_256  ? "256"
							    : "8");
}

/* A screen too small for the box: one line saying what is selected. */
static void
tp_compact(const struct theme_pick *tp, struct rect screen)
{
	ui_fill((struct rect){ screen.y, screen.x, 1, screen.w }, theme_attr(ROLE_SELECTED));
	ui_putf(screen.y, screen.x, screen.w, theme_attr(ROLE_SELECTED),
		"theme %d/%d: %s (%s); enter keeps, esc restores", tp->sel + 1, tp->n,
		tp->name[tp->sel], theme_origin_name((enum theme_origin)tp->origin[tp->sel]));
}

void
theme_pick_draw(const struct ui *u, struct rect screen)
{
	const struct theme_pick *tp = u->tp;
	struct rect b = tp_box(screen), list;
	int lw;

	if (tp == NULL || !tp->open)
		return;
	if (b.h < 6 || b.w < 24) {
		tp_compact(tp, screen);
		return;
	}
	ui_fill(b, theme_attr(ROLE_MAIN));
	ui_fill((struct rect){ b.y, b.x, 1, b.w }, theme_attr(ROLE_DIV) | A_REVERSE);
	ui_putf(b.y, b.x + 1, b.w - 2, theme_attr(ROLE_TITLE) | A_REVERSE,
		"themes %d/%d  up/down: try  enter: keep  esc: back to %s", tp->sel + 1, tp->n,
		tp->prev);
	lw = b.w - TP_LIST_W >= TP_MIN_PREVIEW + 2 ? TP_LIST_W : b.w - 2;
	list = (struct rect){ b.y + 1, b.x + 1, b.h - 4, lw };
	tp_list(tp, list);
	if (lw == TP_LIST_W)
		tp_preview((struct rect){ b.y + 2, b.x + lw + 3, b.h - 5, b.w - lw - 4 });
	tp_notes(tp, b.y + b.h - 2, b.x + 1, b.w - 2);
}

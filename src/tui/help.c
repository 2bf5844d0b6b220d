/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The help box (? or F1): every key, and what the chart's marks mean.  Each
 * line names the key codes it describes, so a test can hold it to input.c's
 * tables (help_lists_key): a key bound there and left out here fails it.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"

#define HELP_MAX_CODES 6
#define HELP_KEY_W 9  /* the key column */
#define HELP_COL_W 38 /* a column: the keys, a space, 28 columns of words */
#define HELP_MAX_W 100

/*
 * The lines flow down two columns when the box is wide enough, else one;
 * what does not fit goes on further pages, and the last row then says so: a
 * small terminal shows fewer keys at a time, never fewer keys.
 */

struct help_line {
	const char *keys;  /* NULL: a heading */
	const char *ascii; /* the keys column in ASCII, when keys is not */
	const char *what;
	int code[HELP_MAX_CODES]; /* the key codes it describes; 0 ends */
};

#define CTRL_L 12

static const struct help_line help_lines[] = {
	{ NULL, NULL, "Sweep", { 0 } },
	{ "space", NULL, "pause/resume (replay: play)", { ' ' } },
	{ "r  x", NULL, "rerun what is shown; stop it", { 'r', 'x' } },
	{ "+ -", NULL, "run at one N, live; change N", { '+', '=', '-', '_' } },
	{ "w", NULL, "choose the workload", { 'w' } },
	{ "n", NULL, "edit the N list (1-64x2)", { 'n' } },
	{ NULL, NULL, "Views", { 0 } },
	{ "v Tab", NULL, "next view; V S-Tab: previous", { 'v', '\t', 'V', KEY_BTAB } },
	{ "1 2 3", NULL, "views: overview, cpus, chart", { '1', '2', '3' } },
	{ "4 5", NULL, "views: steps, waits", { '4', '5' } },
	{ "6 R", NULL, "kept runs: Enter o D Del", { '6', 'R', 'D', KEY_DC } },
	{ NULL, NULL, "Lists: steps and events", { 0 } },
	{ "j k \u2191 \u2193", "j k up dn", "select a step", { 'j', 'k', KEY_UP, KEY_DOWN } },
	{ "PgUp PgDn", NULL, "a page up / down", { KEY_PPAGE, KEY_NPAGE } },
	{ "Home End", NULL, "first / last; also g G", { KEY_HOME, KEY_END, 'g', 'G' } },
	{ "wheel", NULL, "scroll the steps or events", { 0 } },
	{ "Enter", NULL, "step detail (or a click)", { '\n', '\r', KEY_ENTER } },
	{ "Esc", NULL, "close the step detail", { 27 } },
	{ NULL, NULL, "Files", { 0 } },
	{ "s", NULL, "save a snapshot (JSON)", { 's' } },
	{ "o  c", NULL, "open an overlay / clear them", { 'o', 'c' } },
	{ "W", NULL, "record to .jsonl / stop", { 'W' } },
	{ NULL, NULL, "Replay (steps view: lists)", { 0 } },
	{ "< , \u2190", "< , left", "step back in time", { '<', ',', KEY_LEFT } },
	{ "> . \u2192", "> . right", "step on in time", { '>', '.', KEY_RIGHT } },
	{ "g G", NULL, "to the start / end; Home End", { 'g', 'G', KEY_HOME, KEY_END } },
	{ NULL, NULL, "Screen", { 0 } },
	{ "t  T", NULL, "next theme / theme picker", { 't', 'T' } },
	{ "d", NULL, "next refresh interval", { 'd' } },
	{ "Ctrl-L", NULL, "redraw the screen", { CTRL_L } },
	{ "? h F1", NULL, "this help (space: next page)", { '?', 'h', KEY_F(1) } },
	{ "q Q F10", NULL, "quit", { 'q', 'Q', KEY_F(10) } },
	{ NULL, NULL, "Chart", { 0 } },
	{ "\u25cf", "o", "this sweep, pooled per N", { 0 } },
	{ "..", NULL, "ideal from X(1); line: USL", { 0 } },
	{ "\u25b2  \u2716", "^  X", "the peak; the collapse", { 0 } },
	{ "\u25c6", "@", "the running step", { 0 } },
	{ "CPU bars", NULL, "usr nice sys irq io steal", { 0 } },
};
#define NHELP (int)(sizeof(help_lines) / sizeof(help_lines[0]))

bool
help_lists_key(int key)
{
	int i, k;

	for (i = 0; i < NHELP; i++) {
		for (k = 0; k < HELP_MAX_CODES && help_lines[i].code[k] != 0; k++) {
			if (help_lines[i].code[k] == key)
				return true;
		}
	}
	return false;
}

/* Display columns of UTF-8 text: the help's glyphs are one column each. */
static int
help_cols(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

const char *
help_too_wide(void)
{
	int i;

	for (i = 0; i < NHELP; i++) {
		if (help_cols(help_lines[i].what) > HELP_COL_W - 1 - HELP_KEY_W ||
		    (help_lines[i].keys != NULL && help_cols(help_lines[i].keys) > HELP_KEY_W) ||
		    (help_lines[i].ascii != NULL && help_cols(help_lines[i].ascii) > HELP_KEY_W))
			return help_lines[i].what;
	}
	return NULL;
}

/* How the box is cut: its columns, the lines in each, the pages, and each line's slot. */
struct help_layout {
	struct rect box;
	int ncols, colw, rows, pages;
	int slot[NHELP]; /* counted down a column, then across the columns and the pages */
};

/* The rows a heading wants together: itself and two of its lines (all, when fewer). */
static int
help_head_rows(int i)
{
	int k = 0;

	while (k < 2 && i + 1 + k < NHELP && help_lines[i + 1 + k].keys != NULL)
		k++;
	return 1 + k;
}

/*
 * Each line's slot in columns of rows lines; returns the slots used.  A
 * heading that would end a column, or have fewer than two of its lines
 * under it, starts the next column: a heading never ends a column.
 */
static int
help_place(int rows, int *slot)
{
	int i, s = 0, want;

	for (i = 0; i < NHELP; i++) {
		want = help_lines[i].keys == NULL ? help_head_rows(i) : 1;
		if (want <= rows && rows - s % rows < want)
			s += rows - s % rows;
		slot[i] = s++;
	}
	return s;
}

static struct help_layout
help_layout(struct rect screen)
{
	struct help_layout l;
	int per_page, max_rows, used;

	l.box.w = screen.w < HELP_MAX_W ? screen.w : HELP_MAX_W;
	l.ncols = l.box.w - 2 >= 2 * HELP_COL_W + 1 ? 2 : 1;
	l.colw = l.ncols == 2 ? (l.box.w - 3) / 2 : l.box.w - 2;
	/* The title row and the closing row take two; fewer than one line cannot page. */
	max_rows = screen.h - 2 > 1 ? screen.h - 2 : 1;
	l.rows = (NHELP + l.ncols - 1) / l.ncols;
	if (l.rows > max_rows)
		l.rows = max_rows;
	/* The room a moved heading leaves may take a row more, while the screen has one. */
	while ((used = help_place(l.rows, l.slot)) > l.rows * l.ncols && l.rows < max_rows)
		l.rows++;
	per_page = l.rows * l.ncols;
	l.pages = (used + per_page - 1) / per_page;
	l.box.h = l.rows + 2;
	l.box.y = screen.y + (screen.h - l.box.h) / 2;
	l.box.x = screen.x + (screen.w - l.box.w) / 2;
	return l;
}

const char *
help_heading_cut(int w, int h)
{
	struct help_layout l = help_layout((struct rect){ 0, 0, h, w });
	int i, want;

	for (i = 0; i < NHELP; i++) {
		want = help_head_rows(i);
		if (help_lines[i].keys == NULL && want <= l.rows &&
		    l.rows - l.slot[i] % l.rows < want)
			return help_lines[i].what;
	}
	return NULL;
}

static void
help_line_draw(const struct help_line *hl, int y, int x, int w)
{
	attr_t a = theme_attr(ROLE_MAIN) | A_REVERSE;
	const char *keys = glyph_utf8() || hl->ascii == NULL ? hl->keys : hl->ascii;

	if (hl->keys == NULL) {
		ui_put(y, x, w, theme_attr(ROLE_TITLE) | A_REVERSE | A_BOLD | A_UNDERLINE,
		       hl->what);
		return;
	}
	ui_put(y, x, HELP_KEY_W, a | A_BOLD, keys);
	ui_put(y, x + 1 + HELP_KEY_W, w - 1 - HELP_KEY_W, a, hl->what);
}

void
help_draw(const struct ui *u, struct rect screen, struct ui_hits *h)
{
	struct help_layout l = help_layout(screen);
	int page = u->help_page % l.pages, per_page = l.rows * l.ncols;
	int i, col, row;
	attr_t a = theme_attr(ROLE_MAIN) | A_REVERSE;

	h->help_pages = l.pages;
	ui_fill(l.box, a);
	ui_put(l.box.y, l.box.x + 1, l.box.w - 2, theme_attr(ROLE_TITLE) | A_REVERSE,
	       "scaletop: watch a workload scale, step by step");
	for (i = 0; i < NHELP; i++) {
		if (l.slot[i] / per_page != page)
			continue;
		col = l.slot[i] % per_page / l.rows;
		row = l.slot[i] % l.rows;
		help_line_draw(&help_lines[i], l.box.y + 1 + row, l.box.x + 1 + col * (l.colw + 1),
			       l.colw);
	}
	if (l.pages > 1)
		ui_putf(l.box.y + l.box.h - 1, l.box.x + 1, l.box.w - 2, a | A_BOLD,
			"page %d/%d: space for more, or resize; other keys close", page + 1,
			l.pages);
	else
		ui_put(l.box.y + l.box.h - 1, l.box.x + 1, l.box.w - 2, a,
		       "press any key to close");
}

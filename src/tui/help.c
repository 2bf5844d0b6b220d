/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The help box (? or F1): every key, and what the chart's marks mean, made
 * from the key and view tables.
 */
#include <stdio.h>
#include <string.h>

#include "views.h"

/*
 * Its lines are keymap.c's lines, each with the keys it binds, and the
 * views' tabs (views.c); help_lists_key holds a view's own
 * keys to them (tests/unit/test_keys).
 * The lines flow down two columns when the box is wide enough, else one;
 * what does not fit goes on further pages, and the last row then says so:
 * a small terminal shows fewer keys at a time, never fewer keys.
 */

#define HELP_MAX_CODES 10
#define HELP_KEY_W 9  /* the key column */
#define HELP_COL_W 38 /* a column: the keys, a space, 28 columns of words */
#define HELP_WHAT_W (HELP_COL_W - 1 - HELP_KEY_W)
#define HELP_MAX_W 100
#define HELP_MAX_LINES 96

struct help_line {
	const char *keys;  /* NULL: a heading */
	const char *ascii; /* the keys column in ASCII, when keys is not */
	const char *what;
	int code[HELP_MAX_CODES]; /* the key codes it describes; 0 ends */
};

/* What the chart's marks mean: the help's last section, no keys. */
static const struct help_line help_legend[] = {
	{ NULL, NULL, "Chart", { 0 } },
	{ "\u25cf", "o", "this sweep, pooled per N", { 0 } },
	{ "..", NULL, "ideal from X(1); line: USL", { 0 } },
	{ "\u25b2  \u2716", "^  X", "the peak; the collapse", { 0 } },
	{ "\u25c6", "@", "the running step", { 0 } },
	{ "CPU bars", NULL, "usr nice sys irq io steal", { 0 } },
};

/* The help's lines, made once from the keymap, the views and the legend. */
static struct help_line help_lines[HELP_MAX_LINES];
static int nhelp;
/* The views' lines' text: "1 2 3" and "views: overview, cpus, chart". */
static char help_view_keys[VIEW_MAX][2 * VIEW_MAX + 1];
static char help_view_what[VIEW_MAX][HELP_MAX_W];

static void
help_add(const struct help_line *hl)
{
	if (nhelp < HELP_MAX_LINES)
		help_lines[nhelp++] = *hl;
}

/* The line of a keymap entry: its text, and the codes of its bindings. */
static void
help_add_entry(const struct key_entry *e)
{
	struct help_line hl = { e->keys, e->ascii, e->what, { 0 } };
	int k;

	for (k = 0; k < KEY_MAX_BINDS && k < HELP_MAX_CODES && e->bind[k].key != 0; k++)
		hl.code[k] = e->bind[k].key;
	help_add(&hl);
}

/* A view with a help line of its own: "6 R" and its words. */
static void
help_add_own_view(int i, char *keys, size_t klen)
{
	const struct view *v = views[i];
	struct help_line hl = { keys, NULL, v->help, { '1' + i } };
	int k, n = 1;

	if (v->key != 0) {
		snprintf(keys, klen, "%d %c", i + 1, v->key);
		hl.code[n++] = v->key;
	} else {
		snprintf(keys, klen, "%d", i + 1);
	}
	for (k = 0; k < VIEW_MAX_CODES && v->help_codes[k] != 0; k++)
		hl.code[n++] = v->help_codes[k];
	help_add(&hl);
}

/*
 * The views' lines: the views without a line of their own share lines of
 * "views: a, b, c" as long as the words fit their column; the others each
 * have theirs.
 */
static void
help_add_views(void)
{
	struct help_line hl;
	int i = 0, nl = 0, k;
	size_t w;

	while (i < nviews && nl < VIEW_MAX) {
		if (views[i]->help != NULL) {
			help_add_own_view(i, help_view_keys[nl], sizeof(help_view_keys[nl]));
			nl++, i++;
			continue;
		}
		memset(&hl, 0, sizeof(hl));
		hl.keys = help_view_keys[nl];
		hl.what = help_view_what[nl];
		snprintf(help_view_what[nl], HELP_MAX_W, "views: %s", views[i]->name);
		snprintf(help_view_keys[nl], sizeof(help_view_keys[nl]), "%d", i + 1);
		hl.code[0] = '1' + i;
		for (k = 1, i++; i < nviews && views[i]->help == NULL && k < HELP_MAX_CODES;
		     k++, i++) {
			w = strlen(help_view_what[nl]);
			if ((int)(w + 2 + strlen(views[i]->name)) > HELP_WHAT_W ||
			    2 * k + 1 > HELP_KEY_W)
				break;
			snprintf(help_view_what[nl] + w, HELP_MAX_W - w, ", %s", views[i]->name);
			w = strlen(help_view_keys[nl]);
			snprintf(help_view_keys[nl] + w, sizeof(help_view_keys[nl]) - w, " %d",
				 i + 1);
			hl.code[k] = '1' + i;
		}
		help_add(&hl);
		nl++;
	}
}

static void
help_build(void)
{
	int i;

	if (nhelp > 0)
		return;
	for (i = 0; i < nkeymap; i++) {
		if (keymap[i].views)
			help_add_views();
		else
			help_add_entry(&keymap[i]);
	}
	for (i = 0; i < (int)(sizeof(help_legend) / sizeof(help_legend[0])); i++)
		help_add(&help_legend[i]);
}

bool
help_lists_key(int key)
{
	int i, k;

	help_build();
	for (i = 0; i < nhelp; i++) {
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

	help_build();
	for (i = 0; i < nhelp; i++) {
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
	int slot[HELP_MAX_LINES]; /* counted down a column, then across the columns and the pages */
};

/* The rows a heading wants together: itself and two of its lines (all, when fewer). */
static int
help_head_rows(int i)
{
	int k = 0;

	while (k < 2 && i + 1 + k < nhelp && help_lines[i + 1 + k].keys != NULL)
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

	for (i = 0; i < nhelp; i++) {
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

	help_build();
	l.box.w = screen.w < HELP_MAX_W ? screen.w : HELP_MAX_W;
	l.ncols = l.box.w - 2 >= 2 * HELP_COL_W + 1 ? 2 : 1;
	l.colw = l.ncols == 2 ? (l.box.w - 3) / 2 : l.box.w - 2;
	/* The title row and the closing row take two; fewer than one line cannot page. */
	max_rows = screen.h - 2 > 1 ? screen.h - 2 : 1;
	l.rows = (nhelp + l.ncols - 1) / l.ncols;
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

	for (i = 0; i < nhelp; i++) {
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
	for (i = 0; i < nhelp; i++) {
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Colours and glyphs for the panels.  Colours come from the theme module
 * (theme.h) by role; glyphs are braille and blocks under UTF-8,
 * ASCII otherwise.
 */
#ifndef SCALETOP_TUI_PAINT_H
#define SCALETOP_TUI_PAINT_H

#include <stdbool.h>
#include <stdint.h>

#include <curses.h>

#include "theme.h"

/* glyphs.c */
void glyph_init(bool utf8);
/*
 * False for a terminal known to lack the glyphs though the locale is UTF-8:
 * the Linux and BSD text consoles (TERM linux, cons25, vt...), whose fonts
 * have no braille.  True otherwise, and for no TERM at all.
 */
bool glyph_term_unicode(const char *term);
bool glyph_utf8(void);
/* A bar of height frac (0..1) in one cell: " ▁▂▃▄▅▆▇█" or " _.-=#". */
const char *glyph_level(double frac);
/* Shade for a busy level 0..4: " ░▒▓█" or " .:+#". */
const char *glyph_shade(int level);
/* Heat level 0..4 of a busy percentage (NaN: -1). */
int glyph_heat(double pct);
const char *glyph_point(void); /* a measured point */
const char *glyph_live(void);  /* the running step */
const char *glyph_peak(void);
const char *glyph_collapse(void);
const char *glyph_tail(void); /* a latency tail's point (p99), over p50's glyph_point */
const char *glyph_hline(void);
const char *glyph_vline(void);
const char *glyph_swatch(void); /* a legend colour sample */

/*
 * A dot canvas over a rectangle of cells: 2x4 dots per cell under UTF-8
 * (braille), 1x1 in ASCII.  Each cell keeps the role of the last thing
 * drawn in it; marks (single glyphs) override dots.
 */
struct canvas {
	int cw, ch;        /* cells */
	int dw, dh;        /* dots */
	int sx, sy;        /* dots per cell */
	uint8_t *bits;     /* per cell */
	int16_t *role;     /* per cell, -1 none */
	const char **mark; /* per cell, NULL none */
	char *ascii;       /* per cell, ASCII mode: the character to draw */
};
int canvas_init(struct canvas *c, int cw, int ch);
void canvas_free(struct canvas *c);
/* Dot coordinates: x right, y down; out of range is clipped. ach: ASCII char. */
void canvas_dot(struct canvas *c, int x, int y, int role, char ach);
void canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, int role, char ach, bool dotted);
void canvas_mark(struct canvas *c, int cx, int cy, const char *glyph, int role);
void canvas_draw(const struct canvas *c, int y, int x);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Glyphs and the dot canvas.  Under UTF-8, braille gives 2x4 dots per cell,
 * which is what makes a 40-column chart readable; elsewhere every glyph has
 * an ASCII stand-in, so a serial console, a C locale or the Linux text
 * console (a UTF-8 locale, but a font without braille) still works.
 */
#include <stdlib.h>
#include <string.h>

#include "paint.h"

static bool glyph_u8;

void
glyph_init(bool utf8)
{
	glyph_u8 = utf8;
}

bool
glyph_term_unicode(const char *term)
{
	static const char *const consoles[] = { "linux", "cons25", "vt52", "vt100",
						"vt102", "vt220",  "pcvt" };
	size_t i, l;

	if (term == NULL)
		return true;
	for (i = 0; i < sizeof(consoles) / sizeof(consoles[0]); i++) {
		l = strlen(consoles[i]);
		/* "linux" and its variants ("linux-16color"), never "linuxish" */
		if (strncmp(term, consoles[i], l) == 0 && (term[l] == '\0' || term[l] == '-'))
			return false;
	}
	return true;
}

bool
glyph_utf8(void)
{
	return glyph_u8;
}

const char *
glyph_level(double frac)
{
	static const char *const u8[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const asc[] = { " ", "_", "_", ".", ".", "-", "-", "=", "#" };
	int i;

	if (!(frac > 0))
		return " ";
	i = frac >= 1 ? 8 : 1 + (int)(frac * 8);
	if (i > 8)
		i = 8;
	return glyph_u8 ? u8[i] : asc[i];
}

const char *
glyph_shade(int level)
{
	static const char *const u8[] = { "·", "░", "▒", "▓", "█" };
	static const char *const asc[] = { ".", ":", "+", "*", "#" };

	if (level < 0)
		return " ";
	if (level > 4)
		level = 4;
	return glyph_u8 ? u8[level] : asc[level];
}

int
glyph_heat(double pct)
{
	if (!(pct >= 0))
		return -1;
	return pct < 10 ? 0 : pct < 35 ? 1 : pct < 60 ? 2 : pct < 85 ? 3 : 4;
}

const char *
glyph_point(void)
{
	return glyph_u8 ? "●" : "o";
}
const char *
glyph_live(void)
{
	return glyph_u8 ? "◆" : "@";
}
const char *
glyph_peak(void)
{
	return glyph_u8 ? "▲" : "^";
}
const char *
glyph_tail(void)
{
	return glyph_u8 ? "◇" : "*";
}
const char *
glyph_collapse(void)
{
	return glyph_u8 ? "✖" : "X";
}
const char *
glyph_hline(void)
{
	return glyph_u8 ? "─" : "-";
}
const char *
glyph_vline(void)
{
	return glyph_u8 ? "│" : "|";
}
const char *
glyph_swatch(void)
{
	return glyph_u8 ? "■" : "#";
}

/* --- the canvas ----------------------------------------------------------- */

int
canvas_init(struct canvas *c, int cw, int ch)
{
	size_t i;
	size_t n = (size_t)(cw > 0 ? cw : 1) * (size_t)(ch > 0 ? ch : 1);

	memset(c, 0, sizeof(*c));
	c->cw = cw > 0 ? cw : 1;
	c->ch = ch > 0 ? ch : 1;
	c->sx = glyph_u8 ? 2 : 1;
	c->sy = glyph_u8 ? 4 : 1;
	c->dw = c->cw * c->sx;
	c->dh = c->ch * c->sy;
	c->bits = calloc(n, 1);
	c->role = malloc(n * sizeof(*c->role));
	c->mark = calloc(n, sizeof(*c->mark));
	c->ascii = calloc(n, 1);
	if (c->bits == NULL || c->role == NULL || c->mark == NULL || c->ascii == NULL) {
		canvas_free(c);
		return -1;
	}
	for (i = 0; i < n; i++)
		c->role[i] = -1;
	return 0;
}

void
canvas_free(struct canvas *c)
{
	free(c->bits);
	free(c->role);
	free(c->mark);
	free(c->ascii);
	memset(c, 0, sizeof(*c));
}

/* Braille dot bits by (column, row) within a cell: the Unicode layout. */
static const uint8_t braille_bit[4][2] = {
	{ 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 }
};

void
canvas_dot(struct canvas *c, int x, int y, int role, char ach)
{
	int cell;

	if (c->bits == NULL || x < 0 || y < 0 || x >= c->dw || y >= c->dh)
		return;
	cell = (y / c->sy) * c->cw + x / c->sx;
	c->bits[cell] |= braille_bit[y % c->sy][x % c->sx];
	c->role[cell] = (int16_t)role;
	c->ascii[cell] = ach;
}

void
canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, int role, char ach, bool dotted)
{
	int guard;
	int dx = abs(x1 - x0), dy = -abs(y1 - y0);
	int stx = x0 < x1 ? 1 : -1, sty = y0 < y1 ? 1 : -1;
	int e = dx + dy, k = 0;

	/* Bresenham, bounded so a wild coordinate cannot spin for long. */
	for (guard = 0; guard < 100000; guard++, k++) {
		if (!dotted || k % 3 == 0)
			canvas_dot(c, x0, y0, role, ach);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * e;
		if (e2 >= dy) {
			e += dy;
			x0 += stx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sty;
		}
	}
}

void
canvas_mark(struct canvas *c, int cx, int cy, const char *glyph, int role)
{
	int cell;

	if (c->bits == NULL || cx < 0 || cy < 0 || cx >= c->cw || cy >= c->ch)
		return;
	cell = cy * c->cw + cx;
	c->mark[cell] = glyph;
	c->role[cell] = (int16_t)role;
}

/* Writes one braille cell's UTF-8 (U+2800 + bits) into out[4]. */
static void
braille_utf8(uint8_t bits, char out[4])
{
	unsigned cp = 0x2800u + bits;

	out[0] = (char)(0xE0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[2] = (char)(0x80 | (cp & 0x3F));
	out[3] = '\0';
}

void
canvas_draw(const struct canvas *c, int y, int x)
{
	int cy;
	int cx;
	char buf[4];

	for (cy = 0; cy < c->ch; cy++) {
		for (cx = 0; cx < c->cw; cx++) {
			int cell = cy * c->cw + cx;
			const char *g;

			if (c->mark[cell] != NULL) {
				g = c->mark[cell];
			} else if (c->bits[cell] == 0) {
				continue;
			} else if (glyph_u8) {
				braille_utf8(c->bits[cell], buf);
				g = buf;
			} else {
				buf[0] = c->ascii[cell] ? c->ascii[cell] : '.';
				buf[1] = '\0';
				g = buf;
			}
			attrset(c->role[cell] >= 0 ? theme_attr((enum theme_role)c->role[cell])
						   : 0);
			mvaddstr(y + cy, x + cx, g);
		}
	}
	attrset(A_NORMAL);
}

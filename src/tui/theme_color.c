/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Colour arithmetic: 24-bit colours to what the terminal can show, blends
 * for the heat scale, and a theme mapped to colour pairs.  Pure code.
 */
#include <stdlib.h>

#include "theme_priv.h"

#define RED(c) (((c) >> 16) & 0xff)
#define GREEN(c) (((c) >> 8) & 0xff)
#define BLUE(c) ((c)&0xff)

/* The six channel levels of the xterm-256 colour cube (indices 16-231). */
static const int theme_cube[6] = { 0, 95, 135, 175, 215, 255 };

static int
theme_cube_level(int v)
{
	int i, best = 0;

	for (i = 1; i < 6; i++) {
		if (abs(theme_cube[i] - v) < abs(theme_cube[best] - v))
			best = i;
	}
	return best;
}

static long
theme_dist2(int r1, int g1, int b1, int r2, int g2, int b2)
{
	long dr = r1 - r2, dg = g1 - g2, db = b1 - b2;

	return dr * dr + dg * dg + db * db;
}

/*
 * The cube and the grey ramp (232-255: 8, 18 ... 238) are both tried.  The
 * squared distance is separable, so the nearest cube colour is the nearest
 * level per channel.  Indices 0-15 are skipped: terminals disagree on them.
 */
int
theme_rgb_to_256(int32_t rgb)
{
	int r = RED(rgb), g = GREEN(rgb), b = BLUE(rgb);
	int cr = theme_cube_level(r), cg = theme_cube_level(g), cb = theme_cube_level(b);
	int grey, gi;
	long dcube, dgrey;

	dcube = theme_dist2(r, g, b, theme_cube[cr], theme_cube[cg], theme_cube[cb]);
	/* The nearest grey is the ramp step nearest the mean: round((sum - 24) / 30). */
	gi = r + g + b < 9 ? 0 : (r + g + b - 9) / 30;
	if (gi > 23)
		gi = 23;
	grey = 8 + 10 * gi;
	dgrey = theme_dist2(r, g, b, grey, grey, grey);
	if (dgrey < dcube)
		return 232 + gi;
	return 16 + 36 * cr + 6 * cg + cb;
}

/*
 * Nearest by distance would turn most mid colours grey, so the 8 colours
 * are chosen by hue: very dark values are black, weakly coloured ones
 * (chroma under a quarter of the brightest channel) are black or white by
 * lightness, and the rest fall in one
 * of six 60-degree hue sectors centred on red, yellow, green, cyan, blue
 * and magenta.
 */
int
theme_rgb_to_8(int32_t rgb)
{
	static const int sector[6] = { 1, 3, 2, 6, 4, 5 }; /* curses colour numbers */
	int r = RED(rgb), g = GREEN(rgb), b = BLUE(rgb);
	int max = r, min = r, chroma;
	double h;

	if (g > max)
		max = g;
	if (b > max)
		max = b;
	if (g < min)
		min = g;
	if (b < min)
		min = b;
	chroma = max - min;
	if (max < 64)
		return 0; /* near-black backgrounds stay black, whatever their tint */
	if (chroma * 4 < max)
		return max >= 128 ? 7 : 0;
	if (max == r)
		h = (double)(g - b) / chroma;
	else if (max == g)
		h = 2.0 + (double)(b - r) / chroma;
	else
		h = 4.0 + (double)(r - g) / chroma;
	if (h < 0)
		h += 6.0;
	return sector[(int)(h + 0.5) % 6];
}

/* WCAG relative lightness is overkill here: a channel average decides dark or light. */
static int
theme_is_dark(int32_t rgb)
{
	return RED(rgb) + GREEN(rgb) + BLUE(rgb) < 3 * 128;
}

/* Mean of two colours; a terminal default on one side gives the other. */
static int32_t
theme_blend(int32_t a, int32_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return (int32_t)(((RED(a) + RED(b) + 1) / 2) << 16 | ((GREEN(a) + GREEN(b) + 1) / 2) << 8 |
			 (BLUE(a) + BLUE(b) + 1) / 2);
}

static unsigned char
theme_rank_max(unsigned char a, unsigned char b)
{
	return a > b ? a : b;
}

/* heat[i] = mean of heat[a] and heat[b]. */
static void
theme_heat_blend(struct theme_style *h, int i, int a, int b)
{
	h[i].fg = theme_blend(h[a].fg, h[b].fg);
	h[i].fg_rank = theme_rank_max(h[a].fg_rank, h[b].fg_rank);
}

/* A heat step left at the default while the file set the scale around it. */
static int
theme_heat_stale(const struct theme_style *h, int i, int a, int b)
{
	return h[i].fg == THEME_COLOR_DERIVE ||
	       (h[i].fg_rank == THEME_RANK_DEFAULT &&
		(h[a].fg_rank != THEME_RANK_DEFAULT || h[b].fg_rank != THEME_RANK_DEFAULT));
}

/*
 * The heat scale as btop reads its gradients: an empty end makes one colour
 * (or start to mid), an empty mid is halfway from start to end, and the two
 * in-between steps are blends unless the file gives them.
 */
static void
theme_heat_finish(struct theme_style *h)
{
	if (h[4].fg == THEME_COLOR_DERIVE) {
		h[4].fg = h[2].fg != THEME_COLOR_DERIVE ? h[2].fg : h[0].fg;
		h[4].fg_rank = h[2].fg != THEME_COLOR_DERIVE ? h[2].fg_rank : h[0].fg_rank;
	}
	if (h[2].fg == THEME_COLOR_DERIVE)
		theme_heat_blend(h, 2, 0, 4);
	if (theme_heat_stale(h, 1, 0, 2))
		theme_heat_blend(h, 1, 0, 2);
	if (theme_heat_stale(h, 3, 2, 4))
		theme_heat_blend(h, 3, 2, 4);
}

void
theme_finish(struct theme *t)
{
	int r;

	theme_heat_finish(&t->role[ROLE_HEAT0]);
	for (r = 0; r < ROLE_COUNT; r++) {
		if (r == ROLE_MAIN || r == ROLE_SELECTED)
			continue;
		t->role[r].bg = t->role[ROLE_MAIN].bg;
		t->role[r].bg_rank = t->role[ROLE_MAIN].bg_rank;
	}
}

enum theme_depth
theme_depth_pick(int has_colors, int colors, int rgb_flag, int mono)
{
	if (mono || !has_colors || colors < 8)
		return THEME_DEPTH_MONO;
	if (rgb_flag && colors >= 0x1000000)
		return THEME_DEPTH_DIRECT;
	if (colors >= 256)
		return THEME_DEPTH_256;
	return THEME_DEPTH_8;
}

/*
 * In direct colour ncurses still sends numbers below 8 as the ANSI palette
 * (setaf in xterm-direct), so near-black blues are nudged one step up.
 */
static int
theme_direct(int32_t rgb)
{
	return rgb < 8 ? (int)(rgb | 0x010100) : (int)rgb;
}

static int
theme_map(int32_t rgb, enum theme_depth depth)
{
	if (rgb < 0)
		return -1;
	switch (depth) {
	case THEME_DEPTH_DIRECT:
		return theme_direct(rgb);
	case THEME_DEPTH_256:
		return theme_rgb_to_256(rgb);
	default:
		return theme_rgb_to_8(rgb);
	}
}

/*
 * With 8 colours a dim grey on black becomes black on black; text that
 * differs from its background must stay visible, so it becomes black or
 * white, whichever is away from the background.
 */
static void
theme_pair_8(const struct theme_style *st, struct theme_pair *p)
{
	if (p->fg != p->bg || p->fg < 0 || st->fg == st->bg)
		return;
	p->fg = theme_is_dark(st->bg) ? 7 : 0;
}

void
theme_resolve(const struct theme *t, enum theme_depth depth, int npairs, int default_colors,
	      struct theme_pair out[ROLE_COUNT])
{
	const struct theme_style *st;
	struct theme_pair *p;
	int r;

	for (r = 0; r < ROLE_COUNT; r++) {
		st = &t->role[r];
		p = &out[r];
		if (depth == THEME_DEPTH_MONO || t->monochrome || r + 1 >= npairs) {
			p->pair = 0;
			p->fg = p->bg = -1;
			p->attr = st->mono;
			continue;
		}
		p->pair = r + 1;
		p->fg = theme_map(st->fg, depth);
		p->bg = theme_map(st->bg, depth);
		p->attr = st->attr;
		if (depth == THEME_DEPTH_8)
			theme_pair_8(st, p);
		if (!default_colors && p->fg < 0)
			p->fg = 7;
		if (!default_colors && p->bg < 0)
			p->bg = 0;
	}
}

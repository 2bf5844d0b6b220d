/* SPDX-License-Identifier: BSD-2-Clause */
/* Drawing helpers shared by the panels: clipped text, titles, hit regions. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "ui.h"

void
ui_fill(struct rect r, attr_t a)
{
	int y;

	attrset(a);
	for (y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	attrset(A_NORMAL);
}

/* The printable ASCII bytes at s, at most max: a column each, nothing to decode. */
static int
ui_ascii_run(const char *s, int max)
{
	int n = 0;

	while (n < max && s[n] >= 0x20 && s[n] < 0x7f)
		n++;
	return n;
}

/*
 * The character at s (left bytes) decoded: its bytes (*n) and columns, -1
 * for bytes the locale cannot decode and characters with no width.
 */
static int
ui_decode(const char *s, size_t left, mbstate_t *ps, wchar_t *wc, size_t *n)
{
	*n = mbrtowc(wc, s, left, ps);
	if (*n == (size_t)-1 || *n == (size_t)-2 || *n == 0) {
		memset(ps, 0, sizeof(*ps));
		*n = 1;
		return -1;
	}
	return wcwidth(*wc);
}

/*
 * A run of characters that are not printable ASCII, up to maxw columns:
 * where curses has the wide API, decoded once here and written as one
 * wide string (handed over as bytes, curses decodes each character again:
 * a chart's braille cells and the rules were most of a frame's
 * formatting); a '?' for what cannot be shown.  Its columns; *used, the
 * bytes taken.
 */
static int
ui_put_wide(const char *s, size_t left, int maxw, mbstate_t *ps, size_t *used)
{
#if NCURSES_WIDECHAR
	wchar_t run[64];
	int k = 0;
#endif
	int cols = 0, w;
	size_t n, at = 0;
	wchar_t wc;

	while (at < left && cols < maxw && ui_ascii_run(s + at, 1) == 0) {
		w = ui_decode(s + at, left - at, ps, &wc, &n);
		if (w < 0)
			wc = L'?', w = 1;
		if (cols + w > maxw)
			break;
#if NCURSES_WIDECHAR
		run[k++] = wc;
		if (k == (int)(sizeof(run) / sizeof(run[0]))) {
			addnwstr(run, k);
			k = 0;
		}
#else
		if (wc == L'?')
			addch('?');
		else
			addnstr(s + at, (int)n);
#endif
		at += n, cols += w;
	}
#if NCURSES_WIDECHAR
	if (k > 0)
		addnwstr(run, k);
#endif
	*used = at;
	return cols;
}

/*
 * Text clipped to maxw columns.  Columns are counted with wcwidth, so a
 * hostname in another script cannot push the line past its panel; bytes the
 * locale cannot decode, and characters with no width (controls), become '?'.
 * Runs of printable ASCII, nearly all a frame holds, go to curses whole: a
 * character at a time, decoded here and again in curses, they were about a
 * quarter of an idle monitor's CPU.
 */
int
ui_put(int y, int x, int maxw, attr_t a, const char *s)
{
	mbstate_t ps;
	size_t left, used;
	int cols = 0, run, w;

	if (maxw <= 0 || s == NULL)
		return 0;
	memset(&ps, 0, sizeof(ps));
	left = strlen(s);
	attrset(a);
	move(y, x);
	while (left > 0 && cols < maxw) {
		if ((run = ui_ascii_run(s, maxw - cols)) > 0) {
			addnstr(s, run);
			s += run, left -= (size_t)run, cols += run;
			continue;
		}
		w = ui_put_wide(s, left, maxw - cols, &ps, &used);
		if (used == 0)
			break; /* a wide character past the last column */
		s += used, left -= used, cols += w;
	}
	attrset(A_NORMAL);
	return cols;
}

/* Display columns of s, as ui_put counts them. */
int
ui_cols(const char *s)
{
	mbstate_t ps;
	size_t left = strlen(s), used;
	wchar_t wc;
	int cols = 0, w;

	memset(&ps, 0, sizeof(ps));
	while (left > 0) {
		used = mbrtowc(&wc, s, left, &ps);
		if (used == (size_t)-1 || used == (size_t)-2) {
			memset(&ps, 0, sizeof(ps));
			used = 1, w = 1; /* ui_put shows a '?' */
		} else {
			w = used == 0 ? 1 : wcwidth(wc);
			w = w < 0 ? 1 : w;
			used = used == 0 ? 1 : used;
		}
		s += used, left -= used, cols += w;
	}
	return cols;
}

/*
 * s whole when it fits in maxw columns; else up to the last word that fits
 * with an ellipsis after it (a word longer than the line is cut inside).
 */
int
ui_put_cut(int y, int x, int maxw, attr_t a, const char *s)
{
	const char *ell = glyph_utf8() ? "\u2026" : "...";
	int ew = glyph_utf8() ? 1 : 3;
	char buf[1024];
	char *sp;

	if (maxw <= 0 || ui_cols(s) <= maxw)
		return ui_put(y, x, maxw, a, s);
	snprintf(buf, sizeof(buf), "%s", s);
	while ((sp = strrchr(buf, ' ')) != NULL) {
		*sp = '\0';
		while (sp > buf &&
		       (sp[-1] == ' ' || sp[-1] == ',' || sp[-1] == ';' || sp[-1] == ':'))
			*--sp = '\0';
		if (sp > buf && ui_cols(buf) + ew <= maxw)
			break;
	}
	if (sp == NULL || sp == buf) /* one word: cut inside it */
		return ui_put(y, x, maxw - ew, a, s) + ui_put(y, x + maxw - ew, ew, a, ell);
	x += ui_put(y, x, maxw - ew, a, buf);
	return ui_cols(buf) + ui_put(y, x, ew, a, ell);
}

int
ui_putf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ui_put(y, x, maxw, a, buf);
}

/*
 * A rule of w columns of the glyph (one column, UTF-8 or ASCII).  With the
 * wide API, one hline_set of the glyph decoded once; without it (the BSD
 * builds, whose curses.h declares it only under _XOPEN_SOURCE, which hides
 * sysctl), the glyph's bytes in chunks of 64, not a move and a string a
 * column.
 */
void
ui_hrule(int y, int x, int w, attr_t a)
{
	const char *g = glyph_hline();
	size_t gl = strlen(g);
#if NCURSES_WIDECHAR
	wchar_t wc[2] = { 0, 0 };
	mbstate_t ps;
	cchar_t cc;
#else
	char buf[64 * 4];
	size_t n;
	int i, k;
#endif

	if (w <= 0 || gl == 0 || gl > 4)
		return;
#if NCURSES_WIDECHAR
	memset(&ps, 0, sizeof(ps));
	if (mbrtowc(&wc[0], g, gl, &ps) != gl || wcwidth(wc[0]) != 1)
		wc[0] = L'-';
	if (setcchar(&cc, wc, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL) == OK)
		mvhline_set(y, x, &cc, w);
#else
	for (n = 0; n < 64 * gl; n += gl)
		memcpy(buf + n, g, gl);
	attrset(a);
	move(y, x);
	for (i = 0; i < w; i += k) {
		k = w - i < 64 ? w - i : 64;
		addnstr(buf, k * (int)gl);
	}
	attrset(A_NORMAL);
#endif
}

struct rect
ui_titled(struct rect r, const char *title)
{
	struct rect in = r;

	if (r.h <= 0)
		return r;
	ui_hrule(r.y, r.x, r.w, theme_attr(ROLE_DIV));
	ui_putf(r.y, r.x + 1, r.w - 2, theme_attr(ROLE_TITLE), " %s ", title);
	in.y++;
	in.h--;
	return in;
}

void
ui_hit_add(struct ui_hits *h, int y, int x0, int x1, int step)
{
	if (h->n < UI_MAX_HITS)
		h->hit[h->n++] = (struct ui_hit){ y, x0, x1, step };
}

/* The newest finished step (any status): what the contention panel can show for sure. */
const struct step *
ui_last_done(const struct frame *f)
{
	int i;

	for (i = f->s->nsteps - 1; i >= 0; i--) {
		if (f->s->steps[i].status != STEP_RUNNING)
			return &f->s->steps[i];
	}
	return NULL;
}

double
ui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

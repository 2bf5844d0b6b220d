/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Text into curses cells (paint.c): ASCII runs, UTF-8, wide characters,
 * bytes the locale cannot decode and controls, each clipped to its columns;
 * and a rule in the line glyph or its ASCII stand-in.  A real curses screen
 * on a pseudo-terminal's settings (xterm), its output thrown away.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../../src/tui/paint.h"
#include "../../src/tui/ui.h"
#include "../tap.h"

static void
bail(const char *why)
{
	printf("Bail out! %s\n", why);
	exit(1);
}

/* Row y's first n cells as UTF-8, into buf, without the blanks at its end. */
static const char *
row(int y, int n, char *buf, size_t len)
{
	wchar_t w[128];
	size_t i, o = 0;
	mbstate_t ps;

	memset(&ps, 0, sizeof(ps));
	if (mvinnwstr(y, 0, w, n) == ERR)
		return "(no row)";
	for (i = 0; w[i] != L'\0' && o + MB_CUR_MAX < len; i++) {
		size_t k = wcrtomb(buf + o, w[i], &ps);
		if (k == (size_t)-1)
			buf[o++] = '#';
		else
			o += k;
	}
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
	return buf;
}

/* ui_put of s at row y, maxw columns: the columns it says it used and the row after. */
static void
check_put(int y, int maxw, const char *s, int cols, const char *want, const char *what)
{
	char buf[512];
	int got = ui_put(y, 0, maxw, A_NORMAL, s);

	ok(got == cols, "%s: %d columns (got %d)", what, cols, got);
	is_str(row(y, 12, buf, sizeof(buf)), want, "  and the row reads so");
}

/* ui_put_cut of s on a cleared row 9, maxw columns: the row after, and the columns it said. */
static void
check_cut(int maxw, const char *s, const char *want, const char *what)
{
	char buf[512];
	int got;

	move(9, 0);
	clrtoeol();
	got = ui_put_cut(9, 0, maxw, A_NORMAL, s);
	is_str(row(9, 40, buf, sizeof(buf)), want, what);
	ok(got == ui_cols(want) && got <= maxw, "  in %d columns (said %d, at most %d)",
	   ui_cols(want), got, maxw);
}

/* Cell (y, x)'s character and whether it is bold. */
static wchar_t
cell(int y, int x, bool *bold)
{
	wchar_t w[CCHARW_MAX + 1] = { 0 };
	attr_t a = 0;
	short pair;
	cchar_t cc;

	if (mvin_wch(y, x, &cc) == ERR || getcchar(&cc, w, &a, &pair, NULL) == ERR)
		return L'#';
	*bold = (a & A_BOLD) != 0;
	return w[0];
}

/*
 * Past 64 columns (ui_put's run and the old rule's chunks), and with an
 * attribute: every cell of a 100-column rule and of a run of 70 braille
 * cells is its glyph, and bold.
 */
static void
check_long(void)
{
	char s[70 * 3 + 1];
	bool bold = false;
	int i, bad = 0, cols;

	resizeterm(10, 120);
	ui_hrule(9, 10, 100, A_BOLD);
	for (i = 10; i < 110; i++)
		bad += cell(9, i, &bold) != L'\x2500' || !bold;
	bad += cell(9, 110, &bold) == L'\x2500';
	is_int(bad, 0, "a bold rule of 100: its 100 cells and no more");
	for (i = 0; i < 70; i++)
		memcpy(s + 3 * i, "\xe2\xa3\xbf", 3); /* U+28FF, all eight dots */
	s[70 * 3] = '\0';
	cols = ui_put(8, 0, 120, A_BOLD, s);
	for (i = 0, bad = 0; i < 70; i++)
		bad += cell(8, i, &bold) != L'\x28ff' || !bold;
	ok(cols == 70 && bad == 0, "70 braille cells in one put, bold (%d columns, %d wrong)", cols,
	   bad);
	ok(ui_put(7, 0, 65, A_NORMAL, s) == 65 && cell(7, 64, &bold) == L'\x28ff' &&
		   cell(7, 65, &bold) != L'\x28ff',
	   "  clipped at 65 columns, past a run's 64");
	erase();
	resizeterm(10, 40);
}

int
main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	char buf[512];

	if (setlocale(LC_ALL, "C.UTF-8") == NULL && setlocale(LC_ALL, "C.utf8") == NULL)
		bail("no C.UTF-8 locale: the UTF-8 cases need one (locales, or glibc's own)");
	if (out == NULL || in == NULL || (scr = newterm("xterm", out, in)) == NULL)
		bail("no curses screen on xterm's terminfo (ncurses-base)");
	set_term(scr);
	resizeterm(10, 40);
	erase();
	glyph_init(true);

	check_put(0, 40, "plain ascii", 11, "plain ascii", "ASCII whole");
	check_put(1, 5, "clipped text", 5, "clipp", "ASCII clipped to 5");
	check_put(2, 40, "h\xc3\xa9llo w\xc3\xb6rld", 11, "h\xc3\xa9llo w\xc3\xb6rld",
		  "UTF-8 between ASCII runs");
	check_put(3, 5, "ab\xe6\x97\xa5\xe6\x9c\xac", 4, "ab\xe6\x97\xa5",
		  "a wide character that does not fit is left out");
	check_put(4, 40,
		  "a\tb\x01"
		  "c",
		  5, "a?b?c", "controls become ?");
	check_put(5, 40,
		  "x\xff"
		  "y\xc3",
		  4, "x?y?", "undecodable bytes become ?");
	ok(ui_put(6, 0, 0, A_NORMAL, "none") == 0 && ui_put(6, 0, 5, A_NORMAL, NULL) == 0,
	   "no room or no text: nothing drawn");

	ui_hrule(7, 0, 4, A_NORMAL);
	is_str(row(7, 6, buf, sizeof(buf)), "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80",
	       "a rule of 4 in the line glyph");
	check_long();
	ok(ui_cols("h\xc3\xa9llo") == 5 && ui_cols("\xe6\x97\xa5\xe6\x9c\xac") == 4 &&
		   ui_cols("a\x01") == 2,
	   "ui_cols: UTF-8 one a character, wide ones two, a control one (its ?)");
	check_cut(20, "short", "short", "ui_put_cut: a text that fits is whole");
	check_cut(12, "opened a long message here", "opened a\xe2\x80\xa6",
		  "a long one ends at the last word that fits, with an ellipsis");
	check_cut(16, "opened x.json: r runs", "opened x.json\xe2\x80\xa6",
		  "  the punctuation before the cut goes too");
	check_cut(12, "h\xc3\xa9llo w\xc3\xb6rld again", "h\xc3\xa9llo w\xc3\xb6rld\xe2\x80\xa6",
		  "  counted in columns, not bytes");
	check_cut(6, "abcdefghijklmnop", "abcde\xe2\x80\xa6", "  one long word is cut inside");
	glyph_init(false);
	check_cut(12, "opened a long message", "opened a...", "  in ASCII, three dots");
	ui_hrule(8, 0, 3, A_NORMAL);
	is_str(row(8, 5, buf, sizeof(buf)), "---", "  and in ASCII without Unicode");

	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return done_testing();
}

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
	glyph_init(false);
	ui_hrule(8, 0, 3, A_NORMAL);
	is_str(row(8, 5, buf, sizeof(buf)), "---", "  and in ASCII without Unicode");

	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return done_testing();
}

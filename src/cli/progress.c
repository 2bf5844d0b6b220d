/* SPDX-License-Identifier: BSD-2-Clause */
/* run's progress line on stderr, written the way the terminal allows. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "progress.h"

/*
 * A terminal whose terminfo can erase a line (el) gets one line redrawn in
 * place, cut to its width in display columns, so it never wraps into a
 * scroll of half lines; a dumb terminal, or one unknown to terminfo, gets
 * plain lines, one per step, with no escape in them; a file or a pipe gets
 * the same plain lines (what run always wrote there).
 */

/* The terminal's erase-to-end-of-line, or "" when it has none (or is no terminal). */
static void
progress_el(int fd, char *el, size_t len)
{
	const char *term = getenv("TERM");
	char *cap;
	int err = 0;

	el[0] = '\0';
	if (!isatty(fd) || term == NULL || term[0] == '\0')
		return;
	if (setupterm(NULL, fd, &err) != OK)
		return;
	cap = tigetstr("el");
	if (cap != NULL && cap != (char *)-1 && strlen(cap) < len)
		snprintf(el, len, "%s", cap);
	del_curterm(cur_term);
}

void
progress_open(struct progress *p, int fd)
{
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	progress_el(fd, p->el, sizeof(p->el));
	p->redraw = p->el[0] != '\0';
	/* Display columns follow the user's locale; nothing else of run's does. */
	p->ctype = p->redraw ? newlocale(LC_CTYPE_MASK, "", (locale_t)0) : (locale_t)0;
}

void
progress_close(struct progress *p)
{
	if (p->ctype != (locale_t)0)
		freelocale(p->ctype);
	p->ctype = (locale_t)0;
}

int
progress_width(const struct progress *p)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v;

	/* COLUMNS first, as ncurses and ls take it: a user's setting beats the tty's. */
	if (env != NULL && env[0] != '\0') {
		v = strtol(env, &end, 10);
		if (*end == '\0' && v > 0 && v < 10000)
			return (int)v;
	}
	if (ioctl(p->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

size_t
progress_cut(char *s, int cols, locale_t ctype)
{
	locale_t was = ctype != (locale_t)0 ? uselocale(ctype) : (locale_t)0;
	mbstate_t ps;
	size_t i = 0, n, len = strlen(s);
	wchar_t wc;
	int used = 0, w;

	memset(&ps, 0, sizeof(ps));
	while (i < len) {
		n = mbrtowc(&wc, s + i, len - i, &ps);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* a byte the locale cannot read is one column, as a terminal shows it */
			memset(&ps, 0, sizeof(ps));
			n = 1;
			w = 1;
		} else {
			w = wcwidth(wc);
			if (w < 0)
				w = 1;
		}
		if (used + w > cols)
			break;
		used += w;
		i += n;
	}
	s[i] = '\0';
	if (was != (locale_t)0)
		uselocale(was);
	return i;
}

void
progress_show(struct progress *p, FILE *f, char *line)
{
	/* One column short of the width: a line that fills it would wrap on some terminals. */
	progress_cut(line, progress_width(p) - 1, p->ctype);
	fprintf(f, "\r%s%s", p->el, line);
}

void
progress_clear(const struct progress *p, FILE *f)
{
	if (p->redraw)
		fprintf(f, "\r%s", p->el);
}

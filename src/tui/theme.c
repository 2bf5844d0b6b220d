/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The theme in use and its curses colour pairs.  The only theme file that
 * calls curses: everything it decides is done by the pure theme_resolve.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>
#include <term.h>

#include "theme.h"

static struct theme theme_cur;
static int theme_ready;
static WINDOW *theme_screen; /* stdscr when the pairs were set up; NULL before initscr() */
static enum theme_depth theme_cur_depth = THEME_DEPTH_MONO;
static attr_t theme_attrs[ROLE_COUNT];

/* Collects the first warning and counts the rest, for one status line. */
struct theme_warnings {
	char *buf;
	size_t len;
	int n;
};

static void
theme_warn_first(const char *msg, void *arg)
{
	struct theme_warnings *w = arg;

	if (w->n++ == 0 && w->buf != NULL && w->len > 0)
		snprintf(w->buf, w->len, "%s", msg);
}

static attr_t
theme_curses_attr(unsigned a)
{
	attr_t v = A_NORMAL;

	if (a & THEME_A_BOLD)
		v |= A_BOLD;
	if (a & THEME_A_DIM)
		v |= A_DIM;
	if (a & THEME_A_REVERSE)
		v |= A_REVERSE;
	if (a & THEME_A_UNDERLINE)
		v |= A_UNDERLINE;
#ifdef A_ITALIC
	if (a & THEME_A_ITALIC)
		v |= A_ITALIC;
#endif
	return v;
}

/* The terminfo RGB capability, boolean or numeric: ncurses' sign of direct colour. */
static int
theme_term_rgb(void)
{
#ifdef NCURSES_EXT_COLORS
	char cap[] = "RGB";

	return tigetflag(cap) == 1 || tigetnum(cap) > 0;
#else
	return 0;
#endif
}

static int
theme_init_pair(const struct theme_pair *p)
{
#ifdef NCURSES_EXT_COLORS
	return init_extended_pair(p->pair, p->fg, p->bg);
#else
	return init_pair((short)p->pair, (short)p->fg, (short)p->bg);
#endif
}

/* Colour set-up for a terminal that has colour; returns the depth in use. */
static enum theme_depth
theme_setup_color(struct theme_pair pairs[ROLE_COUNT])
{
	const char *nc = getenv("NO_COLOR");
	int mono = theme_cur.monochrome || (nc != NULL && *nc != '\0');
	int dflt, r;
	enum theme_depth d;

	if (has_colors() && COLORS == 0)
		start_color();
	d = theme_depth_pick(has_colors(), COLORS, theme_term_rgb(), mono);
	if (d == THEME_DEPTH_MONO) {
		theme_resolve(&theme_cur, d, 0, 0, pairs);
		return d;
	}
	dflt = use_default_colors() == OK;
	theme_resolve(&theme_cur, d, COLOR_PAIRS, dflt, pairs);
	for (r = 0; r < ROLE_COUNT; r++) {
		/* A pair the terminal refuses leaves that role to attributes. */
		if (pairs[r].pair != 0 && theme_init_pair(&pairs[r]) == ERR) {
			pairs[r].pair = 0;
			pairs[r].attr = theme_cur.role[r].mono;
		}
	}
	return d;
}

/* Before initscr() there is no terminal to ask: attributes only, until theme_attr sees one. */
static void
theme_apply(void)
{
	struct theme_pair pairs[ROLE_COUNT];
	int r;

	if (stdscr == NULL) {
		theme_cur_depth = THEME_DEPTH_MONO;
		theme_resolve(&theme_cur, THEME_DEPTH_MONO, 0, 0, pairs);
	} else
		theme_cur_depth = theme_setup_color(pairs);
	for (r = 0; r < ROLE_COUNT; r++)
		theme_attrs[r] = theme_curses_attr(pairs[r].attr) | COLOR_PAIR(pairs[r].pair);
	theme_screen = stdscr;
	theme_ready = 1;
}

int
theme_use(const char *name, char *err, size_t errlen)
{
	struct theme_warnings w = { err, errlen, 0 };
	char path[PATH_MAX], more[96];
	struct theme t;
	int found;

	if (name == NULL || *name == '\0')
		name = "default";
	if ((found = theme_find(name, path, sizeof(path), err, errlen)) == -1)
		return -1;
	if (found == 0)
		theme_init(&t);
	else if (theme_load_file(&t, path, theme_warn_first, &w, err, errlen) == -1)
		return -1;
	theme_cur = t;
	theme_apply();
	if (w.n == 0 && err != NULL && errlen > 0)
		err[0] = '\0';
	if (w.n > 1 && err != NULL) {
		snprintf(more, sizeof(more), " (and %d more bad lines)", w.n - 1);
		if (strlen(err) + strlen(more) < errlen)
			strcat(err, more);
	}
	return w.n > 0;
}

attr_t
theme_attr(enum theme_role r)
{
	if ((int)r < 0 || r >= ROLE_COUNT)
		return A_NORMAL;
	if (!theme_ready)
		theme_init(&theme_cur);
	/* First use, or a theme chosen before initscr() (or for another screen). */
	if (!theme_ready || theme_screen != stdscr)
		theme_apply();
	return theme_attrs[r];
}

const char *
theme_current(void)
{
	return theme_ready ? theme_cur.name : "default";
}

enum theme_depth
theme_depth(void)
{
	return theme_cur_depth;
}

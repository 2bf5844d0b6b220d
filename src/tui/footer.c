/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The footer: the views' tabs (a click on one opens it) and the keys most
 * wanted, or the message of the moment in their place.
 */
#include <string.h>

#include "views.h"

/*
 * The footer's hints, most wanted first: they are drawn while they fit whole
 * (80 columns show the first four or five), so a new key's hint goes where
 * its importance puts it.
 */
static const char *const footer_live[] = { "? help", "q quit", "space pause", "r run",
					   "R runs", "s save", "o overlay",   "v view" };
static const char *const footer_replay[] = { "? help", "q quit", "space play/pause", "</> scrub",
					     "v view" };
#define NFOOT(t) (int)(sizeof(t) / sizeof((t)[0]))

/* The view tabs; when the whole row would not fit, the other views show their number only. */
static int
footer_tabs(const struct ui *u, struct rect r, bool narrow, struct ui_hits *h)
{
	int v, x0, x = r.x;

	for (v = 0; v < nviews; v++) {
		x0 = x;
		if (v == u->view || !narrow)
			x += ui_putf(r.y, x, r.x + r.w - x,
				     v == u->view ? theme_attr(ROLE_TITLE) | A_BOLD
						  : theme_attr(ROLE_INACTIVE) | A_REVERSE,
				     " %d %s ", v + 1, views[v]->name);
		else
			x += ui_putf(r.y, x, r.x + r.w - x, theme_attr(ROLE_INACTIVE) | A_REVERSE,
				     " %d ", v + 1);
		ui_hit_add(h, r.y, x0, x - 1, -2 - v); /* a click on a tab switches view */
	}
	return x;
}

void
footer_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	const char *const *hint = f->replay ? footer_replay : footer_live;
	int nhint = f->replay ? NFOOT(footer_replay) : NFOOT(footer_live);
	int i, x, len = 0;
	attr_t a = theme_attr(ROLE_MAIN) | A_REVERSE;

	ui_fill(r, a);
	if (u->msg[0] != '\0' && ui_now() < u->msg_until) {
		/* a message too long ends at a word, with an ellipsis */
		ui_put(r.y, r.x, 1, a, " ");
		ui_put_cut(r.y, r.x + 1, r.w - 1,
			   theme_attr(u->msg_bad ? ROLE_WARNING : ROLE_MAIN) | A_REVERSE, u->msg);
		return;
	}
	for (i = 0; i < nviews; i++)
		len += 4 + (int)strlen(views[i]->name);
	for (i = 0; i < 4 && i < nhint; i++)
		len += 2 + (int)strlen(hint[i]);
	x = footer_tabs(u, r, len > r.w, h);
	for (i = 0; i < nhint && x + 2 + (int)strlen(hint[i]) <= r.x + r.w; i++)
		x += ui_putf(r.y, x, r.x + r.w - x, a, "  %s", hint[i]);
}

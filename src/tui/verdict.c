/* SPDX-License-Identifier: BSD-2-Clause */
/* The verdict line (always on screen) and the event log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui.h"

/* Display columns of a UTF-8 string; one per byte when the locale cannot say. */
static int
verdict_cols(const char *s)
{
	wchar_t w[256];
	size_t n = mbstowcs(w, s, sizeof(w) / sizeof(w[0]) - 1);
	int cols;

	if (n == (size_t)-1)
		return (int)strlen(s);
	w[n] = L'\0';
	cols = wcswidth(w, n);
	return cols < 0 ? (int)strlen(s) : cols;
}

/*
 * The sentence whole when it fits; else its clauses by importance, so a
 * narrow terminal cuts the least important words, never "collapse above N".
 */
void
verdict_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct analysis *an = f->an;
	const char *head = u->collapse_flash ? "COLLAPSE: " : "verdict: ";
	char ranked[sizeof(an->verdict)];
	const char *text;
	attr_t a;

	if (an == NULL || an->verdict[0] == '\0') {
		ui_fill(r, 0);
		ui_put(r.y, r.x, r.w, theme_attr(ROLE_INACTIVE),
		       " verdict: waiting for the first finished step");
		return;
	}
	text = an->verdict;
	if (1 + (int)strlen(head) + verdict_cols(text) > r.w) {
		analysis_verdict_ranked(an, ranked, sizeof(ranked));
		text = ranked;
	}
	a = theme_attr(an->collapse ? ROLE_VERDICT_BAD : ROLE_VERDICT_OK);
	if (u->collapse_flash)
		a |= A_REVERSE | A_BOLD;
	ui_fill(r, u->collapse_flash ? a : 0);
	/* A collapse verdict opens with the word: shout it, do not repeat it. */
	if (u->collapse_flash && strncmp(text, "collapse ", 9) == 0)
		ui_putf(r.y, r.x, r.w, a, " COLLAPSE %s", text + 9);
	else
		ui_putf(r.y, r.x, r.w, a, " %s%s", head, text);
}

static enum theme_role
event_role(enum event_kind k)
{
	switch (k) {
	case EV_FAILURE:
	case EV_COLLAPSE:
		return ROLE_VERDICT_BAD;
	case EV_UNSTABLE:
	case EV_WARNING:
		return ROLE_WARNING;
	default:
		return ROLE_MAIN;
	}
}

/*
 * The newest events that fit, oldest first, so the log reads downwards;
 * scrolled back (PgUp, the wheel) it ends ev_back events before the newest.
 */
void
events_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	const struct session *s = f->s;
	char title[64];
	struct rect in;
	int rows = r.h > 1 ? r.h - 1 : 0, back = u->ev_back, first, last, i, y;

	/* Never scrolled past the oldest page, though the session changed under it. */
	if (back > s->nevents - rows)
		back = s->nevents - rows;
	if (back < 0)
		back = 0;
	last = s->nevents - back;
	snprintf(title, sizeof(title), "events");
	if (last < s->nevents)
		snprintf(title, sizeof(title), "events (%d newer)", s->nevents - last);
	in = ui_titled(r, title);
	first = last - in.h;
	if (first < 0)
		first = 0;
	h->ev_y0 = in.y;
	h->ev_rows = in.h > 0 ? in.h : 0;
	for (i = first, y = in.y; i < last && y < in.y + in.h; i++, y++) {
		const struct event *e = &s->events[i];
		ui_putf(y, in.x, in.w, theme_attr(event_role(e->kind)), " %7.1fs %-8s %s", e->t,
			event_kind_names[e->kind], e->text);
		if (e->step >= 0)
			ui_hit_add(h, y, in.x, in.x + in.w - 1, e->step);
	}
}

/* The verdict line (always on screen), the event log, and the footer of keys. */
#include <stdio.h>

#include "ui.h"

void
verdict_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct analysis *an = f->an;
	attr_t a;

	if (an == NULL || an->verdict[0] == '\0') {
		ui_fill(r, 0);
		ui_put(r.y, r.x, r.w, theme_attr(ROLE_INACTIVE),
		       " verdict: waiting for the first finished step");
		return;
	}
	a = theme_attr(an->collapse ? ROLE_VERDICT_BAD : ROLE_VERDICT_OK);
	if (u->collapse_flash)
		a |= A_REVERSE | A_BOLD;
	ui_fill(r, u->collapse_flash ? a : 0);
	ui_putf(r.y, r.x, r.w, a, " %s%s",
		u->collapse_flash ? "COLLAPSE: " : "verdict: ", an->verdict);
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

/* The newest events that fit, oldest first, so the log reads downwards. */
void
events_draw(const struct frame *f, struct rect r, struct ui_hits *h)
{
	const struct session *s = f->s;
	struct rect in = ui_titled(r, "events");
	int first = s->nevents - in.h;
	int i, y;

	if (first < 0)
		first = 0;
	for (i = first, y = in.y; i < s->nevents && y < in.y + in.h; i++, y++) {
		const struct event *e = &s->events[i];
		ui_putf(y, in.x, in.w, theme_attr(event_role(e->kind)), " %7.1fs %-8s %s", e->t,
			event_kind_names[e->kind], e->text);
		if (e->step >= 0)
			ui_hit_add(h, y, in.x, in.x + in.w - 1, e->step);
	}
}

void
footer_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	int v;
	int x = r.x;

	ui_fill(r, theme_attr(ROLE_MAIN) | A_REVERSE);
	if (u->msg[0] != '\0' && ui_now() < u->msg_until) {
		ui_putf(r.y, r.x, r.w,
			theme_attr(u->msg_bad ? ROLE_WARNING : ROLE_MAIN) | A_REVERSE, " %s",
			u->msg);
		return;
	}
	for (v = 0; v < VIEW_COUNT; v++) {
		int x0 = x;

		x += ui_putf(r.y, x, r.x + r.w - x,
			     (v == (int)u->view ? theme_attr(ROLE_TITLE) | A_BOLD
						: theme_attr(ROLE_INACTIVE) | A_REVERSE),
			     " %d %s ", v + 1, ui_view_names[v]);
		ui_hit_add(h, r.y, x0, x - 1, -2 - v); /* a click on a tab switches view */
	}
	ui_put(r.y, x, r.x + r.w - x, theme_attr(ROLE_MAIN) | A_REVERSE,
	       f->replay
		       ? "  space play/pause  </> scrub  v view  ? help  q quit"
		       : "  v view  space pause  r run  s save  o overlay  R runs  ? help  q quit");
}

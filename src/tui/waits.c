/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The waits view: where the threads spent each step, as one stacked bar
 * per N, so the category that takes over past the peak (runnable, a futex,
 * a lock) stands out next to the N where throughput fell; and below it the
 * running step's profile so far.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view.h"

#define WV_CATS 6         /* the largest five categories of the sweep, then the rest */
#define WV_LABEL_W 30     /* after each bar: the largest share and its name */
#define WV_LOCK_W 22      /* then the family's top lock at N (waits_locks.c) */
#define WV_LOCK_W_WIDE 32 /* ... from 120 columns */

/*
 * Each family has its panel, the target's first when there is one (the
 * server is where a client-driven collapse lives), then the workload's and a
 * probe's.  Each category has its own colour and its own glyph, so the bars
 * read on a monochrome or an ASCII terminal too.  Where a lock census ran,
 * each row ends with the family's top lock at N, and a panel below lists one
 * step's locks and their holders (waits_locks.c).
 */

struct wv_cat {
	enum wait_state state;
	char channel[WAIT_CHANNEL_LEN];
	double weight;
};

struct wv {
	enum wait_family fam;
	struct wv_cat cat[WV_CATS];
	int ncat;
};

static const enum theme_role wv_roles[WV_CATS] = { ROLE_OVERLAY1, ROLE_OVERLAY2, ROLE_OVERLAY3,
						   ROLE_OVERLAY4, ROLE_OVERLAY5, ROLE_INACTIVE };

static const char *
wv_glyph(int k)
{
	static const char *const u8[WV_CATS] = { "█", "▓", "▒", "░", "▚", "·" };
	static const char *const asc[WV_CATS] = { "#", "=", "+", "-", ":", "." };

	return glyph_utf8() ? u8[k] : asc[k];
}

/* The families some step has, the target's first: *out in that order, how many. */
static int
wv_families(const struct session *s, enum wait_family out[WAIT_NFAMILIES])
{
	static const enum wait_family order[] = { WAIT_TARGET, WAIT_WORKLOAD, WAIT_PROBE };
	size_t k;
	int i, n = 0;

	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (i = 0; i < s->nsteps; i++) {
			if (wait_has_family(s->steps[i].waits, s->steps[i].nwaits, order[k])) {
				out[n++] = order[k];
				break;
			}
		}
	}
	return n;
}

static bool
wv_same(const struct wv_cat *c, const struct wait_share *w)
{
	return c->state == w->state && strcmp(c->channel, w->channel) == 0;
}

/* Adds a line's share to the category list (the first WV_CATS - 1 distinct ones kept). */
static void
wv_collect(struct wv_cat *all, int *n, int max, const struct wait_share *w)
{
	int i;

	for (i = 0; i < *n; i++) {
		if (wv_same(&all[i], w)) {
			all[i].weight += w->share;
			return;
		}
	}
	if (*n == max)
		return;
	all[*n].state = w->state;
	snprintf(all[*n].channel, sizeof(all[*n].channel), "%s", w->channel);
	all[*n].weight = w->share;
	(*n)++;
}

/* The sweep's largest categories of the family, by share summed over the usable steps. */
static void
wv_build(struct wv *v, const struct session *s, enum wait_family fam)
{
	struct wv_cat all[64], t;
	int i, j, n = 0;

	memset(v, 0, sizeof(*v));
	v->fam = fam;
	for (i = 0; i < s->nsteps; i++) {
		if (!step_usable(&s->steps[i]))
			continue;
		for (j = 0; j < s->steps[i].nwaits; j++) {
			if (s->steps[i].waits[j].family == v->fam)
				wv_collect(all, &n, 64, &s->steps[i].waits[j]);
		}
	}
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && all[j].weight > all[j - 1].weight; j--) {
			t = all[j];
			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	}
	v->ncat = n < WV_CATS - 1 ? n : WV_CATS - 1;
	memcpy(v->cat, all, (size_t)v->ncat * sizeof(v->cat[0]));
}

static void
wv_label(enum wait_state state, const char *channel, char *buf, size_t len)
{
	if (channel[0] == '\0')
		snprintf(buf, len, "%s", wait_state_names[state]);
	else if (state == WS_UNINTERRUPTIBLE)
		snprintf(buf, len, "D:%s", channel);
	else
		snprintf(buf, len, "%s", channel);
}

/*
 * Each category's mean share at N over that N's usable steps, and the
 * readings it rests on (0: not known); the rest in the last slot.
 */
static bool
wv_shares_at(const struct wv *v, const struct session *s, int n, double out[WV_CATS],
	     int rd[WV_CATS])
{
	int i, j, k, steps = 0;

	memset(out, 0, WV_CATS * sizeof(out[0]));
	memset(rd, 0, WV_CATS * sizeof(rd[0]));
	for (i = 0; i < s->nsteps; i++) {
		const struct step *st = &s->steps[i];

		if (st->n != n || !step_usable(st) ||
		    !wait_has_family(st->waits, st->nwaits, v->fam))
			continue;
		steps++;
		for (j = 0; j < st->nwaits; j++) {
			if (st->waits[j].family != v->fam)
				continue;
			for (k = 0; k < v->ncat && !wv_same(&v->cat[k], &st->waits[j]); k++)
				;
			out[k < v->ncat ? k : WV_CATS - 1] += st->waits[j].share;
			rd[k < v->ncat ? k : WV_CATS - 1] += st->waits[j].readings;
		}
	}
	for (k = 0; k < WV_CATS && steps > 0; k++)
		out[k] /= steps;
	return steps > 0;
}

static void
wv_legend(const struct wv *v, int y, int x, int w)
{
	char label[WAIT_CHANNEL_LEN + 8];
	int k, used = 0;

	for (k = 0; k < v->ncat && used < w; k++) {
		wv_label(v->cat[k].state, v->cat[k].channel, label, sizeof(label));
		used += ui_put(y, x + used, w - used, theme_attr(wv_roles[k]), wv_glyph(k));
		used += ui_putf(y, x + used, w - used, theme_attr(ROLE_MAIN), " %s  ", label);
	}
	if (used < w) {
		used += ui_put(y, x + used, w - used, theme_attr(wv_roles[WV_CATS - 1]),
			       wv_glyph(WV_CATS - 1));
		ui_put(y, x + used, w - used, theme_attr(ROLE_MAIN), " the rest");
	}
}

/*
 * The lock column's width in a panel w wide: where some step took a census,
 * only while the bar keeps 10 columns; the same in every family's panel, so
 * that the bars line up (the probe's is left blank: the census has none).
 */
static int
wv_lock_w(const struct session *s, int w)
{
	int lw = w >= 120 ? WV_LOCK_W_WIDE : WV_LOCK_W;

	if (!waits_locks_any(s))
		return 0;
	if (w - 8 - WV_LABEL_W - lw < 10)
		lw = w - 8 - WV_LABEL_W - 10;
	return lw >= 8 ? lw : 0;
}

/*
 * One N: its stacked bar, then its largest category's share ("?" when
 * uncertain) and name, then (lockw > 0) the family's top lock at N.
 */
static void
wv_row(const struct wv *v, const struct session *s, const double sh[WV_CATS], const int rd[WV_CATS],
       int n, int y, int x, int w, int lockw)
{
	int k, c, cols, used = 0, top = 0, barw = w - 8 - WV_LABEL_W - lockw;
	char label[WAIT_CHANNEL_LEN + 8];
	double acc = 0;

	ui_putf(y, x, w, theme_attr(ROLE_MAIN), "N=%-5d", n);
	if (barw < 10)
		return;
	for (k = 0; k < WV_CATS; k++) {
		acc += sh[k];
		cols = (int)lround(acc * barw) - used;
		for (c = 0; c < cols && used < barw; c++, used++)
			ui_put(y, x + 7 + used, 1, theme_attr(wv_roles[k]), wv_glyph(k));
		if (sh[k] > sh[top])
			top = k;
	}
	if (top < v->ncat)
		wv_label(v->cat[top].state, v->cat[top].channel, label, sizeof(label));
	else
		snprintf(label, sizeof(label), "the rest");
	ui_putf(y, x + 8 + barw, WV_LABEL_W, theme_attr(ROLE_HI), "%3.0f%%%s %s", sh[top] * 100,
		rd[top] > 0 && rd[top] < WAIT_FEW_READINGS ? "?" : "", label);
	if (lockw > 0 && v->fam != WAIT_PROBE)
		waits_locks_cell(s, n, v->fam, y, x + 8 + barw + WV_LABEL_W, lockw);
}

/* The running step's profile so far: its largest lines, every family. */
static void
wv_live(const struct frame *f, struct rect r)
{
	char label[WAIT_CHANNEL_LEN + 8], title[64];
	struct rect in;
	int i, row = 0, col = 0, colw;

	snprintf(title, sizeof(title), "waits: N=%d so far", f->run_n);
	in = ui_titled(r, title);
	if (in.h <= 0)
		return;
	colw = in.w >= 100 ? in.w / 3 : in.w >= 60 ? in.w / 2 : in.w;
	for (i = 0; i < f->nlive_waits; i++) {
		const struct wait_share *w = &f->live_waits[i];

		if (row == in.h) {
			row = 0;
			col++;
		}
		if ((col + 1) * colw > in.w)
			break;
		wv_label(w->state, w->channel, label, sizeof(label));
		ui_putf(in.y + row, in.x + col * colw, colw - 1, theme_attr(ROLE_MAIN),
			" %-8s %5.1f%%%s %s", wait_family_names[w->family], w->share * 100,
			WAIT_UNCERTAIN(w) ? "?" : " ", label);
		row++;
	}
}

/* One family's panel: the legend, then a row per N, the largest N last. */
static void
wv_panel(const struct frame *f, enum wait_family fam, struct rect r)
{
	const struct analysis *an = f->an;
	double sh[WV_CATS];
	int rd[WV_CATS];
	char title[96];
	struct rect in;
	struct wv v;
	int i, y, lockw;

	wv_build(&v, f->s, fam);
	snprintf(title, sizeof(title), "waits: the %s's thread-time at each N",
		 wait_family_names[fam]);
	in = ui_titled(r, title);
	if (in.h < 2)
		return;
	lockw = wv_lock_w(f->s, in.w - 1);
	wv_legend(&v, in.y, in.x + 1, in.w - 1 - lockw);
	if (lockw > 0 && fam != WAIT_PROBE)
		ui_put(in.y, in.x + in.w - lockw, lockw, theme_attr(ROLE_INACTIVE),
		       " top lock % waiters");
	y = in.y + 1;
	/* The last ones kept when they do not all fit. */
	i = an != NULL && an->npoints > in.h - 1 ? an->npoints - (in.h - 1) : 0;
	for (; an != NULL && i < an->npoints && y < in.y + in.h; i++) {
		if (wv_shares_at(&v, f->s, an->pts[i].n, sh, rd))
			wv_row(&v, f->s, sh, rd, an->pts[i].n, y++, in.x + 1, in.w - 1, lockw);
	}
}

void
waits_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	int live_h = f->nlive_waits > 0 ? (r.h >= 20 ? 7 : 4) : 0;
	enum wait_family fams[WAIT_NFAMILIES];
	int k, nf, h, lk_h, y = r.y, body = r.h - live_h, why_h = waits_why_rows(f);
	struct rect in;

	nf = wv_families(f->s, fams);
	/* the why panel takes up to a third of the height, below the families' bars */
	if (why_h > 0) {
		why_h = why_h + 1 < body / 3 ? why_h + 1 : body / 3;
		if (why_h >= 3) {
			body -= why_h;
			waits_why_draw(f, (struct rect){ r.y + body, r.x, why_h, r.w });
		}
	}
	/* the locks' panel takes up to a third of what is left, above the why panel */
	if ((lk_h = waits_locks_rows(u, f, r.w)) > 0) {
		lk_h = lk_h < body / 3 ? lk_h : body / 3;
		if (lk_h >= 2) {
			body -= lk_h;
			waits_locks_draw(u, f, (struct rect){ r.y + body, r.x, lk_h, r.w });
		}
	}
	if (nf == 0) {
		in = ui_titled((struct rect){ r.y, r.x, body, r.w }, "waits");
		if (in.h > 0)
			ui_put(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE),
			       " no wait profile yet: it comes when a step ends");
	}
	/* A panel a family, the target's first, sharing the height; what does not fit is left out.
	 */
	for (k = 0; k < nf && body - (y - r.y) >= 4; k++) {
		h = (body - (y - r.y)) / (nf - k);
		wv_panel(f, fams[k], (struct rect){ y, r.x, h, r.w });
		y += h;
	}
	if (live_h > 0)
		wv_live(f, (struct rect){ r.y + r.h - live_h, r.x, live_h, r.w });
}

/* The waits view; the selected step's detail (Enter) goes below it, not over it. */
static void
waits_view_draw(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	(void)h;
	if (u->detail && u->sel_step >= 0)
		b.h -= step_detail_h(u, f, b.h);
	waits_draw(u, f, b);
}

const struct view view_waits = {
	.name = "waits",
	.draw = waits_view_draw,
};

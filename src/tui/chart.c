/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Throughput against N: this sweep's points, the running step's live point,
 * the ideal line from X(1), the fitted USL curve, peak and collapse marks,
 * and loaded snapshots as overlays.  N runs on a log2 axis when the list
 * spans a factor of 8 or more (a doubling sweep), else a linear one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/format.h"
#include "view.h"

struct axes {
	double nmin, nmax, ymax;
	bool logx;
	int dw, dh; /* dots */
};

static double
axes_xpos(const struct axes *ax, double n)
{
	return chart_npos(n, ax->nmin, ax->nmax, ax->logx, ax->dw);
}

static int
axes_x(const struct axes *ax, double n)
{
	return (int)lround(axes_xpos(ax, n));
}

static int
axes_y(const struct axes *ax, double x)
{
	double f = ax->ymax > 0 ? x / ax->ymax : 0;

	if (f > 1.05)
		f = 1.05; /* a clipped line leaves the top instead of wrapping */
	return (int)lround((ax->dh - 1) * (1.0 - f));
}

static void
axes_widen(struct axes *ax, double n, double x)
{
	if (n > 0 && (ax->nmin == 0 || n < ax->nmin))
		ax->nmin = n;
	if (n > ax->nmax)
		ax->nmax = n;
	if (isfinite(x) && x > ax->ymax)
		ax->ymax = x;
}

static void
axes_fit(struct axes *ax, const struct ui *u, const struct frame *f)
{
	int i;
	int o;
	const struct analysis *an = f->an;

	memset(ax, 0, sizeof(*ax));
	for (i = 0; i < f->s->set.nn; i++)
		axes_widen(ax, f->s->set.n[i], NAN);
	for (i = 0; an != NULL && i < an->npoints; i++)
		axes_widen(ax, an->pts[i].n, an->pts[i].x);
	for (o = 0; o < u->nov; o++)
		for (i = 0; i < u->ov[o].npts; i++)
			axes_widen(ax, u->ov[o].n[i], u->ov[o].x[i]);
	if (f->step >= 0 && f->have_rate)
		axes_widen(ax, f->run_n, f->rate);
	if (ax->nmin == 0)
		ax->nmin = 1, ax->nmax = 2;
	ax->logx = ax->nmax / ax->nmin >= 8;
	ax->ymax = ax->ymax > 0 ? ax->ymax * 1.15 : 1;
}

/* A curve y = fn(n) sampled at every dot column. */
static void
plot_curve(struct canvas *c, const struct axes *ax, const struct analysis *an, bool usl, int role,
	   char ach)
{
	int x;
	int px = -1, py = 0;

	for (x = 0; x < ax->dw; x++) {
		double fr = ax->dw > 1 ? (double)x / (ax->dw - 1) : 0;
		double n = ax->logx ? ax->nmin * pow(ax->nmax / ax->nmin, fr)
				    : ax->nmin + fr * (ax->nmax - ax->nmin);
		double v = usl ? usl_predict(&an->usl, n) : an->x1 * n;
		int y;

		if (!isfinite(v))
			continue;
		y = axes_y(ax, v);
		if (px >= 0)
			canvas_line(c, px, py, x, y, role, ach, !usl);
		px = x, py = y;
	}
}

static void
plot_points(struct canvas *c, const struct axes *ax, const int *n, const double *x, int k, int role,
	    char ach)
{
	int i;

	for (i = 0; i + 1 < k; i++)
		canvas_line(c, axes_x(ax, n[i]), axes_y(ax, x[i]), axes_x(ax, n[i + 1]),
			    axes_y(ax, x[i + 1]), role, ach, false);
	for (i = 0; k == 1 && i < k; i++)
		canvas_dot(c, axes_x(ax, n[i]), axes_y(ax, x[i]), role, ach);
}

/* First step with N = n that can be shown, for the mouse. */
static int
chart_step_of(const struct session *s, int n)
{
	int i;

	for (i = 0; i < s->nsteps; i++)
		if (s->steps[i].n == n && step_usable(&s->steps[i]))
			return i;
	return -1;
}

static void
plot_run(struct ui_hits *h, struct canvas *c, const struct axes *ax, const struct frame *f,
	 struct rect plot)
{
	int i;
	const struct analysis *an = f->an;
	int n[64] = { 0 }, k = 0;
	double x[64] = { 0 };

	for (i = 0; an != NULL && i < an->npoints && k < 64; i++, k++)
		n[k] = an->pts[i].n, x[k] = an->pts[i].x;
	plot_points(c, ax, n, x, k, ROLE_OVERLAY1, '*');
	for (i = 0; i < k; i++) {
		int cx = axes_x(ax, n[i]) / c->sx, cy = axes_y(ax, x[i]) / c->sy;
		enum theme_role r = ROLE_OVERLAY1;
		const char *g = glyph_point();

		if (an->collapse && n[i] == an->collapse_n)
			g = glyph_collapse(), r = ROLE_COLLAPSE;
		else if (n[i] == an->n_peak)
			g = glyph_peak(), r = ROLE_PEAK;
		canvas_mark(c, cx, cy, g, r);
		ui_hit_add(h, plot.y + cy, plot.x + cx - 1, plot.x + cx + 1,
			   chart_step_of(f->s, n[i]));
	}
	if (f->step >= 0 && f->have_rate && f->run_n > 0)
		canvas_mark(c, axes_x(ax, f->run_n) / c->sx, axes_y(ax, f->rate) / c->sy,
			    glyph_live(), ROLE_HI);
}

/* Adds n to the ascending list of k distinct N (at most max): the axis's ticks. */
static int
chart_tick_add(int *ticks, int k, int max, int n)
{
	int i;

	if (n <= 0 || k >= max)
		return k;
	for (i = 0; i < k && ticks[i] < n; i++)
		;
	if (i < k && ticks[i] == n)
		return k;
	memmove(ticks + i + 1, ticks + i, (size_t)(k - i) * sizeof(*ticks));
	ticks[i] = n;
	return k + 1;
}

/* Every N the chart can show a point at: the sweep's list, its points and the overlays'. */
static int
chart_ticks(const struct ui *u, const struct frame *f, int *ticks, int max)
{
	int i, o, k = 0;

	for (i = 0; i < f->s->set.nn; i++)
		k = chart_tick_add(ticks, k, max, f->s->set.n[i]);
	for (i = 0; f->an != NULL && i < f->an->npoints; i++)
		k = chart_tick_add(ticks, k, max, f->an->pts[i].n);
	for (o = 0; o < u->nov; o++)
		for (i = 0; i < u->ov[o].npts; i++)
			k = chart_tick_add(ticks, k, max, u->ov[o].n[i]);
	return k;
}

/* The y axis's labels (the middle one when there is a row for it), and N's when xlab. */
static void
chart_axes(const struct ui *u, const struct axes *ax, const struct frame *f, struct rect plot,
	   bool xlab)
{
	char lab[3][16];
	int k, i, lastx = -100, ticks[256], nticks;

	for (k = 0; k <= 2; k++)
		fmt_si(ax->ymax * (2 - k) / 2.0, lab[k], sizeof(lab[k]));
	chart_yaxis(plot, lab);
	nticks = xlab ? chart_ticks(u, f, ticks, 256) : 0;
	for (i = 0; i < nticks; i++)
		chart_xlabel(plot,
			     plot.x + (int)lround(axes_xpos(ax, ticks[i])) * plot.w /
					      (ax->dw > 0 ? ax->dw : 1),
			     ticks[i], &lastx);
}

/*
 * The chart in one line, when it has no rows for a plot: the peak, and how
 * the last N measured stands against it.
 */
static void
chart_summary(const struct frame *f, const char *unit, struct rect r)
{
	const struct analysis *an = f->an;
	const struct scaling_point *last;
	char peak[16], lastx[16];

	if (an == NULL || an->npoints == 0) {
		ui_put(r.y, r.x + 1, r.w - 1, theme_attr(ROLE_INACTIVE), "no finished step yet");
		return;
	}
	last = &an->pts[an->npoints - 1];
	fmt_si(an->x_peak, peak, sizeof(peak));
	fmt_si(last->x, lastx, sizeof(lastx));
	ui_putf(r.y, r.x + 1, r.w - 1, theme_attr(ROLE_OVERLAY1),
		"peak %s %s at N=%d; N=%d: %s, %.2fx the peak", peak, unit, an->n_peak, last->n,
		lastx, an->x_peak > 0 ? last->x / an->x_peak : NAN);
}

/*
 * Small panels drop detail in this order: the sparkline's row, the
 * legend's second row, the legend, the N labels; a plot needs two rows,
 * and without them the chart is one line (chart_summary), never an empty box.
 */
void
chart_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	int o, avail, spark, lrows;
	bool xlab;
	char title[96], unit[48];
	struct rect in, plot;
	struct canvas c;
	struct axes ax;

	if (u->chart_lat) {
		chart_latency_draw(u, f, r, h);
		return;
	}
	snprintf(unit, sizeof(unit), "%s/s", f->s->wl.unit[0] ? f->s->wl.unit : "ops");
	snprintf(title, sizeof(title), "throughput (%s) against N (%s)", unit,
		 f->s->wl.n_unit[0] ? f->s->wl.n_unit : "threads");
	in = ui_titled(r, title);
	if (in.h < 1)
		return;
	avail = in.h;
	spark = avail >= 6 ? 1 : 0;
	avail -= spark;
	lrows = chart_legend_rows(u, f, in.w - 1, avail >= 9 ? 2 : avail >= 4 ? 1 : 0);
	avail -= lrows;
	xlab = avail >= 3;
	plot = (struct rect){ in.y + lrows, in.x + 8, avail - xlab, in.w - 10 };
	if (plot.h < 2 || in.w < 20 || canvas_init(&c, plot.w, plot.h) != 0) {
		chart_summary(f, unit, in);
		return;
	}
	if (lrows > 0)
		chart_legend_draw(u, f, (struct rect){ in.y, in.x, lrows, in.w });
	axes_fit(&ax, u, f);
	ax.dw = c.dw, ax.dh = c.dh;
	if (f->an != NULL && f->an->have_x1)
		plot_curve(&c, &ax, f->an, false, ROLE_IDEAL, '.');
	if (f->an != NULL && f->an->usl.ok)
		plot_curve(&c, &ax, f->an, true, ROLE_USL, '~');
	for (o = 0; o < u->nov; o++)
		plot_points(&c, &ax, u->ov[o].n, u->ov[o].x, u->ov[o].npts, ROLE_OVERLAY2 + o,
			    (char)('1' + o));
	plot_run(h, &c, &ax, f, plot);
	canvas_draw(&c, plot.y, plot.x);
	canvas_free(&c);
	chart_axes(u, &ax, f, plot, xlab);
	if (spark)
		sparkline_draw(u, f, (struct rect){ in.y + in.h - 1, in.x, 1, in.w });
}

/* The running step's throughput, one cell per tick, newest right. */
void
sparkline_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	int i;
	int c;
	char label[64], rate[16];
	int lw, cols, first;
	double max = 0;

	if (f->step < 0 || !f->sweeping)
		return;
	fmt_si(f->have_rate ? f->rate : NAN, rate, sizeof(rate));
	snprintf(label, sizeof(label), " N=%d %s/s ", f->run_n, rate);
	lw = (int)strlen(label);
	cols = r.w - lw - 1;
	first = f->hist_len - cols;
	for (i = first; i < f->hist_len; i++) {
		const struct tick *t = f->hist_at(f->hist_ctx, i);
		if (t != NULL && t->step == f->step && isfinite(t->rate) && t->rate > max)
			max = t->rate;
	}
	ui_put(r.y, r.x, lw, theme_attr(ROLE_HI), label);
	for (c = 0; c < cols; c++) {
		const struct tick *t = f->hist_at(f->hist_ctx, first + c);
		if (t == NULL || t->step != f->step || !isfinite(t->rate) || max <= 0)
			continue;
		ui_put(r.y, r.x + lw + c, 1, theme_attr(ROLE_OVERLAY1), glyph_level(t->rate / max));
	}
}

/* The chart view: the curve large, the contention panel under it. */
static void
layout_chart(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int ct_h = b.h / 3 < 8 ? 8 : b.h / 3;

	if (ct_h > b.h - 6)
		ct_h = b.h - 6;
	chart_draw(u, f, (struct rect){ b.y, b.x, b.h - ct_h, b.w }, h);
	contention_draw(u, f, (struct rect){ b.y + b.h - ct_h, b.x, ct_h, b.w });
}

const struct view view_chart = {
	.name = "chart",
	.draw = layout_chart,
};

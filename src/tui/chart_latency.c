/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The chart in latency mode (L): each N's p50 and p99.  The mean is only N over the throughput
 * in a closed loop; the tail turns up before the throughput stops growing, and shows it here.
 * A tool's per-interval figure is drawn labelled as what it is; a step without latency gives no
 * point.  The y axis is logarithmic when the figures span more than a decade.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/latency.h"
#include "ui.h"

#define LAT_MAX_N 64
#define LAT_MAX_TRIALS 16

/* One N: its trials' figures, and their medians once pooled. */
struct lat_point {
	int n, step; /* step: the first step at n, for the mouse */
	double p50[LAT_MAX_TRIALS], tail[LAT_MAX_TRIALS];
	int k50, ktail;
};

/* Every N's point, and how the figures were measured (the first step's way; mixed when not all). */
struct lat_chart {
	struct lat_point pt[LAT_MAX_N];
	int k;
	enum lat_method method;
	double pct;    /* the tail's percentile: 99, or the tool's */
	bool tool;     /* the tail is a tool's per-interval figure */
	int tool_pct;  /* ... its percentile, 0 for its mean */
	bool mixed;    /* the steps were not all measured the same way */
	double lo, hi; /* the smallest and largest figure drawn */
	double nmin, nmax;
	bool logx, logy;
	double ylo, yhi;
	int dw, dh;
};

/* A step's tail: latency_tail's, else the tool's per-interval figure, whatever its percentile. */
static double
lat_step_tail(const struct step_latency *l, double *pct, bool *tool)
{
	double v = latency_tail(l, pct);

	*tool = l->method == LAT_INTERVAL;
	if (isfinite(v) || l->method != LAT_INTERVAL)
		return v;
	*pct = l->pct;
	return l->pct_ms;
}

static struct lat_point *
lat_point_at(struct lat_chart *lc, int n, int step)
{
	int i;

	for (i = 0; i < lc->k; i++)
		if (lc->pt[i].n == n)
			return &lc->pt[i];
	if (lc->k == LAT_MAX_N)
		return NULL;
	for (i = lc->k; i > 0 && lc->pt[i - 1].n > n; i--)
		lc->pt[i] = lc->pt[i - 1];
	memset(&lc->pt[i], 0, sizeof(lc->pt[i]));
	lc->pt[i].n = n, lc->pt[i].step = step;
	lc->k++;
	return &lc->pt[i];
}

static void
lat_add(struct lat_chart *lc, const struct step *st, int step)
{
	const struct step_latency *l = &st->lat;
	double pct = 0, tail;
	bool tool;
	struct lat_point *p;

	tail = lat_step_tail(l, &pct, &tool);
	if (!isfinite(tail) && !isfinite(l->p50_ms))
		return;
	if (lc->method == LAT_NONE)
		lc->method = l->method, lc->pct = pct, lc->tool = tool, lc->tool_pct = l->pct;
	else if (lc->method != l->method || lc->pct != pct)
		lc->mixed = true;
	if ((p = lat_point_at(lc, st->n, step)) == NULL)
		return;
	if (!tool && isfinite(l->p50_ms) && l->p50_ms > 0 && p->k50 < LAT_MAX_TRIALS)
		p->p50[p->k50++] = l->p50_ms;
	if (isfinite(tail) && tail > 0 && p->ktail < LAT_MAX_TRIALS)
		p->tail[p->ktail++] = tail;
}

static int
lat_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of k figures (sorted in place); NAN for none. */
static double
lat_median(double *v, int k)
{
	if (k == 0)
		return NAN;
	qsort(v, (size_t)k, sizeof(*v), lat_cmp);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static void
lat_widen(struct lat_chart *lc, double v)
{
	if (!isfinite(v))
		return;
	if (lc->lo == 0 || v < lc->lo)
		lc->lo = v;
	if (v > lc->hi)
		lc->hi = v;
}

/* Gathers the steps' figures, pools each N's trials (slot 0 holds the median) and fits the axes. */
static void
lat_collect(struct lat_chart *lc, const struct frame *f)
{
	int i;

	memset(lc, 0, sizeof(*lc));
	for (i = 0; i < f->s->nsteps; i++)
		if (f->s->steps[i].lat.method != LAT_NONE && step_usable(&f->s->steps[i]))
			lat_add(lc, &f->s->steps[i], i);
	for (i = 0; i < lc->k; i++) {
		lc->pt[i].p50[0] = lat_median(lc->pt[i].p50, lc->pt[i].k50);
		lc->pt[i].tail[0] = lat_median(lc->pt[i].tail, lc->pt[i].ktail);
		lat_widen(lc, lc->pt[i].p50[0]);
		lat_widen(lc, lc->pt[i].tail[0]);
	}
	for (i = 0; i < f->s->set.nn; i++) {
		if (lc->nmin == 0 || f->s->set.n[i] < lc->nmin)
			lc->nmin = f->s->set.n[i];
		if (f->s->set.n[i] > lc->nmax)
			lc->nmax = f->s->set.n[i];
	}
	for (i = 0; i < lc->k; i++) {
		if (lc->nmin == 0 || lc->pt[i].n < lc->nmin)
			lc->nmin = lc->pt[i].n;
		if (lc->pt[i].n > lc->nmax)
			lc->nmax = lc->pt[i].n;
	}
	if (lc->nmin <= 0)
		lc->nmin = 1, lc->nmax = 2;
	lc->logx = lc->nmax / lc->nmin >= 8;
	lc->logy = lc->lo > 0 && lc->hi / lc->lo > 10;
	lc->ylo = lc->logy ? lc->lo / 1.3 : 0;
	lc->yhi = lc->hi > 0 ? lc->hi * (lc->logy ? 1.3 : 1.15) : 1;
}

static double
lat_xpos(const struct lat_chart *lc, double n)
{
	return chart_npos(n, lc->nmin, lc->nmax, lc->logx, lc->dw);
}

static int
lat_ypos(const struct lat_chart *lc, double v)
{
	double f = lc->logy ? (log10(v) - log10(lc->ylo)) / (log10(lc->yhi) - log10(lc->ylo))
			    : (v - lc->ylo) / (lc->yhi - lc->ylo);

	return (int)lround((lc->dh - 1) * (1.0 - (f < 0 ? 0 : f > 1 ? 1 : f)));
}

/* One series (slot 0 of p50 or tail), a line through its points and a mark at each. */
static void
lat_plot(struct canvas *c, const struct lat_chart *lc, bool tail, int role, char ach)
{
	int i, px = -1, py = 0, x, y;
	double v;

	for (i = 0; i < lc->k; i++) {
		v = tail ? lc->pt[i].tail[0] : lc->pt[i].p50[0];
		if (!isfinite(v))
			continue;
		x = (int)lround(lat_xpos(lc, lc->pt[i].n)), y = lat_ypos(lc, v);
		if (px >= 0)
			canvas_line(c, px, py, x, y, role, ach, false);
		px = x, py = y;
	}
	for (i = 0; i < lc->k; i++) {
		v = tail ? lc->pt[i].tail[0] : lc->pt[i].p50[0];
		if (isfinite(v))
			canvas_mark(c, (int)lround(lat_xpos(lc, lc->pt[i].n)) / c->sx,
				    lat_ypos(lc, v) / c->sy, tail ? glyph_tail() : glyph_point(),
				    role);
	}
}

/* "p99", "p95", "mean": the tail's name. */
static void
lat_tail_name(const struct lat_chart *lc, char *buf, size_t len)
{
	if (lc->tool && lc->tool_pct == 0 && lc->pct == 0)
		snprintf(buf, len, "mean");
	else
		snprintf(buf, len, "p%g", lc->pct);
}

/* The legend: which mark is which percentile, the unit and how it was measured. */
static void
lat_legend(const struct lat_chart *lc, struct rect r)
{
	char tail[16], how[64];
	int x = r.x + 1, end = r.x + r.w;

	lat_tail_name(lc, tail, sizeof(tail));
	if (lc->mixed)
		snprintf(how, sizeof(how), "in ms, measured in more than one way");
	else if (lc->method == LAT_INTERVAL)
		snprintf(how, sizeof(how), "in ms, the tool's interval %s (their median)", tail);
	else
		snprintf(how, sizeof(how), "in ms, from %s",
			 lc->method == LAT_EXACT ? "every operation" : "a histogram");
	if (!lc->tool)
		x += ui_putf(r.y, x, end - x, theme_attr(ROLE_OVERLAY1), "%s p50", glyph_point()) +
		     1;
	if (x < end)
		x += ui_putf(r.y, x, end - x, theme_attr(ROLE_COLLAPSE), "%s %s", glyph_tail(),
			     tail) +
		     1;
	if (x < end)
		ui_put_cut(r.y, x + 1, end - x - 1, theme_attr(ROLE_GRAPH), how);
}

/* The y labels (top, middle, bottom) and the N ticks under the plot. */
static void
lat_axes(const struct frame *f, const struct lat_chart *lc, struct rect plot, bool xlab)
{
	char lab[3][16];
	int k, i, lastx = -100;
	double v;

	for (k = 0; k <= 2; k++) {
		v = lc->logy ? lc->ylo * pow(lc->yhi / lc->ylo, (2 - k) / 2.0)
			     : lc->ylo + (lc->yhi - lc->ylo) * (2 - k) / 2.0;
		snprintf(lab[k], sizeof(lab[k]), "%.3g", v);
	}
	chart_yaxis(plot, lab);
	for (i = 0; xlab && i < f->s->set.nn; i++)
		chart_xlabel(plot,
			     plot.x + (int)lround(lat_xpos(lc, f->s->set.n[i])) * plot.w / lc->dw,
			     f->s->set.n[i], &lastx);
}

/* What the chart says when it has nothing to plot, or no rows to plot in. */
static void
lat_line(const struct frame *f, const struct lat_chart *lc, struct rect r)
{
	char tail[16];

	if (f->s->nsteps == 0) {
		ui_put(r.y, r.x + 1, r.w - 1, theme_attr(ROLE_INACTIVE), "no finished step yet");
		return;
	}
	if (lc->k == 0) {
		ui_put_cut(r.y, r.x + 1, r.w - 1, theme_attr(ROLE_INACTIVE),
			   "no latency measured: sysbench --histogram=on, pgbench --log or -P 1, "
			   "or a built-in workload gives it");
		return;
	}
	lat_tail_name(lc, tail, sizeof(tail));
	ui_putf(r.y, r.x + 1, r.w - 1, theme_attr(ROLE_COLLAPSE),
		"%s %.3g ms at N=%d, %.3g ms at N=%d", tail, lc->pt[0].tail[0], lc->pt[0].n,
		lc->pt[lc->k - 1].tail[0], lc->pt[lc->k - 1].n);
}

void
chart_latency_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	struct lat_chart lc;
	struct canvas c;
	struct rect in, plot;
	char title[96];
	int i, legend;
	bool xlab;

	(void)u;
	lat_collect(&lc, f);
	snprintf(title, sizeof(title), "latency (ms, %s y) against N (%s); L: throughput",
		 lc.logy ? "log" : "linear", f->s->wl.n_unit[0] ? f->s->wl.n_unit : "threads");
	in = ui_titled(r, title);
	if (in.h < 1)
		return;
	legend = in.h >= 4 ? 1 : 0;
	xlab = in.h - legend >= 3;
	plot = (struct rect){ in.y + legend, in.x + 8, in.h - legend - xlab, in.w - 10 };
	if (lc.k == 0 || plot.h < 2 || in.w < 20 || canvas_init(&c, plot.w, plot.h) != 0) {
		lat_line(f, &lc, in);
		return;
	}
	if (legend)
		lat_legend(&lc, (struct rect){ in.y, in.x, 1, in.w });
	lc.dw = c.dw, lc.dh = c.dh;
	lat_plot(&c, &lc, false, ROLE_OVERLAY1, 'o');
	lat_plot(&c, &lc, true, ROLE_COLLAPSE, '*');
	canvas_draw(&c, plot.y, plot.x);
	for (i = 0; i < lc.k; i++) {
		int cx = plot.x + (int)lround(lat_xpos(&lc, lc.pt[i].n)) / c.sx;

		if (isfinite(lc.pt[i].p50[0]))
			ui_hit_add(h, plot.y + lat_ypos(&lc, lc.pt[i].p50[0]) / c.sy, cx - 1,
				   cx + 1, lc.pt[i].step);
		if (isfinite(lc.pt[i].tail[0]))
			ui_hit_add(h, plot.y + lat_ypos(&lc, lc.pt[i].tail[0]) / c.sy, cx - 1,
				   cx + 1, lc.pt[i].step);
	}
	canvas_free(&c);
	lat_axes(f, &lc, plot, xlab);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's latency in its detail: how it was measured, its percentiles, and its histogram as
 * bars.  The buckets (two significant digits, hundreds of them) merge into log-spaced bins, as
 * many as the width holds, so the shape reads at a glance: one hump, two, a long tail.  The
 * bins above p99 take the tail's colour.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/format.h"
#include "ui.h"

#define LAT_BAR_H 3     /* the bars' rows at most */
#define LAT_BINS_MAX 16 /* the bars at most */
#define LAT_BIN_W 6     /* a bar's columns, its label's included */
#define LAT_GUTTER 7    /* the largest bin's count, the unit */

/* ms as a label of at most 5 columns: "0.25", "1.5", "12", "850", "12s", "40us", "800ns". */
static void
lat_label(double ms, char *buf, size_t len)
{
	if (ms >= 10000)
		snprintf(buf, len, "%.0fs", ms / 1000);
	else if (ms >= 10)
		snprintf(buf, len, "%.0f", ms);
	else if (ms >= 1)
		snprintf(buf, len, "%.1f", ms);
	else if (ms >= 0.1)
		snprintf(buf, len, "%.2f", ms);
	else if (ms >= 0.001)
		snprintf(buf, len, "%.0fus", ms * 1000);
	else
		snprintf(buf, len, "%.0fns", ms * 1e6);
}

static const char *
lat_fig(double ms, char *buf, size_t len)
{
	if (!isfinite(ms))
		return "-";
	snprintf(buf, len, "%.3g", ms);
	return buf;
}

/*
 * The percentiles, then how they were measured and on how many operations
 * (or intervals): in full where the width holds it, else only the method.
 */
static void
lat_figures(const struct step_latency *l, struct rect r)
{
	char a[16], b[16], c[16], d[16], e[16], figs[128], how[96], line[240];

	if (l->method == LAT_INTERVAL) {
		if (l->pct > 0)
			snprintf(e, sizeof(e), "p%d", l->pct);
		else
			snprintf(e, sizeof(e), "mean");
		snprintf(figs, sizeof(figs), " latency ms: %s %s", e,
			 lat_fig(l->pct_ms, a, sizeof(a)));
		snprintf(how, sizeof(how), "the tool's interval %s, median of %llu intervals", e,
			 (unsigned long long)l->count);
	} else {
		snprintf(figs, sizeof(figs),
			 " latency ms: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s",
			 lat_fig(l->p50_ms, a, sizeof(a)), lat_fig(l->p90_ms, b, sizeof(b)),
			 lat_fig(l->p99_ms, c, sizeof(c)), lat_fig(l->p999_ms, d, sizeof(d)),
			 lat_fig(l->max_ms, e, sizeof(e)));
		snprintf(how, sizeof(how), "%s, %llu operations%s",
			 l->method == LAT_EXACT ? "every operation" : "histogram",
			 (unsigned long long)l->count,
			 l->whole_run ? ", the tool's whole run" : "");
	}
	snprintf(line, sizeof(line), "%s  (%s)", figs, how);
	if (ui_cols(line) > r.w)
		snprintf(line, sizeof(line), "%s  (%s)", figs,
			 l->method == LAT_INTERVAL ? "tool's intervals"
			 : l->method == LAT_EXACT  ? "every op"
						   : "histogram");
	ui_put(r.y, r.x, r.w, theme_attr(ROLE_MAIN), line);
}

/*
 * The buckets into nb log-spaced bins from the lowest bucket to the
 * highest one's top (or max); each bin's upper bound in ms into top.
 */
static int
lat_bin(const struct step_latency *l, uint64_t *bin, double *top, int nb)
{
	double lo = (double)l->hist[0].ns, hi = (double)l->hist[l->nhist - 1].ns * (1 + 1.0 / 64);
	int i, k;

	if (isfinite(l->max_ms) && l->max_ms * 1e6 > hi)
		hi = l->max_ms * 1e6;
	if (!(lo > 0))
		lo = 1;
	if (hi <= lo * 1.01)
		nb = 1, hi = lo * 1.01;
	memset(bin, 0, (size_t)nb * sizeof(*bin));
	for (i = 0; i < nb; i++)
		top[i] = lo * pow(hi / lo, (i + 1.0) / nb) / 1e6;
	for (i = 0; i < l->nhist; i++) {
		double ns = l->hist[i].ns > 0 ? (double)l->hist[i].ns : lo;

		k = (int)floor(log(ns / lo) / log(hi / lo) * nb);
		bin[k < 0 ? 0 : k >= nb ? nb - 1 : k] += l->hist[i].n;
	}
	return nb;
}

/* The bars, bh rows, scaled to the largest bin; their upper bounds under them. */
static void
lat_bars(const struct step_latency *l, struct rect r, int bh)
{
	uint64_t bin[LAT_BINS_MAX], most = 0;
	double top[LAT_BINS_MAX], eighths;
	int nb = (r.w - LAT_GUTTER) / LAT_BIN_W, i, row, x;
	char buf[16];
	enum theme_role role;

	if (nb > LAT_BINS_MAX)
		nb = LAT_BINS_MAX;
	if (nb < 2 || l->nhist == 0)
		return;
	nb = lat_bin(l, bin, top, nb);
	for (i = 0; i < nb; i++)
		most = bin[i] > most ? bin[i] : most;
	fmt_si((double)most, buf, sizeof(buf));
	ui_putf(r.y, r.x, LAT_GUTTER - 1, theme_attr(ROLE_GRAPH), "%5s", buf);
	ui_put(r.y + bh, r.x, LAT_GUTTER - 1, theme_attr(ROLE_GRAPH),
	       glyph_utf8() ? "  ≤ms" : " <=ms");
	for (i = 0; i < nb && most > 0; i++) {
		x = r.x + LAT_GUTTER + i * LAT_BIN_W;
		role = i > 0 && top[i - 1] >= l->p99_ms ? ROLE_COLLAPSE : ROLE_OVERLAY1;
		eighths = (double)bin[i] / (double)most * bh * 8;
		for (row = 0; row < bh; row++) {
			double fill = (eighths - row * 8) / 8;

			if (fill > 0)
				ui_putf(r.y + bh - 1 - row, x + 1, LAT_BIN_W - 2, theme_attr(role),
					"%s%s%s%s", glyph_level(fill), glyph_level(fill),
					glyph_level(fill), glyph_level(fill));
		}
		lat_label(top[i], buf, sizeof(buf));
		ui_putf(r.y + bh, x, LAT_BIN_W - 1, theme_attr(ROLE_GRAPH), "%5s", buf);
	}
}

int
step_latency_rows(const struct step *st)
{
	if (st->lat.method == LAT_NONE)
		return 0;
	return st->lat.nhist > 0 ? 2 + LAT_BAR_H : 1;
}

void
step_latency_draw(const struct step *st, struct rect r)
{
	int bh = r.h - 2 < LAT_BAR_H ? r.h - 2 : LAT_BAR_H;

	if (st->lat.method == LAT_NONE || r.h < 1)
		return;
	lat_figures(&st->lat, r);
	if (bh >= 1 && st->lat.nhist > 0)
		lat_bars(&st->lat, (struct rect){ r.y + 1, r.x, bh + 1, r.w }, bh);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The chart's legend: this run, the ideal line, the USL fit in words, the
 * live point and the overlays.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui.h"

#define LEGEND_MAX 12

/*
 * It is drawn whole where it can be: on one line, else on two when the panel
 * has rows to spare, else in shorter words (the fit without its standard
 * errors, and without the labels of this run's points and the ideal line),
 * and only then cut, with an ellipsis, so a narrow terminal never shows
 * "(few" with no sign.
 */

struct legend_item {
	char full[200], brief[200];
	enum theme_role role;
};

/* "s" or "k" with its standard error (or marked fixed: held at a bound), or brief, alone. */
static void
legend_param(char *buf, size_t len, const char *name, double v, double se, bool brief)
{
	if (brief)
		snprintf(buf, len, "%s=%.3g", name, v);
	else if (isnan(se))
		snprintf(buf, len, "%s=%.3g(fixed)", name, v);
	else
		snprintf(buf, len, "%s=%.3g%s%.2g", name, v, glyph_utf8() ? "±" : "+-", se);
}

/*
 * The fit: sigma and kappa with their standard errors, N* and whether it is
 * an extrapolation (beyond USL_EXTRAPOLATION_FACTOR times the largest N
 * measured), and the term that dominates at the largest N.  Brief: without
 * the errors, "extrap." and "-bound".
 */
static void
legend_usl(const struct usl_fit *u, char *buf, size_t len, bool brief)
{
	char s[40], k[40], peak[48];
	bool lin = u->bound_measured == USL_TERM_NONE;

	legend_param(s, sizeof(s), "s", u->sigma, u->se_sigma, brief);
	legend_param(k, sizeof(k), "k", u->kappa, u->se_kappa, brief);
	if (isinf(u->n_star))
		snprintf(peak, sizeof(peak), "no peak");
	else
		snprintf(peak, sizeof(peak), "N*=%.0f%s", u->n_star,
			 !u->n_star_extrapolated ? ""
			 : brief                 ? " (extrap.)"
						 : " (extrapolated)");
	snprintf(buf, len, "%s USL %s %s %s, %s%s%s", glyph_hline(), s, k, peak,
		 lin ? "linear" : usl_term_names[u->bound_measured], lin || brief ? "" : "-bound",
		 u->few_points ? " (few points)" : "");
}

/* An item; brief "" leaves it out of the brief legend (what needs no words). */
static int
legend_add(struct legend_item *it, int n, enum theme_role role, const char *full, const char *brief)
{
	if (n == LEGEND_MAX)
		return n;
	snprintf(it[n].full, sizeof(it[n].full), "%s", full);
	snprintf(it[n].brief, sizeof(it[n].brief), "%s", brief != NULL ? brief : full);
	it[n].role = role;
	return n + 1;
}

static int
legend_items(const struct ui *u, const struct frame *f, struct legend_item *it)
{
	const struct analysis *an = f->an;
	char full[200], brief[200];
	int n = 0, o;

	snprintf(full, sizeof(full), "%s this run", glyph_point());
	n = legend_add(it, n, ROLE_OVERLAY1, full, "");
	if (an != NULL && an->have_x1)
		n = legend_add(it, n, ROLE_IDEAL, ".. ideal", "");
	if (an != NULL && an->usl.ok) {
		legend_usl(&an->usl, full, sizeof(full), false);
		legend_usl(&an->usl, brief, sizeof(brief), true);
		n = legend_add(it, n, ROLE_USL, full, brief);
	}
	if (f->step >= 0 && f->have_rate) {
		snprintf(full, sizeof(full), "%s live", glyph_live());
		n = legend_add(it, n, ROLE_HI, full, NULL);
	}
	for (o = 0; o < u->nov; o++) {
		snprintf(full, sizeof(full), "%s %s", glyph_swatch(), u->ov[o].label);
		n = legend_add(it, n, (enum theme_role)(ROLE_OVERLAY2 + o), full, NULL);
	}
	return n;
}

/*
 * Lays the items out in rows of w columns, each whole and followed by a
 * space; draws them from (y, x) when draw.  The rows it takes, or max + 1
 * when it does not fit: then the item with no row left is cut, with an
 * ellipsis, and those after it are not drawn.
 */
static int
legend_place(const struct legend_item *it, int n, bool brief, int y, int x, int w, int max,
	     bool draw)
{
	int i, row = 0, col = 0, len;
	const char *t;

	for (i = 0; i < n; i++) {
		t = brief ? it[i].brief : it[i].full;
		if (t[0] == '\0')
			continue;
		len = ui_cols(t);
		if (col > 0 && col + len > w && row + 1 < max)
			row++, col = 0;
		if (draw && w - col > 1)
			ui_put_cut(y + row, x + col, w - col, theme_attr(it[i].role), t);
		if (col + len > w)
			return max + 1;
		col += len + 1;
	}
	return row + 1;
}

int
chart_legend_rows(const struct ui *u, const struct frame *f, int w, int max)
{
	struct legend_item it[LEGEND_MAX];
	int n = legend_items(u, f, it), rows;

	if (max <= 0)
		return 0;
	rows = legend_place(it, n, false, 0, 0, w, max, false);
	if (rows > max)
		rows = legend_place(it, n, true, 0, 0, w, max, false);
	return rows < max ? rows : max;
}

void
chart_legend_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	struct legend_item it[LEGEND_MAX];
	int n = legend_items(u, f, it);
	bool brief = legend_place(it, n, false, 0, 0, r.w - 1, r.h, false) > r.h;

	legend_place(it, n, brief, r.y, r.x + 1, r.w - 1, r.h, true);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The per-CPU panel.  Few CPUs: one bar each, split by state as mpstat
 * splits them.  Many: a grid of one shaded cell per CPU (several per cell
 * when even that does not fit), then a CPU x time heatmap from the tick
 * series, so 64, 256 and 1024 CPUs stay readable.
 */
#include <math.h>
#include <stdio.h>

#include "view.h"

/* The states a bar shows, in mpstat order; irq and softirq share a colour. */
static const struct {
	enum cpu_state st;
	enum theme_role role;
	char mono;
} bar_parts[] = {
	{ CPU_USER, ROLE_CPU_USER, '|' },   { CPU_NICE, ROLE_CPU_NICE, '+' },
	{ CPU_SYS, ROLE_CPU_SYS, '#' },     { CPU_IRQ, ROLE_CPU_IRQ, '!' },
	{ CPU_SOFTIRQ, ROLE_CPU_IRQ, '!' }, { CPU_IOWAIT, ROLE_CPU_IOWAIT, 'w' },
	{ CPU_STEAL, ROLE_CPU_STEAL, '~' },
};
#define NPARTS (int)(sizeof(bar_parts) / sizeof(bar_parts[0]))

/* Without colour each state needs its own character. */
static char
bar_glyph(int p)
{
	return theme_depth() == THEME_DEPTH_MONO ? bar_parts[p].mono : '|';
}

#define BAR_MIN_W 34 /* one bar column: "1023 [..........] 100.0" */

/* Busy % of the i-th CPU of the frame: this tick's delta, else the newest tick. */
static double
cpu_busy_at(const struct frame *f, int i, int *id)
{
	const struct tick *t;

	if (f->cpu != NULL && i < f->ncpu) {
		*id = f->cpu[i].id;
		return (f->cpu[i].flags & CPU_USAGE_NO_DATA) ? NAN : f->cpu[i].busy;
	}
	*id = i;
	t = f->hist_len > 0 ? f->hist_at(f->hist_ctx, f->hist_len - 1) : NULL;
	return t != NULL && t->busy != NULL && i < f->s->ticks.ncpu ? t->busy[i] : NAN;
}

static int
cpus_count(const struct frame *f)
{
	return f->cpu != NULL ? f->ncpu : f->s->ticks.ncpu;
}

static int
bar_columns(int w)
{
	int c = w / BAR_MIN_W;

	return c < 1 ? 1 : c > 4 ? 4 : c;
}

int
cpus_rows_wanted(const struct frame *f, int w)
{
	int n = cpus_count(f), c = bar_columns(w);

	return 2 + (n + c - 1) / c; /* title, the average, the bars */
}

/* One bar: cumulative rounding so the parts always add up to the busy total. */
static void
bar_draw(int y, int x, int w, const struct cpu_usage *cu, double busy, const char *label)
{
	int p;
	int bw = w - 13, done = 0;
	double acc = 0;

	ui_putf(y, x, 5, theme_attr(ROLE_TITLE), "%4s", label);
	ui_put(y, x + 5, 1, theme_attr(ROLE_DIV), "[");
	for (p = 0; cu != NULL && p < NPARTS && bw > 0; p++) {
		acc += cu->pct[bar_parts[p].st];
		int to = (int)lround(acc / 100.0 * bw);
		attr_t a = theme_attr(bar_parts[p].role);
		char ch = bar_glyph(p);

		attrset(a);
		for (; done < to && done < bw; done++)
			mvaddch(y, x + 6 + done, (chtype)ch);
	}
	if (cu == NULL && isfinite(busy)) {
		attrset(theme_attr(ROLE_CPU_USER));
		for (; done < (int)lround(busy / 100.0 * bw) && done < bw; done++)
			mvaddch(y, x + 6 + done, '|');
	}
	attrset(A_NORMAL);
	ui_put(y, x + 6 + (bw > 0 ? bw : 0), 1, theme_attr(ROLE_DIV), "]");
	if (isfinite(busy))
		ui_putf(y, x + w - 6, 6, theme_attr(ROLE_MAIN), "%5.1f%%", busy);
	else
		ui_put(y, x + w - 6, 6, theme_attr(ROLE_INACTIVE), "  n/a");
}

static void
bars_draw(const struct frame *f, struct rect r)
{
	int i;
	int n = cpus_count(f), cols = bar_columns(r.w), colw = r.w / cols;
	int rows = (n + cols - 1) / cols;
	char label[16];

	bar_draw(r.y, r.x, colw * cols, f->have_cpu ? &f->all : NULL,
		 f->have_cpu ? f->all.busy : NAN, "avg");
	for (i = 0; i < n; i++) {
		int id, row = i % rows, col = i / rows;
		double busy = cpu_busy_at(f, i, &id);

		if (1 + row >= r.h)
			continue;
		snprintf(label, sizeof(label), "%d", id);
		bar_draw(r.y + 1 + row, r.x + col * colw, colw - 1,
			 f->cpu != NULL && i < f->ncpu && isfinite(busy) ? &f->cpu[i] : NULL, busy,
			 label);
	}
}

/* CPUs per grid row: a power of two, so rows start at round ids (0, 64, 128 ...). */
static int
grid_per_row(int w)
{
	int k = 8;

	while (k * 2 <= w - 6 && k < 256)
		k *= 2;
	return k;
}

/* Draws the grid; returns the rows used. */
static int
grid_draw(const struct frame *f, struct rect r)
{
	int row;
	int c;
	int k;
	int n = cpus_count(f), per = grid_per_row(r.w), group = 1, rows;

	/* Fold several CPUs into one cell (their busiest) until the grid fits in half the panel. */
	while ((rows = (n + per * group - 1) / (per * group)) > (r.h > 8 ? r.h / 2 : r.h) &&
	       group < 64)
		group *= 2;
	for (row = 0; row < rows && row < r.h; row++) {
		int first = row * per * group;

		ui_putf(r.y + row, r.x, 5, theme_attr(ROLE_TITLE), "%4d", first);
		for (c = 0; c < per && first + c * group < n; c++) {
			double worst = NAN;
			int id;

			for (k = 0; k < group && first + c * group + k < n; k++) {
				double b = cpu_busy_at(f, first + c * group + k, &id);
				if (isfinite(b) && !(b <= worst))
					worst = b;
			}
			int lvl = glyph_heat(worst);
			ui_put(r.y + row, r.x + 5 + c, 1,
			       lvl < 0 ? theme_attr(ROLE_INACTIVE)
				       : theme_attr((enum theme_role)(ROLE_HEAT0 + lvl)),
			       glyph_shade(lvl));
		}
	}
	if (group > 1 && rows < r.h)
		ui_putf(r.y + rows, r.x + 5, r.w - 5, theme_attr(ROLE_INACTIVE),
			"%d CPUs per cell (the busiest shown)", group);
	return rows + (group > 1 ? 1 : 0);
}

static void
cpus_title(const struct frame *f, struct rect r, bool grid)
{
	int l;
	int p;
	int x = r.x + 1;

	x += ui_putf(r.y, x, r.w - 1, theme_attr(ROLE_TITLE), " CPU (%d) ", cpus_count(f));
	if (grid) {
		x += ui_put(r.y, x, r.x + r.w - x, theme_attr(ROLE_INACTIVE), " busy: ");
		for (l = 0; l < 5; l++)
			x += ui_put(r.y, x, r.x + r.w - x,
				    theme_attr((enum theme_role)(ROLE_HEAT0 + l)), glyph_shade(l));
		x += ui_put(r.y, x, r.x + r.w - x, theme_attr(ROLE_INACTIVE), " 0..100% ");
		return;
	}
	static const char *const names[] = {
		"usr", "nice", "sys", "irq", "irq", "iowait", "steal"
	};
	for (p = 0; p < NPARTS; p++) {
		if (p == 4)
			continue;
		if (theme_depth() == THEME_DEPTH_MONO)
			x += ui_putf(r.y, x, r.x + r.w - x, 0, " %c%s", bar_glyph(p), names[p]);
		else
			x += ui_putf(r.y, x, r.x + r.w - x, theme_attr(bar_parts[p].role), " %s%s",
				     glyph_swatch(), names[p]);
	}
}

void
cpus_draw(const struct ui *u, const struct frame *f, struct rect r, bool with_heatmap)
{
	struct rect in = ui_titled(r, "");
	bool bars = cpus_rows_wanted(f, r.w) - 1 <= in.h && cpus_count(f) <= 64;
	int used;

	cpus_title(f, r, !bars);
	if (u->note != NULL && in.h > 0) {
		ui_put(in.y, in.x, in.w, theme_attr(ROLE_WARNING), u->note);
		in.y++, in.h--;
	}
	if (cpus_count(f) == 0) {
		ui_put(in.y, in.x + 1, in.w - 1, theme_attr(ROLE_INACTIVE), "no CPU figures yet");
		return;
	}
	if (bars) {
		bars_draw(f, in);
		used = cpus_rows_wanted(f, r.w) - 1;
	} else {
		used = grid_draw(f, in);
	}
	if ((with_heatmap || !bars) && in.h - used >= 3)
		heatmap_draw(u, f, (struct rect){ in.y + used, in.x, in.h - used, in.w });
}

/*
 * CPU x time: one row per CPU, or per band of CPUs (their busiest) when
 * there are more CPUs than rows; the newest tick at the right.
 */
void
heatmap_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	int b;
	int c;
	int k;
	int n = f->s->ticks.ncpu, cols = r.w - 6, bands, per;
	struct rect in = ui_titled(r, "busy % per CPU over time (newest right)");

	if (n <= 0 || cols <= 0 || in.h <= 0)
		return;
	/* A power of two per row, so rows start at round ids (0, 64, 128 ...). */
	for (per = 1; (n + per - 1) / per > in.h; per *= 2)
		;
	bands = (n + per - 1) / per;
	for (b = 0; b < bands; b++) {
		ui_putf(in.y + b, in.x, 5, theme_attr(ROLE_TITLE), "%4d", b * per);
		for (c = 0; c < cols; c++) {
			const struct tick *t = f->hist_at(f->hist_ctx, f->hist_len - cols + c);
			double worst = NAN;

			for (k = 0; t != NULL && t->busy != NULL && k < per && b * per + k < n;
			     k++) {
				double v = t->busy[b * per + k];
				if (isfinite(v) && !(v <= worst))
					worst = v;
			}
			int lvl = glyph_heat(worst);
			if (lvl >= 0)
				ui_put(in.y + b, in.x + 5 + c, 1,
				       theme_attr((enum theme_role)(ROLE_HEAT0 + lvl)),
				       glyph_shade(lvl));
		}
	}
}

/* The cpus view: every CPU's bar, with the heatmap of their history. */
static void
cpus_view_draw(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	(void)h;
	cpus_draw(u, f, b, true);
}

const struct view view_cpus = {
	.name = "cpus",
	.draw = cpus_view_draw,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Contention: the figures for the running step (live when the source has
 * them, else the last finished step's, and the title says which), and each
 * figure as a small multiple against N, so a rise in involuntary switches
 * or run delay lines up with the fall in throughput.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/format.h"
#include "ui.h"

/*
 * With --target the server's own figures follow, from the finished steps
 * (its processes are counted over the whole window).
 */

static const struct metric {
	const char *name;
	unsigned bit;
	size_t off;
	int dec;     /* decimals; -1: SI suffix */
	bool target; /* of struct target_figures (TG_HAVE_*), not struct contention */
} metrics[] = {
	{ "vcsw/kop", CT_HAVE_CSW_KOP, offsetof(struct contention, vcsw_kop), 2, false },
	{ "ivcsw/kop", CT_HAVE_CSW_KOP, offsetof(struct contention, ivcsw_kop), 2, false },
	{ "run delay %", CT_HAVE_RUN_DELAY, offsetof(struct contention, run_delay_pct), 1, false },
	{ "kernel %", CT_HAVE_KERNEL, offsetof(struct contention, kernel_pct), 1, false },
	{ "ops/CPU-s", CT_HAVE_OPS_CPU, offsetof(struct contention, ops_per_cpu_s), -1, false },
	{ "lock wait %", CT_HAVE_LOCK_WAIT, offsetof(struct contention, lock_wait_pct), 1, false },
	{ "CPU pressure %", CT_HAVE_PSI, offsetof(struct contention, psi_some_pct), 1, false },
	{ "target CPUs", TG_HAVE_CPU, offsetof(struct target_figures, cpu_used), 2, true },
	{ "target sys", TG_HAVE_CPU, offsetof(struct target_figures, sys_cpu), 2, true },
	{ "tgt vcsw/kop", TG_HAVE_CSW, offsetof(struct target_figures, vcsw_kop), 2, true },
	{ "tgt ivcsw/kop", TG_HAVE_CSW, offsetof(struct target_figures, ivcsw_kop), 2, true },
	{ "tgt rdelay %", TG_HAVE_RUN_DELAY, offsetof(struct target_figures, run_delay_pct), 1,
	  true },
};
#define NMETRICS (int)(sizeof(metrics) / sizeof(metrics[0]))

/* The figure in c (the workload's) or t (the target's), NaN when it was not measured. */
static double
metric_of(const struct metric *m, const struct contention *c, const struct target_figures *t)
{
	const void *base = m->target ? (const void *)t : (const void *)c;
	unsigned have;

	if (base == NULL)
		return NAN;
	have = m->target ? (t->present ? t->have : 0) : c->have;
	if (!(have & m->bit))
		return NAN;
	return *(const double *)(const void *)((const char *)base + m->off);
}

/* Whether any step measured a target: only then are its rows shown. */
static bool
metric_any_target(const struct session *s)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].tg.present)
			return true;
	}
	return false;
}

static void
metric_fmt(const struct metric *m, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (m->dec < 0)
		fmt_si(v, buf, len);
	else
		snprintf(buf, len, "%.*f", m->dec, v);
}

/*
 * "0.00..877.34", the figures at the smallest and the largest N, in room
 * columns: shortened to SI ("0..877") when it does not fit, and left out
 * when even that does not: a number is never cut.
 */
static bool
metric_range(const struct metric *m, double lo, double hi, int room, char *buf, size_t len)
{
	char a[16], b[16];

	metric_fmt(m, lo, a, sizeof(a));
	metric_fmt(m, hi, b, sizeof(b));
	snprintf(buf, len, "%s..%s", a, b);
	if ((int)strlen(buf) <= room)
		return true;
	fmt_si(lo, a, sizeof(a));
	fmt_si(hi, b, sizeof(b));
	snprintf(buf, len, "%s..%s", a, b);
	return (int)strlen(buf) <= room;
}

/* The figure at N: the mean over that N's usable steps that measured it. */
static double
metric_at(const struct metric *m, const struct session *s, int n)
{
	int i;
	double sum = 0;
	int k = 0;

	for (i = 0; i < s->nsteps; i++) {
		double v = metric_of(m, &s->steps[i].ct, &s->steps[i].tg);
		if (s->steps[i].n == n && step_usable(&s->steps[i]) && isfinite(v))
			sum += v, k++;
	}
	return k > 0 ? sum / k : NAN;
}

/* name, value now, then one bar per N scaled to the largest. */
static void
metric_row(const struct frame *f, const struct metric *m, const struct contention *now,
	   const struct target_figures *tnow, int y, int x, int w)
{
	int i;
	int k;
	const struct analysis *an = f->an;
	int np = an != NULL ? an->npoints : 0, cw, used;
	double v[64], max = 0, lo = NAN, hi = NAN;
	char buf[16], range[40];

	metric_fmt(m, metric_of(m, now, tnow), buf, sizeof(buf));
	ui_putf(y, x, w, theme_attr(ROLE_MAIN), " %-14s", m->name);
	ui_putf(y, x + 15, w - 15, theme_attr(ROLE_HI), "%8s", buf);
	if (np > 64)
		np = 64;
	for (i = 0; i < np; i++) {
		v[i] = metric_at(m, f->s, an->pts[i].n);
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
		if (isfinite(v[i]))
			lo = isfinite(lo) ? lo : v[i], hi = v[i];
	}
	if (np == 0 || w < 30)
		return;
	cw = (w - 26 - 16) / np;
	cw = cw < 1 ? 1 : cw > 3 ? 3 : cw;
	used = 0;
	for (i = 0; i < np && 25 + used + cw <= w; i++, used += cw) {
		const char *g = isfinite(v[i]) ? glyph_level(max > 0 ? v[i] / max : 0) : " ";
		for (k = 0; k < cw; k++)
			ui_put(y, x + 25 + used + k, 1, theme_attr(ROLE_OVERLAY1), g);
	}
	if (isfinite(lo) && metric_range(m, lo, hi, w - 26 - used, range, sizeof(range)))
		ui_put(y, x + 26 + used, w - 26 - used, theme_attr(ROLE_INACTIVE), range);
}

/* The kernel's own lock profile, where it keeps one: the last step's most contended classes. */
static void
contention_locks(const struct step *st, int y, int x, int w)
{
	int i;
	int used;

	if (st->nlocks == 0)
		return;
	used = ui_put(y, x, w, theme_attr(ROLE_TITLE), "kernel locks:");
	for (i = 0; i < st->nlocks && used < w; i++) {
		char n[16];

		fmt_si((double)st->locks[i].contentions, n, sizeof(n));
		used += ui_putf(y, x + used, w - used, theme_attr(ROLE_MAIN), " %s %s",
				st->locks[i].name, n);
	}
}

void
contention_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	int i;
	const struct step *last = ui_last_done(f);
	const struct contention *now = f->live_ct;
	const struct target_figures *tnow = NULL;
	int cols, rows, colw, n = NMETRICS;
	char title[160];
	struct rect in;

	if (now != NULL)
		snprintf(title, sizeof(title), "contention: N=%d live, and against N", f->run_n);
	else if (last != NULL)
		snprintf(title, sizeof(title), "contention: N=%d, last finished step%s; against N",
			 last->n, f->sweeping ? " (the running step's come once it measures)" : "");
	else
		snprintf(title, sizeof(title), "contention: figures come when a step ends");
	in = ui_titled(r, title);
	if (now == NULL && last != NULL)
		now = &last->ct;
	if (in.h <= 0)
		return;
	/* The target's rows come last, from the newest step that has its figures. */
	for (i = f->s->nsteps - 1; i >= 0 && tnow == NULL; i--) {
		if (f->s->steps[i].tg.present && f->s->steps[i].status != STEP_RUNNING)
			tnow = &f->s->steps[i].tg;
	}
	if (!metric_any_target(f->s)) {
		for (n = 0; n < NMETRICS && !metrics[n].target; n++)
			;
	}
	cols = (n + in.h - 1) / in.h;
	cols = cols < 1 ? 1 : cols;
	rows = (n + cols - 1) / cols;
	colw = in.w / cols;
	for (i = 0; i < n; i++)
		metric_row(f, &metrics[i], now, tnow, in.y + i % rows, in.x + (i / rows) * colw,
			   colw - 1);
	if (last != NULL && in.h > rows)
		contention_locks(last, in.y + rows, in.x, in.w);
}

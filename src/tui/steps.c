/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step table (the same columns as `scaletop run`) and one step's detail:
 * its interval statistics, CPU breakdown, contention and fairness.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/format.h"
#include "scaletop/others.h"
#include "scaletop/step_table.h"
#include "view.h"

static enum theme_role
steps_role(const struct step *st)
{
	switch (st->status) {
	case STEP_FAILED:
		return ROLE_VERDICT_BAD;
	case STEP_UNSTABLE:
	case STEP_INTERRUPTED:
		return ROLE_WARNING;
	case STEP_RUNNING:
		return ROLE_HI;
	default:
		return step_noisy(st) ? ROLE_WARNING : ROLE_MAIN;
	}
}

/*
 * The table as `scaletop run` prints it, into memory so the two never drift
 * apart, in w columns: the least read columns go first, the status last.
 * Line 0 is the header, then one line per step.  Returns the text (free it)
 * or NULL.
 */
static char *
steps_text(const struct session *s, int w, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f == NULL)
		return NULL;
	step_table_steps(f, s, w);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The i-th line of text (no newline) into out. */
static void
steps_line(const char *text, int i, char *out, size_t len)
{
	const char *p = text, *e;
	char *pm;

	for (; i > 0 && p != NULL; i--)
		p = (p = strchr(p, '\n')) != NULL ? p + 1 : NULL;
	out[0] = '\0';
	if (p == NULL)
		return;
	e = strchr(p, '\n');
	snprintf(out, len, "%.*s", (int)(e != NULL ? e - p : (long)strlen(p)), p);
	/* step_table.c's "±CI" is one column under UTF-8; ASCII terminals get "+-", in its
	 * padding's last space. */
	if (!glyph_utf8() && (pm = strstr(out, "\xc2\xb1")) != NULL && pm > out && pm[-1] == ' ') {
		memcpy(pm - 1, "+-", 2);
		memmove(pm + 1, pm + 2, strlen(pm + 2) + 1);
	}
}

void
steps_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h)
{
	int i;
	const struct session *s = f->s;
	struct rect in = ui_titled(r, "steps (up/down or click to select, enter for detail)");
	char line[512], *text;
	size_t len;
	int first = 0, rows;

	if (in.h <= 1 || (text = steps_text(s, in.w, &len)) == NULL)
		return;
	steps_line(text, 0, line, sizeof(line));
	ui_put(in.y, in.x, in.w, theme_attr(ROLE_TITLE), line);
	rows = in.h - 1;
	h->list_rows = rows;
	if (u->sel_step >= rows)
		first = u->sel_step - rows + 1;
	for (i = first; i < s->nsteps && i - first < rows; i++) {
		int y = in.y + 1 + i - first;
		attr_t a = theme_attr(steps_role(&s->steps[i]));

		steps_line(text, 1 + i, line, sizeof(line));
		if (i == u->sel_step)
			a = theme_attr(ROLE_SELECTED);
		ui_fill((struct rect){ y, in.x, 1, in.w }, i == u->sel_step ? a : 0);
		ui_put(y, in.x, in.w, a, line);
		ui_hit_add(h, y, in.x, in.x + in.w - 1, i);
	}
	if (s->nsteps == 0)
		ui_put(in.y + 1, in.x + 1, in.w - 1, theme_attr(ROLE_INACTIVE), "no step yet");
	free(text);
}

static void
detail_cpu(const struct step *st, int y, int x, int w)
{
	if (st->ncpu == 0) {
		ui_put(y, x, w, theme_attr(ROLE_INACTIVE), " CPU: no figures for this window");
		return;
	}
	ui_putf(y, x, w, theme_attr(ROLE_MAIN),
		" CPU over the window: busy %.1f%%  usr %.1f  nice %.1f  sys %.1f  irq %.1f  "
		"soft %.1f  iowait %.1f  steal %.1f",
		st->all.busy, st->all.pct[CPU_USER], st->all.pct[CPU_NICE], st->all.pct[CPU_SYS],
		st->all.pct[CPU_IRQ], st->all.pct[CPU_SOFTIRQ], st->all.pct[CPU_IOWAIT],
		st->all.pct[CPU_STEAL]);
}

/* How evenly the workers shared the window: the spread of their counts and Jain's index. */
static void
detail_fair(const struct step *st, int y, int x, int w)
{
	const struct fairness *fr = &st->fair;
	char lo[16], mid[16], hi[16];

	if (!fr->have) {
		ui_put(y, x, w, theme_attr(ROLE_INACTIVE),
		       " fairness: no per-worker counts for this step");
		return;
	}
	fmt_si((double)fr->min, lo, sizeof(lo));
	fmt_si(fr->median, mid, sizeof(mid));
	fmt_si((double)fr->max, hi, sizeof(hi));
	ui_putf(y, x, w, theme_attr(fr->starved > 0 ? ROLE_WARNING : ROLE_MAIN),
		" fairness over the window: Jain %.3f  per worker min %s  median %s  max %s  |  "
		"starved (no operation) %d of %d",
		isfinite(fr->jain) ? fr->jain : 0.0, lo, mid, hi, fr->starved, fr->workers);
}

/* A figure of c with its have-bit, else '-': never a 0 for what was not measured. */
static const char *
detail_fig(const struct contention *c, unsigned bit, double v, int dec, char *buf, size_t len)
{
	if (!(c->have & bit) || !isfinite(v))
		return "-";
	if (dec < 0)
		fmt_si(v, buf, len);
	else
		snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

static void
detail_contention(const struct contention *c, int y, int x, int w)
{
	char v[16], iv[16], sys[16], cpu[16], opc[16];

	ui_putf(y, x, w, theme_attr(ROLE_MAIN),
		" switches/s: voluntary %s  involuntary %s  system %s  |  CPUs used %s  ops/CPU-s "
		"%s",
		detail_fig(c, CT_HAVE_CSW, c->vcsw_s, 0, v, sizeof(v)),
		detail_fig(c, CT_HAVE_CSW, c->ivcsw_s, 0, iv, sizeof(iv)),
		detail_fig(c, CT_HAVE_SYS_CTXSW, c->sys_ctxsw_s, 0, sys, sizeof(sys)),
		detail_fig(c, CT_HAVE_KERNEL, c->cpu_used, 2, cpu, sizeof(cpu)),
		detail_fig(c, CT_HAVE_OPS_CPU, c->ops_per_cpu_s, -1, opc, sizeof(opc)));
}

/* Who else used the CPUs over the window (st->others), and how much the names cover. */
static void
detail_others(const struct step *st, int y, int x, int w)
{
	const struct step_others *o = &st->others;
	char names[160];

	if (!o->known) {
		ui_put(y, x, w, theme_attr(ROLE_INACTIVE),
		       " others: not measured (no process table, or an older file)");
		return;
	}
	others_names_text(o, STEP_OTHERS_TOP, names, sizeof(names));
	ui_putf(y, x, w, theme_attr(o->cpus > OTHERS_QUIET_CPUS ? ROLE_WARNING : ROLE_MAIN),
		" others used %.2f CPUs over the window%s%s  (names cover %.0f%%)", o->cpus,
		names[0] != '\0' ? ": " : "", names,
		o->cpus > 0 ? 100.0 * (o->named_cpus < o->cpus ? o->named_cpus / o->cpus : 1)
			    : 100.0);
}

void
step_detail_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct step *st;
	const struct contention *c;
	char title[96], a[16], b[16], m[16], sd[16];
	struct rect in;

	if (u->sel_step < 0 || u->sel_step >= f->s->nsteps)
		return;
	st = &f->s->steps[u->sel_step];
	c = &st->ct;
	ui_fill(r, theme_attr(ROLE_MAIN)); /* over another view, none of it shows through */
	snprintf(title, sizeof(title), "step %d: N=%d run %d, %s", u->sel_step + 1, st->n,
		 st->rep + 1, step_status_word(st));
	in = ui_titled(r, title);
	if (in.h < 1)
		return;
	fmt_si(st->st.median, m, sizeof(m));
	fmt_si(st->st.min, a, sizeof(a));
	fmt_si(st->st.max, b, sizeof(b));
	fmt_si(st->st.stddev, sd, sizeof(sd));
	ui_putf(in.y, in.x, in.w, theme_attr(ROLE_MAIN),
		" %zu intervals: median %s  min %s  max %s  stddev %s  |  warm-up %.2fs  window "
		"%.2fs  %llu %s",
		st->st.n, m, a, b, sd, st->warmup_s, st->window_s, (unsigned long long)st->ops,
		f->s->wl.unit);
	if (in.h > 1)
		detail_cpu(st, in.y + 1, in.x, in.w);
	if (in.h > 2)
		detail_contention(c, in.y + 2, in.x, in.w);
	if (in.h > 3)
		detail_fair(st, in.y + 3, in.x, in.w);
	if (in.h > 4)
		detail_others(st, in.y + 4, in.x, in.w);
	if (in.h > 5 && st->reason[0] != '\0')
		ui_putf(in.y + 5, in.x, in.w, theme_attr(steps_role(st)), " %s", st->reason);
	if (in.h > 6)
		step_latency_draw(st, (struct rect){ in.y + 6, in.x, in.h - 6, in.w });
}

/* Over another view, the latency's rows while half the body is left to the view. */
int
step_detail_h(const struct ui *u, const struct frame *f, int body)
{
	int lat = 0;

	if (u->sel_step >= 0 && u->sel_step < f->s->nsteps)
		lat = step_latency_rows(&f->s->steps[u->sel_step]);
	if (STEP_DETAIL_H + lat > body / 2)
		lat = body / 2 - STEP_DETAIL_H;
	return STEP_DETAIL_H + (lat > 0 ? lat : 0);
}

/* The steps view: its list's keys come before the replay's and the event log's. */
static const struct binding steps_keys[] = {
	{ KEY_PPAGE, CMD_SELECT_PAGE, -1 }, { KEY_NPAGE, CMD_SELECT_PAGE, +1 },
	{ KEY_HOME, CMD_SELECT_EDGE, -1 },  { 'g', CMD_SELECT_EDGE, -1 },
	{ KEY_END, CMD_SELECT_EDGE, +1 },   { 'G', CMD_SELECT_EDGE, +1 },
};

/* The steps view: the table, the selected step's detail, the event log. */
static void
layout_steps(const struct ui *u, const struct frame *f, struct rect b, struct ui_hits *h)
{
	int det_h = u->sel_step >= 0 ? STEP_DETAIL_H : 0;
	int tab_h = f->s->nsteps + 3;
	int ev_h, lat;

	/* The latency's rows, while the table keeps three steps' and the events three. */
	if (det_h > 0 && u->sel_step < f->s->nsteps) {
		lat = step_latency_rows(&f->s->steps[u->sel_step]);
		if (lat > b.h - det_h - (tab_h < 6 ? tab_h : 6) - 3)
			lat = b.h - det_h - (tab_h < 6 ? tab_h : 6) - 3;
		det_h += lat > 0 ? lat : 0;
	}
	if (tab_h > b.h - det_h - 3)
		tab_h = b.h - det_h - 3;
	ev_h = b.h - tab_h - det_h;
	steps_draw(u, f, (struct rect){ b.y, b.x, tab_h, b.w }, h);
	if (det_h > 0)
		step_detail_draw(u, f, (struct rect){ b.y + tab_h, b.x, det_h, b.w });
	events_draw(u, f, (struct rect){ b.y + tab_h + det_h, b.x, ev_h, b.w }, h);
}

const struct view view_steps = {
	.name = "steps",
	.draw = layout_steps,
	.keys = steps_keys,
	.nkeys = (int)(sizeof(steps_keys) / sizeof(steps_keys[0])),
	.has_detail = true,
};

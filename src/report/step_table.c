/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results table that `scaletop run` and `show` print, and the TUI's
 * steps view: one row per step; then, when there are any, the target's
 * figures per step, where the threads waited and where the CPUs went.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/format.h"
#include "scaletop/latency.h"
#include "scaletop/measures.h"
#include "scaletop/step_table.h"

/* Wait profile lines shown per step and family. */
#define TABLE_WAITS_SHOWN 4

/*
 * The columns of a step's row.  A narrow screen (the TUI at 80 columns) drops
 * them in table_drop_order, the least read first; N, the throughput and the
 * status are never dropped, so "noisy", "unstable" and "failed" are always
 * seen.
 */
enum table_col {
	TC_N,
	TC_RATE,
	TC_CI,
	TC_P50,
	TC_TAIL,
	TC_SPEEDUP,
	TC_EFF,
	TC_CPU,
	TC_SYS,
	TC_VCSW,
	TC_IVCSW,
	TC_OPC,
	TC_RDLY,
	TC_LOCKW,
	TC_JAIN,
	TC_STARVED,
	TC_NCOLS
};
#define TABLE_CELL 24
static const struct {
	const char *head;
	int w; /* display columns, right-aligned */
} table_cols[TC_NCOLS] = {
	{ "N", 6 },        { "ops/s", 10 },   /* the sweep's unit: table_fit */ { "±CI", 6 },
	{ "p50", 7 },      { "p99", 7 }, /* the tool's percentile: table_fit */
	{ "speedup", 7 },  { "eff", 5 },      { "CPU%", 5 },
	{ "sys%", 5 },     { "vcsw/kop", 9 }, { "ivcsw/kop", 9 },
	{ "ops/CPUs", 9 }, { "rdly%", 6 },    { "lockw%", 6 },
	{ "jain", 5 },     { "starved", 7 },
};
static const enum table_col table_drop_order[] = {
	TC_STARVED, TC_JAIN, TC_LOCKW, TC_IVCSW,   TC_OPC, TC_RDLY, TC_SYS,
	TC_VCSW,    TC_EFF,  TC_P50,   TC_SPEEDUP, TC_CPU, TC_TAIL, TC_CI,
};
#define TABLE_NDROP (int)(sizeof(table_drop_order) / sizeof(table_drop_order[0]))

/* Display columns of UTF-8 text. */
static int
table_cols_of(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* What a table shows: its columns, their widths and the throughput's head ("writes/s"). */
struct table_fit {
	bool shown[TC_NCOLS];
	int w[TC_NCOLS];
	char rate[TABLE_CELL];
	char tail[TABLE_CELL];
};

/* The cells of one line, those shown right-aligned and a space apart, then the status. */
static void
table_line(FILE *f, char cell[TC_NCOLS][TABLE_CELL], const struct table_fit *t, const char *status)
{
	int i, pad;
	bool first = true;

	for (i = 0; i < TC_NCOLS; i++) {
		if (!t->shown[i])
			continue;
		pad = t->w[i] - table_cols_of(cell[i]);
		fprintf(f, "%s%*s%s", first ? "" : " ", pad > 0 ? pad : 0, "", cell[i]);
		first = false;
	}
	fprintf(f, "  %s\n", status);
}

static void
table_header(FILE *f, const struct table_fit *t)
{
	char cell[TC_NCOLS][TABLE_CELL];
	int i;

	for (i = 0; i < TC_NCOLS; i++)
		snprintf(cell[i], TABLE_CELL, "%s",
			 i == TC_RATE   ? t->rate
			 : i == TC_TAIL ? t->tail
					: table_cols[i].head);
	table_line(f, cell, t, "status");
}

/* A contention figure, or "-" when it was not measured. */
static void
table_fig(const struct contention *c, unsigned bit, double v, int decimals, char *buf)
{
	if (!(c->have & bit) || !isfinite(v))
		snprintf(buf, TABLE_CELL, "-");
	else
		snprintf(buf, TABLE_CELL, "%.*f", decimals, v);
}

/* Jain's index and the starved workers, or "-" where no per-worker counts were taken. */
static void
table_fair(const struct fairness *fr, char *jain, char *starved)
{
	snprintf(jain, TABLE_CELL, "-");
	snprintf(starved, TABLE_CELL, "-");
	if (!fr->have)
		return;
	if (isfinite(fr->jain))
		snprintf(jain, TABLE_CELL, "%.2f", fr->jain);
	snprintf(starved, TABLE_CELL, "%d", fr->starved);
}

/* The step's p50 and its tail (p99, or the tool's percentile): latency.h. */
static void
table_lat(const struct step_latency *l, char *p50, char *tail)
{
	double pct = 0;

	fmt_ms(l->method == LAT_NONE ? NAN : l->p50_ms, p50, TABLE_CELL);
	fmt_ms(latency_tail(l, &pct), tail, TABLE_CELL);
}

/* A standard deviation without the count it came from (a published table's): no CI. */
static bool
table_sd_only(const struct step *st)
{
	return step_usable(st) && st->no_intervals && !st->st.have_spread && st->st.n == 0 &&
	       isfinite(st->st.stddev) && st->st.stddev > 0 && st->st.mean > 0;
}

/*
 * The ±CI cell: the 95% CI in % of the mean; "sd2.1%", the standard
 * deviation, where only that is known; "-" where neither is.
 */
static void
table_ci(const struct step *st, char *buf, size_t len)
{
	double sd;

	if (step_usable(st) && st->st.have_spread && st->st.mean > 0) {
		snprintf(buf, len, "%.1f%%", 100.0 * stats_ci(&st->st) / st->st.mean);
	} else if (table_sd_only(st)) {
		sd = 100.0 * st->st.stddev / st->st.mean;
		snprintf(buf, len, sd < 9.95 ? "sd%.1f%%" : "sd%.0f%%", sd);
	} else {
		snprintf(buf, len, "-");
	}
}

static void
table_row(FILE *f, const struct session *s, const struct step *st, const struct table_fit *t)
{
	const struct contention *c = &st->ct;
	char cell[TC_NCOLS][TABLE_CELL], status[sizeof(st->reason) + 72], tr[40] = "";
	bool use = step_usable(st);

	snprintf(cell[TC_N], TABLE_CELL, "%d", st->n);
	fmt_si(st->ops_s, cell[TC_RATE], TABLE_CELL);
	if (!use)
		snprintf(cell[TC_RATE], TABLE_CELL, "-");
	table_ci(st, cell[TC_CI], TABLE_CELL);
	snprintf(cell[TC_SPEEDUP], TABLE_CELL,
		 use && isfinite(analysis_speedup(s, st->n)) ? "%.2f" : "-",
		 analysis_speedup(s, st->n));
	snprintf(cell[TC_EFF], TABLE_CELL,
		 use && isfinite(analysis_efficiency(s, st->n)) ? "%.0f%%" : "-",
		 100.0 * analysis_efficiency(s, st->n));
	snprintf(cell[TC_CPU], TABLE_CELL, st->ncpu > 0 ? "%.0f" : "-", st->all.busy);
	snprintf(cell[TC_SYS], TABLE_CELL, st->ncpu > 0 ? "%.0f" : "-", st->all.pct[CPU_SYS]);
	table_fig(c, CT_HAVE_CSW_KOP, c->vcsw_kop, 2, cell[TC_VCSW]);
	table_fig(c, CT_HAVE_CSW_KOP, c->ivcsw_kop, 2, cell[TC_IVCSW]);
	fmt_si(c->ops_per_cpu_s, cell[TC_OPC], TABLE_CELL);
	if (!(c->have & CT_HAVE_OPS_CPU))
		snprintf(cell[TC_OPC], TABLE_CELL, "-");
	table_fig(c, CT_HAVE_RUN_DELAY, c->run_delay_pct, 1, cell[TC_RDLY]);
	table_fig(c, CT_HAVE_LOCK_WAIT, c->lock_wait_pct, 1, cell[TC_LOCKW]);
	table_fair(&st->fair, cell[TC_JAIN], cell[TC_STARVED]);
	table_lat(&st->lat, cell[TC_P50], cell[TC_TAIL]);
	if (s->set.trials > 1) /* --trials: which pass of the sweep the row is */
		snprintf(tr, sizeof(tr), " (trial %d%s)", st->trial + 1,
			 st->refined ? ", refined" : "");
	else if (st->refined) /* --refine chose its N after the list */
		snprintf(tr, sizeof(tr), " (refined)");
	snprintf(status, sizeof(status), "%s%s%s%s", step_status_word(st), tr,
		 st->reason[0] ? ": " : "", st->reason);
	table_line(f, cell, t, status);
}

/*
 * The latency columns, shown only when a step has the figure; the tail's head
 * is the percentile the first such step has ("p95" from sysbench's intervals).
 */
static void
table_fit_lat(const struct session *s, struct table_fit *t)
{
	double pct = 0;
	int i;

	t->shown[TC_P50] = t->shown[TC_TAIL] = false;
	snprintf(t->tail, sizeof(t->tail), "%s", table_cols[TC_TAIL].head);
	for (i = 0; i < s->nsteps; i++) {
		const struct step_latency *l = &s->steps[i].lat;

		if (l->method != LAT_NONE && isfinite(l->p50_ms))
			t->shown[TC_P50] = true;
		if (!t->shown[TC_TAIL] && isfinite(latency_tail(l, &pct))) {
			t->shown[TC_TAIL] = true;
			snprintf(t->tail, sizeof(t->tail), "p%g", pct);
		}
	}
}

/*
 * The throughput is headed in the sweep's unit ("transactions/s" widens its
 * column), and the columns that fit in width (0: all): the least read go
 * until the shown ones and the longest status word fit.
 */
static void
table_fit(const struct session *s, int width, struct table_fit *t)
{
	int i, need = 2 + (int)strlen("status"), k;

	snprintf(t->rate, sizeof(t->rate), "%.*s/s", TABLE_CELL - 3,
		 s->wl.unit[0] != '\0' ? s->wl.unit : "ops");
	for (i = 0; i < s->nsteps; i++) {
		k = 2 + (int)strlen(step_status_word(&s->steps[i]));
		need = k > need ? k : need;
	}
	table_fit_lat(s, t);
	for (i = 0; i < TC_NCOLS; i++) {
		if ((i == TC_P50 || i == TC_TAIL) && !t->shown[i])
			continue;
		t->shown[i] = true;
		t->w[i] = table_cols[i].w;
		if (i == TC_RATE && table_cols_of(t->rate) > t->w[i])
			t->w[i] = table_cols_of(t->rate);
		need += t->w[i] + (i > 0);
	}
	for (i = 0; width > 0 && need > width && i < TABLE_NDROP; i++) {
		if (!t->shown[table_drop_order[i]])
			continue;
		t->shown[table_drop_order[i]] = false;
		need -= t->w[table_drop_order[i]] + 1;
	}
}

void
step_table_steps(FILE *f, const struct session *s, int width)
{
	struct table_fit t;
	int i;

	table_fit(s, width, &t);
	table_header(f, &t);
	for (i = 0; i < s->nsteps; i++)
		table_row(f, s, &s->steps[i], &t);
}

/* A target figure, or "-" when it was not measured. */
static const char *
table_tg(const struct target_figures *tg, unsigned bit, double v, int decimals, char *buf,
	 size_t len)
{
	if (!(tg->have & bit) || !isfinite(v))
		return "-";
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static void
table_target_row(FILE *f, const struct step *st)
{
	const struct target_figures *tg = &st->tg;
	char cpu[16], usr[16], sys[16], mach[16], v[16], iv[16], rd[16], opc[16], psi[16];

	fmt_si(tg->ops_per_cpu_s, opc, sizeof(opc));
	fprintf(f, "%6d %5d %7d %6s %6s %6s %6s %9s %9s %6s %9s %5s\n", st->n, tg->procs,
		tg->threads, table_tg(tg, TG_HAVE_CPU, tg->cpu_used, 2, cpu, sizeof(cpu)),
		table_tg(tg, TG_HAVE_CPU, tg->user_cpu, 2, usr, sizeof(usr)),
		table_tg(tg, TG_HAVE_CPU, tg->sys_cpu, 2, sys, sizeof(sys)),
		table_tg(tg, TG_HAVE_CPU, tg->machine_pct, 1, mach, sizeof(mach)),
		table_tg(tg, TG_HAVE_CSW, tg->vcsw_kop, 2, v, sizeof(v)),
		table_tg(tg, TG_HAVE_CSW, tg->ivcsw_kop, 2, iv, sizeof(iv)),
		table_tg(tg, TG_HAVE_RUN_DELAY, tg->run_delay_pct, 1, rd, sizeof(rd)),
		(tg->have & TG_HAVE_OPS_CPU) ? opc : "-",
		table_tg(tg, TG_HAVE_PSI, tg->psi_some_pct, 1, psi, sizeof(psi)));
}

/* The target's figures, one row a step, when --target was given. */
static void
table_target(FILE *f, const struct session *s)
{
	int i;

	if (s->set.ntargets == 0)
		return;
	fprintf(f, "target:");
	for (i = 0; i < s->set.ntargets; i++)
		fprintf(f, " %s", s->set.target[i]);
	fprintf(f, " (CPUs: CPUs' worth used; mach%%: of the machine; switches per 1000 %s)\n",
		s->wl.unit);
	fprintf(f, "%6s %5s %7s %6s %6s %6s %6s %9s %9s %6s %9s %5s\n", "N", "procs", "threads",
		"CPUs", "usr", "sys", "mach%", "vcsw/kop", "ivcsw/kop", "rdly%", "ops/CPUs",
		"psi%");
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].tg.present)
			table_target_row(f, &s->steps[i]);
	}
}

/* One profile line's name: the channel a thread slept in, or the state. */
static void
table_wait_name(const struct wait_share *w, char *buf, size_t len)
{
	if (w->state == WS_SLEEPING || w->state == WS_REPORTED || w->state == WS_OTHER)
		snprintf(buf, len, "%s", w->channel[0] ? w->channel : wait_state_names[w->state]);
	else if (w->state == WS_UNINTERRUPTIBLE)
		snprintf(buf, len, "D:%s", w->channel[0] ? w->channel : "?");
	else
		snprintf(buf, len, "%s", wait_state_names[w->state]);
}

/* A step's top lines of one family, "running 41.0%  futex_wait_queue 38.2%  ...". */
static void
table_waits_family(FILE *f, const struct step *st, enum wait_family fam, bool first)
{
	char name[WAIT_CHANNEL_LEN + 4];
	int i, shown = 0;

	if (!wait_has_family(st->waits, st->nwaits, fam))
		return;
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[fam]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[fam]);
	for (i = 0; i < st->nwaits && shown < TABLE_WAITS_SHOWN; i++) {
		if (st->waits[i].family != fam)
			continue;
		table_wait_name(&st->waits[i], name, sizeof(name));
		/* after the figure, so that a script reading "NAME 12.3%" still reads it */
		fprintf(f, "  %s %.1f%%%s", name, 100.0 * st->waits[i].share,
			WAIT_UNCERTAIN(&st->waits[i]) ? "?" : "");
		shown++;
	}
	fputc('\n', f);
}

/* Where the threads waited, per step and family, when a profile was taken. */
static void
table_waits(FILE *f, const struct session *s)
{
	int i, j, fam;
	bool any = false, few = false, first;

	for (i = 0; i < s->nsteps; i++) {
		any = any || s->steps[i].nwaits > 0;
		for (j = 0; j < s->steps[i].nwaits; j++)
			few = few || WAIT_UNCERTAIN(&s->steps[i].waits[j]);
	}
	if (!any)
		return;
	fprintf(f, "waits: shares of thread-time, the top %d a family%s\n", TABLE_WAITS_SHOWN,
		few ? " (?: uncertain, under 30 readings)" : "");
	for (i = 0; i < s->nsteps; i++) {
		first = true;
		for (fam = 0; fam < WAIT_NFAMILIES; fam++) {
			if (!wait_has_family(s->steps[i].waits, s->steps[i].nwaits, fam))
				continue;
			table_waits_family(f, &s->steps[i], fam, first);
			first = false;
		}
	}
}

/* "0.0213 ±0.0011", or "0 (fixed)" for a parameter held at a bound, which has no error. */
static const char *
table_param(char *buf, size_t len, double v, double se)
{
	if (isnan(se))
		snprintf(buf, len, "%.4g (fixed)", v);
	else
		snprintf(buf, len, "%.4g ±%.2g", v, se);
	return buf;
}

/* The fit's parameters with their standard errors. */
static void
table_usl_params(FILE *f, const struct usl_fit *u)
{
	char s[48], k[48], l[48];

	fprintf(f,
		"USL: sigma %s  kappa %s  lambda %s  (± one standard error; rse %.3g over %d"
		" points%s%s)\n",
		table_param(s, sizeof(s), u->sigma, u->se_sigma),
		table_param(k, sizeof(k), u->kappa, u->se_kappa),
		table_param(l, sizeof(l), u->lambda, u->se_lambda), u->rse, u->npoints,
		u->amdahl ? "; Amdahl, kappa 0" : "", u->few_points ? "; few points" : "");
}

/*
 * The larger term where the run was measured and at N*, and whether N* is
 * an extrapolation (beyond USL_EXTRAPOLATION_FACTOR times the largest N).
 */
static void
table_usl_terms(FILE *f, const struct usl_fit *u)
{
	if (u->bound_measured == USL_TERM_NONE) {
		fprintf(f, "     neither contention nor coherency: the fit is linear\n");
		return;
	}
	fprintf(f, "     larger term: %s at N %g (the largest measured)",
		usl_term_names[u->bound_measured], u->n_max);
	if (isinf(u->n_star))
		fprintf(f, "; no peak: kappa is 0");
	else
		fprintf(f, ", %s at N* %.1f (X* %.4g)%s", usl_term_names[u->bound_at_peak],
			u->n_star, u->x_star,
			u->n_star_extrapolated ? ", an extrapolation beyond 2x the largest N" : "");
	if (isfinite(u->n_cross) && u->n_cross > 1 && u->bound_measured != u->bound_at_peak)
		fprintf(f, "; coherency overtakes contention above N %.1f", u->n_cross);
	fputc('\n', f);
}

/* The verdict and, when there is one, the USL fit, under the table. */
static void
table_verdict(FILE *f, const struct session *s)
{
	struct analysis_opts o;
	struct analysis a;
	const struct usl_fit *u = &a.usl;

	analysis_opts_for(s, &o);
	if (analysis_run(s, &o, &a) != 0)
		return;
	fprintf(f, "verdict: %s\n", a.verdict);
	if (u->ok) {
		table_usl_params(f, u);
		table_usl_terms(f, u);
	} else
		fprintf(f, "USL: no fit (%s)\n", u->why);
	analysis_free(&a);
}

/* Whether the monitor kept time: its latest tick, and its reading of threads at its longest. */
static void
table_ticks(FILE *f, const struct session *s)
{
	const struct step *late = NULL, *read = NULL, *busy = NULL;
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].tick_busy_ms >= 0 &&
		    (busy == NULL || s->steps[i].tick_busy_ms > busy->tick_busy_ms))
			busy = &s->steps[i];
		if (s->steps[i].tick_late_ms >= 0 &&
		    (late == NULL || s->steps[i].tick_late_ms > late->tick_late_ms))
			late = &s->steps[i];
		if (s->steps[i].wait_read_ms >= 0 &&
		    (read == NULL || s->steps[i].wait_read_ms > read->wait_read_ms))
			read = &s->steps[i];
	}
	if (late == NULL)
		return;
	fprintf(f, "ticks: at most %.1f ms late (N=%d)", late->tick_late_ms, late->n);
	if (busy != NULL)
		fprintf(f, ", %.1f ms of it the monitor's own work (N=%d)", busy->tick_busy_ms,
			busy->n);
	if (read != NULL)
		fprintf(f, "; reading threads took at most %.1f ms of CPU a tick (N=%d)",
			read->wait_read_ms, read->n);
	fputc('\n', f);
}

void
step_table_print(FILE *f, const struct session *s)
{
	int i;

	if (s->host.hostname[0] != '\0')
		fprintf(f, "%s on %s %s %s (%s, %d CPUs), %s by %s\n", s->wl.name, s->host.hostname,
			s->host.os_name, s->host.os_release, s->host.platform, s->host.ncpus,
			s->wl.unit, s->wl.n_unit[0] ? s->wl.n_unit : "threads");
	else
		fprintf(f, "%s, %s by %s\n", s->wl.name, s->wl.unit,
			s->wl.n_unit[0] ? s->wl.n_unit : "N");
	step_table_steps(f, s, 0);
	for (i = 0; i < s->nsteps && !table_sd_only(&s->steps[i]); i++)
		;
	if (i < s->nsteps)
		fprintf(f, "sd: a standard deviation in %% of the mean, given without its count of "
			   "runs, so no CI; a runs column gives one\n");
	table_target(f, s);
	table_waits(f, s);
	step_table_hot(f, s);
	for (i = 0; i < ncollectors; i++) {
		if (collectors[i]->table != NULL)
			collectors[i]->table(f, s, i);
	}
	table_ticks(f, s);
	table_verdict(f, s);
}

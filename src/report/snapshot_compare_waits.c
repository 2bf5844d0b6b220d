/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing where the threads waited, and what the system under test did:
 * for each N, the largest lines of each family's wait profile with every
 * snapshot's share and its difference from the first's in points, and the
 * target's figures of each snapshot one under the other.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/format.h"
#include "scaletop/report.h"
#include "compare_priv.h"

#define CW_LINES 5    /* lines of each family shown at an N */
#define CW_CHANNEL 28 /* a channel's column */
#define CW_COL 7      /* a share's column */

/*
 * A collapse is a change in where the threads spend their time, so this is
 * what says why B fell where A did not.  Repeats of an N are pooled by their
 * mean.  Only usable steps count, as in the throughput table.  Called by
 * snapshot_compare.c after its own table, and only when a snapshot has any.
 */

/* One line of the profiles being compared at an N. */
struct cw_line {
	enum wait_state state;
	const char *channel;
	double top; /* the largest share any snapshot has */
};

static char
cw_letter(int i)
{
	return (char)('A' + i);
}

static bool
cw_counts(const struct step *st, int n)
{
	return st->n == n && step_usable(st);
}

/* Whether any usable step at n of the snapshot has a line of family f (f < 0: any). */
static bool
cw_has(const struct snapshot *sn, int n, int f)
{
	const struct step *st;
	int i;

	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (cw_counts(st, n) && st->nwaits > 0 &&
		    (f < 0 || wait_has_family(st->waits, st->nwaits, (enum wait_family)f)))
			return true;
	}
	return false;
}

/* The share of (f, s, channel) at n, the mean over the steps with family f; NaN if none. */
static double
cw_share(const struct snapshot *sn, int n, enum wait_family f, enum wait_state s,
	 const char *channel)
{
	const struct step *st;
	double sum = 0;
	int i, k = 0;

	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (!cw_counts(st, n) || !wait_has_family(st->waits, st->nwaits, f))
			continue;
		sum += wait_share_of(st->waits, st->nwaits, f, s, channel);
		k++;
	}
	return k > 0 ? sum / k : NAN;
}

static int
cw_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Every N of the snapshots' steps for which keep(n) holds, ascending; malloc'd; -1 on ENOMEM. */
static int
cw_ns(struct snapshot *const *v, int k, bool (*keep)(struct snapshot *const *, int, int), int **out)
{
	int total = 0, i, j, m = 0, *n;

	for (i = 0; i < k; i++)
		total += v[i]->s.nsteps;
	if ((n = malloc(sizeof(*n) * (size_t)(total > 0 ? total : 1))) == NULL)
		return -1;
	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->s.nsteps; j++)
			n[m++] = v[i]->s.steps[j].n;
	}
	qsort(n, (size_t)m, sizeof(*n), cw_int);
	for (i = 0, j = 0; i < m; i++) {
		if ((j == 0 || n[i] != n[j - 1]) && keep(v, k, n[i]))
			n[j++] = n[i];
	}
	*out = n;
	return j;
}

/* At least two snapshots have a wait profile at n: there is something to compare. */
static bool
cw_keep_waits(struct snapshot *const *v, int k, int n)
{
	int i, have = 0;

	for (i = 0; i < k; i++)
		have += cw_has(v[i], n, -1);
	return have >= 2;
}

static int
cw_by_top(const void *a, const void *b)
{
	const struct cw_line *x = a, *y = b;

	if (x->top != y->top)
		return x->top < y->top ? 1 : -1;
	if (x->state != y->state)
		return (int)x->state - (int)y->state;
	return strcmp(x->channel, y->channel);
}

/* Adds (s, channel) to the lines unless it is there. */
static void
cw_add_line(struct cw_line *l, int *nl, enum wait_state s, const char *channel)
{
	int i;

	for (i = 0; i < *nl; i++) {
		if (l[i].state == s && strcmp(l[i].channel, channel) == 0)
			return;
	}
	l[*nl].state = s;
	l[*nl].channel = channel;
	l[*nl].top = 0;
	(*nl)++;
}

/* Family f's lines at n over every snapshot, the largest first; malloc'd; -1 on ENOMEM. */
static int
cw_lines(struct snapshot *const *v, int k, int n, enum wait_family f, struct cw_line **out)
{
	const struct step *st;
	struct cw_line *l;
	int total = 0, nl = 0, i, j, w;
	double x;

	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->s.nsteps; j++)
			total += v[i]->s.steps[j].nwaits;
	}
	if ((l = malloc(sizeof(*l) * (size_t)(total > 0 ? total : 1))) == NULL)
		return -1;
	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->s.nsteps; j++) {
			st = &v[i]->s.steps[j];
			for (w = 0; cw_counts(st, n) && w < st->nwaits; w++) {
				if (st->waits[w].family == f)
					cw_add_line(l, &nl, st->waits[w].state,
						    st->waits[w].channel);
			}
		}
	}
	for (j = 0; j < nl; j++) {
		for (i = 0; i < k; i++) {
			x = cw_share(v[i], n, f, l[j].state, l[j].channel);
			if (isfinite(x) && x > l[j].top)
				l[j].top = x;
		}
	}
	qsort(l, (size_t)nl, sizeof(*l), cw_by_top);
	*out = l;
	return nl;
}

/* One line's cells: each share in %, then each difference from A's in points. */
static void
cw_text_cells(FILE *f, struct snapshot *const *v, int k, int n, enum wait_family fam,
	      const struct cw_line *l)
{
	double a = cw_share(v[0], n, fam, l->state, l->channel), x;
	char buf[32];
	int i;

	for (i = 0; i < k; i++) {
		x = cw_share(v[i], n, fam, l->state, l->channel);
		snprintf(buf, sizeof(buf), isfinite(x) ? "%.1f%%" : "-", 100 * x);
		fprintf(f, " %*s", CW_COL, buf);
	}
	for (i = 1; i < k; i++) {
		x = 100 * (cw_share(v[i], n, fam, l->state, l->channel) - a);
		/* Rounding noise of equal shares is no change: "+0.0", not "-0.0". */
		snprintf(buf, sizeof(buf), isfinite(x) ? "%+.1f" : "-", fabs(x) < 0.05 ? 0 : x);
		fprintf(f, " %*s", CW_COL, buf);
	}
	fputc('\n', f);
}

static void
cw_text_head(FILE *f, int k)
{
	char head[16];
	int i;

	fprintf(f, "\nwaits: the largest lines of each family's share of its thread-time at N; "
		   "the differences in points\n");
	fprintf(f, "%6s  %-8s  %-15s  %-*s", "N", "family", "state", CW_CHANNEL, "channel");
	for (i = 0; i < k; i++)
		fprintf(f, " %*c", CW_COL, cw_letter(i));
	for (i = 1; i < k; i++) {
		snprintf(head, sizeof(head), "%c-%c", cw_letter(i), cw_letter(0));
		fprintf(f, " %*s", CW_COL, head);
	}
	fputc('\n', f);
}

/* Calls row(f, v, k, n, family, line) for the largest lines of each family at each N. */
static void
cw_each_line(FILE *f, struct snapshot *const *v, int k,
	     void (*row)(FILE *, struct snapshot *const *, int, int, enum wait_family,
			 const struct cw_line *))
{
	struct cw_line *l;
	int *n, nn, j, fam, nl, i;

	if ((nn = cw_ns(v, k, cw_keep_waits, &n)) < 0)
		return;
	for (j = 0; j < nn; j++) {
		for (fam = 0; fam < WAIT_NFAMILIES; fam++) {
			if ((nl = cw_lines(v, k, n[j], (enum wait_family)fam, &l)) < 0)
				break;
			for (i = 0; i < nl && i < CW_LINES; i++)
				row(f, v, k, n[j], (enum wait_family)fam, &l[i]);
			free(l);
		}
	}
	free(n);
}

static void
cw_text_row(FILE *f, struct snapshot *const *v, int k, int n, enum wait_family fam,
	    const struct cw_line *l)
{
	fprintf(f, "%6d  %-8s  %-15s  %-*.*s", n, wait_family_names[fam],
		wait_state_names[l->state], CW_CHANNEL, CW_CHANNEL,
		l->channel[0] != '\0' ? l->channel : "-");
	cw_text_cells(f, v, k, n, fam, l);
}

static bool
cw_any(struct snapshot *const *v, int k, bool (*keep)(struct snapshot *const *, int, int))
{
	int *n, nn;

	if ((nn = cw_ns(v, k, keep, &n)) < 0)
		return false;
	free(n);
	return nn > 0;
}

void
snapshot_compare_waits_text(FILE *f, struct snapshot *const *v, int k)
{
	if (!cw_any(v, k, cw_keep_waits))
		return;
	cw_text_head(f, k);
	cw_each_line(f, v, k, cw_text_row);
}

/* --- CSV -------------------------------------------------------------------- */

/* A share as a percentage to four decimals, which is all a share of thread-time has. */
static double
cw_pct(double share)
{
	return round(share * 1e6) / 1e4 + 0.0; /* + 0.0: never "-0" */
}

static void
cw_csv_row(FILE *f, struct snapshot *const *v, int k, int n, enum wait_family fam,
	   const struct cw_line *l)
{
	double a = cw_share(v[0], n, fam, l->state, l->channel), x;
	int i;

	fprintf(f, "%d,%s,%s,", n, wait_family_names[fam], wait_state_names[l->state]);
	snapshot_csv_text(f, l->channel);
	for (i = 0; i < k; i++)
		snapshot_csv_num(f, cw_pct(cw_share(v[i], n, fam, l->state, l->channel)));
	for (i = 1; i < k; i++) {
		x = cw_share(v[i], n, fam, l->state, l->channel);
		snapshot_csv_num(f, cw_pct(x - a));
	}
	fputc('\n', f);
}

void
snapshot_compare_waits_csv(FILE *f, struct snapshot *const *v, int k)
{
	int i;

	fputs("n,family,state,channel", f);
	for (i = 0; i < k; i++)
		fprintf(f, ",%c share %%", cw_letter(i));
	for (i = 1; i < k; i++)
		fprintf(f, ",%c-%c points", cw_letter(i), cw_letter(0));
	fputc('\n', f);
	cw_each_line(f, v, k, cw_csv_row);
}

/* --- the target's figures --------------------------------------------------- */

/* The target's figures at n, each the mean over the usable steps that measured it. */
struct cw_target {
	bool present;
	double fig[SNAPSHOT_TARGET_NFIGS]; /* as cw_figs lists them; NaN: not measured */
};

static const struct {
	const char *head, *csv;
	unsigned bit; /* 0: always there */
	size_t off;
	int decimals; /* -1: SI units */
} cw_figs[] = {
	{ "procs", "procs", 0, 0, 0 },
	{ "threads", "threads", 0, 0, 0 },
	{ "CPUs", "cpu_used", TG_HAVE_CPU, offsetof(struct target_figures, cpu_used), 2 },
	{ "user", "user_cpu", TG_HAVE_CPU, offsetof(struct target_figures, user_cpu), 2 },
	{ "sys", "sys_cpu", TG_HAVE_CPU, offsetof(struct target_figures, sys_cpu), 2 },
	{ "mach%", "machine_pct", TG_HAVE_CPU, offsetof(struct target_figures, machine_pct), 1 },
	{ "vcsw/kop", "vcsw_kop", TG_HAVE_CSW, offsetof(struct target_figures, vcsw_kop), 2 },
	{ "ivcsw/kop", "ivcsw_kop", TG_HAVE_CSW, offsetof(struct target_figures, ivcsw_kop), 2 },
	{ "rdly%", "run_delay_pct", TG_HAVE_RUN_DELAY,
	  offsetof(struct target_figures, run_delay_pct), 1 },
	{ "ops/CPUs", "ops_per_cpu_s", TG_HAVE_OPS_CPU,
	  offsetof(struct target_figures, ops_per_cpu_s), -1 },
	{ "psi%", "psi_some_pct", TG_HAVE_PSI, offsetof(struct target_figures, psi_some_pct), 1 },
};
#define CW_NFIGS (sizeof(cw_figs) / sizeof(cw_figs[0]))
_Static_assert(CW_NFIGS == SNAPSHOT_TARGET_NFIGS, "snapshot_priv.h counts the target's figures");

static double
cw_fig_of(const struct target_figures *tg, size_t i)
{
	if (i == 0)
		return tg->procs;
	if (i == 1)
		return tg->threads;
	if (!(tg->have & cw_figs[i].bit))
		return NAN;
	return *(const double *)((const char *)tg + cw_figs[i].off);
}

static void
cw_target_at(const struct snapshot *sn, int n, struct cw_target *t)
{
	int cnt[CW_NFIGS] = { 0 }, j;
	const struct step *st;
	size_t i;
	double x;

	memset(t, 0, sizeof(*t));
	for (j = 0; j < sn->s.nsteps; j++) {
		st = &sn->s.steps[j];
		if (!cw_counts(st, n) || !st->tg.present)
			continue;
		t->present = true;
		for (i = 0; i < CW_NFIGS; i++) {
			if (isfinite(x = cw_fig_of(&st->tg, i))) {
				t->fig[i] += x;
				cnt[i]++;
			}
		}
	}
	for (i = 0; i < CW_NFIGS; i++)
		t->fig[i] = cnt[i] > 0 ? t->fig[i] / cnt[i] : NAN;
}

bool
snapshot_target_at(const struct snapshot *sn, int n, double *fig)
{
	struct cw_target t;

	cw_target_at(sn, n, &t);
	memcpy(fig, t.fig, sizeof(t.fig));
	return t.present;
}

const char *
snapshot_target_name(int i)
{
	return i >= 0 && (size_t)i < CW_NFIGS ? cw_figs[i].csv : NULL;
}

/* Any snapshot has the target's figures at n. */
static bool
cw_keep_target(struct snapshot *const *v, int k, int n)
{
	struct cw_target t;
	int i;

	for (i = 0; i < k; i++) {
		cw_target_at(v[i], n, &t);
		if (t.present)
			return true;
	}
	return false;
}

static void
cw_target_cell(FILE *f, const struct cw_target *t, size_t i)
{
	char buf[32];
	int w = (int)strlen(cw_figs[i].head) > 6 ? (int)strlen(cw_figs[i].head) : 6;

	if (!t->present || !isfinite(t->fig[i]))
		snprintf(buf, sizeof(buf), "-");
	else if (cw_figs[i].decimals < 0)
		fmt_si(t->fig[i], buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.*f", cw_figs[i].decimals, t->fig[i]);
	fprintf(f, " %*s", w, buf);
}

void
snapshot_compare_target_text(FILE *f, struct snapshot *const *v, int k)
{
	struct cw_target t;
	int *n, nn, j, i;
	size_t c;

	if ((nn = cw_ns(v, k, cw_keep_target, &n)) < 0)
		return;
	if (nn > 0) {
		fprintf(f,
			"\ntarget: the system under test at N, each snapshot's figures (pooled "
			"over repeats)\n%6s %4s",
			"N", "");
		for (c = 0; c < CW_NFIGS; c++)
			fprintf(f, " %6s", cw_figs[c].head);
		fputc('\n', f);
	}
	for (j = 0; j < nn; j++) {
		for (i = 0; i < k; i++) {
			cw_target_at(v[i], n[j], &t);
			fprintf(f, "%6d %4c", n[j], cw_letter(i));
			for (c = 0; c < CW_NFIGS; c++)
				cw_target_cell(f, &t, c);
			fputc('\n', f);
		}
	}
	free(n);
}

void
snapshot_compare_target_csv(FILE *f, struct snapshot *const *v, int k)
{
	struct cw_target t;
	int *n, nn, j, i;
	size_t c;

	fputs("n,snapshot", f);
	for (c = 0; c < CW_NFIGS; c++)
		fprintf(f, ",%s", cw_figs[c].csv);
	fputc('\n', f);
	if ((nn = cw_ns(v, k, cw_keep_target, &n)) < 0)
		return;
	for (j = 0; j < nn; j++) {
		for (i = 0; i < k; i++) {
			cw_target_at(v[i], n[j], &t);
			fprintf(f, "%d,%c", n[j], cw_letter(i));
			for (c = 0; c < CW_NFIGS; c++)
				snapshot_csv_num(f, t.present ? t.fig[c] : NAN);
			fputc('\n', f);
		}
	}
	free(n);
}

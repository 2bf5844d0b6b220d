/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing snapshots: a summary line, a table aligned on N of each
 * snapshot's throughput against the first's, then the peaks, collapses,
 * verdicts and USL fits side by side.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/compare_stats.h"
#include "scaletop/format.h"
#include "scaletop/measures.h"
#include "scaletop/report.h"
#include "compare_priv.h"

#define CMP_COL 11 /* width of one figure column */

/*
 * Comparing snapshots: a summary line, then one table aligned on N with each
 * snapshot's pooled throughput, its ratio to the first and the difference
 * with its CI and significance, and the sides noisy at that N
 * (snapshot_compare_stats.c says them in words below the table), then the peaks, collapses,
 * verdicts and USL fits side by side (then the targets and the waits, snapshot_compare_waits.c, the
 * hot paths, snapshot_compare_hot.c, and the locks, snapshot_compare_locks.c).  The figures are the
 * analyses recomputed at load time, so every snapshot is judged by the same rules.
 */

static char
cmp_letter(int i)
{
	return (char)('A' + i);
}

/* The pooled throughput at n, or NaN when the snapshot has none there. */
static double
cmp_x_at(const struct snapshot *sn, int n)
{
	int i;

	for (i = 0; i < sn->now.npoints; i++) {
		if (sn->now.pts[i].n == n)
			return sn->now.pts[i].x;
	}
	return NAN;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
snapshot_compare_all_n(struct snapshot *const *v, int k, int **out)
{
	int total = 0, i, j, m = 0, *n;

	for (i = 0; i < k; i++)
		total += v[i]->now.npoints;
	if ((n = malloc(sizeof(*n) * (size_t)(total > 0 ? total : 1))) == NULL)
		return -1;
	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->now.npoints; j++)
			n[m++] = v[i]->now.pts[j].n;
	}
	qsort(n, (size_t)m, sizeof(*n), cmp_int);
	for (i = 0, j = 0; i < m; i++) {
		if (j == 0 || n[i] != n[j - 1])
			n[j++] = n[i];
	}
	*out = n;
	return j;
}

static void
cmp_legend(FILE *f, struct snapshot *const *v, int k)
{
	int i;

	for (i = 0; i < k; i++) {
		fprintf(f, "%c: %s (%s", cmp_letter(i), v[i]->meta.label, v[i]->name);
		if (snapshot_side_files(v[i]) > 1)
			fprintf(f, " and %d more", snapshot_side_files(v[i]) - 1);
		fprintf(f, ", taken %s)\n", v[i]->meta.taken);
	}
}

static void
cmp_cell(FILE *f, double x)
{
	char buf[32];

	fprintf(f, " %*s", CMP_COL, isfinite(x) ? fmt_si(x, buf, sizeof(buf)) : "-");
}

static void
cmp_ratio_cell(FILE *f, double r)
{
	char buf[32];

	snapshot_compare_ratio(buf, sizeof(buf), r);
	fprintf(f, " %*s", CMP_COL - 4, buf);
}

/* B-A in % of A, its CI and '*' where significant: the cells of one other snapshot. */
static void
cmp_diff_cells(FILE *f, const struct snapshot *a, const struct snapshot *b, int n,
	       const struct compare_opts *o, bool last)
{
	struct cmp_diff d;
	char pct[24], ci[48];

	snapshot_compare_diff(a, b, n, o, &d);
	snapshot_compare_pct(pct, sizeof(pct), d.pct, true);
	snapshot_compare_ci(ci, sizeof(ci), &d, false);
	cmp_ratio_cell(f, d.ratio);
	fprintf(f, " %8s %13s", pct, ci);
	if (d.significant || !last)
		fputs(d.significant ? " *" : "  ", f);
}

/* "  noisy: A,C" after a row of the table: the sides with a noisy step at n. */
static void
cmp_noisy_cell(FILE *f, struct snapshot *const *v, int k, int n)
{
	int i, shown = 0;

	for (i = 0; i < k; i++) {
		if (!(analysis_noisy_at(&v[i]->s, n) > 0))
			continue;
		fprintf(f, "%s%c", shown == 0 ? "  noisy: " : ",", cmp_letter(i));
		shown++;
	}
}

static void
cmp_table(FILE *f, struct snapshot *const *v, int k, const int *n, int nn,
	  const struct compare_opts *o)
{
	char head[48];
	int i, j;

	fprintf(f, "%6s", "N");
	for (i = 0; i < k; i++) {
		snprintf(head, sizeof(head), "%c %s/s", cmp_letter(i), v[i]->s.wl.unit);
		fprintf(f, " %*s", CMP_COL, head);
	}
	for (i = 1; i < k; i++) {
		snprintf(head, sizeof(head), "%c/%c", cmp_letter(i), cmp_letter(0));
		fprintf(f, " %*s", CMP_COL - 4, head);
		snprintf(head, sizeof(head), "%c-%c", cmp_letter(i), cmp_letter(0));
		fprintf(f, " %8s %13s%s", head, "95% CI", i + 1 < k ? "  " : "");
	}
	fputc('\n', f);
	for (j = 0; j < nn; j++) {
		fprintf(f, "%6d", n[j]);
		for (i = 0; i < k; i++)
			cmp_cell(f, cmp_x_at(v[i], n[j]));
		for (i = 1; i < k; i++)
			cmp_diff_cells(f, v[0], v[i], n[j], o, i + 1 == k);
		cmp_noisy_cell(f, v, k, n[j]);
		fputc('\n', f);
	}
}

/* "B peak = 4.00x A peak (A at 3, B at 2); A 1.2M ± 30k, B ...: B +300% (95% CI ...)". */
static void
cmp_peaks(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o)
{
	const struct analysis *a = &v[0]->now, *b;
	char words[320];
	int i;

	for (i = 1; i < k; i++) {
		b = &v[i]->now;
		fprintf(f, "%-10s", i == 1 ? "peak:" : "");
		if (a->npoints == 0 || b->npoints == 0) {
			fprintf(f, "%c or %c has no usable step\n", cmp_letter(0), cmp_letter(i));
			continue;
		}
		snapshot_compare_peak_words(words, sizeof(words), v, i, o);
		fprintf(f, "%c peak = %.2fx %c peak (%c at %d, %c at %d); %s\n", cmp_letter(i),
			b->x_peak / a->x_peak, cmp_letter(0), cmp_letter(0), a->n_peak,
			cmp_letter(i), b->n_peak, words);
	}
}

static void
cmp_collapses(FILE *f, struct snapshot *const *v, int k)
{
	const struct analysis *a;
	int i;

	for (i = 0; i < k; i++) {
		a = &v[i]->now;
		fprintf(f, "%-10s%c: ", i == 0 ? "collapse:" : "", cmp_letter(i));
		if (a->collapse)
			fprintf(f, "at %d %s, %.0f%% of peak at %d\n", a->collapse_n,
				v[i]->s.wl.n_unit, 100.0 * a->last_frac, a->last_n);
		else if (a->npoints == 0)
			fprintf(f, "no usable step\n");
		else
			fprintf(f, "none up to %d %s\n", a->last_n, v[i]->s.wl.n_unit);
	}
	for (i = 0; i < k; i++)
		fprintf(f, "%-10s%c: %s\n", i == 0 ? "verdict:" : "", cmp_letter(i),
			v[i]->now.verdict);
}

/* One USL row: a parameter of each fit, or "-" for a snapshot without one. */
static void
cmp_usl_row(FILE *f, struct snapshot *const *v, int k, const char *name, size_t off)
{
	char buf[32];
	double x;
	int i;

	fprintf(f, "  %-8s", name);
	for (i = 0; i < k; i++) {
		x = *(const double *)((const char *)&v[i]->now.usl + off);
		if (v[i]->now.usl.ok && isfinite(x))
			snprintf(buf, sizeof(buf), "%.4g", x);
		else
			snprintf(buf, sizeof(buf), v[i]->now.usl.ok && isinf(x) ? "inf" : "-");
		fprintf(f, " %*s", CMP_COL, buf);
	}
	fputc('\n', f);
}

/*
 * The standard error of a parameter under its row: "±0.0011", "fixed" for
 * one held at a bound (it has none), "-" for a snapshot without a fit.
 */
static void
cmp_usl_se_row(FILE *f, struct snapshot *const *v, int k, size_t off)
{
	char buf[32];
	double se;
	int i;

	fprintf(f, "  %-8s", "  ± se");
	/* "±" is two bytes and one column */
	fputc(' ', f);
	for (i = 0; i < k; i++) {
		se = *(const double *)((const char *)&v[i]->now.usl + off);
		if (!v[i]->now.usl.ok)
			snprintf(buf, sizeof(buf), "-");
		else if (isfinite(se))
			snprintf(buf, sizeof(buf), "±%.2g", se);
		else
			snprintf(buf, sizeof(buf), "fixed");
		fprintf(f, " %*s", CMP_COL + (isfinite(se) && v[i]->now.usl.ok), buf);
	}
	fputc('\n', f);
}

static void
cmp_usl(FILE *f, struct snapshot *const *v, int k)
{
	const struct usl_fit *u;
	int i;

	fprintf(f, "%-10s", "USL:");
	for (i = 0; i < k; i++)
		fprintf(f, " %*c", CMP_COL, cmp_letter(i));
	fputs("  (± one standard error)\n", f);
	cmp_usl_row(f, v, k, "sigma", offsetof(struct usl_fit, sigma));
	cmp_usl_se_row(f, v, k, offsetof(struct usl_fit, se_sigma));
	cmp_usl_row(f, v, k, "kappa", offsetof(struct usl_fit, kappa));
	cmp_usl_se_row(f, v, k, offsetof(struct usl_fit, se_kappa));
	cmp_usl_row(f, v, k, "lambda", offsetof(struct usl_fit, lambda));
	cmp_usl_se_row(f, v, k, offsetof(struct usl_fit, se_lambda));
	cmp_usl_row(f, v, k, "N*", offsetof(struct usl_fit, n_star));
	cmp_usl_row(f, v, k, "X*", offsetof(struct usl_fit, x_star));
	cmp_usl_row(f, v, k, "rse", offsetof(struct usl_fit, rse));
	for (i = 0; i < k; i++) {
		u = &v[i]->now.usl;
		if (!u->ok)
			fprintf(f, "  %c: no fit: %s\n", cmp_letter(i), u->why);
		else if (u->few_points)
			fprintf(f, "  %c: fitted to only %d points\n", cmp_letter(i), u->npoints);
	}
}

/* A USL figure as CSV: empty without a fit, or where it is unknown (a fixed one's se). */
static void
cmp_usl_csv_num(FILE *f, const struct usl_fit *u, double x)
{
	if (u->ok && isinf(x))
		fputs(",inf", f);
	else
		snapshot_csv_num(f, u->ok ? x : NAN);
}

void
snapshot_compare_usl_csv(FILE *f, struct snapshot *const *v, int k)
{
	const struct usl_fit *u;
	int i;

	fputs("snapshot,label,sigma,sigma_se,kappa,kappa_se,lambda,lambda_se,n_star,x_star,rse,"
	      "points,fit\n",
	      f);
	for (i = 0; i < k; i++) {
		u = &v[i]->now.usl;
		fprintf(f, "%c,", cmp_letter(i));
		snapshot_csv_text(f, v[i]->meta.label);
		cmp_usl_csv_num(f, u, u->sigma);
		cmp_usl_csv_num(f, u, u->se_sigma);
		cmp_usl_csv_num(f, u, u->kappa);
		cmp_usl_csv_num(f, u, u->se_kappa);
		cmp_usl_csv_num(f, u, u->lambda);
		cmp_usl_csv_num(f, u, u->se_lambda);
		cmp_usl_csv_num(f, u, u->n_star);
		cmp_usl_csv_num(f, u, u->x_star);
		cmp_usl_csv_num(f, u, u->rse);
		fprintf(f, ",%d,", u->ok ? u->npoints : 0);
		snapshot_csv_text(f, u->ok ? (u->amdahl ? "amdahl" : "usl") : u->why);
		fputc('\n', f);
	}
}

/* The lines the collector table's measures give (measures.h), over the sides' sessions. */
static void
cmp_collectors(FILE *f, struct snapshot *const *v, int k)
{
	const struct session **s;
	int i;

	if (k < 1 || (s = calloc((size_t)k, sizeof(*s))) == NULL)
		return;
	for (i = 0; i < k; i++)
		s[i] = &v[i]->s;
	for (i = 0; i < ncollectors; i++) {
		if (collectors[i]->compare != NULL)
			collectors[i]->compare(f, s, k, i);
	}
	free(s);
}

void
snapshot_compare_text(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o)
{
	int *n, nn;

	cmp_legend(f, v, k);
	snapshot_compare_warn(f, v, k);
	snapshot_compare_summary_text(f, v, k, o);
	snapshot_compare_trials_text(f, v, k, o);
	fputc('\n', f);
	if ((nn = snapshot_compare_all_n(v, k, &n)) < 0) {
		fprintf(f, "out of memory\n");
		return;
	}
	cmp_table(f, v, k, n, nn, o);
	fputc('\n', f);
	snapshot_compare_stats_text(f, v, k, n, nn, o);
	fputc('\n', f);
	cmp_peaks(f, v, k, o);
	cmp_collapses(f, v, k);
	cmp_usl(f, v, k);
	snapshot_compare_fair_text(f, v, k, n, nn);
	snapshot_compare_lat_text(f, v, k, n, nn);
	free(n);
	snapshot_compare_target_text(f, v, k);
	snapshot_compare_waits_text(f, v, k);
	snapshot_compare_hot_text(f, v, k);
	snapshot_compare_locks_text(f, v, k);
	cmp_collectors(f, v, k);
}

/* The pooled 95% CI of a snapshot's throughput at n (the one show prints), or NaN. */
static double
cmp_ci_at(const struct snapshot *sn, int n)
{
	int i;

	for (i = 0; i < sn->now.npoints; i++) {
		if (sn->now.pts[i].n == n)
			return sn->now.pts[i].ci;
	}
	return NAN;
}

static void
cmp_csv_head(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	char head[320];
	int i;

	fputs("n", f);
	for (i = 0; i < k; i++) {
		snprintf(head, sizeof(head), "%c: %s %s/s", cmp_letter(i), v[i]->meta.label,
			 v[i]->s.wl.unit);
		fputc(',', f);
		snapshot_csv_text(f, head);
	}
	for (i = 1; i < k; i++)
		fprintf(f, ",%c/%c", cmp_letter(i), cmp_letter(0));
	for (i = 0; i < k; i++)
		fprintf(f, ",%c ci95", cmp_letter(i));
	for (i = 1; i < k; i++)
		fprintf(f, ",%c-%c %%,%c-%c lo95 %%,%c-%c hi95 %%,%c significant", cmp_letter(i),
			cmp_letter(0), cmp_letter(i), cmp_letter(0), cmp_letter(i), cmp_letter(0),
			cmp_letter(i));
	snapshot_compare_fair_csv_head(f, k);
	snapshot_compare_lat_csv_head(f, v, k, n, nn);
	fputc('\n', f);
}

/* A CSV field: quoted, quotes doubled, so labels with commas survive. */
void
snapshot_compare_csv(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o)
{
	struct cmp_diff d;
	int *n, nn, i, j;

	if ((nn = snapshot_compare_all_n(v, k, &n)) < 0)
		return;
	cmp_csv_head(f, v, k, n, nn);
	for (j = 0; j < nn; j++) {
		fprintf(f, "%d", n[j]);
		for (i = 0; i < k; i++)
			snapshot_csv_num(f, cmp_x_at(v[i], n[j]));
		for (i = 1; i < k; i++)
			snapshot_csv_num(f, cmp_x_at(v[i], n[j]) / cmp_x_at(v[0], n[j]));
		for (i = 0; i < k; i++)
			snapshot_csv_num(f, cmp_ci_at(v[i], n[j]));
		for (i = 1; i < k; i++) {
			snapshot_compare_diff(v[0], v[i], n[j], o, &d);
			snapshot_csv_num(f, d.pct);
			snapshot_csv_num(f, d.tested ? d.lo_pct : NAN);
			snapshot_csv_num(f, d.tested ? d.hi_pct : NAN);
			fprintf(f, ",%s", d.tested || d.beyond ? (d.significant ? "1" : "0") : "");
		}
		snapshot_compare_fair_csv_cells(f, v, k, n[j]);
		snapshot_compare_lat_csv_cells(f, v, k, n, nn, n[j]);
		fputc('\n', f);
	}
	free(n);
}

/* One of compare's other tables, written whole into a file of its own. */
struct cmp_csv_job {
	enum snapshot_compare_table table;
	struct snapshot *const *v;
	int k;
};

static int
cmp_csv_fill(FILE *f, void *arg)
{
	const struct cmp_csv_job *job = arg;

	if (job->table == SNAPSHOT_CMP_TARGET)
		snapshot_compare_target_csv(f, job->v, job->k);
	else if (job->table == SNAPSHOT_CMP_WAITS)
		snapshot_compare_waits_csv(f, job->v, job->k);
	else
		snapshot_compare_usl_csv(f, job->v, job->k);
	return ferror(f) ? -1 : 0;
}

int
snapshot_compare_csv_write(const char *path, enum snapshot_compare_table table,
			   struct snapshot *const *v, int k, bool force, char *err, size_t errlen)
{
	struct cmp_csv_job job = { table, v, k };

	return snapshot_atomic_write(path, force, cmp_csv_fill, &job, err, errlen);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare's latency: each side's tail at each N and B/A, the mean over its
 * trials as its throughput is, with their lowest and highest, so a reader
 * sees how far a difference stands out of the trials' own spread.  Nothing
 * is printed when no side timed its operations.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "compare_priv.h"

/* Each side's percentile: the first it has at any of the n[0..nn-1]; 0 without latency. */
static bool
lat_pcts(struct snapshot *const *v, int k, const int *n, int nn, int *pct)
{
	struct latency_at l;
	bool any = false;
	int i, j;

	for (i = 0; i < k; i++) {
		pct[i] = 0;
		for (j = 0; j < nn; j++) {
			analysis_latency_at(&v[i]->s, n[j], &pct[i], &l);
			any = any || l.trials > 0;
		}
	}
	return any;
}

/* "6.68", "13.4", "0.052": three significant digits. */
static void
lat_ms(char *buf, size_t len, double ms)
{
	if (isfinite(ms))
		snprintf(buf, len, "%.3g", ms);
	else
		snprintf(buf, len, "-");
}

/* "6.68" or, over several trials, "6.68 (6.1..7.2)"; "-" without latency at n. */
static void
lat_cell(char *buf, size_t len, const struct latency_at *l)
{
	char m[16], lo[16], hi[16];

	lat_ms(m, sizeof(m), l->tail);
	if (l->trials < 2) {
		snprintf(buf, len, "%s", m);
		return;
	}
	lat_ms(lo, sizeof(lo), l->lo);
	lat_ms(hi, sizeof(hi), l->hi);
	snprintf(buf, len, "%s (%s..%s)", m, lo, hi);
}

/* B/A of the tails, NaN where either is missing or they are different percentiles. */
static double
lat_ratio(const struct latency_at *a, const struct latency_at *b, int pa, int pb)
{
	if (pa != pb || a->trials == 0 || b->trials == 0 || !(a->tail > 0))
		return NAN;
	return b->tail / a->tail;
}

/* A side's percentile, "p99", or "p99/p95" where the sides differ. */
static void
lat_pct_words(char *buf, size_t len, const int *pct, int k)
{
	int i;

	snprintf(buf, len, "p%d", pct[0]);
	for (i = 1; i < k; i++) {
		if (pct[i] != pct[0] && pct[i] != 0) {
			snprintf(buf, len, "p%d (B and after: their own percentile; no ratio)",
				 pct[0]);
			return;
		}
	}
}

/* N's row: each side's tail (cells 0..k-1), then each other side's ratio to A (k..2k-2). */
static void
lat_row(struct snapshot *const *v, int k, int n, int *pct, char cell[][64])
{
	struct latency_at a, b;
	int i;

	analysis_latency_at(&v[0]->s, n, &pct[0], &a);
	for (i = 0; i < k; i++) {
		analysis_latency_at(&v[i]->s, n, &pct[i], &b);
		lat_cell(cell[i], sizeof(cell[i]), &b);
		if (i > 0)
			snapshot_compare_ratio(cell[k + i - 1], sizeof(cell[0]),
					       lat_ratio(&a, &b, pct[0], pct[i]));
	}
}

void
snapshot_compare_lat_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	int pct[SNAPSHOT_COMPARE_MAX], i, j;
	char cell[2 * SNAPSHOT_COMPARE_MAX][64], words[96];

	if (k > SNAPSHOT_COMPARE_MAX || !lat_pcts(v, k, n, nn, pct))
		return;
	lat_pct_words(words, sizeof(words), pct, k);
	fprintf(f,
		"latency: %s in ms at N, the mean over each side's trials (their lowest..highest "
		"where there are several)\n",
		words);
	fprintf(f, "%6s", "N");
	for (i = 0; i < k; i++)
		fprintf(f, "  %20c", 'A' + i);
	for (i = 1; i < k; i++)
		fprintf(f, "  %7c/A", 'A' + i);
	fputc('\n', f);
	for (j = 0; j < nn; j++) {
		lat_row(v, k, n[j], pct, cell);
		fprintf(f, "%6d", n[j]);
		for (i = 0; i < 2 * k - 1; i++)
			fprintf(f, i < k ? "  %20s" : "  %9s", cell[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

void
snapshot_compare_lat_md(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	int pct[SNAPSHOT_COMPARE_MAX], i, j;
	char cell[2 * SNAPSHOT_COMPARE_MAX][64];

	if (k > SNAPSHOT_COMPARE_MAX || !lat_pcts(v, k, n, nn, pct))
		return;
	fputs("| N |", f);
	for (i = 0; i < k; i++)
		fprintf(f, " %c p%d ms |", 'A' + i, pct[i]);
	for (i = 1; i < k; i++)
		fprintf(f, " %c/A |", 'A' + i);
	fputs("\n|---:|", f);
	for (i = 0; i < 2 * k - 1; i++)
		fputs("---:|", f);
	fputc('\n', f);
	for (j = 0; j < nn; j++) {
		lat_row(v, k, n[j], pct, cell);
		fprintf(f, "| %d |", n[j]);
		for (i = 0; i < 2 * k - 1; i++)
			fprintf(f, " %s |", cell[i]);
		fputc('\n', f);
	}
	fputs("\nLatency: each side's tail in ms, the mean over its trials (their lowest..highest "
	      "where there are several).\n\n",
	      f);
}

bool
snapshot_compare_lat_csv_head(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	int pct[SNAPSHOT_COMPARE_MAX], i;

	if (k > SNAPSHOT_COMPARE_MAX || !lat_pcts(v, k, n, nn, pct))
		return false;
	for (i = 0; i < k; i++)
		fprintf(f, ",%c p%d ms,%c p%d lo ms,%c p%d hi ms", 'A' + i, pct[i], 'A' + i, pct[i],
			'A' + i, pct[i]);
	for (i = 1; i < k; i++)
		fprintf(f, ",%c/A p%d", 'A' + i, pct[i]);
	return true;
}

void
snapshot_compare_lat_csv_cells(FILE *f, struct snapshot *const *v, int k, const int *n, int nn,
			       int at)
{
	struct latency_at a, b;
	int pct[SNAPSHOT_COMPARE_MAX], i;

	if (k > SNAPSHOT_COMPARE_MAX || !lat_pcts(v, k, n, nn, pct))
		return;
	analysis_latency_at(&v[0]->s, at, &pct[0], &a);
	for (i = 0; i < k; i++) {
		analysis_latency_at(&v[i]->s, at, &pct[i], &b);
		snapshot_csv_num(f, b.tail);
		snapshot_csv_num(f, b.lo);
		snapshot_csv_num(f, b.hi);
	}
	for (i = 1; i < k; i++) {
		analysis_latency_at(&v[i]->s, at, &pct[i], &b);
		snapshot_csv_num(f, lat_ratio(&a, &b, pct[0], pct[i]));
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing the workers' fairness: at each N, each snapshot's Jain's index
 * of the per-worker operations (1: every worker did as much) and how many
 * workers did none, since an unfair lock can raise throughput by starving
 * some workers, and a throughput table alone would call that a gain.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "scaletop/report.h"
#include "compare_priv.h"

#define CF_COL 11 /* as the throughput table's columns */

/*
 * Only built-in workloads count per worker; the section is left out when no
 * snapshot has any.  Repeats of an N are pooled: the mean index and the most
 * starved (snapshot_fairness_at).  Called by snapshot_compare.c.
 */

static bool
cf_any(struct snapshot *const *v, int k, const int *n, int nn)
{
	double jain;
	int i, j, starved;

	for (j = 0; j < nn; j++) {
		for (i = 0; i < k; i++) {
			if (snapshot_fairness_at(v[i], n[j], &jain, &starved))
				return true;
		}
	}
	return false;
}

/* "0.98/0": Jain's index and the starved workers; "-" without per-worker counts. */
static void
cf_cell(FILE *f, const struct snapshot *sn, int n)
{
	char buf[32];
	double jain;
	int starved;

	if (!snapshot_fairness_at(sn, n, &jain, &starved))
		snprintf(buf, sizeof(buf), "-");
	else if (isfinite(jain))
		snprintf(buf, sizeof(buf), "%.2f/%d", jain, starved);
	else
		snprintf(buf, sizeof(buf), "-/%d", starved);
	fprintf(f, " %*s", CF_COL, buf);
}

void
snapshot_compare_fair_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	int i, j;

	if (!cf_any(v, k, n, nn))
		return;
	fprintf(f,
		"\nfairness: Jain's index of the workers' operations (1: even) / workers with "
		"none, at each N\n%6s",
		"N");
	for (i = 0; i < k; i++)
		fprintf(f, " %*c", CF_COL, 'A' + i);
	fputc('\n', f);
	for (j = 0; j < nn; j++) {
		fprintf(f, "%6d", n[j]);
		for (i = 0; i < k; i++)
			cf_cell(f, v[i], n[j]);
		fputc('\n', f);
	}
}

void
snapshot_compare_fair_csv_head(FILE *f, int k)
{
	int i;

	for (i = 0; i < k; i++)
		fprintf(f, ",%c jain,%c starved", 'A' + i, 'A' + i);
}

void
snapshot_compare_fair_csv_cells(FILE *f, struct snapshot *const *v, int k, int n)
{
	double jain;
	int i, starved;

	for (i = 0; i < k; i++) {
		if (snapshot_fairness_at(v[i], n, &jain, &starved)) {
			snapshot_csv_num(f, jain);
			fprintf(f, ",%d", starved);
		} else {
			fputs(",,", f);
		}
	}
}

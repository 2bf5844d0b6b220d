/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare --markdown's tables below the throughput's: the USL fits, each
 * parameter with its standard error, and, where a snapshot counted each
 * worker's operations, Jain's index and the starved workers at each N.
 * The figures are the text's (snapshot_compare.c, snapshot_compare_fair.c),
 * so a post says what the terminal said.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "scaletop/report.h"
#include "compare_priv.h"

static void
mf_head(FILE *f, const char *first, int k)
{
	int i;

	fprintf(f, "| %s |", first);
	for (i = 0; i < k; i++)
		fprintf(f, " %c |", 'A' + i);
	fputs("\n|:--|", f);
	for (i = 0; i < k; i++)
		fputs("---:|", f);
	fputc('\n', f);
}

/* One parameter of each fit: "0.0213 ± 0.0011", "0 (fixed)", or "-" without a fit. */
static void
mf_usl_row(FILE *f, struct snapshot *const *v, int k, const char *name, size_t off, size_t se_off)
{
	const struct usl_fit *u;
	double x, se;
	int i;

	fprintf(f, "| %s |", name);
	for (i = 0; i < k; i++) {
		u = &v[i]->now.usl;
		x = *(const double *)((const char *)u + off);
		se = se_off != 0 ? *(const double *)((const char *)u + se_off) : NAN;
		if (!u->ok)
			fputs(" - |", f);
		else if (isinf(x))
			fputs(" inf |", f);
		else if (se_off == 0)
			fprintf(f, " %.4g |", x);
		else if (isfinite(se))
			fprintf(f, " %.4g ± %.2g |", x, se);
		else
			fprintf(f, " %.4g (fixed) |", x);
	}
	fputc('\n', f);
}

static void
mf_usl(FILE *f, struct snapshot *const *v, int k)
{
	fputs("\nUSL fits (± one standard error; fixed: held at a bound):\n\n", f);
	mf_head(f, "USL", k);
	mf_usl_row(f, v, k, "sigma", offsetof(struct usl_fit, sigma),
		   offsetof(struct usl_fit, se_sigma));
	mf_usl_row(f, v, k, "kappa", offsetof(struct usl_fit, kappa),
		   offsetof(struct usl_fit, se_kappa));
	mf_usl_row(f, v, k, "lambda", offsetof(struct usl_fit, lambda),
		   offsetof(struct usl_fit, se_lambda));
	mf_usl_row(f, v, k, "N\\*", offsetof(struct usl_fit, n_star), 0);
	mf_usl_row(f, v, k, "X\\*", offsetof(struct usl_fit, x_star), 0);
}

static void
mf_fair(FILE *f, struct snapshot *const *v, int k, const int *n, int nn)
{
	double jain;
	int i, j, starved;
	bool any = false;

	for (j = 0; j < nn && !any; j++) {
		for (i = 0; i < k && !any; i++)
			any = snapshot_fairness_at(v[i], n[j], &jain, &starved);
	}
	if (!any)
		return;
	fputs("\nFairness: Jain's index of the workers' operations (1: even) / workers with "
	      "none:\n\n",
	      f);
	mf_head(f, "N", k);
	for (j = 0; j < nn; j++) {
		fprintf(f, "| %d |", n[j]);
		for (i = 0; i < k; i++) {
			if (!snapshot_fairness_at(v[i], n[j], &jain, &starved))
				fputs(" - |", f);
			else if (isfinite(jain))
				fprintf(f, " %.2f/%d |", jain, starved);
			else
				fprintf(f, " -/%d |", starved);
		}
		fputc('\n', f);
	}
}

void
snapshot_compare_md_fits(FILE *f, struct snapshot *const *v, int k)
{
	int *n, nn;

	mf_usl(f, v, k);
	if ((nn = snapshot_compare_all_n(v, k, &n)) < 0)
		return;
	mf_fair(f, v, k, n, nn);
	free(n);
}

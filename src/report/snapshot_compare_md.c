/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare --markdown: the summary and the table as GitHub-flavoured
 * Markdown, to paste into a mailing-list post or a pull request.  The cells
 * are the text table's (fmt_si, snapshot_compare_pct), so a reader sees the
 * same figures in either.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/compare_stats.h"
#include "scaletop/format.h"
#include "scaletop/report.h"
#include "compare_priv.h"

static void
md_summary(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o)
{
	char line[512];
	int i;

	for (i = 1; i < k; i++) {
		snapshot_compare_summary(line, sizeof(line), v, i, o);
		fputs("**", f);
		snapshot_md_text(f, line);
		fputs("**\n\n", f);
	}
}

static void
md_head(FILE *f, struct snapshot *const *v, int k)
{
	int i;

	fputs("| N |", f);
	for (i = 0; i < k; i++) {
		fprintf(f, " %c ", (char)('A' + i));
		snapshot_md_text(f, v[i]->s.wl.unit);
		fputs("/s |", f);
	}
	for (i = 1; i < k; i++)
		fprintf(f, " %c/A | %c-A | 95%% CI | |", (char)('A' + i), (char)('A' + i));
	fputs("\n|---:|", f);
	for (i = 0; i < k; i++)
		fputs("---:|", f);
	for (i = 1; i < k; i++)
		fputs("---:|---:|---:|:-:|", f);
	fputc('\n', f);
}

static void
md_row(FILE *f, struct snapshot *const *v, int k, int n, const struct compare_opts *o)
{
	struct cmp_side x;
	struct cmp_diff d;
	char buf[32], ci[48];
	int i;

	fprintf(f, "| %d |", n);
	for (i = 0; i < k; i++) {
		cmp_side_at(&v[i]->s, n, &x);
		fprintf(f, " %s%s |", x.runs > 0 ? fmt_si(x.mean, buf, sizeof(buf)) : "-",
			analysis_noisy_at(&v[i]->s, n) > 0 ? " (noisy)" : "");
	}
	for (i = 1; i < k; i++) {
		snapshot_compare_diff(v[0], v[i], n, o, &d);
		snapshot_compare_ratio(buf, sizeof(buf), d.ratio);
		fprintf(f, " %s |", buf);
		snapshot_compare_pct(buf, sizeof(buf), d.pct, true);
		snapshot_compare_ci(ci, sizeof(ci), &d, true);
		fprintf(f, " %s | %s | %s |", buf, ci, d.significant ? "\\*" : "");
	}
	fputc('\n', f);
}

void
snapshot_compare_markdown(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o)
{
	int *n, nn, i;

	md_summary(f, v, k, o);
	if ((nn = snapshot_compare_all_n(v, k, &n)) < 0) {
		fputs("out of memory\n", f);
		return;
	}
	md_head(f, v, k);
	for (i = 0; i < nn; i++)
		md_row(f, v, k, n[i], o);
	fputc('\n', f);
	snapshot_compare_lat_md(f, v, k, n, nn);
	free(n);
	for (i = 0; i < k; i++) {
		fprintf(f, "%c: ", (char)('A' + i));
		snapshot_md_text(f, v[i]->meta.label);
		fputs(" (", f);
		snapshot_md_text(f, v[i]->name);
		if (snapshot_side_files(v[i]) > 1)
			fprintf(f, " and %d more", snapshot_side_files(v[i]) - 1);
		fprintf(f, ", taken %s)%s\n", v[i]->meta.taken, i + 1 < k ? "  " : "");
	}
	fprintf(f,
		"\nB-A: the difference in %% of A; 95%% CI: its 95%% confidence interval (Welch's "
		"t on the logs of the trials' means); \\*: significant, 0 outside the interval "
		"and beyond the %g%% noise floor; (noisy): a step there has a 95%% CI wider than a "
		"quarter of its mean.\n",
		snapshot_compare_noise(o));
	snapshot_compare_md_fits(f, v, k);
	snapshot_compare_locks_md(f, v, k);
}

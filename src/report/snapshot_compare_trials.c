/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What compare says of the trials beyond the test: how many a side pooled
 * and in how many boots, the runs that swing, the self-check of halves, and
 * the load line naming who else took the CPUs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/compare_stats.h"
#include "scaletop/report.h"
#include "compare_priv.h"

#define CMP_SWING 0.10    /* a run's intervals swing: sd >= 10% of their mean */
#define CMP_SELF_MIN 4    /* trials a side needs for the self-check */
#define CMP_SELF_TRIALS 2 /* and each half then has at least */
#define CMP_RUN_DELAY 10  /* points of run delay between sides that say other jobs ran */

/*
 * What compare says of the trials beyond the test: how many each side
 * pooled and in how many boots (an OS comparison spans reboots, which only
 * a trial per boot measures), the runs whose intervals swing (pyperf's rule:
 * a standard deviation of 10% of the mean or more; steadiness, which the
 * test never takes as samples), and the self-check: a side of 4 trials or
 * more split into its first and second half and compared with itself, where
 * any difference found is this machine moving more than the test assumes;
 * and where one side's workers waited for a CPU much more than the
 * other's at N up to the CPU count, which is other jobs, not the workload
 * (named from the steps' others where the run measured them).
 */

static char
tr_letter(int i)
{
	return (char)('A' + i);
}

/* "A: 3 trials in 1 boot" for each side; then whether a reboot was measured. */
static void
tr_counts(FILE *f, struct snapshot *const *v, int k)
{
	int i, unknown, boots;
	bool same = k > 1;

	fputs("trials:", f);
	for (i = 0; i < k; i++) {
		boots = snapshot_side_boots(v[i], &unknown);
		fprintf(f, "%s %c %d from %d file%s", i == 0 ? "" : ";", tr_letter(i),
			cmp_trials(&v[i]->s), snapshot_side_files(v[i]),
			snapshot_side_files(v[i]) == 1 ? "" : "s");
		if (boots > 0)
			fprintf(f, ", in %d boot%s", boots, boots == 1 ? "" : "s");
		if (unknown > 0 && boots == 0)
			fprintf(f, ", boot not recorded");
		else if (unknown > 0)
			fprintf(f, ", %d file%s without a boot id", unknown,
				unknown == 1 ? "" : "s");
		if (boots != 1 || unknown != 0 ||
		    strcmp(v[i]->s.host.boot_id, v[0]->s.host.boot_id) != 0)
			same = false;
	}
	fputc('\n', f);
	if (same)
		fprintf(f,
			"          every trial ran in one boot (%.8s...): what a reboot moves "
			"is not in the test\n",
			v[0]->s.host.boot_id);
}

/* "run noise: A and B come from fewer than 3 runs each ...": where the allowance applies. */
static void
tr_run_noise(FILE *f, struct snapshot *const *v, int k, double pct)
{
	const char *sep;
	char who[80];
	size_t w = 0;
	int i, hits = 0, all = 0;

	for (i = 0; i < k; i++)
		all += snapshot_side_files(v[i]) < CMP_RUNS_SEEN;
	for (i = 0; i < k && w < sizeof(who) && pct > 0; i++) {
		if (snapshot_side_files(v[i]) >= CMP_RUNS_SEEN)
			continue;
		sep = ++hits == 1 ? "" : hits == all ? " and " : ", ";
		w += (size_t)snprintf(who + w, sizeof(who) - w, "%s%c", sep, tr_letter(i));
	}
	if (hits == 0)
		return;
	fprintf(f,
		"run noise: %s %s from fewer than %d runs%s, whose trials cannot show what a "
		"rerun moves: %g%% of %s mean is allowed for it (--run-noise; %d files a side "
		"measure it instead)\n",
		who, hits == 1 ? "comes" : "come", CMP_RUNS_SEEN, hits == 1 ? "" : " each", pct,
		hits == 1 ? "its" : "each", CMP_RUNS_SEEN);
}

/* The mean run delay of a side's usable steps at N up to its CPUs; how many steps. */
static int
tr_run_delay(const struct snapshot *sn, double *mean)
{
	const struct step *st;
	double sum = 0;
	int i, k = 0, ncpu = sn->s.host.ncpus;

	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (!step_usable(st) || !(st->ct.have & CT_HAVE_RUN_DELAY) ||
		    !isfinite(st->ct.run_delay_pct) || (ncpu > 0 && st->n > ncpu))
			continue;
		sum += st->ct.run_delay_pct;
		k++;
	}
	*mean = k > 0 ? sum / k : NAN;
	return k;
}

/* The usable step at N up to the CPUs whose others took the most CPU, or NULL (none known). */
static const struct step *
tr_busiest(const struct snapshot *sn)
{
	const struct step *st, *best = NULL;
	int i, ncpu = sn->s.host.ncpus;

	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (!step_usable(st) || !st->others.known || (ncpu > 0 && st->n > ncpu))
			continue;
		if (best == NULL || st->others.cpus > best->others.cpus)
			best = st;
	}
	return best;
}

/*
 * ": cc1 x3 1.2 CPUs, make 0.1 at N=1 (1.4 CPUs in all)": who took the CPUs
 * at sn's busiest step, from the step's others; "" where none are named.
 */
static void
tr_others(char *buf, size_t len, const struct snapshot *sn)
{
	const struct step *st = tr_busiest(sn);
	const struct step_other *o;
	size_t w = 0;
	int i;

	buf[0] = '\0';
	if (st == NULL || st->others.ntop <= 0)
		return;
	for (i = 0; i < st->others.ntop && i < STEP_OTHERS_TOP && w < len; i++) {
		o = &st->others.top[i];
		w += (size_t)snprintf(buf + w, len - w, "%s%s", i == 0 ? ": " : ", ", o->comm);
		if (o->procs > 1 && w < len)
			w += (size_t)snprintf(buf + w, len - w, " x%d", o->procs);
		if (w < len)
			w += (size_t)snprintf(buf + w, len - w, " %.1f%s", o->cpus,
					      i == 0 ? " CPUs" : "");
	}
	if (w < len)
		snprintf(buf + w, len - w, " at N=%d (%.1f CPUs in all)", st->n, st->others.cpus);
}

/* "load: B's workers waited for a CPU 96% of their time ...": other jobs on one side, named. */
static void
tr_load(FILE *f, struct snapshot *const *v, int k)
{
	char who[200];
	double a, b;
	int i, slow;

	if (tr_run_delay(v[0], &a) == 0)
		return;
	for (i = 1; i < k; i++) {
		if (tr_run_delay(v[i], &b) == 0 || !(fabs(b - a) >= CMP_RUN_DELAY))
			continue;
		slow = b > a ? i : 0;
		tr_others(who, sizeof(who), v[slow]);
		fprintf(f,
			"load: %c's workers waited for a CPU %.0f%% of their time at N up to the "
			"CPUs, %c's %.0f%%: other jobs took CPUs from %c%s; a difference may be "
			"theirs (sweep both when the machine is quiet, or in turns)\n",
			tr_letter(i), b, tr_letter(0), a, tr_letter(slow), who);
	}
}

/* The runs of one side whose intervals swing, and the worst of them. */
static void
tr_steadiness(FILE *f, const struct snapshot *sn, char l)
{
	const struct step *st, *worst = NULL;
	double cv, worst_cv = 0;
	int i, runs = 0, swing = 0;

	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (!step_usable(st) || !st->st.have_spread || !(st->st.mean > 0))
			continue;
		runs++;
		cv = st->st.stddev / st->st.mean;
		if (!(cv >= CMP_SWING))
			continue;
		swing++;
		if (worst == NULL || cv > worst_cv) {
			worst = st;
			worst_cv = cv;
		}
	}
	if (worst != NULL)
		fprintf(f,
			"steadiness: %c: %d of %d runs swing (intervals' sd >= %.0f%% of their "
			"mean; worst N=%d, trial %d, %.0f%%): not a sample, but worth a rerun\n",
			l, swing, runs, 100 * CMP_SWING, worst->n, worst->trial + 1,
			100 * worst_cv);
}

/* The first half of a side's trials against its second at each N and over N. */
static void
tr_self_check(FILE *f, const struct snapshot *sn, char l, double noise)
{
	const struct analysis *a = &sn->now;
	/* The halves share their runs' own noise: none is allowed for between them. */
	struct cmp_score_test st = { .noise_pct = noise, .min_trials = CMP_SELF_TRIALS };
	struct cmp_side h1, h2;
	struct cmp_geomean g;
	struct cmp_diff d;
	double *x;
	char found[256] = "";
	size_t k = 0;
	int *n, i, t = cmp_trials(&sn->s), h = t / 2, m = 0, k1, k2, hits = 0;

	if (t < CMP_SELF_MIN)
		return;
	n = calloc((size_t)(a->npoints > 0 ? a->npoints : 1), sizeof(*n));
	x = calloc((size_t)t, sizeof(*x));
	if (n == NULL || x == NULL) {
		free(n);
		free(x);
		return;
	}
	for (i = 0; i < a->npoints; i++) {
		cmp_side_trials(&sn->s, a->pts[i].n, 0, h, &h1);
		cmp_side_trials(&sn->s, a->pts[i].n, h, t, &h2);
		if (h1.runs > 0 && h2.runs > 0)
			n[m++] = a->pts[i].n;
	}
	for (i = 0; i < m; i++) {
		/* a claim over the m N, as the summary's: Bonferroni */
		cmp_side_trials(&sn->s, n[i], 0, h, &h1);
		cmp_side_trials(&sn->s, n[i], h, t, &h2);
		cmp_welch_min(&h1, &h2, noise, CMP_SELF_TRIALS, &d);
		if (cmp_family_significant(&d, m, noise) && k < sizeof(found))
			k += (size_t)snprintf(found + k, sizeof(found) - k,
					      "%sN=%d %+.1f%% (%+.1f%% to %+.1f%%)",
					      hits++ ? ", " : "", n[i], d.pct, d.lo_pct, d.hi_pct);
	}
	k1 = cmp_trial_scores(&sn->s, n, m, 0, h, x);
	k2 = cmp_trial_scores(&sn->s, n, m, h, t, x + k1);
	cmp_scores(x, k1, x + k1, k2, &st, &g);
	if (g.significant && k < sizeof(found))
		snprintf(found + k, sizeof(found) - k, "%sover N the trials' scores %+.1f%%",
			 hits++ ? ", " : "", 100 * (g.ratio - 1));
	if (hits > 0)
		fprintf(f,
			"self-check: warning: %c's trials 1-%d against %d-%d differ: %s; this "
			"machine moves more than the test assumes\n",
			l, h, h + 1, t, found);
	else
		fprintf(f, "self-check: %c's trials 1-%d against %d-%d: no difference proven\n", l,
			h, h + 1, t);
	free(n);
	free(x);
}

void
snapshot_compare_trials_text(FILE *f, struct snapshot *const *v, int k,
			     const struct compare_opts *o)
{
	int i;

	tr_counts(f, v, k);
	tr_run_noise(f, v, k, snapshot_compare_run_noise(o));
	tr_load(f, v, k);
	for (i = 0; i < k; i++)
		tr_steadiness(f, v[i], tr_letter(i));
	for (i = 0; i < k; i++)
		tr_self_check(f, v[i], tr_letter(i), snapshot_compare_noise(o));
}

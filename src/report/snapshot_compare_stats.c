/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What compare says of noise: B against the baseline at each N, the
 * one-line summary over N, peak against peak, and the gate of
 * --fail-on-regression.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/compare_stats.h"
#include "scaletop/format.h"
#include "scaletop/report.h"
#include "compare_priv.h"

/*
 * What compare says of noise: B against the baseline at each N (Welch's t
 * on the trials' means with the noise floor, compare_stats.h), as ministat
 * says it, the one-line summary over N (its shape first: faster at some N
 * and slower at others; else each trial's geometric mean across N, A's
 * against B's; each side's collapse), peak against peak, and the gate of
 * --fail-on-regression with its third answer, too few trials.  The table's
 * cells (snapshot_compare.c, snapshot_compare_md.c) use the same figures,
 * so text, CSV and Markdown agree.
 */

void
compare_opts_default(struct compare_opts *o)
{
	o->noise_pct = COMPARE_NOISE_DEFAULT;
	o->run_noise_pct = COMPARE_RUN_NOISE_DEFAULT;
	o->fail_pct = 0;
}

double
snapshot_compare_noise(const struct compare_opts *o)
{
	return o != NULL ? o->noise_pct : COMPARE_NOISE_DEFAULT;
}

double
snapshot_compare_run_noise(const struct compare_opts *o)
{
	return o != NULL ? o->run_noise_pct : COMPARE_RUN_NOISE_DEFAULT;
}

int
snapshot_compare_side(const struct snapshot *sn, int n, const struct compare_opts *o,
		      struct cmp_side *side)
{
	int runs = cmp_side_at(&sn->s, n, side);

	side->allow = cmp_run_allowance(side->mean, snapshot_compare_run_noise(o),
					snapshot_side_files(sn));
	return runs;
}

void
snapshot_compare_diff(const struct snapshot *a, const struct snapshot *b, int n,
		      const struct compare_opts *o, struct cmp_diff *d)
{
	struct cmp_side sa, sb;

	snapshot_compare_side(a, n, o, &sa);
	snapshot_compare_side(b, n, o, &sb);
	cmp_welch(&sa, &sb, snapshot_compare_noise(o), d);
}

/*
 * Decimals for a % of A: one, or as many as keep a fall short of -100% from
 * rounding to it (a collapse to 0.03% of A is -99.97%, never -100.0%).
 */
static int
cmp_pct_digits(double pct)
{
	int dig = 1;

	while (pct > -100 && pct < -100 + 0.5 * pow(10, -dig) && dig < 6)
		dig++;
	return dig;
}

void
snapshot_compare_pct(char *buf, size_t len, double pct, bool sign)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.*f%%" : "%.*f%%", cmp_pct_digits(pct), pct);
}

/* The N a and b both have a usable run at, and their sides; how many (-1: ENOMEM). */
static int
cmp_common(const struct snapshot *a, const struct snapshot *b, const struct compare_opts *o,
	   int **n, struct cmp_side **sa, struct cmp_side **sb)
{
	int i, m = 0, k = a->now.npoints > 0 ? a->now.npoints : 1;

	*n = calloc((size_t)k, sizeof(**n));
	*sa = calloc((size_t)k, sizeof(**sa));
	*sb = calloc((size_t)k, sizeof(**sb));
	if (*n == NULL || *sa == NULL || *sb == NULL) {
		free(*n);
		free(*sa);
		free(*sb);
		return -1;
	}
	for (i = 0; i < a->now.npoints; i++) {
		(*n)[m] = a->now.pts[i].n;
		if (snapshot_compare_side(a, (*n)[m], o, &(*sa)[m]) > 0 &&
		    snapshot_compare_side(b, (*n)[m], o, &(*sb)[m]) > 0)
			m++;
	}
	return m;
}

/* "; B collapses at 8 instead of 16" and the like; "" when neither collapses. */
static void
cmp_collapse_clause(char *buf, size_t len, const struct analysis *a, const struct analysis *b,
		    char la, char lb)
{
	if (a->collapse && b->collapse && a->collapse_n != b->collapse_n)
		snprintf(buf, len, "; %c collapses at %d instead of %d", lb, b->collapse_n,
			 a->collapse_n);
	else if (a->collapse && b->collapse)
		snprintf(buf, len, "; both collapse at %d", a->collapse_n);
	else if (b->collapse)
		snprintf(buf, len, "; %c collapses at %d, %c does not", lb, b->collapse_n, la);
	else if (a->collapse)
		snprintf(buf, len, "; %c does not collapse, %c does at %d", lb, la, a->collapse_n);
	else
		buf[0] = '\0';
}

/* ", 4" or "N=2" onto buf at *k: one N of a list. */
static void
cmp_list_n(char *buf, size_t len, size_t *k, int hits, int n)
{
	if (*k < len)
		*k += (size_t)snprintf(buf + *k, len - *k, hits == 0 ? "N=%d" : ", %d", n);
}

/* How many of the m N have a test: the family the summary's claims are corrected for. */
static int
cmp_tested(const struct cmp_side *sa, const struct cmp_side *sb, int m, double noise)
{
	struct cmp_diff d;
	int i, t = 0;

	for (i = 0; i < m; i++) {
		cmp_welch(&sa[i], &sb[i], noise, &d);
		t += d.tested;
	}
	return t;
}

/*
 * The N where B is faster (sign > 0), slower (sign < 0) or either (0) than
 * A beyond the family's correction, as "N=2, 4" into buf ("" for none); how
 * many.
 */
static int
cmp_dir_list(char *buf, size_t len, const int *n, const struct cmp_side *sa,
	     const struct cmp_side *sb, int m, double noise, int sign)
{
	struct cmp_diff d;
	size_t k = 0;
	int i, hits = 0, fam = cmp_tested(sa, sb, m, noise);

	buf[0] = '\0';
	for (i = 0; i < m; i++) {
		cmp_welch(&sa[i], &sb[i], noise, &d);
		if (cmp_family_significant(&d, fam, noise) &&
		    (sign == 0 || (sign > 0 ? d.pct > 0 : d.pct < 0)))
			cmp_list_n(buf, len, &k, hits++, n[i]);
	}
	return hits;
}

/*
 * "B differs at N=2, 4 (below)" into buf, or "" when no N differs beyond the
 * family's correction (Bonferroni over the N tested).
 */
static void
cmp_differs(char *buf, size_t len, const int *n, const struct cmp_side *sa,
	    const struct cmp_side *sb, int m, double noise, char lb)
{
	char list[128];

	buf[0] = '\0';
	if (cmp_dir_list(list, sizeof(list), n, sa, sb, m, noise, 0) > 0)
		snprintf(buf, len, "%c differs at %s (below)", lb, list);
}

/* "over N=1..32", or "at N=4" for one N. */
static void
cmp_span(char *buf, size_t len, const struct cmp_geomean *g)
{
	if (g->n_lo == g->n_hi)
		snprintf(buf, len, "at N=%d", g->n_lo);
	else
		snprintf(buf, len, "over N=%d..%d", g->n_lo, g->n_hi);
}

void
snapshot_compare_few_words(char *buf, size_t len, int ta, int tb, char la, char lb)
{
	if (ta == tb && ta == 1)
		snprintf(buf, len, "one trial a side");
	else if (ta == tb)
		snprintf(buf, len, "%d trials a side", ta);
	else
		snprintf(buf, len, "%c has %d trial%s, %c %d", la, ta, ta == 1 ? "" : "s", lb, tb);
}

/*
 * "one trial a side: B +6.8% ... cannot be told from rerun noise; give 3 or
 * more (...)", or past CMP_RERUN_BOUND "B is 99.4% slower ..., one trial a side".
 */
static void
cmp_few(char *buf, size_t len, const struct cmp_geomean *g, const char *span, char la, char lb)
{
	char who[64];

	snapshot_compare_few_words(who, sizeof(who), g->ka, g->kb, la, lb);
	if (g->beyond)
		snprintf(buf, len,
			 "%c is %.1f%% %s %s (%.3gx), %s: more than any rerun moves (%gx); "
			 "give %d or more for its interval (run --trials %d)",
			 lb, 100 * fabs(g->ratio - 1), g->ratio < 1 ? "slower" : "faster", span,
			 g->ratio, who, CMP_RERUN_BOUND, CMP_MIN_TRIALS, CMP_MIN_TRIALS);
	else
		snprintf(buf, len,
			 "%s: %c %+.1f%% %s cannot be told from rerun noise; give %d or more (run "
			 "--trials %d)",
			 who, lb, 100 * (g->ratio - 1), span, CMP_MIN_TRIALS, CMP_MIN_TRIALS);
}

/* "B is faster at N=1, 2 and slower at N=4 (below); as a mix, ...": the shape first. */
static void
cmp_mix(char *buf, size_t len, const struct cmp_geomean *g, const char *fast, const char *slow,
	const char *span, char lb)
{
	if (isfinite(g->ratio))
		snprintf(buf, len,
			 "%c is faster at %s and slower at %s (below); a mix: the trials' "
			 "geometric mean %s, %.2fx, says neither",
			 lb, fast, slow, span, g->ratio);
	else
		snprintf(buf, len, "%c is faster at %s and slower at %s (below)", lb, fast, slow);
}

/* The sentence without its collapse clause. */
static void
cmp_verdict(char *buf, size_t len, const struct cmp_geomean *g, const char *differs, double noise,
	    char la, char lb)
{
	char span[48];

	cmp_span(span, sizeof(span), g);
	if (g->ka == 0 || g->kb == 0)
		snprintf(buf, len,
			 "no test between %c and %c: no trial of %c has every N in common", la, lb,
			 g->ka == 0 ? la : lb);
	else if (g->few)
		cmp_few(buf, len, g, span, la, lb);
	else if (g->significant && g->ratio < 1)
		snprintf(buf, len, "%c is %.1f%% slower (95%% CI %.1f-%.1f%%) %s", lb,
			 100 * (1 - g->ratio), 100 * (1 - g->hi), 100 * (1 - g->lo), span);
	else if (g->significant)
		snprintf(buf, len, "%c is %.1f%% faster (95%% CI %.1f-%.1f%%) %s", lb,
			 100 * (g->ratio - 1), 100 * (g->lo - 1), 100 * (g->hi - 1), span);
	else if (differs[0] == '\0' && (g->lo > 1 || g->hi < 1))
		/* 1 is outside the CI: never "no difference proven" */
		snprintf(
			buf, len,
			"%c %+.1f%% %s is within the %g%% noise floor (95%% CI %+.1f%% to %+.1f%%)",
			lb, 100 * (g->ratio - 1), span, noise, 100 * (g->lo - 1),
			100 * (g->hi - 1));
	else if (differs[0] == '\0')
		snprintf(buf, len, "no difference proven between %c and %c at any N", la, lb);
	else
		snprintf(buf, len, "no difference proven between %c and %c %s as a whole; %s", la,
			 lb, span, differs);
}

/* Each side's trials scored over the m N and tested: g. */
static void
cmp_summary_scores(const struct snapshot *a, const struct snapshot *b, const int *n, int m,
		   const struct compare_opts *o, struct cmp_geomean *g)
{
	struct cmp_score_test t = {
		.noise_pct = snapshot_compare_noise(o),
		.min_trials = CMP_MIN_TRIALS,
		.allow_a =
			cmp_run_allowance(1, snapshot_compare_run_noise(o), snapshot_side_files(a)),
		.allow_b =
			cmp_run_allowance(1, snapshot_compare_run_noise(o), snapshot_side_files(b)),
	};
	int ta = cmp_trials(&a->s), tb = cmp_trials(&b->s);
	double *xa = calloc((size_t)(ta > 0 ? ta : 1), sizeof(*xa));
	double *xb = calloc((size_t)(tb > 0 ? tb : 1), sizeof(*xb));
	int i;

	memset(g, 0, sizeof(*g));
	g->ratio = g->lo = g->hi = g->df = NAN;
	if (xa != NULL && xb != NULL && m > 0) {
		ta = cmp_trial_scores(&a->s, n, m, CMP_ALL, xa);
		tb = cmp_trial_scores(&b->s, n, m, CMP_ALL, xb);
		cmp_scores(xa, ta, xb, tb, &t, g);
	}
	g->k = m;
	for (i = 0; i < m; i++) {
		if (i == 0 || n[i] < g->n_lo)
			g->n_lo = n[i];
		if (i == 0 || n[i] > g->n_hi)
			g->n_hi = n[i];
	}
	free(xa);
	free(xb);
}

void
snapshot_compare_summary(char *buf, size_t len, struct snapshot *const *v, int i,
			 const struct compare_opts *o)
{
	struct cmp_side *sa, *sb;
	struct cmp_geomean g;
	char differs[160], head[400], coll[96], fast[120], slow[120], span[48];
	double noise = snapshot_compare_noise(o);
	char lb = (char)('A' + i);
	int *n, m;

	if ((m = cmp_common(v[0], v[i], o, &n, &sa, &sb)) < 0) {
		snprintf(buf, len, "out of memory");
		return;
	}
	cmp_summary_scores(v[0], v[i], n, m, o, &g);
	cmp_differs(differs, sizeof(differs), n, sa, sb, m, noise, lb);
	cmp_span(span, sizeof(span), &g);
	if (m == 0)
		snprintf(head, sizeof(head), "no test between A and %c: no N in common", lb);
	else if (cmp_dir_list(fast, sizeof(fast), n, sa, sb, m, noise, 1) > 0 &&
		 cmp_dir_list(slow, sizeof(slow), n, sa, sb, m, noise, -1) > 0)
		cmp_mix(head, sizeof(head), &g, fast, slow, span, lb);
	else
		cmp_verdict(head, sizeof(head), &g, differs, noise, 'A', lb);
	cmp_collapse_clause(coll, sizeof(coll), &v[0]->now, &v[i]->now, 'A', lb);
	snprintf(buf, len, "%s%s", head, coll);
	free(n);
	free(sa);
	free(sb);
}

void
snapshot_compare_summary_text(FILE *f, struct snapshot *const *v, int k,
			      const struct compare_opts *o)
{
	char line[512];
	int i;

	for (i = 1; i < k; i++) {
		snapshot_compare_summary(line, sizeof(line), v, i, o);
		fprintf(f, "%s\n", line);
	}
}

void
snapshot_compare_ratio(char *buf, size_t len, double r)
{
	if (!isfinite(r))
		snprintf(buf, len, "-");
	else if (r > 0 && r < 0.095)
		snprintf(buf, len, "%.2gx", r); /* 0.0023x, never 0.00x */
	else
		snprintf(buf, len, "%.2fx", r);
}

void
snapshot_compare_ci(char *buf, size_t len, const struct cmp_diff *d, bool words)
{
	if (!d->tested || !isfinite(d->lo_pct) || !isfinite(d->hi_pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, words ? "%+.*f%% to %+.*f%%" : "%+.*f..%+.*f",
			 cmp_pct_digits(d->lo_pct), d->lo_pct, cmp_pct_digits(d->hi_pct),
			 d->hi_pct);
}

/* "-12.3%, 95% CI -14.0% to -10.5%": d's difference and its CI. */
static void
cmp_pm(char *buf, size_t len, const struct cmp_diff *d)
{
	char p[24], c[48];

	snapshot_compare_pct(p, sizeof(p), d->pct, true);
	snapshot_compare_ci(c, sizeof(c), d, true);
	snprintf(buf, len, "%s, 95%% CI %s", p, c);
}

/* "no test, one trial a side (3 needed): B +6.8% cannot be told ..." or, past the bound, a
 * difference. */
static void
cmp_few_words(char *buf, size_t len, const struct cmp_diff *d, char la, char lb,
	      const struct cmp_side_why *why)
{
	char who[64];

	snapshot_compare_few_words(who, sizeof(who), why->a_trials, why->b_trials, la, lb);
	if (d->beyond)
		snprintf(buf, len,
			 "%c %+.1f%% (%.3gx), %s: a difference, more than any rerun moves "
			 "(%gx); %d trials a side give its interval",
			 lb, d->pct, d->ratio, who, CMP_RERUN_BOUND, CMP_MIN_TRIALS);
	else
		snprintf(buf, len,
			 "no test, %s (%d needed): %c %+.1f%% cannot be told from rerun noise", who,
			 CMP_MIN_TRIALS, lb, d->pct);
}

/* One ministat line's words after "N=4: " (or after a peak's figures). */
void
snapshot_compare_diff_words(char *buf, size_t len, const struct cmp_diff *d, char la, char lb,
			    const struct cmp_side_why *why, double noise)
{
	char pm[96], ci[48];

	cmp_pm(pm, sizeof(pm), d);
	if (why->a_runs == 0 || why->b_runs == 0) {
		snprintf(buf, len, "no test: %c has no usable run", why->a_runs == 0 ? la : lb);
	} else if (d->few) {
		cmp_few_words(buf, len, d, la, lb, why);
	} else if (!d->tested) {
		snprintf(buf, len, "no test: %c has no spread across its trials (%c %+.1f%%)",
			 why->a_spread ? lb : la, lb, d->pct);
	} else if (d->significant) {
		snapshot_compare_ci(ci, sizeof(ci), d, true);
		snapshot_compare_pct(pm, sizeof(pm), d->pct, true);
		snprintf(buf, len, "%c %s (95%% CI %s)", lb, pm, ci);
	} else if (d->welch) {
		/* 0 is outside the CI: a difference, too small to count, never "none proven" */
		snprintf(buf, len, "within the %g%% noise floor (%c %s)", noise, lb, pm);
	} else {
		snprintf(buf, len, "no difference proven (%c %s)", lb, pm);
	}
}

void
snapshot_compare_explain(const struct snapshot *a, const struct snapshot *b, int na, int nb,
			 const struct compare_opts *o, struct cmp_diff *d, struct cmp_side_why *why)
{
	struct cmp_side sa, sb;

	why->a_runs = snapshot_compare_side(a, na, o, &sa);
	why->b_runs = snapshot_compare_side(b, nb, o, &sb);
	why->a_trials = sa.trials;
	why->b_trials = sb.trials;
	why->a_spread = isfinite(sa.se);
	cmp_welch(&sa, &sb, snapshot_compare_noise(o), d);
}

/*
 * "; B is noisy here (CI +-40%)", "; A and B are noisy here (CI up to
 * +-95%)": where a or b has a noisy step at n (step_noisy), whose
 * difference is to be read with care; "" where neither has.
 */
static void
cmp_noisy(char *buf, size_t len, const struct snapshot *a, const struct snapshot *b, int n, char la,
	  char lb)
{
	double fa = analysis_noisy_at(&a->s, n), fb = analysis_noisy_at(&b->s, n);

	buf[0] = '\0';
	if (fa > 0 && fb > 0)
		snprintf(buf, len, "; %c and %c are noisy here (CI up to +-%.0f%%)", la, lb,
			 100 * fmax(fa, fb));
	else if (fa > 0 || fb > 0)
		snprintf(buf, len, "; %c is noisy here (CI +-%.0f%%)", fa > 0 ? la : lb,
			 100 * fmax(fa, fb));
}

void
snapshot_compare_stats_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn,
			    const struct compare_opts *o)
{
	struct cmp_side_why why;
	struct cmp_diff d;
	char words[200], noisy[64];
	int i, j;

	for (i = 1; i < k; i++) {
		fprintf(f,
			"%c against A at each N (Welch's t on the logs of the trials' means at "
			"95%%, noise floor %g%%):\n",
			(char)('A' + i), snapshot_compare_noise(o));
		for (j = 0; j < nn; j++) {
			snapshot_compare_explain(v[0], v[i], n[j], n[j], o, &d, &why);
			snapshot_compare_diff_words(words, sizeof(words), &d, 'A', (char)('A' + i),
						    &why, snapshot_compare_noise(o));
			cmp_noisy(noisy, sizeof(noisy), v[0], v[i], n[j], 'A', (char)('A' + i));
			fprintf(f, "  N=%d: %s%s\n", n[j], words, noisy);
		}
	}
}

bool
snapshot_compare_regressed(struct snapshot *const *v, int k, const struct compare_opts *o)
{
	struct cmp_diff d;
	const struct analysis *a = &v[0]->now;
	int i, j;

	if (o == NULL || !(o->fail_pct > 0))
		return false;
	for (i = 1; i < k; i++) {
		for (j = 0; j < a->npoints; j++) {
			snapshot_compare_diff(v[0], v[i], a->pts[j].n, o, &d);
			if (d.significant && d.pct < -o->fail_pct)
				return true;
		}
	}
	return false;
}

bool
snapshot_compare_too_few(struct snapshot *const *v, int k, const struct compare_opts *o)
{
	struct cmp_side *sa, *sb;
	struct cmp_geomean g;
	struct cmp_diff d;
	int i, j, *n, m;
	bool few = false;

	if (o == NULL || !(o->fail_pct > 0))
		return false;
	for (i = 1; i < k && !few; i++) {
		if ((m = cmp_common(v[0], v[i], o, &n, &sa, &sb)) < 0)
			return true; /* out of memory: nothing was measured enough to pass */
		/* a gap past what a rerun moves is known with one trial a side */
		for (j = 0; j < m && !few; j++) {
			cmp_welch(&sa[j], &sb[j], o->noise_pct, &d);
			few = d.few && !d.beyond;
		}
		cmp_summary_scores(v[0], v[i], n, m, o, &g);
		few = few || (g.few && !g.beyond);
		free(n);
		free(sa);
		free(sb);
	}
	return few;
}

/* "310k ± 5.57k at 1", or without the CI where the peak has none. */
static void
cmp_peak_fig(char *buf, size_t len, const struct analysis *a)
{
	char x[32], ci[32];

	fmt_si(a->x_peak, x, sizeof(x));
	if (isfinite(a->x_peak_ci))
		snprintf(buf, len, "%s ± %s", x, fmt_si(a->x_peak_ci, ci, sizeof(ci)));
	else
		snprintf(buf, len, "%s", x);
}

void
snapshot_compare_peak_words(char *buf, size_t len, struct snapshot *const *v, int i,
			    const struct compare_opts *o)
{
	struct cmp_side_why why;
	struct cmp_diff d;
	char fa[64], fb[64], words[200];

	snapshot_compare_explain(v[0], v[i], v[0]->now.n_peak, v[i]->now.n_peak, o, &d, &why);
	snapshot_compare_diff_words(words, sizeof(words), &d, 'A', (char)('A' + i), &why,
				    snapshot_compare_noise(o));
	cmp_peak_fig(fa, sizeof(fa), &v[0]->now);
	cmp_peak_fig(fb, sizeof(fb), &v[i]->now);
	snprintf(buf, len, "A %s, %c %s: %s", fa, (char)('A' + i), fb, words);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the files of src/report/: compare's sections and statistics.
 * Nothing outside src/report/ includes it.
 */
#ifndef SCALETOP_COMPARE_PRIV_H
#define SCALETOP_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scaletop/report.h"

/* --- comparing targets and waits (snapshot_compare_waits.c) ------------- */

struct snapshot;
/*
 * After compare's table: the target's figures of each snapshot at each N
 * where any has them, and the largest lines of each family's wait profile
 * at each N where two snapshots or more have one, with the differences
 * from the first in points.  Nothing at all when no snapshot has any.
 */
void snapshot_compare_target_text(FILE *f, struct snapshot *const *v, int k);
void snapshot_compare_waits_text(FILE *f, struct snapshot *const *v, int k);
/*
 * Then, at each N where two snapshots or more were sampled on-CPU, each
 * one's lock spin with its top caller and its hottest path
 * (snapshot_compare_hot.c); nothing when fewer were.
 */
void snapshot_compare_hot_text(FILE *f, struct snapshot *const *v, int k);
/*
 * Last, at each N and family where a side's census saw a lock, each side's
 * top locks, the same lock (name and process) on one line with each side's
 * share and most waiters (snapshot_compare_locks.c); as text, and as a
 * table for --markdown.  Nothing when no side ran a census.
 */
void snapshot_compare_locks_text(FILE *f, struct snapshot *const *v, int k);
void snapshot_compare_locks_md(FILE *f, struct snapshot *const *v, int k);
/*
 * The target's figures of sn at n, each the mean over the usable steps that
 * measured it (NaN where none did), into fig[SNAPSHOT_TARGET_NFIGS], in the
 * order of the CSV's columns, snapshot_target_name(i) ("procs", "threads",
 * "cpu_used", ...); false when no usable step at n has a target.
 */
#define SNAPSHOT_TARGET_NFIGS 11
bool snapshot_target_at(const struct snapshot *sn, int n, double *fig);
const char *snapshot_target_name(int i);
/*
 * Fairness side by side (snapshot_compare_fair.c): a section of Jain's index
 * and the starved workers of each snapshot at each of the nn N, left out
 * when none has per-worker counts; and the main CSV table's columns of them,
 * "X jain,X starved" for each snapshot (empty cells without counts).
 */
void snapshot_compare_fair_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn);
void snapshot_compare_fair_csv_head(FILE *f, int k);
void snapshot_compare_fair_csv_cells(FILE *f, struct snapshot *const *v, int k, int n);
/*
 * Latency side by side (snapshot_compare_lat.c), where any side has it at
 * one of the nn N: each side's tail (p99, else its tool's percentile) in
 * ms, the mean over its trials with their lowest and highest, and B/A; as
 * text, as a Markdown table, and as the main CSV table's last columns (the
 * head's false, and no cells, when no side has latency).
 */
void snapshot_compare_lat_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn);
void snapshot_compare_lat_md(FILE *f, struct snapshot *const *v, int k, const int *n, int nn);
bool snapshot_compare_lat_csv_head(FILE *f, struct snapshot *const *v, int k, const int *n, int nn);
void snapshot_compare_lat_csv_cells(FILE *f, struct snapshot *const *v, int k, const int *n, int nn,
				    int at);
/* --markdown's USL (each parameter ± se) and fairness tables: snapshot_compare_md_fit.c. */
void snapshot_compare_md_fits(FILE *f, struct snapshot *const *v, int k);
/* The USL fits as one CSV table: a row per snapshot, each parameter and its se. */
void snapshot_compare_usl_csv(FILE *f, struct snapshot *const *v, int k);
/* The same as CSV tables, each its header and its rows (none: the header alone). */
void snapshot_compare_target_csv(FILE *f, struct snapshot *const *v, int k);
void snapshot_compare_waits_csv(FILE *f, struct snapshot *const *v, int k);

/* --- compare's statistics (snapshot_compare_stats.c) -------------------- */

struct cmp_diff;
struct compare_opts;
/* Why a comparison has no test: each side's usable runs and trials, whether A has an se. */
struct cmp_side_why {
	int a_runs, b_runs;
	int a_trials, b_trials;
	bool a_spread;
};
/* "one trial a side", "2 trials a side", "A has 1 trial, B 3": why there is no test. */
void snapshot_compare_few_words(char *buf, size_t len, int ta, int tb, char la, char lb);
/* Every N any snapshot measured, ascending, into *out (malloc'd); how many, or -1 on ENOMEM. */
int snapshot_compare_all_n(struct snapshot *const *v, int k, int **out);
struct cmp_side;
/* o's noise floor, or the default for o NULL. */
double snapshot_compare_noise(const struct compare_opts *o);
/* o's allowance for a run's own noise (--run-noise), or the default for o NULL. */
double snapshot_compare_run_noise(const struct compare_opts *o);
/*
 * sn's side at n (cmp_side_at) with the allowance for its runs' own noise
 * when it is made of fewer than CMP_RUNS_SEEN files; its usable runs.
 */
int snapshot_compare_side(const struct snapshot *sn, int n, const struct compare_opts *o,
			  struct cmp_side *side);
/* B against A at n: Welch's t with o's noise floor (compare_stats.h). */
void snapshot_compare_diff(const struct snapshot *a, const struct snapshot *b, int n,
			   const struct compare_opts *o, struct cmp_diff *d);
/* A's N na against B's nb (peak against peak), and why there may be no test. */
void snapshot_compare_explain(const struct snapshot *a, const struct snapshot *b, int na, int nb,
			      const struct compare_opts *o, struct cmp_diff *d,
			      struct cmp_side_why *why);
/* "-12.3%" (sign: "+" too) or "-" for NaN: the cells text, CSV's aside, and Markdown share. */
void snapshot_compare_pct(char *buf, size_t len, double pct, bool sign);
/* B/A as "0.54x", or with two significant digits below 0.1 ("0.0023x"); "-" for NaN. */
void snapshot_compare_ratio(char *buf, size_t len, double r);
/*
 * d's 95% CI in % of A: "-14.0% to -10.5%" (words) or "-14.0..-10.5" (a
 * table's cell); "-" untested.
 */
void snapshot_compare_ci(char *buf, size_t len, const struct cmp_diff *d, bool words);
/*
 * "B -12.3% (95% CI -14.0% to -10.5%)", "no difference proven (B -1.2%,
 * 95% CI -4.5% to +2.2%)", "no test: A has no usable run" ...: what d says,
 * as ministat says it.
 */
void snapshot_compare_diff_words(char *buf, size_t len, const struct cmp_diff *d, char la, char lb,
				 const struct cmp_side_why *why, double noise);
/* The one-line summary of v[i] against v[0]: "B is 12.0% slower (95% CI 9.0-15.0%) ...". */
void snapshot_compare_summary(char *buf, size_t len, struct snapshot *const *v, int i,
			      const struct compare_opts *o);
/* That line for each snapshot after the first. */
void snapshot_compare_summary_text(FILE *f, struct snapshot *const *v, int k,
				   const struct compare_opts *o);
/* A ministat-style line per N of n[0..nn-1] for each snapshot after the first. */
void snapshot_compare_stats_text(FILE *f, struct snapshot *const *v, int k, const int *n, int nn,
				 const struct compare_opts *o);
/*
 * The trials each side pooled and the boots they ran in, the runs whose
 * intervals swing (steadiness, which the test does not use), and the
 * self-check of each side of 4 trials or more: its first half of trials
 * against its second (snapshot_compare_trials.c).
 */
void snapshot_compare_trials_text(FILE *f, struct snapshot *const *v, int k,
				  const struct compare_opts *o);
/* "A 310k ± 5.57k, B 274k ± 16.5k: B -11.6% (95% CI ...)": peak against peak. */
void snapshot_compare_peak_words(char *buf, size_t len, struct snapshot *const *v, int i,
				 const struct compare_opts *o);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What is made of loaded snapshots for a person (src/report/): compare's
 * text, CSV and Markdown, the host's lines of show, the gnuplot and folded
 * exports, and the table importer.  The store (snapshot.h) reads and writes
 * the files; nothing here knows JSON.
 */
#ifndef SCALETOP_REPORT_H
#define SCALETOP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scaletop/snapshot.h"

/* --- views of loaded snapshots (src/report/snapshot_compare.c) ------------ */

/*
 * One table aligned on N: each snapshot's throughput and its ratio to the
 * first; then peak against peak, collapse, verdict and USL side by side;
 * then, only where a snapshot has them, the target's figures of each
 * snapshot at each N, and the largest lines of each wait family at each N
 * two snapshots or more have a profile for, with each share and its
 * difference from the first's in points.  Snapshots whose workload differs
 * from the first's get a warning line.
 */
#define SNAPSHOT_COMPARE_MAX 26 /* named A to Z */

/*
 * How compare judges a difference (docs/statistics.md): B against A (the
 * first snapshot) at each N by Welch's t at 95%, counted only above a noise
 * floor of noise_pct % of A.  fail_pct > 0: the --fail-on-regression gate.
 * A NULL opts means compare_opts_default's.
 */
struct compare_opts {
	double noise_pct;     /* >= 0; COMPARE_NOISE_DEFAULT (compare_stats.h) */
	double run_noise_pct; /* >= 0: a run's own noise, for sides of one or two runs */
	double fail_pct;      /* 0: no gate */
};
void compare_opts_default(struct compare_opts *o);

/*
 * The text: a summary line per snapshot after the first (the geometric mean
 * of B/A over N with its CI, each side's collapse), the table with each
 * B/A, B-A in % of A, its 95% CI and a '*' where significant, a
 * ministat-style line per N; then the rest as above.
 */
void snapshot_compare_text(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o);
/*
 * The same table as CSV: n, each throughput, each ratio; then each
 * throughput's 95% CI, and for each snapshot after the first B-A in %, its
 * CI and 1 or 0 for significant; then each snapshot's Jain's index and
 * starved workers ("X jain", "X starved"); empty cells for none.  One table,
 * one header: a CSV reader takes it whole.
 */
void snapshot_compare_csv(FILE *f, struct snapshot *const *v, int k, const struct compare_opts *o);
/*
 * compare's other tables, each as one CSV table in a file of its own
 * (--csv-target, --csv-waits, --csv-usl): the targets' (n, snapshot, the
 * figures), the waits' (n, family, state, channel, each share in %, each
 * difference from A in points) and the USL fits' (a row per snapshot: each
 * parameter and its standard error, N*, X*, rse, points, and "usl",
 * "amdahl" or why there is no fit).  A table no snapshot has rows for is
 * its header alone.
 * Written atomically; an existing file is refused unless force.  0, or -1
 * with a message naming the file.
 */
enum snapshot_compare_table { SNAPSHOT_CMP_TARGET, SNAPSHOT_CMP_WAITS, SNAPSHOT_CMP_USL };
int snapshot_compare_csv_write(const char *path, enum snapshot_compare_table table,
			       struct snapshot *const *v, int k, bool force, char *err,
			       size_t errlen);
/* The summary and the table as GitHub-flavoured Markdown, with a legend (snapshot_compare_md.c). */
void snapshot_compare_markdown(FILE *f, struct snapshot *const *v, int k,
			       const struct compare_opts *o);
/*
 * The gate of --fail-on-regression: true when, at some N, a snapshot after
 * the first is significantly slower than it by more than o->fail_pct %.
 */
bool snapshot_compare_regressed(struct snapshot *const *v, int k, const struct compare_opts *o);
/*
 * The gate's third answer: true when o->fail_pct > 0 and some N (or the
 * summary over N) had too few trials a side for a test, so that the gate
 * can neither pass nor fail it (compare exits 4; docs/statistics.md).
 */
bool snapshot_compare_too_few(struct snapshot *const *v, int k, const struct compare_opts *o);
/*
 * A warning line for each difference from the first snapshot that can
 * change the result (the workload and its parameters, CPUs, SMT, NUMA
 * nodes, the governor and frequency limits, the steps' frequency, step
 * duration, warm-up, scaletop's version), each naming the field and both
 * values; then one "note:" line a snapshot for what an OS comparison
 * changes on purpose (kernel, command line, mitigations, clocksource,
 * scheduler, CPU model, hypervisor).  Fields either side does not know
 * are not compared.  To f; returns how many warnings.
 */
int snapshot_compare_warn(FILE *f, struct snapshot *const *v, int k);

/*
 * Sides of compare made of files (snapshot_side.c): more's steps move into
 * side, each of more's trials a new trial after side's, its N join side's
 * list and side's analysis is recomputed from all of them; more is left
 * empty (free it as usual).  A workload that differs from side's is a
 * warning line in side->warning.  0, or -1 with a message (ENOMEM).
 */
int snapshot_side_add(struct snapshot *side, struct snapshot *more, char *err, size_t errlen);
/* How many files and distinct boots a side is made of (a lone snapshot: 1 file). */
int snapshot_side_files(const struct snapshot *sn);
int snapshot_side_boots(const struct snapshot *sn, int *unknown);

/* The host's fingerprint in a few lines (only what is known), for show. */
void snapshot_host_text(FILE *f, const struct session *s);

/* --- export (src/report/snapshot_gnuplot.c) ------------------------------- */

/* What export --normalise divides each throughput by: nothing, X(1), or N * X(1). */
enum snapshot_norm { SNAPSHOT_NORM_NONE, SNAPSHOT_NORM_SPEEDUP, SNAPSHOT_NORM_EFFICIENCY };

/*
 * Writes BASE.dat (one block per snapshot: N, throughput, its CI; normalised,
 * N, the ratio, its CI scaled the same way, then the throughput and its CI)
 * and BASE.gp, a gnuplot script drawing each snapshot against N with CI
 * error bars, its ideal linear line, its USL curve and its peak and collapse
 * marks, into BASE.png or BASE.svg (term "png" or "svg").  The y axis is
 * logarithmic with log_y 1, linear with 0, and with -1 logarithmic when the
 * series' maxima differ more than tenfold.  Normalised, a snapshot without a
 * point at N = 1 is refused.  0, or -1 with a message.
 */
int snapshot_gnuplot_write(const char *base, const char *term, enum snapshot_norm norm, int log_y,
			   struct snapshot *const *v, int k, bool force, char *err, size_t errlen);

/*
 * export --gnuplot --latency (src/report/snapshot_gnuplot_lat.c): BASE.dat
 * holds per snapshot and N the p50 and the tail (p99, else the tool's
 * percentile), the mean over the trials with the lowest and highest
 * trial's, and BASE.gp draws them against N on a log y axis, one line per
 * percentile and snapshot.  A snapshot without latency is refused.  0, or
 * -1 with a message.
 */
int snapshot_gnuplot_latency_write(const char *base, const char *term, struct snapshot *const *v,
				   int k, bool force, char *err, size_t errlen);

/*
 * Whether the snapshots' workloads or units differ; if so, buf says what each
 * is: "a.json is fileio (writes/s against writers), b.json is mutex (...)".
 */
bool snapshot_gnuplot_mixed(struct snapshot *const *v, int k, char *buf, size_t len);

/* --- export --folded (src/report/snapshot_folded.c) ---------------------- */

/*
 * Writes sn's whole stacks in the collapsed-stack format to path (NULL or
 * "-": standard output; a file is replaced only with force): at N n (0:
 * every N, each line under a root frame "N=<n>"), the on-CPU samples, or
 * with offcpu the blocked threads' kernel stacks in milliseconds.  0, or
 * -1 with a message (no step at n, no stacks of that kind, a write failed).
 */
int snapshot_folded_write(const char *path, bool force, const struct snapshot *sn, int n,
			  bool offcpu, char *err, size_t errlen);

/* --- import (src/report/snapshot_import.c, snapshot_import_table.c) -------- */

struct snapshot_import {
	const char *label;  /* NULL: the column's name from the header */
	const char *desc;   /* free text, or NULL */
	const char *unit;   /* what one operation is; NULL: "ops" */
	const char *n_unit; /* what N counts; NULL: "threads" */
};

/* A table's limits: its columns, and the bytes of a column's name. */
#define SNAPSHOT_TABLE_MAX_COLUMNS 64
#define SNAPSHOT_COLUMN_MAX 63

/*
 * A table of published results, read whole: CSV (quoted fields allowed) or
 * whitespace-separated, N in the first column, '#' comments and blank lines
 * skipped.  A first line that does not start with a number is the header:
 * it names the columns, and a name "X_sd" (or "X ±", or a bare "sd" or
 * "±" after X) is the stddev of throughput column X, "X_runs" (or "runs")
 * its number of runs.  Without a header the lines are
 * "N,throughput[,stddev[,runs]]".  docs/snapshot-format.md has the rules.
 */
struct snapshot_table;

/*
 * Reads buf[0..len-1] into *t (free it with snapshot_table_free).  name is
 * the file's, for messages.  0, or -1 with one line, "name:LINE:COLUMN:
 * what was expected" for a bad field, and *t NULL.
 */
int snapshot_table_read(const char *buf, size_t len, const char *name, struct snapshot_table **t,
			char *err, size_t errlen);
void snapshot_table_free(struct snapshot_table *t);
/* Its columns of throughput, and the name of the i-th ("" without a header). */
int snapshot_table_count(const struct snapshot_table *t);
const char *snapshot_table_column(const struct snapshot_table *t, int i);
/* The index of the throughput column called column, or -1 with a message listing them. */
int snapshot_table_find(const struct snapshot_table *t, const char *column, char *err,
			size_t errlen);
/*
 * The session of throughput column i (its rows with a value), workload
 * "imported"; s is initialised here (free it with session_free even on
 * failure).  0, or -1 with a message.
 */
int snapshot_table_session(const struct snapshot_table *t, int i, const struct snapshot_import *o,
			   struct session *s, struct snapshot_meta *m, char *err, size_t errlen);

/*
 * snapshot_table_read and snapshot_table_session of a table with exactly one
 * column of throughput (more are refused, naming them).  0, or -1 with
 * "name:LINE:COLUMN: what was expected".
 */
int snapshot_import_csv(const char *buf, size_t len, const char *name,
			const struct snapshot_import *o, struct session *s, struct snapshot_meta *m,
			char *err, size_t errlen);

#endif

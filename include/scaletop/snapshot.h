/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Snapshots: one session frozen into a JSON file ("format":
 * "scaletop-snapshot"), so that one machine, OS release or kernel option can
 * later be compared with another.  docs/snapshot-format.md describes every
 * field and docs/snapshot.schema.json is its JSON Schema.
 */
#ifndef SCALETOP_SNAPSHOT_H
#define SCALETOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scaletop/analysis.h"
#include "scaletop/error.h"
#include "scaletop/session.h"

/*
 * The writer replaces a file atomically (temp file in the same folder, fsync,
 * rename, fsync of the folder) and never replaces one unless asked.  The
 * reader checks every field's type and range and fills a struct session, so
 * every view works on a loaded snapshot exactly as on a live sweep.
 */

/* A snapshot bigger than this is refused unread: damaged, or not a snapshot. */
#define SNAPSHOT_MAX_BYTES ((size_t)64 << 20)
/* Above this many per-CPU values the tick series is saved without its per-CPU part. */
#define SNAPSHOT_SERIES_MAX_VALUES (1 << 21)

/* The boot ids a side made of files keeps (it counts the rest). */
#define SNAPSHOT_SIDE_BOOTS 16

/* What a snapshot says about itself, beyond the session. */
struct snapshot_meta {
	char label[256];    /* default: "hostname OS release" */
	char taken[32];     /* ISO-8601 UTC when it was saved */
	char tool_name[64]; /* of the scaletop that wrote it */
	char tool_version[64];
};

/* A loaded snapshot.  Free it with snapshot_free. */
struct snapshot {
	char name[256]; /* the file it came from, for messages and legends */
	struct session s;
	struct snapshot_meta meta;
	struct analysis saved;   /* the analysis as the writer computed it; pts owned */
	struct analysis now;     /* recomputed from the steps by this scaletop; pts owned */
	char warning[ST_ERRLEN]; /* "" or one line: how saved and recomputed disagree */
	char repair[ST_ERRLEN];  /* "" or one line: what was set aside to read the file */
	/* A side of compare made of several files (snapshot_side_add); 0 files: this one. */
	int files;
	int nboots;        /* distinct boot ids among them, the first SNAPSHOT_SIDE_BOOTS kept */
	int boots_unknown; /* files that do not say their boot */
	char boot[SNAPSHOT_SIDE_BOOTS][64];
};

/* The default label and the current time, for session s. */
void snapshot_meta_default(struct snapshot_meta *m, const struct session *s);

/*
 * Writes s to path atomically, with mode 0644 (less the umask).  An existing
 * file is refused unless force.  m NULL means snapshot_meta_default.  0, or
 * -1 with a one-line message naming the file and the reason (EACCES,
 * ENOSPC ...); on failure the old file, if any, is untouched.
 */
int snapshot_save(const char *path, const struct session *s, const struct snapshot_meta *m,
		  bool force, char *err, size_t errlen);

/*
 * Checks buf[0..len-1] (need not be NUL-terminated) and fills s, which it
 * initialises (free it with session_free even on failure).  name is used in
 * messages only.  0, or -1 with one line: "name:LINE:COLUMN: ..." for text
 * that is not JSON, else "name: FIELD.PATH: ..." saying what was expected.
 * This is the whole loader minus I/O, for fuzzing.
 */
int snapshot_parse(const char *buf, size_t len, const char *name, struct session *s, char *err,
		   size_t errlen);

/* snapshot_parse, plus the meta data, the saved analysis and its recomputation. */
int snapshot_read(const char *buf, size_t len, const char *name, struct snapshot *snap, char *err,
		  size_t errlen);

/*
 * Reads a whole file ("-": standard input) of at most SNAPSHOT_MAX_BYTES
 * into *buf (malloc'd, not NUL-terminated).  0, or -1 with a message.
 */
int snapshot_file_read(const char *path, char **buf, size_t *len, char *err, size_t errlen);

/* Reads the file (at most SNAPSHOT_MAX_BYTES) and snapshot_read's it. */
int snapshot_load(const char *path, struct snapshot *snap, char *err, size_t errlen);

void snapshot_init(struct snapshot *snap);
void snapshot_free(struct snapshot *snap);

/* The shortest decimal text that reads back as v, with '.' whatever the locale. */
void snapshot_number(char *buf, size_t len, double v);
/* strtod with '.' as the decimal point whatever the locale. */
double snapshot_strtod(const char *s, char **end);

/* --- views of loaded snapshots (src/store/snapshot_compare.c) ------------ */

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

/* --- export (src/store/snapshot_gnuplot.c) ------------------------------- */

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
 * Whether the snapshots' workloads or units differ; if so, buf says what each
 * is: "a.json is fileio (writes/s against writers), b.json is mutex (...)".
 */
bool snapshot_gnuplot_mixed(struct snapshot *const *v, int k, char *buf, size_t len);

/* --- export --folded (src/store/snapshot_folded.c) ---------------------- */

/*
 * Writes sn's whole stacks in the collapsed-stack format to path (NULL or
 * "-": standard output; a file is replaced only with force): at N n (0:
 * every N, each line under a root frame "N=<n>"), the on-CPU samples, or
 * with offcpu the blocked threads' kernel stacks in milliseconds.  0, or
 * -1 with a message (no step at n, no stacks of that kind, a write failed).
 */
int snapshot_folded_write(const char *path, bool force, const struct snapshot *sn, int n,
			  bool offcpu, char *err, size_t errlen);

/* --- import (src/store/snapshot_import.c, snapshot_import_table.c) -------- */

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

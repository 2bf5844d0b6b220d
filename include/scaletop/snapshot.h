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

/* CSV cells: text quoted (a '"' doubled), and ",number" (empty when not finite), C locale. */
void snapshot_csv_text(FILE *f, const char *s);
void snapshot_csv_num(FILE *f, double x);
/* Text for a Markdown cell or line: '|', '\' and the emphasis marks escaped, newlines spaces. */
void snapshot_md_text(FILE *f, const char *s);

/*
 * Writes path through fill(f, arg): a temp file in the same folder, fsync,
 * rename over path (only if force when path exists), fsync of the folder.
 * fill returns 0 or -1 (errno).  0, or -1 with "path: why; what to do".
 */
int snapshot_atomic_write(const char *path, bool force, int (*fill)(FILE *, void *), void *arg,
			  char *err, size_t errlen);

/*
 * Fairness at n: the mean Jain's index and the most starved workers over the
 * usable steps at n that counted per-worker operations; false when none did.
 * snapshot_fairness.c.
 */
bool snapshot_fairness_at(const struct snapshot *sn, int n, double *jain, int *starved);

/* The shortest decimal text that reads back as v, with '.' whatever the locale. */
void snapshot_number(char *buf, size_t len, double v);
/* strtod with '.' as the decimal point whatever the locale. */
double snapshot_strtod(const char *s, char **end);

#endif

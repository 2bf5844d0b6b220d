/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A table of published results as snapshot_import_table.c reads it and
 * snapshot_import.c turns it into sessions: its columns, what each one
 * holds, and its rows of numbers.  Private to src/store/.
 */
#ifndef SCALETOP_IMPORT_TABLE_H
#define SCALETOP_IMPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "scaletop/nlist.h"
#include "scaletop/report.h"

/* What a column holds; its header's name says (docs/snapshot-format.md). */
enum import_kind { IMPORT_N, IMPORT_X, IMPORT_SD, IMPORT_RUNS };

struct import_col {
	char name[SNAPSHOT_COLUMN_MAX + 1]; /* "" in a table without a header */
	enum import_kind kind;
	int owner;    /* IMPORT_SD, IMPORT_RUNS: the throughput column they belong to */
	int sd, runs; /* IMPORT_X: its stddev and runs columns, or -1 */
};

struct import_row {
	long n;
	size_t lineno;
	double *v; /* a value per column, NaN where the row gives none */
};

struct snapshot_table {
	char *name;     /* the file's, for messages and the workload's source */
	time_t read_at; /* when it was read: every snapshot made of it was taken then */
	bool header;
	int ncols;
	struct import_col col[SNAPSHOT_TABLE_MAX_COLUMNS];
	int nx;
	int x[SNAPSHOT_TABLE_MAX_COLUMNS]; /* the throughput columns, in the file's order */
	struct import_row *rows;
	int nrows, cap;
	size_t first_line[NLIST_MAX + 1]; /* the line each N was given on, 0: not yet */
};

/* --- the fields of a line (snapshot_import_fields.c) --------------------- */

#define IMPORT_FIELD_MAX 256

/* Where the reader is: the table it fills, where messages go, the line, the separator. */
struct import_reader {
	struct snapshot_table *t;
	char *err;
	size_t errlen;
	const char *line; /* start of the current line */
	size_t lineno;
	char sep; /* ',' in CSV, 0 where blanks separate the fields */
};

struct import_field {
	const char *at;  /* its first byte in the line (its quote, if quoted) */
	const char *sep; /* the ',' before it in CSV; else at */
	size_t rawlen;   /* its bytes in the line */
	size_t len;      /* of its text, unquoted */
	char text[IMPORT_FIELD_MAX];
};

/*
 * "name:LINE:COLUMN: 'field': why" into im's err, the field shown when len
 * > 0 (at most 40 bytes of it), the column at's.  Returns -1.
 */
int import_fail_at(struct import_reader *im, const char *at, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void import_blanks(const char **p, const char *end);
/* The next field of the line at *p: 1, 0 when the line has no more, -1 with a message. */
int import_next(struct import_reader *im, const char **p, const char *end, bool first,
		struct import_field *f);
/* A plain decimal number, no hex, nan or inf; an integer in [min, max].  0 or -1. */
int import_number(const struct import_field *f, double *out);
int import_integer(const struct import_field *f, long min, long max, long *out);
/* ',' when the line is CSV (a ',' outside quotes, or a single field), else 0: blanks. */
char import_separator(const char *p, const char *end);

#endif

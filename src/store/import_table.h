/*
 * A table of published results as snapshot_import_table.c reads it and
 * snapshot_import.c turns it into sessions: its columns, what each one
 * holds, and its rows of numbers.  Private to src/store/.
 */
#ifndef SCALETOP_IMPORT_TABLE_H
#define SCALETOP_IMPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/nlist.h"
#include "scaletop/snapshot.h"

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
	char *name; /* the file's, for messages and the workload's source */
	bool header;
	int ncols;
	struct import_col col[SNAPSHOT_TABLE_MAX_COLUMNS];
	int nx;
	int x[SNAPSHOT_TABLE_MAX_COLUMNS]; /* the throughput columns, in the file's order */
	struct import_row *rows;
	int nrows, cap;
	size_t first_line[NLIST_MAX + 1]; /* the line each N was given on, 0: not yet */
};

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the importer of published tables: snapshot_table_read
 * (CSV with quotes, tables separated by blanks, headers naming columns of
 * throughput, stddev and runs), then a session of every column, and the
 * one-column snapshot_import_csv.  Any input must give 0 or one error line;
 * never a crash, a leak, or a session out of order.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failure is exactly one line. */
static void
fuzz_one_line(int rc, const char *err)
{
	if (rc != 0 && (err[0] == '\0' || strchr(err, '\n') != NULL))
		abort();
}

/* What the views rely on: one step per N, each a positive throughput, and the N list sorted. */
static void
fuzz_check(const struct session *s)
{
	int i;

	if (s->nsteps < 1 || s->set.nn != s->nsteps)
		abort();
	for (i = 0; i < s->nsteps; i++) {
		if (!(s->steps[i].ops_s > 0) || !isfinite(s->steps[i].ops_s))
			abort();
	}
	for (i = 1; i < s->set.nn; i++) {
		if (s->set.n[i] <= s->set.n[i - 1])
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot_import o = { "fuzz", NULL, NULL, NULL };
	struct snapshot_table *t = NULL;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN];
	int i, rc;

	err[0] = '\0';
	rc = snapshot_table_read((const char *)data, size, "fuzz.csv", &t, err, sizeof(err));
	fuzz_one_line(rc, err);
	for (i = 0; rc == 0 && i < snapshot_table_count(t); i++) {
		if (snapshot_table_find(t, snapshot_table_column(t, i), err, sizeof(err)) < 0 &&
		    snapshot_table_column(t, i)[0] != '\0')
			abort(); /* every column is found by its own name */
		if (snapshot_table_session(t, i, &o, &s, &m, err, sizeof(err)) != 0)
			abort(); /* a table that reads has a session for each column */
		fuzz_check(&s);
		session_free(&s);
	}
	if (rc == 0 && snapshot_table_find(t, "\x01no such column", err, sizeof(err)) != -1)
		abort();
	snapshot_table_free(t);
	rc = snapshot_import_csv((const char *)data, size, "fuzz.csv", &o, &s, &m, err,
				 sizeof(err));
	fuzz_one_line(rc, err);
	if (rc == 0)
		fuzz_check(&s);
	session_free(&s);
	return 0;
}

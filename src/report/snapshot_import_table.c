/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reader of published tables: CSV or whitespace-separated text, with a
 * header naming the columns (one per system, each with an optional stddev
 * and runs column) or, as before tables, lines of
 * "N,throughput[,stddev[,runs]]".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scaletop/format.h"
#include "scaletop/grow.h"
#include "import_table.h"
#include "compare_priv.h"

#define IMPORT_MAX_RUNS 1000000

/*
 * Every refusal names the file, the line and the column (in bytes, from 1)
 * and what to do: a published figure is taken only when its field reads
 * whole, never guessed.
 */

/* The reader's state and a line's fields: import_table.h. */

/* --- the header ------------------------------------------------------------ */

/* s ends with suffix (any case) after at least one byte: the length before it, else 0. */
static size_t
imp_suffix(const char *s, size_t len, const char *suffix)
{
	size_t k = strlen(suffix);

	if (len <= k || strcasecmp(s + len - k, suffix) != 0)
		return 0;
	while (len > k && (s[len - k - 1] == ' ' || s[len - k - 1] == '\t'))
		len--;
	return len - k;
}

/*
 * Which throughput column a stddev or runs column belongs to: a bare name
 * ("sd", "±", "runs") the nearest one to its left, "X_sd" or "X ±" the one
 * called X.  -1: f names a throughput column; -2: refused.
 */
static int
imp_owner(struct import_reader *im, const struct import_field *f, const char *const *bare,
	  const char *const *suffix, const char *what)
{
	const struct snapshot_table *t = im->t;
	size_t k;
	int i, j;

	for (i = 0; bare[i] != NULL; i++) {
		if (strcasecmp(f->text, bare[i]) != 0)
			continue;
		if (t->nx > 0)
			return t->x[t->nx - 1];
		import_fail_at(im, f->at, f->rawlen,
			       "a %s column with no column of throughput before it; put it after "
			       "the column it belongs to",
			       what);
		return -2;
	}
	for (i = 0; suffix[i] != NULL; i++) {
		if ((k = imp_suffix(f->text, f->len, suffix[i])) == 0)
			continue;
		for (j = t->nx - 1; j >= 0; j--) {
			if (strlen(t->col[t->x[j]].name) == k &&
			    strncmp(t->col[t->x[j]].name, f->text, k) == 0)
				return t->x[j];
		}
		import_fail_at(im, f->at, f->rawlen,
			       "the %s of '%.*s', but no column of throughput before it has that "
			       "name; name it after its column",
			       what, (int)k, f->text);
		return -2;
	}
	return -1;
}

/*
 * Stddev or runs column i belongs to owner; a bare "runs" also to every
 * throughput column before it that has none (one count for the whole table).
 */
static int
imp_attach(struct import_reader *im, const struct import_field *f, int i, int owner)
{
	struct snapshot_table *t = im->t;
	struct import_col *c = &t->col[i];
	int j;

	c->owner = owner;
	if (c->kind == IMPORT_SD && t->col[owner].sd < 0) {
		t->col[owner].sd = i;
		return 0;
	}
	if (c->kind == IMPORT_RUNS && t->col[owner].runs < 0) {
		for (j = 0; strcasecmp(c->name, "runs") == 0 && j < t->nx; j++) {
			if (t->col[t->x[j]].runs < 0)
				t->col[t->x[j]].runs = i;
		}
		t->col[owner].runs = i;
		return 0;
	}
	return import_fail_at(im, f->at, f->rawlen, "a second %s column for '%s'; give one",
			      c->kind == IMPORT_SD ? "stddev" : "runs", t->col[owner].name);
}

/* Column i of the header: N, a throughput, or a stddev or runs column. */
static int
imp_column(struct import_reader *im, const struct import_field *f, int i)
{
	static const char *const sd_bare[] = { "sd",       "stddev", "stdev", "std",
					       "\xc2\xb1", "+-",     "+/-",   NULL };
	static const char *const sd_suffix[] = { "_sd",      "_stddev", "_stdev", "_std",
						 " sd",      " stddev", " stdev", " std",
						 "\xc2\xb1", "+-",      "+/-",    NULL };
	static const char *const runs_bare[] = { "runs", NULL };
	static const char *const runs_suffix[] = { "_runs", " runs", NULL };
	struct snapshot_table *t = im->t;
	struct import_col *c = &t->col[i];
	int j, owner;

	if (f->len == 0)
		return import_fail_at(im, f->at, 0, "an empty column name; name every column");
	if (f->len > SNAPSHOT_COLUMN_MAX)
		return import_fail_at(im, f->at, f->rawlen,
				      "a column name over %d bytes; shorten it",
				      SNAPSHOT_COLUMN_MAX);
	memcpy(c->name, f->text, f->len);
	c->name[f->len] = '\0';
	utf8_scrub(c->name);
	c->sd = c->runs = c->owner = -1;
	c->kind = i == 0 ? IMPORT_N : IMPORT_X;
	if (i == 0)
		return 0;
	if ((owner = imp_owner(im, f, sd_bare, sd_suffix, "standard deviation")) < -1)
		return -1;
	if (owner >= 0) {
		c->kind = IMPORT_SD;
	} else if ((owner = imp_owner(im, f, runs_bare, runs_suffix, "number of runs")) < -1) {
		return -1;
	} else if (owner >= 0) {
		c->kind = IMPORT_RUNS;
	}
	if (c->kind != IMPORT_X)
		return imp_attach(im, f, i, owner);
	for (j = 0; j < i; j++) {
		if (strcmp(t->col[j].name, c->name) == 0)
			return import_fail_at(im, f->at, f->rawlen,
					      "column %d has this name too; name each column once",
					      j + 1);
	}
	t->x[t->nx++] = i;
	return 0;
}

static int
imp_header(struct import_reader *im, const char *p, const char *end)
{
	struct snapshot_table *t = im->t;
	struct import_field f;
	int i, rc;

	t->header = true;
	for (i = 0; (rc = import_next(im, &p, end, i == 0, &f)) == 1; i++) {
		if (i == SNAPSHOT_TABLE_MAX_COLUMNS)
			return import_fail_at(im, f.at, f.rawlen,
					      "a table has at most %d columns; split it",
					      SNAPSHOT_TABLE_MAX_COLUMNS);
		if (imp_column(im, &f, i) != 0)
			return -1;
	}
	t->ncols = i;
	if (rc < 0)
		return -1;
	if (t->nx == 0)
		return import_fail_at(im, end, 0,
				      "the header names no column of throughput; after N, name a "
				      "column for each system (and NAME_sd for its stddev)");
	return 0;
}

/* Without a header the columns are N, throughput, stddev, runs, as lines always were. */
static void
imp_positional(struct snapshot_table *t)
{
	static const enum import_kind kind[] = { IMPORT_N, IMPORT_X, IMPORT_SD, IMPORT_RUNS };
	int i;

	for (i = 0; i < 4; i++) {
		t->col[i].kind = kind[i];
		t->col[i].owner = i >= 2 ? 1 : -1;
		t->col[i].sd = t->col[i].runs = -1;
	}
	t->col[1].sd = 2;
	t->col[1].runs = 3;
	t->ncols = 4;
	t->nx = 1;
	t->x[0] = 1;
}

/* --- the rows --------------------------------------------------------------- */

/* " for 'NAME'" naming the system column i belongs to, in a table with a header. */
static const char *
imp_for(const struct import_reader *im, int i, char *buf, size_t size)
{
	const struct import_col *c = &im->t->col[i];

	buf[0] = '\0';
	if (im->t->header)
		snprintf(buf, size, " for '%s'", im->t->col[c->owner >= 0 ? c->owner : i].name);
	return buf;
}

static int
imp_n(struct import_reader *im, const struct import_field *f, struct import_row *r)
{
	struct snapshot_table *t = im->t;

	if (import_integer(f, NLIST_MIN, NLIST_MAX, &r->n) != 0)
		return import_fail_at(im, f->at, f->rawlen,
				      "expected N, an integer from 1 to 4096");
	if (t->first_line[r->n] != 0)
		return import_fail_at(im, f->at, f->rawlen,
				      "N %ld again (line %zu has it); give one row per N, repeated "
				      "runs as their mean, stddev and runs",
				      r->n, t->first_line[r->n]);
	t->first_line[r->n] = im->lineno;
	return 0;
}

/* Field f of column i; with a header, '-' or nothing is no figure. */
static int
imp_cell(struct import_reader *im, const struct import_field *f, int i, struct import_row *r)
{
	const struct import_col *c = &im->t->col[i];
	const char *none = im->t->header ? ", or '-' for none" : "";
	char who[SNAPSHOT_COLUMN_MAX + 16];
	long runs;

	if (c->kind == IMPORT_N)
		return imp_n(im, f, r);
	if (im->t->header && (f->len == 0 || strcmp(f->text, "-") == 0))
		return 0;
	imp_for(im, i, who, sizeof(who));
	if (c->kind == IMPORT_X && (import_number(f, &r->v[i]) != 0 || !(r->v[i] > 0)))
		return import_fail_at(im, f->at, f->rawlen,
				      "expected a throughput%s, a number > 0%s", who, none);
	if (c->kind == IMPORT_SD && (import_number(f, &r->v[i]) != 0 || r->v[i] < 0))
		return import_fail_at(im, f->at, f->rawlen,
				      "expected a standard deviation%s, a number >= 0%s", who,
				      none);
	if (c->kind == IMPORT_RUNS) {
		if (import_integer(f, 1, IMPORT_MAX_RUNS, &runs) != 0)
			return import_fail_at(im, f->at, f->rawlen,
					      "expected the number of runs%s, an integer from 1 to "
					      "1000000%s",
					      who, none);
		r->v[i] = (double)runs;
	}
	return 0;
}

/* Whether a figure of the row uses stddev or runs column i. */
static bool
imp_used(const struct snapshot_table *t, const struct import_row *r, int i)
{
	int j;

	for (j = 0; j < t->nx; j++) {
		if ((t->col[t->x[j]].sd == i || t->col[t->x[j]].runs == i) && !isnan(r->v[t->x[j]]))
			return true;
	}
	return false;
}

/* A stddev or runs needs its throughput, and one run has no stddev. */
static int
imp_row_check(struct import_reader *im, const struct import_row *r, const struct import_field *pos)
{
	const struct snapshot_table *t = im->t;
	const struct import_col *c;
	int i;

	for (i = 1; i < t->ncols; i++) {
		c = &t->col[i];
		if (c->kind == IMPORT_X && c->runs >= 0 && c->sd >= 0 && !isnan(r->v[i]) &&
		    r->v[c->runs] == 1 && r->v[c->sd] > 0)
			return import_fail_at(
				im, pos[c->runs].at, pos[c->runs].rawlen,
				"one run has no standard deviation; expected runs >= 2");
		if (c->kind == IMPORT_X || isnan(r->v[i]) || imp_used(t, r, i))
			continue;
		return import_fail_at(im, pos[i].at, pos[i].rawlen,
				      "a %s for '%s', which has no throughput in this row; give "
				      "both or neither",
				      c->kind == IMPORT_SD ? "stddev" : "number of runs",
				      t->col[c->owner].name);
	}
	return 0;
}

/* A row ended before column i: fine if no column from i on is a throughput. */
static int
imp_short_row(struct import_reader *im, int i, const char *end)
{
	const struct snapshot_table *t = im->t;
	int j;

	for (j = i; j < t->ncols && t->col[j].kind != IMPORT_X; j++)
		;
	if (j == t->ncols)
		return 0;
	if (!t->header)
		return import_fail_at(im, end, 0, "expected %sa throughput after N",
				      im->sep == ',' ? "',' and " : "");
	return import_fail_at(im, end, 0,
			      "the row has %d field%s where the header has %d; give each "
			      "column a value, '-' for none",
			      i, i == 1 ? "" : "s", t->ncols);
}

static int
imp_row(struct import_reader *im, const char *p, const char *end)
{
	struct snapshot_table *t = im->t;
	struct import_field f, pos[SNAPSHOT_TABLE_MAX_COLUMNS];
	struct import_row *r;
	int i, rc;

	if (grow_array_int(&t->rows, &t->cap, t->nrows + 1, sizeof(*t->rows), 16) != 0)
		return st_error(im->err, im->errlen, "%s: out of memory", t->name);
	r = &t->rows[t->nrows];
	if ((r->v = malloc(sizeof(double) * (size_t)t->ncols)) == NULL)
		return st_error(im->err, im->errlen, "%s: out of memory", t->name);
	t->nrows++;
	r->lineno = im->lineno;
	for (i = 0; i < t->ncols; i++)
		r->v[i] = NAN;
	for (i = 0; (rc = import_next(im, &p, end, i == 0, &f)) == 1; i++) {
		if (i == t->ncols && !t->header)
			return import_fail_at(im, f.sep, 0,
					      "expected the end of the line: the fields are "
					      "N,throughput[,stddev[,runs]]");
		if (i == t->ncols)
			return import_fail_at(
				im, f.sep, 0,
				"a field beyond the header's %d columns; give each row "
				"as many fields as the header names",
				t->ncols);
		pos[i] = f;
		if (imp_cell(im, &f, i, r) != 0)
			return -1;
	}
	if (rc < 0 || imp_short_row(im, i, end) != 0)
		return -1;
	return imp_row_check(im, r, pos);
}

/* --- the lines --------------------------------------------------------------- */

/* A header: the first line's first field does not start like a number. */
static bool
imp_is_header(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && !isdigit((unsigned char)*p) && *p != '+' && *p != '-' && *p != '.';
}

/* One line, without its terminator: a comment, the header, or a row. */
static int
imp_line(struct import_reader *im, const char *p, const char *e, bool *first)
{
	const char *q = p, *nul = memchr(p, '\0', (size_t)(e - p));

	im->line = p;
	if (nul != NULL)
		return import_fail_at(im, nul, 0, "a NUL byte; expected text");
	if (e > p && e[-1] == '\r')
		e--;
	import_blanks(&q, e);
	if (q == e || *q == '#')
		return 0;
	if (*first) {
		*first = false;
		im->sep = import_separator(q, e);
		if (imp_is_header(q, e))
			return imp_header(im, p, e);
		imp_positional(im->t);
	}
	return imp_row(im, p, e);
}

static int
imp_lines(struct import_reader *im, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *eol;
	bool first = true;

	for (im->lineno = 1; p < end; im->lineno++, p = eol + 1) {
		for (eol = p; eol < end && *eol != '\n'; eol++)
			;
		if (imp_line(im, p, eol, &first) != 0)
			return -1;
	}
	return 0;
}

/* Something to import: a row, and a figure in every column of throughput. */
static int
imp_done(struct import_reader *im)
{
	const struct snapshot_table *t = im->t;
	int i, j;

	if (t->nrows == 0 && !t->header)
		return st_error(im->err, im->errlen,
				"%s: no data lines; expected lines of "
				"N,throughput[,stddev[,runs]]",
				t->name);
	if (t->nrows == 0)
		return st_error(im->err, im->errlen,
				"%s: no rows after the header; expected a row per N", t->name);
	for (i = 0; i < t->nx; i++) {
		for (j = 0; j < t->nrows && isnan(t->rows[j].v[t->x[i]]); j++)
			;
		if (j == t->nrows)
			return st_error(im->err, im->errlen,
					"%s: column '%s' has no figure in any row; give one, "
					"or leave the column out",
					t->name, t->col[t->x[i]].name);
	}
	return 0;
}

int
snapshot_table_read(const char *buf, size_t len, const char *name, struct snapshot_table **tp,
		    char *err, size_t errlen)
{
	struct import_reader im = { NULL, err, errlen, buf, 0, ',' };
	struct snapshot_table *t;

	*tp = NULL;
	if ((t = calloc(1, sizeof(*t))) == NULL || (t->name = strdup(name)) == NULL) {
		free(t);
		return st_error(err, errlen, "%s: out of memory", name);
	}
	im.t = t;
	t->read_at = time(NULL);
	if (imp_lines(&im, buf, len) != 0 || imp_done(&im) != 0) {
		snapshot_table_free(t);
		return -1;
	}
	*tp = t;
	return 0;
}

void
snapshot_table_free(struct snapshot_table *t)
{
	int i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrows; i++)
		free(t->rows[i].v);
	free(t->rows);
	free(t->name);
	free(t);
}

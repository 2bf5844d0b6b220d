/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Import of published results: each column of throughput of a table that
 * snapshot_import_table.c read becomes a snapshot of workload "imported",
 * so a paper's or a mailing list's figures can be compared with a run of
 * one's own.  Only what the table says is recorded; every figure it does
 * not give is null.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import_table.h"
#include "scaletop/report.h"
#include "compare_priv.h"

struct imp {
	const char *name;
	char *err;
	size_t errlen;
};

struct imp_row {
	long n;
	double x, sd; /* sd NaN when not given */
	long runs;    /* 0 when not given */
};

/*
 * The step's interval statistics from what was published: one figure is one
 * sample; a mean of runs with a stddev gives a CI; a stddev without the runs
 * is kept without one.
 */
static void
imp_stats(struct step *st, const struct imp_row *r)
{
	struct stats *t = &st->st;
	long k = r->runs > 0 ? r->runs : (isnan(r->sd) ? 1 : 0);

	memset(t, 0, sizeof(*t));
	t->n = (size_t)k;
	t->mean = r->x;
	if (k == 1) {
		t->median = t->min = t->max = r->x;
		return;
	}
	if (k == 0) {
		t->stddev = r->sd;
		return;
	}
	t->median = t->min = t->max = NAN;
	t->stddev = r->sd;
	t->ci95 = isnan(r->sd) ? NAN : stats_t95((unsigned long)k - 1) * r->sd / sqrt((double)k);
	t->ci95_ac = t->ci95; /* independent runs: nothing to widen */
	t->have_spread = !isnan(r->sd);
}

static int
imp_add(struct imp *im, struct session *s, const struct imp_row *r)
{
	struct step *st;

	/* The table has one row per N, so each step is the only one at its N. */
	if ((st = session_add_step(s, (int)r->n, 0)) == NULL)
		return st_error(im->err, im->errlen, "%s: out of memory", im->name);
	st->status = STEP_OK;
	st->start_s = st->warmup_s = st->window_s = NAN;
	st->ops_s = r->x;
	st->no_intervals = true;
	imp_stats(st, r);
	s->set.repeat = 1;
	s->set.trials = 1;
	return 0;
}

static int
imp_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* settings.n: the distinct N of the steps, ascending. */
static int
imp_nlist(struct imp *im, struct session *s)
{
	int i, m = 0;

	if ((s->set.n = malloc(sizeof(int) * (size_t)s->nsteps)) == NULL)
		return st_error(im->err, im->errlen, "%s: out of memory", im->name);
	for (i = 0; i < s->nsteps; i++)
		s->set.n[i] = s->steps[i].n;
	qsort(s->set.n, (size_t)s->nsteps, sizeof(int), imp_int_cmp);
	for (i = 0; i < s->nsteps; i++) {
		if (m == 0 || s->set.n[i] != s->set.n[m - 1])
			s->set.n[m++] = s->set.n[i];
	}
	s->set.nn = m;
	return 0;
}

static int
imp_text(struct imp *im, char *dst, size_t size, const char *src, const char *what)
{
	if (strlen(src) >= size)
		return st_error(im->err, im->errlen, "%s is %zu bytes long; give at most %zu", what,
				strlen(src), size - 1);
	snprintf(dst, size, "%s", src);
	return 0;
}

/* The workload: what the numbers count, and where they came from. */
static int
imp_workload(struct imp *im, const struct snapshot_import *o, struct session *s)
{
	struct workload_desc *w = &s->wl;
	const char *slash = strrchr(im->name, '/');

	snprintf(w->name, sizeof(w->name), "imported");
	if (imp_text(im, w->unit, sizeof(w->unit), o->unit ? o->unit : "ops", "--unit") != 0 ||
	    imp_text(im, w->n_unit, sizeof(w->n_unit), o->n_unit ? o->n_unit : "threads",
		     "--n-unit") != 0)
		return -1;
	if (w->unit[0] == '\0' || w->n_unit[0] == '\0')
		return st_error(im->err, im->errlen, "--unit and --n-unit must not be empty");
	if (o->desc != NULL) {
		snprintf(w->key[w->nparams], sizeof(w->key[0]), "description");
		if (imp_text(im, w->value[w->nparams++], sizeof(w->value[0]), o->desc, "--desc"))
			return -1;
	}
	snprintf(w->key[w->nparams], sizeof(w->key[0]), "source");
	snprintf(w->value[w->nparams++], sizeof(w->value[0]), "%s", slash ? slash + 1 : im->name);
	return 0;
}

/* The rows of column i that give it a figure, as steps. */
static int
imp_steps(struct imp *im, const struct snapshot_table *t, int i, struct session *s)
{
	const struct import_col *c = &t->col[t->x[i]];
	const struct import_row *row;
	struct imp_row r;
	int j;

	for (j = 0; j < t->nrows; j++) {
		row = &t->rows[j];
		if (isnan(row->v[t->x[i]]))
			continue;
		r.n = row->n;
		r.x = row->v[t->x[i]];
		r.sd = c->sd >= 0 ? row->v[c->sd] : NAN;
		r.runs = c->runs >= 0 && !isnan(row->v[c->runs]) ? (long)row->v[c->runs] : 0;
		if (imp_add(im, s, &r) != 0)
			return -1;
	}
	return 0;
}

/*
 * What the session says about where it came from: the event, and the time
 * of import, the file's, so that the columns of one file, imported as
 * many snapshots, were all taken at once (export titled two apart by a
 * second when the clock turned between them).
 */
static int
imp_stamp(struct imp *im, const struct snapshot_table *t, int i, struct session *s,
	  struct snapshot_meta *m)
{
	const char *src = s->wl.value[s->wl.nparams - 1];
	time_t now = t->read_at;
	struct tm tm;
	int rc;

	if (t->header)
		rc = session_add_event(s, -1, EV_INFO, NAN,
				       "imported %d points of column '%s' from %s", s->nsteps,
				       t->col[t->x[i]].name, src);
	else
		rc = session_add_event(s, -1, EV_INFO, NAN, "imported %d points from %s", s->nsteps,
				       src);
	if (rc != 0)
		return st_error(im->err, im->errlen, "%s: out of memory", im->name);
	gmtime_r(&now, &tm);
	strftime(m->taken, sizeof(m->taken), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return 0;
}

int
snapshot_table_count(const struct snapshot_table *t)
{
	return t->nx;
}

const char *
snapshot_table_column(const struct snapshot_table *t, int i)
{
	return t->col[t->x[i]].name;
}

int
snapshot_table_find(const struct snapshot_table *t, const char *column, char *err, size_t errlen)
{
	char list[ST_ERRLEN / 2];
	size_t used = 0;
	int i;

	for (i = 0; i < t->nx; i++) {
		if (strcmp(snapshot_table_column(t, i), column) == 0)
			return i;
	}
	if (!t->header)
		return st_error(err, errlen,
				"%s has no header naming its columns; leave out --column", t->name);
	list[0] = '\0';
	for (i = 0; i < t->nx && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s'%s'", i ? ", " : "",
					 snapshot_table_column(t, i));
	return st_error(err, errlen,
			"%s has no column of throughput called '%s'; its columns are %s", t->name,
			column, list);
}

int
snapshot_table_session(const struct snapshot_table *t, int i, const struct snapshot_import *o,
		       struct session *s, struct snapshot_meta *m, char *err, size_t errlen)
{
	struct imp im = { t->name, err, errlen };
	const char *label = o->label != NULL ? o->label : snapshot_table_column(t, i);

	session_init(s);
	memset(m, 0, sizeof(*m));
	s->set.duration_s = s->set.warmup_s = s->set.min_measure_s = NAN;
	s->set.interval_s = s->set.stall_s = NAN;
	if (label[0] == '\0')
		return st_error(err, errlen,
				"%s has no header naming its column; give a label saying what "
				"the results are",
				t->name);
	if (imp_text(&im, m->label, sizeof(m->label), label, "--label") != 0 ||
	    imp_workload(&im, o, s) != 0 || imp_steps(&im, t, i, s) != 0 || imp_nlist(&im, s) != 0)
		return -1;
	return imp_stamp(&im, t, i, s, m);
}

int
snapshot_import_csv(const char *buf, size_t len, const char *name, const struct snapshot_import *o,
		    struct session *s, struct snapshot_meta *m, char *err, size_t errlen)
{
	struct snapshot_table *t;
	int rc;

	session_init(s);
	if (snapshot_table_read(buf, len, name, &t, err, errlen) != 0)
		return -1;
	if (t->nx > 1)
		rc = st_error(err, errlen,
			      "%s has %d columns of throughput ('%s', '%s'%s); import one with "
			      "--column, or each into its own snapshot",
			      name, t->nx, snapshot_table_column(t, 0), snapshot_table_column(t, 1),
			      t->nx > 2 ? " ..." : "");
	else
		rc = snapshot_table_session(t, 0, o, s, m, err, errlen);
	snapshot_table_free(t);
	return rc;
}

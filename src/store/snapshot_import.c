/*
 * Import of published results: lines of "N,throughput[,stddev[,runs]]"
 * become a snapshot of workload "imported", so a paper's or a mailing
 * list's figures can be compared with a run of one's own.  Only what the
 * lines say is recorded; every figure they do not give is null.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/nlist.h"
#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

#define IMPORT_MAX_RUNS 1000000

struct imp {
	const char *name;
	char *err;
	size_t errlen;
	const char *line; /* start of the current line */
	size_t lineno;
};

struct imp_row {
	long n;
	double x, sd; /* sd NaN when not given */
	long runs;    /* 0 when not given */
};

/* "name:LINE:COLUMN: 'field': why", the column counted in bytes from 1. */
static int
imp_fail_at(struct imp *im, const char *at, size_t len, const char *why)
{
	if (len > 40)
		len = 40;
	if (len == 0)
		return st_error(im->err, im->errlen, "%s:%zu:%zu: %s", im->name, im->lineno,
				(size_t)(at - im->line) + 1, why);
	return st_error(im->err, im->errlen, "%s:%zu:%zu: '%.*s': %s", im->name, im->lineno,
			(size_t)(at - im->line) + 1, (int)len, at, why);
}

static int
imp_fail(struct imp *im, const char *at, const char *why)
{
	return imp_fail_at(im, at, 0, why);
}

/* The field at *p up to ',' or the end of the line, blanks around it skipped. */
static void
imp_field(const char **p, const char *end, const char **start, size_t *len)
{
	const char *s = *p, *e;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (e = s; e < end && *e != ','; e++)
		;
	*p = e;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*start = s;
	*len = (size_t)(e - s);
}

/* A plain decimal number: no hex, no nan/inf, whatever strtod would also take. */
static int
imp_number(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	size_t i;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]) && strchr("+-.eE", s[i]) == NULL)
			return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = snapshot_strtod(buf, &end);
	return *end == '\0' && errno == 0 && isfinite(*out) ? 0 : -1;
}

static int
imp_integer(const char *s, size_t len, long min, long max, long *out)
{
	double v;

	if (imp_number(s, len, &v) != 0 || v != floor(v) || v < min || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

static int
imp_row(struct imp *im, const char *p, const char *end, struct imp_row *r)
{
	const char *f;
	size_t len;

	r->sd = NAN;
	r->runs = 0;
	imp_field(&p, end, &f, &len);
	if (imp_integer(f, len, NLIST_MIN, NLIST_MAX, &r->n) != 0)
		return imp_fail_at(im, f, len, "expected N, an integer from 1 to 4096");
	if (p == end)
		return imp_fail(im, p, "expected ',' and a throughput after N");
	p++;
	imp_field(&p, end, &f, &len);
	if (imp_number(f, len, &r->x) != 0 || !(r->x > 0))
		return imp_fail_at(im, f, len, "expected a throughput, a number > 0");
	if (p == end)
		return 0;
	p++;
	imp_field(&p, end, &f, &len);
	if (imp_number(f, len, &r->sd) != 0 || r->sd < 0)
		return imp_fail_at(im, f, len, "expected a standard deviation, a number >= 0");
	if (p == end)
		return 0;
	p++;
	imp_field(&p, end, &f, &len);
	if (imp_integer(f, len, 1, IMPORT_MAX_RUNS, &r->runs) != 0)
		return imp_fail_at(im, f, len,
				   "expected the number of runs, an integer from 1 "
				   "to 1000000");
	if (r->runs == 1 && r->sd > 0)
		return imp_fail_at(im, f, len,
				   "one run has no standard deviation; expected "
				   "runs >= 2");
	if (p != end)
		return imp_fail(im, p,
				"expected the end of the line: the fields are "
				"N,throughput[,stddev[,runs]]");
	return 0;
}

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
	int i, rep = 0;

	for (i = 0; i < s->nsteps; i++)
		rep += s->steps[i].n == r->n;
	if ((st = session_add_step(s, (int)r->n, rep)) == NULL)
		return st_error(im->err, im->errlen, "%s: out of memory", im->name);
	st->status = STEP_OK;
	st->start_s = st->warmup_s = st->window_s = NAN;
	st->ops_s = r->x;
	st->no_intervals = true;
	imp_stats(st, r);
	if (rep + 1 > s->set.repeat)
		s->set.repeat = rep + 1;
	return 0;
}

/* A line that is only a header: its first field does not start like a number. */
static bool
imp_is_header(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && !isdigit((unsigned char)*p) && *p != '+' && *p != '-' && *p != '.';
}

/* One line, without its terminator: a comment, the header, or a row. */
static int
imp_line(struct imp *im, const char *p, const char *e, bool *first, struct session *s)
{
	const char *q = p, *nul = memchr(p, '\0', (size_t)(e - p));
	struct imp_row r;

	im->line = p;
	if (nul != NULL)
		return imp_fail(im, nul, "a NUL byte; expected text");
	if (e > p && e[-1] == '\r')
		e--;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	if (q == e || *q == '#')
		return 0;
	if (*first && imp_is_header(q, e)) {
		*first = false;
		return 0;
	}
	*first = false;
	if (imp_row(im, p, e, &r) != 0 || imp_add(im, s, &r) != 0)
		return -1;
	return 0;
}

static int
imp_lines(struct imp *im, const char *buf, size_t len, struct session *s)
{
	const char *p = buf, *end = buf + len, *eol;
	bool first = true;

	for (im->lineno = 1; p < end; im->lineno++, p = eol + 1) {
		for (eol = p; eol < end && *eol != '\n'; eol++)
			;
		if (imp_line(im, p, eol, &first, s) != 0)
			return -1;
	}
	if (s->nsteps == 0)
		return st_error(im->err, im->errlen,
				"%s: no data lines; expected lines of "
				"N,throughput[,stddev[,runs]]",
				im->name);
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

int
snapshot_import_csv(const char *buf, size_t len, const char *name, const struct snapshot_import *o,
		    struct session *s, struct snapshot_meta *m, char *err, size_t errlen)
{
	struct imp im = { name, err, errlen, buf, 0 };
	time_t now = time(NULL);
	struct tm tm;

	session_init(s);
	memset(m, 0, sizeof(*m));
	s->set.duration_s = s->set.warmup_s = s->set.min_measure_s = NAN;
	s->set.interval_s = s->set.stall_s = NAN;
	if (imp_text(&im, m->label, sizeof(m->label), o->label, "--label") != 0 ||
	    imp_workload(&im, o, s) != 0 || imp_lines(&im, buf, len, s) != 0 ||
	    imp_nlist(&im, s) != 0)
		return -1;
	if (session_add_event(s, -1, EV_INFO, NAN, "imported %d points from %s", s->nsteps,
			      s->wl.value[s->wl.nparams - 1]) != 0)
		return st_error(err, errlen, "%s: out of memory", name);
	gmtime_r(&now, &tm);
	strftime(m->taken, sizeof(m->taken), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return 0;
}

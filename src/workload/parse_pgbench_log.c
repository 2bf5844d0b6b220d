/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgbench --log's transaction log, read line by line: every transaction's
 * own latency is there, so a step's percentiles are exact rather than read
 * off a histogram's buckets or the tool's per-second figures.  The file is
 * another program's, possibly cut short by a kill, so each line is checked
 * field by field and anything else is counted, never trusted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/lathist.h"
#include "scaletop/parse.h"

/* The most fields a line has: an aggregate with --rate, --latency-limit and --max-tries. */
#define PGLOG_FIELDS 16
/* A Unix time below this (1973) is no time stamp: it tells a stamp from a count. */
#define PGLOG_EPOCH_MIN 1e8
/* A latency past this (about 11.6 days) is no measurement. */
#define PGLOG_LAT_MAX_US 1000000000000u

struct pglog_fields {
	const char *f[PGLOG_FIELDS];
	size_t len[PGLOG_FIELDS];
	int n;
};

/* Splits at blanks; -1 when there are more fields than any line has. */
static int
pglog_split(const char *s, size_t len, struct pglog_fields *out)
{
	size_t i = 0, start;

	out->n = 0;
	while (i < len) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == len)
			break;
		if (out->n == PGLOG_FIELDS)
			return -1;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		out->f[out->n] = s + start;
		out->len[out->n++] = i - start;
	}
	return 0;
}

/* Field k into buf as a string; false when empty or longer than buf holds. */
static bool
pglog_field(const struct pglog_fields *fs, int k, char *buf, size_t size)
{
	if (fs->len[k] == 0 || fs->len[k] >= size)
		return false;
	memcpy(buf, fs->f[k], fs->len[k]);
	buf[fs->len[k]] = '\0';
	return true;
}

/* Field k as a whole unsigned integer, nothing else in it. */
static bool
pglog_uint(const struct pglog_fields *fs, int k, uint64_t *v)
{
	char buf[24];

	return pglog_field(fs, k, buf, sizeof(buf)) && parse_count(buf, v) == buf + fs->len[k];
}

/* Field k as a decimal number (sum_latency_2 may be printed as a real), finite. */
static bool
pglog_num(const struct pglog_fields *fs, int k, double *v)
{
	char buf[48];

	return pglog_field(fs, k, buf, sizeof(buf)) && parse_number(buf, v) == buf + fs->len[k] &&
	       isfinite(*v);
}

static bool
pglog_word(const struct pglog_fields *fs, int k, const char *w)
{
	return fs->len[k] == strlen(w) && memcmp(fs->f[k], w, fs->len[k]) == 0;
}

/* client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries] */
static int
pglog_txn(const struct pglog_fields *fs, struct pglog_line *out)
{
	uint64_t v[6], scratch;
	int k;

	for (k = 0; k < fs->n; k++) {
		if (k != 2 && !pglog_uint(fs, k, &scratch))
			return -1;
	}
	if (!pglog_uint(fs, 4, &v[4]) || !pglog_uint(fs, 5, &v[5]) || v[5] >= 1000000 ||
	    (double)v[4] < PGLOG_EPOCH_MIN)
		return -1;
	out->t = (double)v[4] + (double)v[5] / 1e6;
	if (pglog_word(fs, 2, "skipped"))
		out->kind = PGLOG_SKIPPED;
	else if (pglog_word(fs, 2, "failed") || pglog_word(fs, 2, "serialization") ||
		 pglog_word(fs, 2, "deadlock"))
		out->kind = PGLOG_FAILED;
	else if (pglog_uint(fs, 2, &v[2]) && v[2] <= PGLOG_LAT_MAX_US) {
		out->kind = PGLOG_TXN;
		out->lat_us = (double)v[2];
	} else
		return -1;
	return 0;
}

/*
 * interval_start num sum sum_2 min max [sum_lag sum_lag_2 min_lag max_lag [skipped]]
 * [retried retries failures serialization_failures deadlock_failures]: 6, 10, 11, 11, 15
 * or 16 fields.  The skipped and failed counts are where the field count says they are;
 * 11 is either shape (lag and skipped, or the retry columns alone), and its last field is
 * then a skipped or a deadlock count: a failure either way.
 */
static int
pglog_agg(const struct pglog_fields *fs, struct pglog_line *out)
{
	double v[PGLOG_FIELDS];
	uint64_t start, count, skipped = 0, failures = 0;
	int k;

	if (fs->n != 6 && fs->n != 10 && fs->n != 11 && fs->n != 15 && fs->n != 16)
		return -1;
	if (!pglog_uint(fs, 0, &start) || (double)start < PGLOG_EPOCH_MIN ||
	    !pglog_uint(fs, 1, &count))
		return -1;
	for (k = 2; k < fs->n; k++) {
		if (!pglog_num(fs, k, &v[k]))
			return -1;
	}
	if (fs->n == 11 || fs->n == 16)
		skipped = (uint64_t)v[10];
	if (fs->n >= 15)
		failures = (uint64_t)v[fs->n - 3];
	out->kind = PGLOG_AGG;
	out->t = (double)start;
	out->count = count;
	out->sum_us = v[2];
	out->max_us = v[5];
	out->failed = skipped + failures;
	if (count > 0 && (v[2] < 0 || v[5] < 0 || v[4] > v[5]))
		return -1;
	return 0;
}

int
pglog_parse_line(const char *line, size_t len, struct pglog_line *out)
{
	struct pglog_fields fs;
	uint64_t v;

	memset(out, 0, sizeof(*out));
	if (pglog_split(line, len, &fs) != 0 || fs.n < 6)
		return -1;
	/* A transaction's fifth field is a time stamp; an interval's fifth is a latency. */
	if (fs.n <= 8 && pglog_uint(&fs, 4, &v) && (double)v >= PGLOG_EPOCH_MIN)
		return pglog_txn(&fs, out);
	return pglog_agg(&fs, out);
}

void
pglog_tally_init(struct pglog_tally *t, double w0, double w1)
{
	memset(t, 0, sizeof(*t));
	t->w0 = w0;
	t->w1 = w1;
}

void
pglog_tally_file(struct pglog_tally *t)
{
	t->line_no = 0;
}

static void
pglog_tally_txn(struct pglog_tally *t, const struct pglog_line *l)
{
	if (l->t < t->w0 || l->t > t->w1) {
		t->outside++;
		return;
	}
	if (t->hist == NULL) {
		if ((t->hist = malloc(sizeof(*t->hist))) == NULL) {
			t->nomem = true;
			return;
		}
		lathist_init(t->hist);
	}
	lathist_record(t->hist, (uint64_t)llround(l->lat_us * 1000.0));
	t->timed++;
}

/* An interval is kept whole; one of another file (another -j thread) at the same start merges. */
static void
pglog_tally_agg(struct pglog_tally *t, const struct pglog_line *l)
{
	struct pglog_agg *a;
	int i;

	t->failed += l->failed;
	for (i = t->nagg - 1; i >= 0; i--) {
		a = &t->agg[i];
		if (a->start == l->t) {
			a->count += l->count;
			a->sum_us += l->sum_us;
			a->max_us = l->max_us > a->max_us ? l->max_us : a->max_us;
			return;
		}
	}
	if (grow_array_int(&t->agg, &t->capagg, t->nagg + 1, sizeof(*t->agg), 64) != 0) {
		t->nomem = true;
		return;
	}
	t->agg[t->nagg++] = (struct pglog_agg){ l->t, l->sum_us, l->max_us, l->count };
}

void
pglog_tally_line(struct pglog_tally *t, const char *line, size_t len)
{
	struct pglog_line l;

	t->line_no++;
	if (len == 0 || line[len - 1] != '\n') {
		/* pgbench ends every line: one without an end was cut short by a kill. */
		t->truncated += len > 0;
		return;
	}
	t->lines++;
	if (pglog_parse_line(line, len - 1, &l) != 0) {
		if (t->bad++ == 0)
			t->first_bad = t->line_no;
		return;
	}
	if (l.kind == PGLOG_TXN)
		pglog_tally_txn(t, &l);
	else if (l.kind == PGLOG_SKIPPED)
		t->skipped++;
	else if (l.kind == PGLOG_FAILED)
		t->failed++;
	else
		pglog_tally_agg(t, &l);
}

void
pglog_tally_feed(struct pglog_tally *t, const char *buf, size_t len)
{
	const char *nl;
	size_t off = 0, n;

	pglog_tally_file(t);
	while (off < len) {
		nl = memchr(buf + off, '\n', len - off);
		n = nl != NULL ? (size_t)(nl - (buf + off)) + 1 : len - off;
		pglog_tally_line(t, buf + off, n);
		off += n;
	}
}

static int
pglog_agg_cmp(const void *a, const void *b)
{
	const struct pglog_agg *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

int
pglog_tally_intervals(struct pglog_tally *t, double *mean_ms, int max, double *max_ms)
{
	double len = 0, mid, gap;
	int i, n = 0;

	*max_ms = NAN;
	if (t->nagg > 1)
		qsort(t->agg, (size_t)t->nagg, sizeof(*t->agg), pglog_agg_cmp);
	for (i = 1; i < t->nagg; i++) {
		gap = t->agg[i].start - t->agg[i - 1].start;
		len = len == 0 || gap < len ? gap : len;
	}
	len = len > 0 ? len : 1;
	for (i = 0; i < t->nagg; i++) {
		mid = t->agg[i].start + len / 2;
		if (mid < t->w0 || mid > t->w1) {
			t->outside++;
			continue;
		}
		if (t->agg[i].count == 0)
			continue;
		if (n < max)
			mean_ms[n++] = t->agg[i].sum_us / (double)t->agg[i].count / 1000.0;
		if (isnan(*max_ms) || t->agg[i].max_us / 1000.0 > *max_ms)
			*max_ms = t->agg[i].max_us / 1000.0;
	}
	return n;
}

void
pglog_tally_free(struct pglog_tally *t)
{
	free(t->hist);
	free(t->agg);
	t->hist = NULL;
	t->agg = NULL;
	t->nagg = t->capagg = 0;
}

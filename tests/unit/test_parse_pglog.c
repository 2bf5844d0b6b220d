/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pgbench --log's lines (parse_pgbench_log.c): per transaction, with its
 * optional lag and retries columns, skipped and failed ones, aggregate
 * intervals of each shape, garbage, a truncated last line, and the window
 * a step takes them in.  The recorded logs of tests/fixtures/pgbench/ (a
 * real pgbench -c 2 -j 2 run's two files, and an aggregate run's) are
 * checked against the exact percentiles of their own latencies, read here by
 * a plain sscanf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/lathist.h"
#include "scaletop/parse.h"
#include "../tap.h"

static int
parse(const char *s, struct pglog_line *l)
{
	return pglog_parse_line(s, strlen(s), l);
}

static void
test_txn_lines(void)
{
	struct pglog_line l;

	is_int(parse("0 199 2241 0 1175850568 995598", &l), 0, "a transaction");
	is_int(l.kind, PGLOG_TXN, "its kind");
	is_double(l.lat_us, 2241, 0, "its latency, us");
	is_double(l.t, 1175850568.995598, 1e-6, "its end: epoch + us");
	is_int(parse("0 81 4621 0 1412881037 912698 3005", &l), 0, "with schedule_lag");
	is_double(l.lat_us, 4621, 0, "its latency");
	is_int(parse("3 0 47423 0 1499414498 34501 3", &l), 0, "with retries");
	is_int(parse("1 2 300 0 1499414498 34501 12 3", &l), 0, "with lag and retries");
	is_int(parse("0 83 skipped 0 1412881037 914578 5217", &l), 0, "skipped");
	is_int(l.kind, PGLOG_SKIPPED, "its kind");
	is_int(parse("0 0 failed 0 1499414498 84905 9", &l), 0, "failed");
	is_int(l.kind, PGLOG_FAILED, "its kind");
	parse("0 0 serialization 0 1499414498 84905 9", &l);
	is_int(l.kind, PGLOG_FAILED, "a serialization failure is a failure");
	parse("2 0 deadlock 0 1499414498 86248 9", &l);
	is_int(l.kind, PGLOG_FAILED, "so is a deadlock");
	is_int(parse("0 1 2241 0 1175850568 995598\r", &l), 0, "a CR before the end is a blank");
}

static void
test_agg_lines(void)
{
	struct pglog_line l;

	is_int(parse("1345828501 5601 1542744 483552416 61 2573", &l), 0, "an aggregate");
	is_int(l.kind, PGLOG_AGG, "its kind");
	is_u64(l.count, 5601, "its transactions");
	is_double(l.sum_us, 1542744, 0, "their sum");
	is_double(l.max_us, 2573, 0, "the longest");
	is_double(l.t, 1345828501, 0, "its start");
	is_int(parse("1345828503 7884 1979812 565806736 60 1479 1 2 3 4 17", &l), 0,
	       "with lag and skipped");
	is_u64(l.failed, 17, "the skipped count");
	is_int(parse("1345828503 7884 1979812 565806736 60 1479 1 2 3 4 5 6 7 8 9", &l), 0,
	       "with lag and the retry columns");
	is_u64(l.failed, 7, "the failures column");
	is_int(parse("1345828503 7884 1979812 565806736 60 1479 1 2 3 4 17 6 7 8 9 10", &l), 0,
	       "every column");
	is_u64(l.failed, 17 + 8, "skipped and failures");
	is_int(parse("1345828503 0 0 0 0 0", &l), 0, "an empty interval");
	is_int(parse("1345828503 7884 1979812 565806736 60 1479 1 2", &l), -1,
	       "8 fields is no aggregate shape");
	is_int(parse("1345828503 7884 1979812 565806736 2000 1479", &l), -1, "min above max");
}

static void
test_garbage(void)
{
	static const char *const bad[] = {
		"",
		"hello world",
		"0 1 2 3 4",
		"0 1 2241 0 1175850568 1000000",      /* time_us past a second */
		"0 1 -5 0 1175850568 995598",         /* a negative latency */
		"0 1 2241 0 12345 995598",            /* no epoch: nor an aggregate */
		"0 1 oops 0 1175850568 995598",       /* an unknown word */
		"0 1 2241 0 1175850568 995598 1 2 3", /* 9 fields */
		"0 1 99999999999999999999 0 1175850568 995598",
		"0 1 2000000000000 0 1175850568 995598", /* 23 days */
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17",
		"1345828501 5601 1542744 nan 61 2573",
		"1345828501 5601 1542744 1e999 61 2573",
	};
	struct pglog_line l;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(parse(bad[i], &l), -1, bad[i]);
}

static void
test_window(void)
{
	const char *log = "0 1 1000 0 1000000100 0\n" /* before: out */
			  "0 2 2000 0 1000000101 500000\n"
			  "1 1 skipped 0 1000000101 600000\n"
			  "1 2 3000 0 1000000102 0\n"
			  "1 3 failed 0 1000000102 100000\n"
			  "junk\n"
			  "0 3 4000 0 1000000104 0\n" /* after: out */
			  "0 4 5000 0 1000000102 5";  /* no newline: cut short */
	struct pglog_tally t;

	pglog_tally_init(&t, 1000000101.0, 1000000103.0);
	pglog_tally_feed(&t, log, strlen(log));
	is_u64(t.timed, 2, "two transactions ended in the window");
	is_u64(t.outside, 2, "two outside it");
	is_u64(t.skipped, 1, "one skipped");
	is_u64(t.failed, 1, "one failed");
	is_u64(t.bad, 1, "one bad line");
	is_u64(t.first_bad, 6, "the bad line's number");
	is_u64(t.truncated, 1, "the unterminated last line is left out");
	ok(t.hist != NULL && t.hist->min == 2000000 && t.hist->max == 3000000,
	   "the histogram holds 2 and 3 ms, in ns");
	pglog_tally_free(&t);
}

static void
test_intervals(void)
{
	const char *a = "1000000100 10 10000 0 500 2000\n"
			"1000000101 10 20000 0 500 4000\n"
			"1000000102 10 30000 0 500 9000\n"
			"1000000103 10 40000 0 500 8000\n";
	const char *b = "1000000101 30 120000 0 500 7000\n"; /* another thread's file */
	struct pglog_tally t;
	double mean[8], max_ms;
	int n;

	pglog_tally_init(&t, 1000000101.0, 1000000103.0);
	pglog_tally_feed(&t, a, strlen(a));
	pglog_tally_feed(&t, b, strlen(b));
	is_int(t.nagg, 4, "four intervals, the second merged across files");
	n = pglog_tally_intervals(&t, mean, 8, &max_ms);
	is_int(n, 2, "two of them have their middle in the window");
	is_double(mean[0], (20000.0 + 120000.0) / 40 / 1000, 1e-12, "the merged one's mean");
	is_double(mean[1], 3.0, 1e-12, "the next one's mean, ms");
	is_double(max_ms, 9.0, 0, "the longest in the window's intervals");
	is_u64(t.outside, 2, "the other two are outside");
	pglog_tally_free(&t);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A recorded log: every line taken (a wide window), p99 against the sorted latencies. */
static void
test_fixture(const char *const *rels, int nrel)
{
	struct pglog_tally t;
	double *lat = NULL, p99, want;
	size_t nlat = 0, cap = 0, len;
	char *buf, *s, *line;
	unsigned long us;
	int i;

	pglog_tally_init(&t, 0, 1e12);
	for (i = 0; i < nrel; i++) {
		buf = fixture_read(rels[i], &len);
		pglog_tally_feed(&t, buf, len);
		for (s = buf; (line = strtok(s, "\n")) != NULL; s = NULL) {
			if (sscanf(line, "%*d %*d %lu", &us) != 1)
				continue;
			if (nlat == cap &&
			    (lat = realloc(lat, (cap = cap * 2 + 1024) * sizeof(*lat))) == NULL)
				exit(1);
			lat[nlat++] = (double)us * 1000;
		}
		free(buf);
	}
	qsort(lat, nlat, sizeof(*lat), cmp_double);
	ok(nlat > 1000, "%s: a real run's log (%zu transactions)", rels[0], nlat);
	is_u64(t.timed, nlat, "every transaction timed");
	is_u64(t.bad + t.truncated, 0, "nothing bad");
	want = lat[(size_t)ceil(0.99 * (double)nlat) - 1];
	p99 = t.hist != NULL ? (double)lathist_percentile(t.hist, 99) : -1;
	ok(p99 >= want && p99 <= want * (1 + 1.0 / 128) + 1,
	   "p99 %.0f ns: the exact %.0f, within its bucket", p99, want);
	diag("%s: p99 %.3f ms, exact %.3f ms", rels[0], p99 / 1e6, want / 1e6);
	free(lat);
	pglog_tally_free(&t);
}

static void
test_fixture_agg(void)
{
	struct pglog_tally t;
	double mean[64], max_ms;
	size_t len, len1;
	char *buf = fixture_read("pgbench/log-agg.txt", &len);
	char *buf1 = fixture_read("pgbench/log-agg.1.txt", &len1);
	int n;

	pglog_tally_init(&t, 0, 1e12);
	pglog_tally_feed(&t, buf, len);
	ok(t.nagg >= 3, "the aggregate log: %d intervals", t.nagg);
	pglog_tally_feed(&t, buf1, len1);
	ok(t.nagg >= 3 && t.nagg <= 5, "the other thread's file merges into them: %d", t.nagg);
	is_u64(t.bad + t.truncated, 0, "nothing bad");
	n = pglog_tally_intervals(&t, mean, 64, &max_ms);
	is_int(n, t.nagg, "all in a wide window");
	ok(n > 0 && mean[0] > 0 && mean[0]<max_ms, "a mean of %g ms under the max %g", n> 0
		   ? mean[0]
		   : -1,
	   max_ms);
	pglog_tally_free(&t);
	free(buf);
	free(buf1);
}

int
main(void)
{
	static const char *const txn[] = { "pgbench/log-c2-j2.0.txt", "pgbench/log-c2-j2.1.txt" };

	test_txn_lines();
	test_agg_lines();
	test_garbage();
	test_window();
	test_intervals();
	test_fixture(txn, 2);
	test_fixture_agg();
	return done_testing();
}

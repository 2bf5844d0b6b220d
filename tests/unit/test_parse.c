/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Output parsers, on sysbench and pgbench output recorded verbatim on a real
 * machine (tests/fixtures/{sysbench,pgbench}/README says how).  Every
 * fixture is also fed in random-sized chunks, byte by byte and with CRLF line
 * ends, and must give exactly the same events.
 */
#include <locale.h>
#include <regex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/lathist.h"
#include "scaletop/parse.h"
#include "../../src/workload/parser.h"
#include "../tap.h"

#define MAXIV 64

struct run {
	struct parse_interval iv[MAXIV];
	size_t n;
	struct parse_summary sum;
	int nsum;
	struct parse_counters c;
	struct lathist hist; /* the parser's latency histogram; count 0 when it had none */
};

enum feed_mode {
	FEED_WHOLE,
	FEED_RANDOM,
	FEED_BYTES,
};

static uint64_t rng_state;

static unsigned
rng_next(unsigned bound)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % bound);
}

static void
drain(struct parser *p, struct run *r)
{
	struct parse_event ev;

	while (parser_next(p, &ev)) {
		if (ev.type == PARSE_INTERVAL && r->n < MAXIV)
			r->iv[r->n++] = ev.interval;
		else if (ev.type == PARSE_SUMMARY) {
			r->sum = ev.summary;
			r->nsum++;
		}
	}
}

/* Feeds buf as the mode says, draining events between chunks as the engine would. */
static void
run_feed(struct parser *p, const char *buf, size_t len, enum feed_mode mode, struct run *r)
{
	size_t off = 0, n;

	while (off < len) {
		if (mode == FEED_WHOLE)
			n = len;
		else if (mode == FEED_BYTES)
			n = 1;
		else
			n = 1 + rng_next(97);
		if (n > len - off)
			n = len - off;
		parser_feed(p, buf + off, n);
		off += n;
		if (rng_next(2))
			drain(p, r);
	}
}

static void
run_parser(const char *name, const char *arg, const char *buf, size_t len, enum feed_mode mode,
	   struct run *r)
{
	char err[ST_ERRLEN];
	struct parser *p;

	memset(r, 0, sizeof(*r));
	if ((p = parser_new(name, arg, err, sizeof(err))) == NULL) {
		printf("Bail out! parser_new(%s): %s\n", name, err);
		exit(1);
	}
	run_feed(p, buf, len, mode, r);
	drain(p, r);
	parser_finish(p);
	drain(p, r);
	r->c = *parser_counters(p);
	lathist_init(&r->hist);
	if (parser_histogram(p) != NULL)
		r->hist = *parser_histogram(p);
	parser_free(p);
}

static int
interval_same(const struct parse_interval *a, const struct parse_interval *b)
{
	return a->have == b->have && a->t_end == b->t_end && a->rate == b->rate &&
	       strcmp(a->unit, b->unit) == 0 && a->threads == b->threads &&
	       a->lat_ms == b->lat_ms && a->lat_pct == b->lat_pct;
}

static int
run_same(const struct run *a, const struct run *b)
{
	size_t i;

	if (a->n != b->n || a->nsum != b->nsum || memcmp(&a->hist, &b->hist, sizeof(a->hist)) != 0)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (!interval_same(&a->iv[i], &b->iv[i]))
			return 0;
	}
	if (a->nsum == 0)
		return 1;
	return a->sum.have == b->sum.have && a->sum.rate == b->sum.rate &&
	       strcmp(a->sum.unit, b->sum.unit) == 0 && a->sum.ops == b->sum.ops &&
	       a->sum.duration == b->sum.duration && a->sum.threads == b->sum.threads &&
	       a->sum.intervals == b->sum.intervals;
}

/* The same text with every "\n" turned into "\r\n"; malloc'd. */
static char *
to_crlf(const char *buf, size_t len, size_t *outlen)
{
	char *out = malloc(2 * len + 1);
	size_t i, n = 0;

	if (out == NULL)
		abort();
	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			out[n++] = '\r';
		out[n++] = buf[i];
	}
	out[n] = '\0';
	*outlen = n;
	return out;
}

/*
 * Parses a fixture whole into *r, then checks that random chunks (many
 * seeds), single bytes and CRLF line ends all give identical events.
 */
static void
parse_fixture(const char *name, const char *arg, const char *rel, struct run *r)
{
	struct run other;
	size_t len, crlen;
	char *buf = fixture_read(rel, &len), *crlf;
	int seed, same = 1;

	run_parser(name, arg, buf, len, FEED_WHOLE, r);
	for (seed = 1; seed <= 40; seed++) {
		rng_state = 0x9e3779b97f4a7c15ULL * (uint64_t)seed;
		run_parser(name, arg, buf, len, FEED_RANDOM, &other);
		if (!run_same(r, &other)) {
			diag("seed %d differs", seed);
			same = 0;
		}
	}
	ok(same, "%s: 40 random chunkings give the same events", rel);
	run_parser(name, arg, buf, len, FEED_BYTES, &other);
	ok(run_same(r, &other), "%s: byte-by-byte gives the same events", rel);
	crlf = to_crlf(buf, len, &crlen);
	run_parser(name, arg, crlf, crlen, FEED_RANDOM, &other);
	ok(run_same(r, &other), "%s: CRLF line ends give the same events", rel);
	is_int((long long)r->c.long_lines + (long long)r->c.bad_lines, 0,
	       "nothing dropped or unreadable");
	free(crlf);
	free(buf);
}

static void
check_interval(const struct run *r, size_t i, double t, double rate, const char *unit, int thds,
	       double lat, int pct)
{
	const struct parse_interval *iv = &r->iv[i];
	char name[128];

	snprintf(name, sizeof(name), "interval %zu: t_end", i);
	is_double(iv->t_end, t, 0, name);
	snprintf(name, sizeof(name), "interval %zu: rate", i);
	is_double(iv->rate, rate, 1e-9 * rate, name);
	snprintf(name, sizeof(name), "interval %zu: unit", i);
	is_str(iv->unit, unit, name);
	if (thds > 0) {
		snprintf(name, sizeof(name), "interval %zu: threads", i);
		ok((iv->have & PARSE_HAVE_THREADS) && iv->threads == thds, "%s %d", name, thds);
	} else
		ok(!(iv->have & PARSE_HAVE_THREADS), "interval %zu: no threads printed", i);
	snprintf(name, sizeof(name), "interval %zu: latency", i);
	ok(iv->have & PARSE_HAVE_LAT, "%s present", name);
	is_double(iv->lat_ms, lat, 0, name);
	is_int(iv->lat_pct, pct, "latency percentile");
}

static void
check_summary(const struct run *r, double rate, const char *unit, long long ops, double dur,
	      int thds, size_t intervals)
{
	is_int(r->nsum, 1, "one summary");
	is_double(r->sum.rate, rate, 1e-9 * rate, "summary rate");
	is_str(r->sum.unit, unit, "summary unit");
	if (ops >= 0)
		ok((r->sum.have & PARSE_HAVE_OPS) && r->sum.ops == (uint64_t)ops,
		   "summary ops %lld (got %llu)", ops, (unsigned long long)r->sum.ops);
	else
		ok(!(r->sum.have & PARSE_HAVE_OPS), "summary has no ops count");
	ok(r->sum.have & PARSE_HAVE_DURATION, "summary has a duration");
	is_double(r->sum.duration, dur, 0, "summary duration");
	ok((r->sum.have & PARSE_HAVE_THREADS) && r->sum.threads == thds, "summary threads %d",
	   thds);
	is_int((long long)r->sum.intervals, (long long)intervals, "summary counts the intervals");
}

static void
test_sysbench_cpu(void)
{
	struct run r;

	parse_fixture("sysbench", NULL, "sysbench/cpu-interval.txt", &r);
	is_int((long long)r.n, 3, "cpu: three interval lines");
	check_interval(&r, 0, 1, 5790.62, "eps", 2, 0.37, 95);
	check_interval(&r, 1, 2, 5813.77, "eps", 2, 0.37, 95);
	check_interval(&r, 2, 3, 5821.07, "eps", 2, 0.37, 95);
	check_summary(&r, 5805.03, "eps", 17435, 3.0023, 2, 3);

	parse_fixture("sysbench", NULL, "sysbench/cpu-summary.txt", &r);
	is_int((long long)r.n, 0, "cpu without --report-interval: no intervals");
	check_summary(&r, 5778.41, "eps", 11573, 2.0009, 2, 0);
}

/*
 * --histogram=on: every row recorded, as many values as the run's events,
 * and the percentile within one of sysbench's buckets (1.8% wide) of its own.
 */
static void
test_sysbench_histogram(void)
{
	static struct run r;
	uint64_t p99;

	parse_fixture("sysbench", NULL, "sysbench/threads-histogram.txt", &r);
	is_int((long long)r.n, 3, "histogram: the three interval lines still");
	check_interval(&r, 2, 3, 289.03, "eps", 2, 56.84, 99);
	check_summary(&r, 768 / 3.0050, "eps", 768, 3.0050, 2, 3);
	ok(r.sum.have & PARSE_HAVE_HIST, "the summary says the output held a histogram");
	is_int((long long)r.hist.count, 768, "its 84 rows count the run's 768 events");
	p99 = lathist_percentile(&r.hist, 99);
	ok(fabs((double)p99 / 1e6 - 64.47) <= 64.47 * 0.018,
	   "p99 %.3f ms, within one sysbench bucket of its own 64.47", (double)p99 / 1e6);
	ok(r.hist.min == 3615000 && r.hist.max == 121085000,
	   "min and max are the first and last rows' values, the buckets of sysbench's exact "
	   "3.63 and 121.23 ms");
	ok(fabs(lathist_mean(&r.hist) / 1e6 - 7.82) < 7.82 * 0.02,
	   "the mean %.3f ms is sysbench's avg 7.82 within its buckets",
	   lathist_mean(&r.hist) / 1e6);
}

static void
test_sysbench_threads_mutex(void)
{
	struct run r;

	parse_fixture("sysbench", NULL, "sysbench/threads-interval.txt", &r);
	is_int((long long)r.n, 3, "threads: three interval lines");
	check_interval(&r, 0, 1, 3041.59, "eps", 4, 1.39, 95);
	check_interval(&r, 1, 2, 3140.42, "eps", 4, 1.44, 95);
	check_interval(&r, 2, 3, 3062.15, "eps", 4, 1.42, 95);
	/* threads prints no events/s: total events over total time, as sysbench counted them */
	check_summary(&r, 9254 / 3.0036, "eps", 9254, 3.0036, 4, 3);

	parse_fixture("sysbench", NULL, "sysbench/mutex-summary.txt", &r);
	is_int((long long)r.n, 0, "mutex: no intervals");
	check_summary(&r, 2 / 0.1613, "eps", 2, 0.1613, 2, 0);
}

static void
test_sysbench_oltp(void)
{
	struct run r;

	parse_fixture("sysbench", NULL, "sysbench/oltp-rw-interval.txt", &r);
	is_int((long long)r.n, 2, "oltp: two interval lines");
	check_interval(&r, 0, 1, 1286.16, "tps", 4, 4.49, 95);
	check_interval(&r, 1, 2, 1290.72, "tps", 4, 4.41, 95);
	check_summary(&r, 1271.46, "tps", 3826, 3.0080, 4, 2);

	parse_fixture("sysbench", NULL, "sysbench/oltp-rw-summary.txt", &r);
	is_int((long long)r.n, 0, "oltp summary only: no intervals");
	check_summary(&r, 944.75, "tps", 1892, 2.0014, 2, 0);
}

static void
test_sysbench_fileio(void)
{
	struct run r;
	double mean;

	/* 16KiB blocks: 64 writes per MiB */
	parse_fixture("sysbench", NULL, "sysbench/fileio-rndwr-interval.txt", &r);
	is_int((long long)r.n, 3, "fileio rndwr: three interval lines");
	check_interval(&r, 0, 1, 725.13 * 64, "writes/s", 0, 0.011, 95);
	check_interval(&r, 1, 2, 45813.12, "writes/s", 0, 0.016, 95);
	check_interval(&r, 2, 3, 45800.96, "writes/s", 0, 0.015, 95);
	check_summary(&r, 45984.40, "writes/s", -1, 3.0021, 2, 3);
	/* The derived rate must agree with what sysbench itself counted as writes/s. */
	mean = (r.iv[0].rate + r.iv[1].rate + r.iv[2].rate) / 3;
	ok(fabs(mean - r.sum.rate) / r.sum.rate < 0.02,
	   "fileio: interval writes/s (mean %.1f) within 2%% of the report's %.2f", mean,
	   r.sum.rate);

	parse_fixture("sysbench", NULL, "sysbench/fileio-rndwr-summary.txt", &r);
	is_int((long long)r.n, 0, "fileio summary only: no intervals");
	check_summary(&r, 38473.68, "writes/s", -1, 2.0021, 1, 0);

	/* r/w mode with 4KiB blocks: (reads + writes) * 256 per MiB */
	parse_fixture("sysbench", NULL, "sysbench/fileio-rndrw-4k-interval.txt", &r);
	is_int((long long)r.n, 2, "fileio rndrw: two interval lines");
	check_interval(&r, 0, 1, 109232.64, "io/s", 0, 0.005, 95);
	check_interval(&r, 1, 2, 107432.96, "io/s", 0, 0.006, 95);
	check_summary(&r, 64081.85 + 42721.79, "io/s", -1, 3.0023, 2, 2);
	ok(fabs(r.iv[1].rate - r.sum.rate) / r.sum.rate < 0.02,
	   "fileio r/w: interval io/s within 2%% of the report");
}

/* Only the lines from "Threads started!" on: the header with the block size is missing. */
static void
test_sysbench_fileio_no_header(void)
{
	size_t len;
	char *buf = fixture_read("sysbench/fileio-rndwr-interval.txt", &len);
	const char *from = strstr(buf, "Threads started!");
	struct run r;

	run_parser("sysbench", NULL, from, strlen(from), FEED_WHOLE, &r);
	is_int((long long)r.n, 3, "fileio without header: still three samples");
	is_double(r.iv[0].rate, 725.13, 0, "without the block size the rate stays in MiB/s");
	is_str(r.iv[0].unit, "MiB/s", "unit says MiB/s");
	is_str(r.sum.unit, "io/s", "unknown mode: the report's reads/s + writes/s");
	is_double(r.sum.rate, 45984.40, 1e-9, "summary rate");
	free(buf);
}

static void
test_sysbench_memory(void)
{
	struct run r;

	/* 1KiB blocks: 1024 operations per MiB */
	parse_fixture("sysbench", NULL, "sysbench/memory-interval.txt", &r);
	is_int((long long)r.n, 3, "memory: three interval lines");
	is_double(r.iv[0].rate, 3205857.28, 1e-6, "memory interval 0: 3130.72 MiB/s of 1KiB ops");
	is_double(r.iv[1].rate, 3208847.36, 1e-6, "memory interval 1");
	is_double(r.iv[2].rate, 3220787.20, 1e-6, "memory interval 2");
	is_str(r.iv[0].unit, "ops/s", "memory unit");
	is_double(r.iv[2].t_end, 3, 0, "memory t_end");
	ok(!(r.iv[0].have & PARSE_HAVE_LAT), "memory lines print no latency");
	check_summary(&r, 3209472.57, "ops/s", 9640517, 3.0027, 2, 3);

	parse_fixture("sysbench", NULL, "sysbench/memory-summary.txt", &r);
	is_int((long long)r.n, 0, "memory summary only: no intervals");
	check_summary(&r, 4032024.90, "ops/s", 8073396, 2.0003, 2, 0);
}

static void
check_pg_interval(const struct run *r, size_t i, double t, double tps, double lat)
{
	const struct parse_interval *iv = &r->iv[i];

	is_double(iv->t_end, t, 0, "pgbench t_end");
	is_double(iv->rate, tps, 0, "pgbench tps");
	is_str(iv->unit, "tps", "pgbench unit");
	ok(iv->have & PARSE_HAVE_LAT, "pgbench latency present");
	is_double(iv->lat_ms, lat, 0, "pgbench mean latency");
	is_int(iv->lat_pct, 0, "pgbench latency is the mean");
	ok(!(iv->have & PARSE_HAVE_THREADS), "pgbench progress prints no client count");
}

static void
test_pgbench(void)
{
	struct run r;

	parse_fixture("pgbench", NULL, "pgbench/progress-c2.txt", &r);
	is_int((long long)r.n, 4, "pgbench -P 1: four progress lines");
	check_pg_interval(&r, 0, 1.0, 2157.8, 0.922);
	check_pg_interval(&r, 1, 2.0, 2646.0, 0.756);
	check_pg_interval(&r, 2, 3.0, 1957.1, 1.022);
	check_pg_interval(&r, 3, 4.0, 1841.8, 1.085);
	check_summary(&r, 2066.164067, "tps", 10327, 5, 2, 4);

	parse_fixture("pgbench", NULL, "pgbench/progress-rate-c2.txt", &r);
	is_int((long long)r.n, 2, "pgbench -R: two progress lines, with lag");
	check_pg_interval(&r, 0, 1.0, 546.9, 0.761);
	check_pg_interval(&r, 1, 2.0, 476.1, 0.789);
	check_summary(&r, 521.510296, "tps", 1562, 3, 2, 2);

	parse_fixture("pgbench", NULL, "pgbench/summary-c2.txt", &r);
	is_int((long long)r.n, 0, "pgbench without -P: no intervals");
	check_summary(&r, 1812.324272, "tps", 5437, 3, 2, 0);

	parse_fixture("pgbench", NULL, "pgbench/init.txt", &r);
	is_int((long long)r.n + r.nsum, 0, "pgbench -i output: no samples, no summary");
}

/* Releases before 14 print two tps lines; the one without connection set-up wins. */
static void
test_pgbench_old_tps(void)
{
	static const char a[] = "tps = 10.0 (including connections establishing)\n"
				"tps = 12.5 (excluding connections establishing)\n";
	static const char b[] = "tps = 12.5 (excluding connections establishing)\n"
				"tps = 10.0 (including connections establishing)\n";
	struct run r;

	run_parser("pgbench", NULL, a, strlen(a), FEED_WHOLE, &r);
	is_double(r.sum.rate, 12.5, 0, "old pgbench: excluding connections (second line)");
	run_parser("pgbench", NULL, b, strlen(b), FEED_WHOLE, &r);
	is_double(r.sum.rate, 12.5, 0, "old pgbench: excluding connections (first line)");
	ok(!(r.sum.have & (PARSE_HAVE_OPS | PARSE_HAVE_DURATION)), "nothing else claimed");
}

static void
test_regex_on_fixtures(void)
{
	struct run r, pg;

	parse_fixture("regex", "progress: [0-9.]+ s, ([0-9.]+) tps", "pgbench/progress-c2.txt", &r);
	parse_fixture("pgbench", NULL, "pgbench/progress-c2.txt", &pg);
	is_int((long long)r.n, 4, "regex finds pgbench's four progress lines");
	ok(r.n == 4 && r.iv[0].rate == pg.iv[0].rate && r.iv[3].rate == pg.iv[3].rate,
	   "regex rates equal the pgbench parser's");
	is_str(r.iv[0].unit, "ops/s", "regex unit");
	ok(r.iv[0].have == 0, "regex samples claim no time, threads or latency");
	is_int(r.nsum, 0, "regex gives no summary");

	parse_fixture("regex", "eps: ([0-9.]+)", "sysbench/cpu-interval.txt", &r);
	is_int((long long)r.n, 3, "regex on sysbench cpu");
	is_double(r.iv[1].rate, 5813.77, 0, "regex: second eps");
}

static void
test_regex_bad_groups(void)
{
	static const char txt[] = "progress: 1.0 s, 2157.8 tps\nrate=\nrate= 42.5 \nrate=4x\n";
	struct run r;

	run_parser("regex", "^(progress)", txt, strlen(txt), FEED_WHOLE, &r);
	is_int((long long)r.n, 0, "group that is not a number: no sample");
	is_int((long long)r.c.bad_lines, 1, "... counted as a bad line");

	run_parser("regex", "(foo)?progress", txt, strlen(txt), FEED_WHOLE, &r);
	is_int((long long)r.c.bad_lines, 1, "group that did not take part: bad line");

	run_parser("regex", "rate=(.*)", txt, strlen(txt), FEED_WHOLE, &r);
	is_int((long long)r.n, 1, "rate=(.*): one usable line");
	is_double(r.n ? r.iv[0].rate : -1, 42.5, 0, "blanks around the number are allowed");
	is_int((long long)r.c.bad_lines, 2, "empty group and '4x' are bad lines");

	run_parser("regex", "(2157.8 tps)", txt, strlen(txt), FEED_WHOLE, &r);
	is_int((long long)r.n, 0, "a group with more than the number is rejected");
}

static void
check_setup_error(const char *name, const char *arg, const char *want1, const char *want2)
{
	char err[ST_ERRLEN] = "";
	struct parser *p = parser_new(name, arg, err, sizeof(err));

	ok(p == NULL, "%s '%s' is rejected at setup", name, arg ? arg : "");
	ok(strstr(err, want1) != NULL && strstr(err, want2) != NULL,
	   "error names '%s' and says '%s': %s", want1, want2, err);
	ok(strchr(err, '\n') == NULL && err[0] != '\0', "error is one line");
	parser_free(p);
}

static void
test_setup_errors(void)
{
	char why[256];
	regex_t re;
	int rc;

	check_setup_error("regex", "tps: [0-9.]+", "'tps: [0-9.]+'", "has no group");
	rc = regcomp(&re, "([0-9.]+", REG_EXTENDED);
	regerror(rc, &re, why, sizeof(why));
	ok(rc != 0, "an unbalanced parenthesis does not compile");
	check_setup_error("regex", "([0-9.]+", "'([0-9.]+'", why);
	check_setup_error("regex", "", "--parse-regex", "empty");
	check_setup_error("regex", NULL, "--parse-regex", "empty");
	check_setup_error("vmstat", NULL, "'vmstat'", "sysbench, pgbench or regex");
	check_setup_error(NULL, NULL, "parser", "unknown");
}

static void
test_registry(void)
{
	const char *const *names = parser_names();
	char err[ST_ERRLEN];
	struct parser *p;
	int i;

	for (i = 0; names[i] != NULL; i++) {
		p = parser_new(names[i], "x=([0-9]+)", err, sizeof(err));
		ok(p != NULL && strcmp(parser_name(p), names[i]) == 0, "registry makes '%s'",
		   names[i]);
		parser_free(p);
	}
	is_int(i, 3, "three parsers registered");
	ok(parser_takes_pattern("regex") && !parser_takes_pattern("sysbench") &&
		   !parser_takes_pattern("pgbench") && !parser_takes_pattern("nosuch"),
	   "regex alone takes a pattern (--parse-regex), the others are --parse NAME");
	p = parser_new("vmstat", NULL, err, sizeof(err));
	ok(p == NULL, "an unknown name makes no parser");
	is_str(err, "output parser 'vmstat' is unknown; use sysbench, pgbench or regex",
	       "the message lists the registry's names");
}

/* A kind for parser_create: arg "no" refuses, anything else keeps arg as its state. */
static int
fake_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "no") == 0)
		return st_error(err, errlen, "fake: refused");
	impl->state = (void *)arg;
	return 0;
}

static void
test_parser_create(void)
{
	static const char arg[] = "yes";
	char err[ST_ERRLEN] = "";
	struct parse_event ev;
	struct parser *p;

	p = parser_create("fake", fake_init, "no", err, sizeof(err));
	ok(p == NULL, "parser_create: NULL when the kind refuses");
	is_str(err, "fake: refused", "  with the kind's message");
	p = parser_create("fake", fake_init, arg, err, sizeof(err));
	ok(p != NULL && strcmp(parser_name(p), "fake") == 0, "parser_create: named as asked");
	ok(p != NULL && parser_state(p) == arg, "  with the state its kind set");
	ok(p != NULL && !parser_next(p, &ev), "  and no events yet");
	parser_free(p);
}

static void
test_long_lines(void)
{
	static char buf[3 * PARSE_LINE_MAX];
	static const char good[] = "progress: 2.0 s, 99.5 tps\n";
	size_t n;
	struct run r;

	/* A line of exactly PARSE_LINE_MAX bytes is parsed. */
	n = (size_t)snprintf(buf, sizeof(buf), "progress: 1.0 s, 12.5 tps");
	memset(buf + n, ' ', PARSE_LINE_MAX - n);
	buf[PARSE_LINE_MAX] = '\n';
	run_parser("pgbench", NULL, buf, PARSE_LINE_MAX + 1, FEED_RANDOM, &r);
	is_int((long long)r.n, 1, "a line of PARSE_LINE_MAX bytes is parsed");
	is_int((long long)r.c.long_lines, 0, "... and not counted as long");

	/* One byte more: dropped whole, never parsed from a cut-off prefix; the next line is fine.
	 */
	n = (size_t)snprintf(buf, sizeof(buf), "progress: 1.0 s, 12");
	memset(buf + n, '5', PARSE_LINE_MAX + 1 - n - 4);
	memcpy(buf + PARSE_LINE_MAX + 1 - 4, " tps\n", 5);
	memcpy(buf + PARSE_LINE_MAX + 2, good, sizeof(good));
	n = PARSE_LINE_MAX + 2 + strlen(good);
	run_parser("pgbench", NULL, buf, n, FEED_RANDOM, &r);
	is_int((long long)r.c.long_lines, 1, "a line of PARSE_LINE_MAX+1 bytes is dropped");
	is_int((long long)r.n, 1, "the following line is still parsed");
	is_double(r.n ? r.iv[0].rate : -1, 99.5, 0, "... with its own rate");

	/* A long unterminated last line is dropped at finish too. */
	memset(buf, '7', sizeof(buf));
	run_parser("pgbench", NULL, buf, sizeof(buf), FEED_RANDOM, &r);
	is_int((long long)r.c.long_lines, 1, "an endless unterminated line is dropped once");
	is_int((long long)r.c.lines, 0, "... and never looked at");
}

static void
test_line_edges(void)
{
	static const char nul[] = "progress: 1.0 s, 1\0002.5 tps\nprogress: 2.0 s, 3.5 tps\n";
	static const char redraw[] = "progress: 1.0 s, 10.0 tps\rprogress: 2.0 s, 20.0 tps\r";
	char err[ST_ERRLEN];
	struct parse_event ev;
	struct parser *p;
	struct run r;

	run_parser("pgbench", NULL, nul, sizeof(nul) - 1, FEED_WHOLE, &r);
	is_int((long long)r.n, 1, "a line with a NUL byte is dropped");
	is_int((long long)r.c.long_lines, 1, "... and counted");
	is_double(r.n ? r.iv[0].rate : -1, 3.5, 0, "the next line is parsed");

	run_parser("pgbench", NULL, redraw, strlen(redraw), FEED_BYTES, &r);
	is_int((long long)r.n, 2, "bare CR ends a line (redrawn progress lines)");

	p = parser_new("pgbench", NULL, err, sizeof(err));
	ok(!parser_next(p, &ev), "nothing queued at first");
	parser_feed(p, "progress: 7.0 s, 70.25 tps", 26);
	ok(!parser_next(p, &ev), "an unterminated line waits for its end");
	parser_finish(p);
	ok(parser_next(p, &ev) && ev.type == PARSE_INTERVAL && ev.interval.rate == 70.25,
	   "finish parses the unterminated last line");
	parser_feed(p, "progress: 8.0 s, 80 tps\n", 24);
	parser_finish(p);
	ok(!parser_next(p, &ev), "feeding after finish is ignored");
	parser_free(p);
	parser_free(NULL);
}

/* An engine that stops draining loses only what does not fit, and counts it. */
static void
test_queue_cap(void)
{
	const size_t total = PARSE_QUEUE_MAX + 1000;
	char err[ST_ERRLEN], line[64];
	struct parse_event ev;
	struct parser *p = parser_new("pgbench", NULL, err, sizeof(err));
	size_t i, got = 0;
	double first = -1, last = -1;
	int n;

	for (i = 1; i <= total; i++) {
		n = snprintf(line, sizeof(line), "progress: %zu.0 s, 1.0 tps\n", i);
		parser_feed(p, line, (size_t)n);
	}
	is_u64(parser_counters(p)->dropped, 1000, "events past the cap are counted as dropped");
	while (parser_next(p, &ev)) {
		if (got++ == 0)
			first = ev.interval.t_end;
		last = ev.interval.t_end;
	}
	is_int((long long)got, PARSE_QUEUE_MAX, "the queue holds PARSE_QUEUE_MAX events");
	is_double(first, 1, 0, "oldest first");
	is_double(last, PARSE_QUEUE_MAX, 0, "the newest kept is the last that fitted");
	parser_feed(p, "progress: 1.5 s, 2.0 tps\n", 25);
	ok(parser_next(p, &ev) && ev.interval.rate == 2.0, "queue works again once drained");
	parser_free(p);
}

static void
check_number(const char *s, double want, size_t used)
{
	const char *end;
	double v = -1;

	end = parse_number(s, &v);
	ok(end != NULL && v == want && (size_t)(end - s) == used,
	   "parse_number(\"%s\") = %.17g, %zu chars", s, v, end ? (size_t)(end - s) : 0);
}

static void
test_numbers(void)
{
	double v;
	uint64_t u;

	check_number("5790.62", 5790.62, 7);
	check_number("0.011", 0.011, 5);
	check_number("2066.164067 (without", 2066.164067, 11);
	check_number("1.5e3", 1500, 5);
	check_number("25E-1x", 2.5, 5);
	check_number("7e", 7, 1);
	check_number("7e+", 7, 1);
	check_number("5.", 5, 2);
	check_number(".25", 0.25, 3);
	check_number("0.000000000000000000000000123", 1.23e-25, 29);
	/* Past 15 significant digits a double cannot be exact anyway; within 2 ulp is enough. */
	ok(parse_number("123456789012345678901234", &v) != NULL &&
		   fabs(v - 1.2345678901234568e23) <= 2 * 1.6777216e7,
	   "24 digits: within 2 ulp");
	ok(parse_number(".", &v) == NULL, "'.' is no number");
	ok(parse_number("-1", &v) == NULL, "signed numbers are refused: rates are never negative");
	ok(parse_number("nan", &v) == NULL && parse_number("inf", &v) == NULL, "no nan or inf");
	ok(parse_number("1e99999", &v) == NULL, "overflow to infinity is refused");
	ok(parse_count("18446744073709551615", &u) != NULL && u == UINT64_MAX, "largest count");
	ok(parse_count("18446744073709551616", &u) == NULL, "count overflow refused");
	ok(parse_find_word("xtps: 1 tps: 2", "tps:") != NULL &&
		   *parse_find_word("xtps: 1 tps: 2", "tps:") == ' ' &&
		   parse_find_word("xtps: 1 tps: 2", "tps:")[1] == '2',
	   "keys match at word starts only");
	/* A locale with a decimal comma must not change how tool output reads. */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL) {
		check_number("5790.62", 5790.62, 7);
		setlocale(LC_NUMERIC, "C");
	} else
		skip("no de_DE.UTF-8 locale installed", "parse_number ignores LC_NUMERIC");
}

int
main(void)
{
	test_numbers();
	test_sysbench_cpu();
	test_sysbench_histogram();
	test_sysbench_threads_mutex();
	test_sysbench_oltp();
	test_sysbench_fileio();
	test_sysbench_fileio_no_header();
	test_sysbench_memory();
	test_pgbench();
	test_pgbench_old_tps();
	test_regex_on_fixtures();
	test_regex_bad_groups();
	test_setup_errors();
	test_registry();
	test_parser_create();
	test_long_lines();
	test_line_edges();
	test_queue_cap();
	return done_testing();
}

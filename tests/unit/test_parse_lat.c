/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --parse-lat: the latency group of a --parse-regex command, on its rate's
 * line or on a line before it; its unit and statistic read off the end of
 * the spec, a regex with colons of its own, and the refusals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"
#include "../tap.h"

#define MAXIV 16

struct got {
	struct parse_interval iv[MAXIV];
	int n;
	struct parse_counters c;
};

/* Feeds text to a regex parser with the latency spec lat, in chunks of step bytes. */
static void
feed(const char *rate_re, const char *lat, const char *text, size_t step, struct got *g)
{
	char err[ST_ERRLEN];
	struct parser *p = parser_new("regex", rate_re, err, sizeof(err));
	struct parse_event ev;
	size_t off, len = strlen(text);

	memset(g, 0, sizeof(*g));
	if (p == NULL || parser_set_latency(p, lat, err, sizeof(err)) != 0) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	for (off = 0; off < len; off += step)
		parser_feed(p, text + off, len - off < step ? len - off : step);
	parser_finish(p);
	while (parser_next(p, &ev)) {
		if (ev.type == PARSE_INTERVAL && g->n < MAXIV)
			g->iv[g->n++] = ev.interval;
	}
	g->c = *parser_counters(p);
	parser_free(p);
}

static void
test_same_line(void)
{
	struct got g, h;
	const char *txt = "rate: 100 lat: 2.5\nrate: 200 lat: 4\nrate: 300\n";

	feed("rate: ([0-9.]+)", "lat: ([0-9.]+)", txt, 1000, &g);
	is_int(g.n, 3, "same line: three samples");
	ok(g.iv[0].have & PARSE_HAVE_LAT, "the first has a latency");
	is_double(g.iv[0].lat_ms, 2.5, 0, "2.5 ms (ms by default)");
	is_int(g.iv[0].lat_pct, 0, "the mean by default");
	is_double(g.iv[1].lat_ms, 4, 0, "the second, 4 ms");
	ok(!(g.iv[2].have & PARSE_HAVE_LAT), "a rate line without latency has none");
	feed("rate: ([0-9.]+)", "lat: ([0-9.]+)", txt, 1, &h);
	ok(h.n == g.n && h.iv[1].lat_ms == g.iv[1].lat_ms, "byte by byte: the same");
}

static void
test_line_before(void)
{
	struct got g;
	const char *txt = "p99=1500\nops 40\nops 50\np99=2500\np99=3500\nops 60\n";

	feed("ops ([0-9]+)", "p99=([0-9]+):us:p99", txt, 7, &g);
	is_int(g.n, 3, "line before: three samples");
	is_double(g.iv[0].lat_ms, 1.5, 1e-12, "1500 us is 1.5 ms, on the next rate line");
	is_int(g.iv[0].lat_pct, 99, "a p99");
	ok(!(g.iv[1].have & PARSE_HAVE_LAT), "taken once: the next rate line has none");
	is_double(g.iv[2].lat_ms, 3.5, 1e-12, "of two before a rate line, the later one");
}

static void
test_units(void)
{
	static const struct {
		const char *spec;
		double ms;
		int pct;
	} cases[] = {
		{ "l=([0-9.]+):ns", 2e-6, 0 },     { "l=([0-9.]+):us", 2e-3, 0 },
		{ "l=([0-9.]+):ms", 2, 0 },        { "l=([0-9.]+):s", 2000, 0 },
		{ "l=([0-9.]+):s:p95", 2000, 95 }, { "l=([0-9.]+):ms:mean", 2, 0 },
		{ "l=([0-9.]+)", 2, 0 },
	};
	struct got g;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		feed("r=([0-9]+)", cases[i].spec, "r=5 l=2\n", 64, &g);
		ok(g.n == 1 && fabs(g.iv[0].lat_ms - cases[i].ms) <= 1e-15 &&
			   g.iv[0].lat_pct == cases[i].pct,
		   "%s: %g ms, pct %d (got %g, %d)", cases[i].spec, cases[i].ms, cases[i].pct,
		   g.n == 1 ? g.iv[0].lat_ms : -1, g.n == 1 ? g.iv[0].lat_pct : -1);
	}
	/* A regex's own colons stay in it: only a unit and a statistic are read off the end. */
	feed("r=([0-9]+)", "lat: ([0-9.]+)", "r=5 lat: 7\n", 64, &g);
	is_double(g.iv[0].lat_ms, 7, 0, "'lat: (...)': the colon is the regex's");
	feed("r=([0-9]+)", "x:y ([0-9.]+):us", "r=5 x:y 7000\n", 64, &g);
	is_double(g.iv[0].lat_ms, 7, 0, "'x:y (...):us': only :us is read off");
}

static void
test_bad(void)
{
	struct got g;

	feed("r=([0-9]+)", "lat=([^ ]*)", "r=5 lat=abc\nr=6 lat=\nr=7 lat=1e999\n", 64, &g);
	is_int(g.n, 3, "bad latencies: the rates still count");
	ok(!(g.iv[0].have & PARSE_HAVE_LAT) && !(g.iv[1].have & PARSE_HAVE_LAT) &&
		   !(g.iv[2].have & PARSE_HAVE_LAT),
	   "none carries a latency");
	is_u64(g.c.bad_lines, 3, "each counted as a bad line");
}

static void
test_refused(void)
{
	char err[ST_ERRLEN];
	struct parser *p = parser_new("regex", "r=([0-9]+)", err, sizeof(err));
	struct parser *sb = parser_new("sysbench", NULL, err, sizeof(err));

	is_int(parser_set_latency(p, "lat [0-9]+:ms", err, sizeof(err)), -1, "no group: refused");
	ok(strstr(err, "has no group") != NULL && strchr(err, '\n') == NULL, "says so (%s)", err);
	is_int(parser_set_latency(p, "([0-9]+:ms", err, sizeof(err)), -1, "a bad regex: refused");
	ok(strstr(err, "fix the POSIX extended regex") != NULL, "says so (%s)", err);
	is_int(parser_set_latency(p, ":ms:p99", err, sizeof(err)), -1, "no regex: refused");
	ok(strstr(err, "empty") != NULL, "says so (%s)", err);
	is_int(parser_set_latency(p, "l=([0-9]+):us", err, sizeof(err)), 0,
	       "a good one after the bad: taken");
	is_int(parser_set_latency(sb, "l=([0-9]+)", err, sizeof(err)), -1,
	       "a sysbench parser takes none");
	ok(strstr(err, "--parse-regex") != NULL, "says what it goes with (%s)", err);
	parser_free(p);
	parser_free(sb);
}

int
main(void)
{
	test_same_line();
	test_line_before();
	test_units();
	test_bad();
	test_refused();
	return done_testing();
}

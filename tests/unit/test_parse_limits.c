/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The parsers on hostile output: figures each in range that overflow when
 * combined, counts too big for their field.  What fuzzing found
 * (tests/fuzz/regressions/) gets a case here with the expected result.
 */
#include <math.h>
#include <string.h>

#include "scaletop/parse.h"
#include "../tap.h"

struct seen {
	int intervals, summaries;
	struct parse_interval iv;
	struct parse_summary sum;
	struct parse_counters c;
};

static void
parse_all(const char *name, const char *text, struct seen *out)
{
	char err[256];
	struct parser *p = parser_new(name, NULL, err, sizeof(err));
	struct parse_event ev;

	memset(out, 0, sizeof(*out));
	if (p == NULL) {
		ok(0, "parser_new(%s): %s", name, err);
		return;
	}
	parser_feed(p, text, strlen(text));
	parser_finish(p);
	while (parser_next(p, &ev)) {
		if (ev.type == PARSE_INTERVAL) {
			out->intervals++;
			out->iv = ev.interval;
		} else {
			out->summaries++;
			out->sum = ev.summary;
		}
	}
	out->c = *parser_counters(p);
	parser_free(p);
}

int
main(void)
{
	struct seen r;

	/* fuzz_sysbench: "thds: 1e21" was cast to int, which is undefined */
	parse_all("sysbench", "[ 1s ] thds: 1e21 eps: 5.0 lat (ms,95%): 0.1\n", &r);
	is_int(r.intervals, 1, "a thread count no machine has: the sample is kept");
	ok(!(r.iv.have & PARSE_HAVE_THREADS), "but its thread count is not");
	parse_all("sysbench", "[ 1s ] thds: 1000000 eps: 5.0\n", &r);
	is_int(r.iv.threads, 1000000, "a million threads is still a count");

	parse_all("sysbench",
		  "Block size 0.000001B\nDoing random write test\n"
		  "[ 1s ] reads: 0.00 MiB/s writes: 1e300 MiB/s fsyncs: 0.00/s\n",
		  &r);
	is_int(r.intervals, 1, "a block under a byte is ignored");
	is_double(r.iv.rate, 1e300, 0, "so the rate stays in MiB/s");
	ok(strcmp(r.iv.unit, "MiB/s") == 0, "and says so");

	parse_all("sysbench",
		  "Block size 1B\nDoing random write test\n"
		  "[ 1s ] reads: 0.00 MiB/s writes: 1e303 MiB/s fsyncs: 0.00/s\n",
		  &r);
	is_int(r.intervals, 0, "MiB/s that overflow as operations: no sample");
	is_int((long long)r.c.bad_lines, 1, "but a bad line");

	parse_all("sysbench",
		  "    total time:                          1e-300s\n"
		  "    total number of events:              18446744073709551615\n",
		  &r);
	is_int(r.summaries, 0, "events over a time so short the rate overflows: no summary");
	return done_testing();
}

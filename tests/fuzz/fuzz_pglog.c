/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for pgbench --log's reader (parse_pgbench_log.c): any
 * bytes as a log file, tallied whole and then line by line as getline gives
 * them, which must agree; every count adds up and the intervals' figures are
 * finite and non-negative.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/lathist.h"
#include "scaletop/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(bool ok)
{
	if (!ok)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pglog_tally a, b;
	const char *s = (const char *)data, *nl;
	double mean[64], max_ms;
	size_t off = 0, n;
	int i, k;

	/* A window around the stamps the seeds hold, and one that takes every line. */
	pglog_tally_init(&a, 1.7e9, 1.9e9);
	pglog_tally_feed(&a, s, size);
	pglog_tally_init(&b, 1.7e9, 1.9e9);
	pglog_tally_file(&b);
	while (off < size) {
		nl = memchr(s + off, '\n', size - off);
		n = nl != NULL ? (size_t)(nl - (s + off)) + 1 : size - off;
		pglog_tally_line(&b, s + off, n);
		off += n;
	}
	check(a.timed == b.timed && a.bad == b.bad && a.lines == b.lines && a.nagg == b.nagg);
	check(a.truncated <= 1 && a.bad <= a.lines);
	check(a.timed + a.outside + a.skipped + a.bad <= a.lines);
	check(a.hist == NULL || a.hist->count == a.timed);
	check(a.bad == 0 || (a.first_bad >= 1 && a.first_bad <= a.line_no));
	k = pglog_tally_intervals(&a, mean, 64, &max_ms);
	check(k >= 0 && k <= 64 && k <= a.nagg);
	for (i = 0; i < k; i++)
		check(isfinite(mean[i]) && mean[i] >= 0);
	check(k == 0 || (isfinite(max_ms) && max_ms >= 0));
	pglog_tally_free(&a);
	pglog_tally_free(&b);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The parser of pgbench output: its -P progress lines and its closing
 * report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"

/*
 * pgbench output.  -P N prints one progress line per interval:
 *
 *   progress: 1.0 s, 2157.8 tps, lat 0.922 ms stddev 0.450, 0 failed
 *   progress: 1.0 s, 546.9 tps, lat 0.761 ms stddev 0.308, 0 failed, lag 0.175 ms
 *
 * (before PostgreSQL 15 without "failed").  "lat" is the mean latency.  The
 * closing report has "number of clients: N", "duration: N s", "number of
 * transactions actually processed: N" (or "N/M" with -t) and
 *
 *   tps = 2066.164067 (without initial connection time)        15 and later
 *   tps = X (including connections establishing)              before 14, with
 *   tps = Y (excluding connections establishing)              both lines
 *
 * The rate that leaves out connection set-up is preferred, as it is the one
 * the progress lines measure.
 */

struct pgbench {
	size_t intervals;
	bool have_tps, tps_excludes_connect;
	double tps;
	bool have_clients, have_duration, have_tx;
	int clients;
	double duration;
	uint64_t tx;
};

/* ", lat 0.922 ms" */
static void
pg_latency(const char *s, struct parse_interval *iv)
{
	double v;

	if ((s = parse_find_word(s, "lat ")) == NULL)
		return;
	if ((s = parse_number(parse_skip_blanks(s), &v)) == NULL)
		return;
	if (strncmp(parse_skip_blanks(s), "ms", 2) != 0)
		return;
	iv->lat_ms = v;
	iv->lat_pct = 0;
	iv->have |= PARSE_HAVE_LAT;
}

/* What follows "progress:". */
static void
pg_progress(struct parser *p, struct pgbench *pg, const char *s)
{
	struct parse_interval iv;

	memset(&iv, 0, sizeof(iv));
	s = parse_number(parse_skip_blanks(s), &iv.t_end);
	if (s == NULL || strncmp(parse_skip_blanks(s), "s,", 2) != 0)
		goto bad;
	s = parse_number(parse_skip_blanks(parse_skip_blanks(s) + 2), &iv.rate);
	if (s == NULL || strncmp(parse_skip_blanks(s), "tps", 3) != 0)
		goto bad;
	iv.have = PARSE_HAVE_T;
	snprintf(iv.unit, sizeof(iv.unit), "tps");
	pg_latency(s, &iv);
	pg->intervals++;
	parser_emit_interval(p, &iv);
	return;
bad:
	parser_count_bad(p);
}

/* "tps = 2066.164067 (without initial connection time)" */
static void
pg_tps(struct pgbench *pg, const char *s)
{
	bool excludes;
	double v;

	s = parse_skip_blanks(s);
	if (*s++ != '=' || (s = parse_number(parse_skip_blanks(s), &v)) == NULL)
		return;
	excludes = strstr(s, "without") != NULL || strstr(s, "excluding") != NULL;
	if (pg->have_tps && pg->tps_excludes_connect && !excludes)
		return;
	pg->tps = v;
	pg->have_tps = true;
	pg->tps_excludes_connect = excludes;
}

static bool
pg_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0)
		return false;
	*rest = parse_skip_blanks(s + n);
	return true;
}

static void
pg_line(struct parser *p, char *line, size_t len)
{
	struct pgbench *pg = parser_state(p);
	const char *s = parse_skip_blanks(line), *r;
	uint64_t n;

	if (pg_prefix(s, "progress:", &r))
		pg_progress(p, pg, r);
	else if (pg_prefix(s, "tps", &r))
		pg_tps(pg, r);
	else if (pg_prefix(s, "number of clients:", &r)) {
		if (parse_count(r, &n) != NULL && n <= 1000000) {
			pg->clients = (int)n;
			pg->have_clients = true;
		}
	} else if (pg_prefix(s, "duration:", &r))
		pg->have_duration = parse_number(r, &pg->duration) != NULL;
	else if (pg_prefix(s, "number of transactions actually processed:", &r))
		pg->have_tx = parse_count(r, &pg->tx) != NULL;
}

static void
pg_finish(struct parser *p)
{
	struct pgbench *pg = parser_state(p);
	struct parse_summary sum;

	if (!pg->have_tps)
		return;
	memset(&sum, 0, sizeof(sum));
	sum.rate = pg->tps;
	snprintf(sum.unit, sizeof(sum.unit), "tps");
	if (pg->have_tx) {
		sum.ops = pg->tx;
		sum.have |= PARSE_HAVE_OPS;
	}
	if (pg->have_duration) {
		sum.duration = pg->duration;
		sum.have |= PARSE_HAVE_DURATION;
	}
	if (pg->have_clients) {
		sum.threads = pg->clients;
		sum.have |= PARSE_HAVE_THREADS;
	}
	sum.intervals = pg->intervals;
	parser_emit_summary(p, &sum);
}

int
parse_pgbench_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen)
{
	if ((impl->state = calloc(1, sizeof(struct pgbench))) == NULL)
		return st_error(err, errlen, "pgbench output parser: out of memory");
	impl->line = pg_line;
	impl->finish = pg_finish;
	impl->free = free;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --parse-regex 'RE': every line the POSIX extended regex matches is one
 * interval sample, its first group the rate, a plain decimal number (blanks
 * around it allowed); an empty group or no number is a bad line, not a 0.
 * --parse-lat's regex: the latency of the same line's or the next rate's.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"

/*
 * The tool's time and unit are not known, so samples carry neither t_end nor
 * a unit beyond "ops/s", and there is no summary: a command that prints one
 * final line gives one sample.
 */

struct rx {
	regex_t re;
	regex_t lat; /* --parse-lat's, when have_lat */
	bool have_lat;
	double lat_mul; /* its unit to ms */
	int lat_pct;    /* what it is: 0 the mean, else a percentile */
	double pending; /* a latency matched, waiting for its rate line */
	bool have_pending;
};

/* The group's text as a rate: one number, nothing else but blanks. */
static bool
rx_rate(char *text, double *rate)
{
	const char *s;

	if ((s = parse_number(parse_skip_blanks(text), rate)) == NULL)
		return false;
	return *parse_skip_blanks(s) == '\0';
}

/* The first group of re in line as a number: 1, 0 when re does not match, -1 when bad. */
static int
rx_group(const regex_t *re, char *line, double *v)
{
	regmatch_t m[2];
	char saved;
	bool good;

	if (regexec(re, line, 2, m, 0) != 0)
		return 0;
	if (m[1].rm_so < 0 || m[1].rm_eo <= m[1].rm_so)
		return -1;
	/* Cut the line at the group's end for a moment, so the number must fill the group. */
	saved = line[m[1].rm_eo];
	line[m[1].rm_eo] = '\0';
	good = rx_rate(line + m[1].rm_so, v);
	line[m[1].rm_eo] = saved;
	return good ? 1 : -1;
}

/* A latency line: kept for the rate line it belongs to; -1 when its number is bad. */
static int
rx_lat_line(struct rx *rx, char *line)
{
	double v;
	int rc;

	if (!rx->have_lat || (rc = rx_group(&rx->lat, line, &v)) == 0)
		return 0;
	if (rc < 0 || !isfinite(v * rx->lat_mul))
		return -1;
	rx->pending = v * rx->lat_mul;
	rx->have_pending = true;
	return 1;
}

static void
rx_line(struct parser *p, char *line, size_t len)
{
	struct rx *rx = parser_state(p);
	struct parse_interval iv;
	int lat, rate;

	(void)len;
	lat = rx_lat_line(rx, line);
	memset(&iv, 0, sizeof(iv));
	rate = rx_group(&rx->re, line, &iv.rate);
	if (lat < 0 || rate < 0)
		parser_count_bad(p);
	if (rate <= 0)
		return;
	snprintf(iv.unit, sizeof(iv.unit), "ops/s");
	if (rx->have_pending) {
		iv.have |= PARSE_HAVE_LAT;
		iv.lat_ms = rx->pending;
		iv.lat_pct = rx->lat_pct;
		rx->have_pending = false;
	}
	parser_emit_interval(p, &iv);
}

static void
rx_free(void *state)
{
	struct rx *rx = state;

	regfree(&rx->re);
	if (rx->have_lat)
		regfree(&rx->lat);
	free(rx);
}

int
parse_regex_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen)
{
	char why[256];
	struct rx *rx;
	int rc;

	if (arg == NULL || *arg == '\0')
		return st_error(err, errlen,
				"--parse-regex: the regex is empty; give one whose "
				"first group is the rate, e.g. 'rate: ([0-9.]+)'");
	if ((rx = calloc(1, sizeof(*rx))) == NULL)
		return st_error(err, errlen, "--parse-regex '%s': out of memory", arg);
	if ((rc = regcomp(&rx->re, arg, REG_EXTENDED)) != 0) {
		regerror(rc, &rx->re, why, sizeof(why));
		free(rx);
		return st_error(err, errlen, "--parse-regex '%s': %s; fix the POSIX extended regex",
				arg, why);
	}
	if (rx->re.re_nsub < 1) {
		rx_free(rx);
		return st_error(err, errlen,
				"--parse-regex '%s': has no group; put the rate in "
				"parentheses, e.g. 'rate: ([0-9.]+)'",
				arg);
	}
	impl->state = rx;
	impl->line = rx_line;
	impl->finish = NULL;
	impl->free = rx_free;
	return 0;
}

/* The unit word w (len bytes) as a factor to ms; 0 when it is none. */
static double
rx_unit(const char *w, size_t len)
{
	static const struct {
		const char *name;
		double to_ms;
	} units[] = { { "ns", 1e-6 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strlen(units[i].name) == len && memcmp(units[i].name, w, len) == 0)
			return units[i].to_ms;
	}
	return 0;
}

/* "mean" (0) or "pN", N from 1 to 100; -1 when w is neither. */
static int
rx_stat(const char *w)
{
	char *end;
	long v;

	if (strcmp(w, "mean") == 0)
		return 0;
	if (w[0] != 'p' || w[1] < '0' || w[1] > '9')
		return -1;
	v = strtol(w + 1, &end, 10);
	return *end == '\0' && v >= 1 && v <= 100 ? (int)v : -1;
}

/*
 * Reads RE[:UNIT[:STAT]] off the end: the last word after a ':' is a STAT
 * when the one before it is a UNIT, else a UNIT if it is one; what is left
 * is the regex, colons and all.  cut is where the regex ends.
 */
static void
rx_lat_suffix(const char *spec, size_t *cut, double *mul, int *pct)
{
	const char *c1 = strrchr(spec, ':'), *c0;
	size_t n = strlen(spec);

	*cut = n;
	*mul = 1;
	*pct = 0;
	if (c1 == NULL)
		return;
	for (c0 = c1 - 1; c0 >= spec && *c0 != ':'; c0--)
		;
	if (c0 >= spec && rx_stat(c1 + 1) >= 0 && rx_unit(c0 + 1, (size_t)(c1 - c0 - 1)) > 0) {
		*mul = rx_unit(c0 + 1, (size_t)(c1 - c0 - 1));
		*pct = rx_stat(c1 + 1);
		*cut = (size_t)(c0 - spec);
	} else if (rx_unit(c1 + 1, strlen(c1 + 1)) > 0) {
		*mul = rx_unit(c1 + 1, strlen(c1 + 1));
		*cut = (size_t)(c1 - spec);
	}
}

int
parser_set_latency(struct parser *p, const char *spec, char *err, size_t errlen)
{
	struct rx *rx = parser_state(p);
	char why[256], *re;
	size_t cut;
	int rc;

	if (strcmp(parser_name(p), "regex") != 0)
		return st_error(err, errlen, "--parse-lat goes with --parse-regex");
	rx_lat_suffix(spec, &cut, &rx->lat_mul, &rx->lat_pct);
	if (cut == 0)
		return st_error(err, errlen,
				"--parse-lat '%s': the regex is empty; give one whose first "
				"group is the latency, e.g. 'lat: ([0-9.]+):ms'",
				spec);
	if ((re = strndup(spec, cut)) == NULL)
		return st_error(err, errlen, "--parse-lat '%s': out of memory", spec);
	if (rx->have_lat)
		regfree(&rx->lat);
	rx->have_lat = false;
	rc = regcomp(&rx->lat, re, REG_EXTENDED);
	free(re);
	if (rc != 0) {
		regerror(rc, &rx->lat, why, sizeof(why));
		return st_error(err, errlen, "--parse-lat '%s': %s; fix the POSIX extended regex",
				spec, why);
	}
	rx->have_lat = true;
	if (rx->lat.re_nsub < 1)
		return st_error(err, errlen,
				"--parse-lat '%s': has no group; put the latency in "
				"parentheses, e.g. 'lat: ([0-9.]+):ms'",
				spec);
	return 0;
}

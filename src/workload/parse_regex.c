/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --parse-regex 'RE': for any other command, every line the POSIX extended
 * regex matches is one interval sample, and its first group is the rate, a
 * plain decimal number ("1234", "56.7", "1.2e3"; blanks around it are
 * allowed).  A match whose group is empty, or is not such a number, counts as
 * a bad line rather than a sample of 0.
 */
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

static void
rx_line(struct parser *p, char *line, size_t len)
{
	struct rx *rx = parser_state(p);
	struct parse_interval iv;
	regmatch_t m[2];
	char saved;
	bool good;

	if (regexec(&rx->re, line, 2, m, 0) != 0)
		return;
	if (m[1].rm_so < 0 || m[1].rm_eo <= m[1].rm_so) {
		parser_count_bad(p);
		return;
	}
	memset(&iv, 0, sizeof(iv));
	/* Cut the line at the group's end for a moment, so the number must fill the group. */
	saved = line[m[1].rm_eo];
	line[m[1].rm_eo] = '\0';
	good = rx_rate(line + m[1].rm_so, &iv.rate);
	line[m[1].rm_eo] = saved;
	if (!good) {
		parser_count_bad(p);
		return;
	}
	snprintf(iv.unit, sizeof(iv.unit), "ops/s");
	parser_emit_interval(p, &iv);
}

static void
rx_free(void *state)
{
	struct rx *rx = state;

	regfree(&rx->re);
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The registry of parsers of external commands' output.  The list below is
 * the one place a parser is named: a new one is its own file
 * (src/workload/parse_NAME.c, with parse_NAME_init declared in parse.h)
 * plus one line here, and its file in local.mk.  The list fills the table,
 * the names `--parser` accepts and the message that lists them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "parser.h"

/* Each parser, and whether it takes a pattern (regex: --parse-regex's, not --parse NAME). */
#define PARSERS(X)         \
	X(sysbench, false) \
	X(pgbench, false)  \
	X(regex, true)

struct parser_entry {
	const char *name;
	parser_init_fn init;
	bool pattern;
};

#define PARSER_ENTRY(name, pattern) { #name, parse_##name##_init, pattern },
#define PARSER_NAME(name, pattern) #name,

static const struct parser_entry parser_table[] = { PARSERS(PARSER_ENTRY) };
#define PARSER_COUNT (sizeof(parser_table) / sizeof(parser_table[0]))

static const char *const parser_name_list[] = { PARSERS(PARSER_NAME) NULL };

const char *const *
parser_names(void)
{
	return parser_name_list;
}

bool
parser_takes_pattern(const char *name)
{
	size_t i;

	for (i = 0; i < PARSER_COUNT; i++) {
		if (strcmp(name, parser_table[i].name) == 0)
			return parser_table[i].pattern;
	}
	return false;
}

/* "a, b or c": the names, for the message that lists them. */
static void
parser_choices(char *buf, size_t len)
{
	size_t i, used = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < PARSER_COUNT && used < len; i++) {
		n = snprintf(buf + used, len - used, "%s%s",
			     i == 0                  ? ""
			     : i + 1 == PARSER_COUNT ? " or "
						     : ", ",
			     parser_table[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

struct parser *
parser_new(const char *name, const char *arg, char *err, size_t errlen)
{
	const struct parser_entry *e = NULL;
	char choices[128];
	size_t i;

	for (i = 0; i < PARSER_COUNT; i++) {
		if (name != NULL && strcmp(name, parser_table[i].name) == 0)
			e = &parser_table[i];
	}
	if (e == NULL) {
		parser_choices(choices, sizeof(choices));
		st_error(err, errlen, "output parser '%s' is unknown; use %s",
			 name != NULL ? name : "", choices);
		return NULL;
	}
	return parser_create(e->name, e->init, arg, err, errlen);
}

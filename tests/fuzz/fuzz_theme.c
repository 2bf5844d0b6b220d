/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the theme parser: theme_parse over any bytes, then
 * theme_resolve at every depth.  A theme file is the user's (or btop's), so
 * nothing in it may stop scaletop: every bad line is one warning, one line
 * long, naming the file and its line, and what is left is a theme the
 * terminal can be given (colours in range, no blend marker left).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_warnings {
	int n;
	size_t lines; /* lines in the input: no warning may name one past them */
};

static void
fuzz_warn(const char *msg, void *arg)
{
	struct fuzz_warnings *w = arg;
	const char *p = "fuzz.theme:";
	char *end;
	unsigned long line;

	w->n++;
	if (strncmp(msg, p, strlen(p)) != 0 || strchr(msg, '\n') != NULL)
		abort();
	line = strtoul(msg + strlen(p), &end, 10);
	if (line == 0 || line > w->lines || *end != ':')
		abort();
}

static int
fuzz_color_ok(int32_t c)
{
	return c == THEME_COLOR_DEFAULT || (c >= 0 && c <= 0xffffff);
}

static void
fuzz_check_theme(const struct theme *t)
{
	struct theme_pair pairs[ROLE_COUNT];
	static const enum theme_depth depths[] = { THEME_DEPTH_MONO, THEME_DEPTH_8, THEME_DEPTH_256,
						   THEME_DEPTH_DIRECT };
	size_t d;
	int r;

	for (r = 0; r < ROLE_COUNT; r++) {
		if (!fuzz_color_ok(t->role[r].fg) || !fuzz_color_ok(t->role[r].bg))
			abort();
	}
	if (strlen(t->name) >= sizeof(t->name))
		abort();
	for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
		theme_resolve(t, depths[d], 256, (int)(d & 1), pairs);
		for (r = 0; r < ROLE_COUNT; r++) {
			if (pairs[r].pair < 0 || pairs[r].pair > ROLE_COUNT)
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_warnings w = { 0, 1 };
	struct theme t;
	size_t i;
	int bad;

	for (i = 0; i < size; i++)
		w.lines += data[i] == '\n';
	bad = theme_parse(&t, (const char *)data, size, "fuzz.theme", fuzz_warn, &w);
	if (bad != w.n || bad < 0 || (size_t)bad > w.lines)
		abort(); /* one warning for each bad line, and a bad line is a line */
	fuzz_check_theme(&t);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the config file parser: prefs_parse over any bytes.
 * A bad config costs its keys, never the start: the result is 0 or 1 (a
 * warning), the warning is one line naming the file and line, and the
 * preferences left are ones prefs_save would write (strings without
 * control characters, the interval in range).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "../../src/tui/prefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_string_ok(const char *s, size_t size)
{
	size_t i, n = strnlen(s, size);

	if (n == size)
		abort(); /* not terminated */
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char warn[ST_ERRLEN];
	struct prefs p;
	int rc;

	prefs_defaults(&p);
	rc = prefs_parse(&p, (const char *)data, size, "fuzz.config", warn, sizeof(warn));
	if (rc != 0 && rc != 1)
		abort();
	if (rc == 1 && (strncmp(warn, "fuzz.config:", 12) != 0 || strchr(warn, '\n') != NULL))
		abort();
	if (rc == 0 && warn[0] != '\0')
		abort();
	fuzz_string_ok(p.theme, sizeof(p.theme));
	fuzz_string_ok(p.workload, sizeof(p.workload));
	if (p.theme[0] == '\0')
		abort(); /* prefs_save refuses an empty theme: the next save would fail */
	if (!(p.interval_s >= PREFS_INTERVAL_MIN && p.interval_s <= PREFS_INTERVAL_MAX))
		abort();
	return 0;
}

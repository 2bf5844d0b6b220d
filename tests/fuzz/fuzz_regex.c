/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the --parse-regex parser (see fuzz_parser.h).  The
 * regex is the user's and trusted; the output it is matched against is not.
 * The first byte picks one of a few regexes of the shapes users write, and
 * a --parse-lat spec or none; the rest is the output.
 */
#include "fuzz_parser.h"

static const char *const fuzz_regexes[] = {
	"rate[:=] ?([0-9.]+)",
	"([0-9]+) ops",
	"^([^ ]*)$",
	"(.*)",
	"tps[^0-9]*([0-9.e+-]+)|lat ([0-9.]+)",
	"()x",
};

static const char *const fuzz_lats[] = {
	NULL, "lat[:=] ?([0-9.]+)", "p99: ([0-9.e+-]+):us:p99", "(.*):s", "()x:ns:mean",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = sizeof(fuzz_regexes) / sizeof(fuzz_regexes[0]);
	size_t m = sizeof(fuzz_lats) / sizeof(fuzz_lats[0]);

	if (size == 0)
		return 0;
	fuzz_parser_lat("regex", fuzz_regexes[data[0] % n], fuzz_lats[data[0] / n % m], data + 1,
			size - 1);
	return 0;
}

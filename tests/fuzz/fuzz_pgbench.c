/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for the pgbench output parser (see fuzz_parser.h). */
#include "fuzz_parser.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parser_one("pgbench", NULL, data, size);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/cli/: scaletop sample's options (sample_args.c), which
 * sample.c runs.
 */
#ifndef SCALETOP_CLI_SAMPLE_H
#define SCALETOP_CLI_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/decode_linux.h"

#define SAMPLE_INTERVAL_MIN 0.01
#define SAMPLE_INTERVAL_MAX 86400.0

struct sample_opts {
	uint64_t interval_ns;
	long count; /* reports to print; 0 means until stopped */
	bool json;
	bool some_cpus;       /* -P LIST: only these CPUs' rows (not ALL) */
	struct cpu_list cpus; /* that list, ascending; owned */
	const char *cpus_arg; /* as typed, for messages */
};

/*
 * argv into o: -i/-c or the positionals INTERVAL [COUNT] (mpstat's and
 * vmstat's), -P LIST|ALL and --json.  0, -1 after --help, or EXIT_USAGE
 * after a one-line message.  Free o with sample_opts_free either way.
 */
int sample_parse(int argc, char **argv, struct sample_opts *o);
void sample_opts_free(struct sample_opts *o);

#endif

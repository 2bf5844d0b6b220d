/* SPDX-License-Identifier: BSD-2-Clause */
/* scaletop: dispatch to a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "config.h"
#include "cli.h"
#include "scaletop/crash_guard.h"
#include "scaletop/files.h"
#include "scaletop/tui.h"

struct subcommand {
	const char *name;
	int (*run)(int, char **);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "run", cmd_run, "sweep a workload over N threads/clients and report scaling" },
	{ "list", cmd_list, "list the built-in workloads and their parameters" },
	{ "sample", cmd_sample, "per-CPU utilisation and system rates, like mpstat -P ALL" },
	{ "show", cmd_show, "print a saved snapshot's table and verdict" },
	{ "compare", cmd_compare, "compare snapshots side by side, aligned on N" },
	{ "export", cmd_export, "write snapshots as a gnuplot data file, script and PNG/SVG" },
	{ "import", cmd_import, "turn published N,throughput results into a snapshot" },
	{ "runs", cmd_runs, "list the sweeps the TUI kept (newest first), or --prune DAYS" },
	{ "tui", cmd_tui, "the interactive monitor (also: no command, or only options)" },
	{ "replay", cmd_replay, "replay a recorded run (FILE.jsonl) in the interactive monitor" },
	{ "view", cmd_view, "watch a run streamed on standard input: view -" },
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: %s [OPTIONS]           the interactive monitor ('%s tui --help')\n"
		"       %s COMMAND [OPTIONS]\n\ncommands:\n",
		progname, progname, progname);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\n'%s COMMAND --help' describes a command; man scaletop has the rest.\n",
		progname);
}

int
main(int argc, char **argv)
{
	size_t i;

#ifdef M_MMAP_THRESHOLD
	/*
	 * A fixed threshold, not glibc's sliding one: a window's end reads
	 * /proc/kallsyms whole (8 MB), and once that buffer was freed every
	 * later allocation under 8 MB came from the heap and stayed resident
	 * (the monitor grew by 2 MB after its first step).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	file_set_argv0(argv[0]); /* a binary in the build tree finds its checkout's themes */
	if (argc < 2) {
		crash_guard_install();
		return cmd_tui(argc, argv);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		/* The licence is LICENSE's, as configure.ac's PACKAGE_LICENSE says. */
		printf("scaletop %s (%s backend)\nLicence: BSD-2-Clause (the LICENSE file)\n",
		       PACKAGE_VERSION, SCALETOP_OS);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	crash_guard_install();
	/* Only options: the interactive monitor, with `scaletop run`'s options. */
	if (argv[1][0] == '-')
		return cmd_tui(argc, argv);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[1], subcommands[i].name) == 0)
			return subcommands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: unknown command '%s': run '%s --help' for the list\n", progname,
		argv[1], progname);
	return EXIT_USAGE;
}

/* scaletop show: a saved snapshot as `run` printed it, with its verdict. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "scaletop/snapshot.h"
#include "scaletop/step_table.h"

#define CMD "show"

static void
show_usage(FILE *f)
{
	fprintf(f,
		"usage: %s show FILE.json [FILE.json ...]\n\n"
		"Prints each snapshot's host fingerprint (CPUs, SMT, frequency policy, kernel,\n"
		"mitigations), then its results table, verdict and USL fit, as 'run' does.\n"
		"'-' reads a snapshot from standard input.\n",
		progname);
}

static int
show_one(const char *path, bool first)
{
	char err[ST_ERRLEN];
	struct snapshot snap;

	if (snapshot_load(path, &snap, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		snapshot_free(&snap);
		return EXIT_RUNTIME;
	}
	if (snap.warning[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, snap.warning);
	printf("%s%s: %s, taken %s by %s %s\n", first ? "" : "\n", snap.name, snap.meta.label,
	       snap.meta.taken, snap.meta.tool_name, snap.meta.tool_version);
	snapshot_host_text(stdout, &snap.s);
	step_table_print(stdout, &snap.s);
	snapshot_free(&snap);
	return fflush(stdout) == 0 ? 0 : EXIT_RUNTIME;
}

int
cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, i, rc = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			show_usage(stdout);
			return 0;
		}
		return arg_usage_error(CMD, "unknown option '%s': see '%s show --help'",
				       argv[optind - 1], progname);
	}
	if (optind == argc)
		return arg_usage_error(CMD, "give a snapshot file: %s show FILE.json", progname);
	for (i = optind; i < argc; i++) {
		if (show_one(argv[i], i == optind) != 0)
			rc = EXIT_RUNTIME;
	}
	return rc;
}

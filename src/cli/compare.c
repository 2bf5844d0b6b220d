/* scaletop compare: snapshots side by side, aligned on N. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scaletop/snapshot.h"

#define CMD "compare"

static void
compare_usage(FILE *f)
{
	fprintf(f,
		"usage: %s compare [--csv] A.json B.json [C.json ...]\n\n"
		"One table aligned on N: each snapshot's throughput and its ratio to the\n"
		"first; then peak against peak, collapse, verdict and USL side by side.\n"
		"      --csv   the table as CSV (warnings go to stderr)\n",
		progname);
}

static int
compare_parse(int argc, char **argv, bool *csv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			compare_usage(stdout);
			return -1;
		}
		if (opt != 'c')
			return arg_usage_error(CMD, "unknown option '%s': see '%s compare --help'",
					       argv[optind - 1], progname);
		*csv = true;
	}
	if (argc - optind < 2)
		return arg_usage_error(CMD, "give two snapshots or more: %s compare A.json B.json",
				       progname);
	if (argc - optind > SNAPSHOT_COMPARE_MAX)
		return arg_usage_error(CMD, "%d snapshots; compare at most %d at once",
				       argc - optind, SNAPSHOT_COMPARE_MAX);
	return 0;
}

int
cmd_compare(int argc, char **argv)
{
	struct snapshot snaps[SNAPSHOT_COMPARE_MAX], *v[SNAPSHOT_COMPARE_MAX];
	char err[ST_ERRLEN];
	bool csv = false;
	int rc, i, k = 0;

	if ((rc = compare_parse(argc, argv, &csv)) != 0)
		return rc < 0 ? 0 : rc;
	for (i = optind; i < argc; i++, k++) {
		v[k] = &snaps[k];
		if (snapshot_load(argv[i], v[k], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
			rc = EXIT_RUNTIME;
			k++;
			break;
		}
		if (v[k]->warning[0] != '\0')
			fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, v[k]->warning);
	}
	if (rc == 0 && csv) {
		snapshot_compare_warn(stderr, v, k);
		snapshot_compare_csv(stdout, v, k);
	} else if (rc == 0) {
		snapshot_compare_text(stdout, v, k);
	}
	for (i = 0; i < k; i++)
		snapshot_free(v[i]);
	if (rc == 0 && fflush(stdout) != 0)
		rc = EXIT_RUNTIME;
	return rc;
}

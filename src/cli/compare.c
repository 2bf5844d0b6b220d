/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop compare: snapshots side by side, aligned on N, the first (or
 * --baseline's) against each of the others; a side may be several files
 * (A1 A2 -- B1 B2: one sweep per boot), whose trials pool.
 * --fail-on-regression makes it a gate for CI (exit 3; 4: too few trials
 * to tell).
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "scaletop/compare_stats.h"
#include "scaletop/files.h"
#include "scaletop/report.h"

#define CMD "compare"
#define EXIT_REGRESSION 3 /* --fail-on-regression: some B is significantly worse */
#define EXIT_TOO_FEW 4    /* --fail-on-regression: too few trials a side to tell */

/* Each "--" between files, as getopt sees it: not an option, and known by its address. */
static char side_break[] = "side-break";

enum compare_format { FMT_TEXT, FMT_CSV, FMT_MARKDOWN };

struct compare_args {
	enum compare_format format;
	const char *baseline;    /* --baseline FILE, or NULL: the first */
	const char *csv_file[3]; /* --csv-target, --csv-waits, --csv-usl: FILE, or NULL */
	bool force;              /* replace them when they exist */
	struct compare_opts o;
	char **av;  /* argv with each "--" as side_break; owned */
	bool sides; /* a "--" was given: the files between are one side */
};

static void
compare_usage(FILE *f)
{
	fprintf(f,
		"usage: %s compare [--csv | --markdown] [--noise PCT] [--run-noise PCT]\n"
		"                  [--fail-on-regression PCT] [--csv-target FILE]\n"
		"                  [--csv-waits FILE] [--csv-usl FILE] [--force]\n"
		"                  [--baseline A.json] A.json B.json [C.json ...]\n"
		"       %s compare [options] A1.json A2.json ... -- B1.json B2.json ... [-- "
		"...]\n\n"
		"One table aligned on N: each side's throughput, its ratio to A and the\n"
		"difference with its 95%% CI (Welch's t on the trials' means) and a '*' where\n"
		"it is significant; a summary over N; then peak against peak, collapse,\n"
		"verdict and USL.  Files between '--' are one side: their trials pool.  A side\n"
		"needs %d trials (run --trials %d, or files) for a test.\n"
		"      --csv                    the table as CSV (warnings go to stderr)\n"
		"      --csv-target FILE        the targets' figures at each N as CSV, into FILE\n"
		"      --csv-waits FILE         the wait profiles side by side as CSV, into FILE\n"
		"      --csv-usl FILE           the USL fits, each parameter with its standard\n"
		"                               error, as CSV, into FILE\n"
		"      --force                  replace those files when they exist\n"
		"      --markdown               the summary and table as Markdown\n"
		"      --baseline FILE          compare every snapshot against FILE (A)\n"
		"      --noise PCT              a difference counts only beyond PCT%% of A\n"
		"                               (default %g; 0: Welch's t alone)\n"
		"      --run-noise PCT          a side of fewer than %d files is allowed PCT%% of\n"
		"                               its mean for what a rerun moves and its trials\n"
		"                               cannot show (default %g; 0: none)\n"
		"      --fail-on-regression PCT exit 3 when some snapshot is significantly\n"
		"                               slower than A by more than PCT%% at some N;\n"
		"                               4 when none is but a side had too few trials\n",
		progname, progname, CMP_MIN_TRIALS, CMP_MIN_TRIALS, COMPARE_NOISE_DEFAULT,
		CMP_RUNS_SEEN, COMPARE_RUN_NOISE_DEFAULT);
}

/* A percentage from 0 (none) to below 100, with or without '%', for option opt (its default eg). */
static int
compare_noise(const char *opt, double eg, const char *arg, double *out)
{
	char *end;
	double v;

	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || isspace((unsigned char)*arg) || !(v >= 0 && v < 100))
		return arg_usage_error(CMD,
				       "%s '%s': give a percentage from 0 (none) to below 100, "
				       "e.g. %s %g",
				       opt, arg, opt, eg);
	*out = v;
	return 0;
}

static int
compare_option(int opt, struct compare_args *a, char **argv)
{
	switch (opt) {
	case 'c':
	case 'm':
		if (a->format != FMT_TEXT)
			return arg_usage_error(CMD, "give --csv or --markdown, not both");
		a->format = opt == 'c' ? FMT_CSV : FMT_MARKDOWN;
		return 0;
	case 'b':
		a->baseline = optarg;
		return 0;
	case 'T':
	case 'W':
	case 'U':
		a->csv_file[opt == 'T' ? 0 : opt == 'W' ? 1 : 2] = optarg;
		return 0;
	case 'F':
		a->force = true;
		return 0;
	case 'n':
		return compare_noise("--noise", COMPARE_NOISE_DEFAULT, optarg, &a->o.noise_pct);
	case 'r':
		return compare_noise("--run-noise", COMPARE_RUN_NOISE_DEFAULT, optarg,
				     &a->o.run_noise_pct);
	case 'f':
		return arg_parse_percent(CMD, "--fail-on-regression", optarg, &a->o.fail_pct);
	case ':':
		return arg_usage_error(CMD, "%s needs a value: see '%s compare --help'",
				       argv[optind - 1], progname);
	default:
		return arg_usage_error(CMD, "unknown option '%s': see '%s compare --help'",
				       argv[optind - 1], progname);
	}
}

static const char *const compare_file_opts[3] = { "--csv-target", "--csv-waits", "--csv-usl" };

/* Each table has a file of its own. */
static int
compare_distinct_files(const struct compare_args *a)
{
	int i, j;

	for (i = 0; i < 3; i++) {
		for (j = i + 1; j < 3; j++) {
			if (a->csv_file[i] != NULL && a->csv_file[j] != NULL &&
			    strcmp(a->csv_file[i], a->csv_file[j]) == 0)
				return arg_usage_error(CMD,
						       "%s and %s name one file, '%s': give each "
						       "table a file of its own",
						       compare_file_opts[i], compare_file_opts[j],
						       a->csv_file[i]);
		}
	}
	return 0;
}

/* The sides the files after the options make; -1 after a usage message. */
static int
compare_count_sides(int argc, struct compare_args *a)
{
	int i, k = 0;
	bool empty = true;

	for (i = optind; i < argc; i++)
		a->sides = a->sides || a->av[i] == side_break;
	if (!a->sides)
		return argc - optind + (a->baseline != NULL);
	if (a->baseline != NULL) {
		arg_usage_error(CMD, "give --baseline or sides split by '--', not both");
		return -1;
	}
	for (i = optind; i <= argc; i++) {
		if (i < argc && a->av[i] != side_break) {
			empty = false;
			continue;
		}
		if (empty) {
			arg_usage_error(CMD, "a side without files: give one or more files "
					     "between the '--'s");
			return -1;
		}
		k++;
		empty = true;
	}
	return k;
}

static int
compare_parse(int argc, char **argv, struct compare_args *a)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "markdown", no_argument, NULL, 'm' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "csv-target", required_argument, NULL, 'T' },
		{ "csv-waits", required_argument, NULL, 'W' },
		{ "csv-usl", required_argument, NULL, 'U' },
		{ "force", no_argument, NULL, 'F' },
		{ "noise", required_argument, NULL, 'n' },
		{ "run-noise", required_argument, NULL, 'r' },
		{ "fail-on-regression", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc, k;

	if ((a->av = calloc((size_t)argc + 1, sizeof(*a->av))) == NULL)
		return arg_usage_error(CMD, "out of memory");
	for (k = 0; k < argc; k++)
		a->av[k] = k > 0 && strcmp(argv[k], "--") == 0 ? side_break : argv[k];
	argv = a->av;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			compare_usage(stdout);
			return -1;
		}
		if ((rc = compare_option(opt, a, argv)) != 0)
			return rc;
	}
	k = compare_count_sides(argc, a);
	if (k < 0)
		return EXIT_USAGE;
	if (k < 2)
		return arg_usage_error(CMD,
				       "give two snapshots or more: %s compare A.json B.json, or "
				       "--baseline A.json B.json",
				       progname);
	if (k > SNAPSHOT_COMPARE_MAX)
		return arg_usage_error(CMD, "%d snapshots; compare at most %d at once", k,
				       SNAPSHOT_COMPARE_MAX);
	return compare_distinct_files(a);
}

/*
 * Before anything is read or printed: a file that exists is kept unless
 * --force, and each file's folder must take it.
 */
static int
compare_check_files(const struct compare_args *a)
{
	char why[ST_ERRLEN];
	int i;

	for (i = 0; i < 3; i++) {
		if (a->csv_file[i] == NULL)
			continue;
		if (!a->force && access(a->csv_file[i], F_OK) == 0) {
			fprintf(stderr,
				"%s %s: %s exists and was not replaced; give --force to replace "
				"it, or another name\n",
				progname, CMD, a->csv_file[i]);
			return EXIT_RUNTIME;
		}
		if (file_out_check(a->csv_file[i], a->force, false, why, sizeof(why)) != 0) {
			fprintf(stderr, "%s %s: %s %s: %s\n", progname, CMD, compare_file_opts[i],
				a->csv_file[i], why);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* --csv-target, --csv-waits and --csv-usl: each table into its own file. */
static int
compare_write_files(const struct compare_args *a, struct snapshot *const *v, int k)
{
	static const enum snapshot_compare_table table[3] = { SNAPSHOT_CMP_TARGET,
							      SNAPSHOT_CMP_WAITS,
							      SNAPSHOT_CMP_USL };
	char err[ST_ERRLEN];
	int i;

	for (i = 0; i < 3; i++) {
		if (a->csv_file[i] == NULL)
			continue;
		if (snapshot_compare_csv_write(a->csv_file[i], table[i], v, k, a->force, err,
					       sizeof(err)) != 0) {
			fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* Loads path into sn, the warning on stderr; 0, or EXIT_RUNTIME after the message. */
static int
compare_load_one(const char *path, struct snapshot *sn)
{
	char err[ST_ERRLEN];

	if (snapshot_load(path, sn, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		return EXIT_RUNTIME;
	}
	if (sn->repair[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, sn->repair);
	if (sn->warning[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, sn->warning);
	return 0;
}

/* One more file of side sn: loaded, then its trials joined to sn's. */
static int
compare_load_more(const char *path, struct snapshot *sn)
{
	struct snapshot more;
	char err[ST_ERRLEN];
	int rc;

	snapshot_init(&more);
	sn->warning[0] = '\0';
	if ((rc = compare_load_one(path, &more)) == 0 &&
	    snapshot_side_add(sn, &more, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		rc = EXIT_RUNTIME;
	}
	if (rc == 0 && sn->warning[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, sn->warning);
	snapshot_free(&more);
	return rc;
}

/* Loads the files, the baseline first, a side's files into one; how many to free, *rc set. */
static int
compare_load(int argc, const struct compare_args *a, struct snapshot *snaps, struct snapshot **v,
	     int *rc)
{
	int i, k = 0;
	bool fresh = true;

	if (a->baseline != NULL) {
		v[k] = &snaps[k];
		if ((*rc = compare_load_one(a->baseline, v[k++])) != 0)
			return k;
	}
	for (i = optind; i < argc && k <= SNAPSHOT_COMPARE_MAX; i++) {
		if (a->av[i] == side_break) {
			fresh = true;
			continue;
		}
		if (fresh || !a->sides) {
			if (k == SNAPSHOT_COMPARE_MAX)
				break;
			v[k] = &snaps[k];
			snapshot_init(v[k]);
			*rc = compare_load_one(a->av[i], v[k++]);
			fresh = false;
		} else {
			*rc = compare_load_more(a->av[i], v[k - 1]);
		}
		if (*rc != 0)
			return k;
	}
	return k;
}

static void
compare_print(const struct compare_args *a, struct snapshot *const *v, int k)
{
	if (a->format == FMT_CSV) {
		snapshot_compare_warn(stderr, v, k);
		snapshot_compare_csv(stdout, v, k, &a->o);
	} else if (a->format == FMT_MARKDOWN) {
		snapshot_compare_warn(stderr, v, k);
		snapshot_compare_markdown(stdout, v, k, &a->o);
	} else {
		snapshot_compare_text(stdout, v, k, &a->o);
	}
}

int
cmd_compare(int argc, char **argv)
{
	struct snapshot snaps[SNAPSHOT_COMPARE_MAX], *v[SNAPSHOT_COMPARE_MAX];
	struct compare_args a;
	int rc, i, k;

	memset(&a, 0, sizeof(a));
	compare_opts_default(&a.o);
	rc = compare_parse(argc, argv, &a);
	if (rc != 0) {
		free(a.av);
		return rc < 0 ? 0 : rc;
	}
	if ((rc = compare_check_files(&a)) != 0) {
		free(a.av);
		return rc;
	}
	k = compare_load(argc, &a, snaps, v, &rc);
	if (rc == 0)
		compare_print(&a, v, k);
	if (rc == 0)
		rc = compare_write_files(&a, v, k);
	if (rc == 0 && snapshot_compare_regressed(v, k, &a.o)) {
		fprintf(stderr,
			"%s %s: a snapshot is significantly slower than A by more than %g%% at "
			"some N\n",
			progname, CMD, a.o.fail_pct);
		rc = EXIT_REGRESSION;
	} else if (rc == 0 && snapshot_compare_too_few(v, k, &a.o)) {
		fprintf(stderr,
			"%s %s: too few trials a side to tell a regression from rerun noise "
			"(%d needed; run --trials %d): neither passed nor failed\n",
			progname, CMD, CMP_MIN_TRIALS, CMP_MIN_TRIALS);
		rc = EXIT_TOO_FEW;
	}
	for (i = 0; i < k; i++)
		snapshot_free(v[i]);
	free(a.av);
	if (rc != EXIT_RUNTIME && fflush(stdout) != 0)
		rc = EXIT_RUNTIME;
	return rc;
}

/* scaletop import: published results (N,throughput lines) into a snapshot. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scaletop/snapshot.h"

#define CMD "import"

struct import_args {
	const char *csv, *out;
	bool force;
	struct snapshot_import o;
};

static void
import_usage(FILE *f)
{
	fprintf(f,
		"usage: %s import --csv FILE --label LABEL [--desc TEXT] -o OUT.json\n\n"
		"Turns published results into a snapshot that show, compare and export read.\n"
		"FILE has lines of N,throughput[,stddev[,runs]]; a header line, blank lines\n"
		"and '#' comments are skipped.\n"
		"      --csv FILE     the results ('-': standard input)\n"
		"      --label LABEL  what the results are, e.g. 'paper, 64-core EPYC'\n"
		"      --desc TEXT    where they come from (free text, kept in the snapshot)\n"
		"      --unit U       what one operation is (default ops)\n"
		"      --n-unit U     what N counts (default threads)\n"
		"  -o OUT.json        the snapshot to write\n"
		"      --force        replace OUT.json if it exists\n",
		progname);
}

/* What the snapshot has room for, refused before anything is read. */
static int
import_check_lengths(const struct import_args *a)
{
	static const struct {
		const char *opt;
		size_t max;
	} lim[] = { { "--label", 255 }, { "--desc", 255 }, { "--unit", 31 }, { "--n-unit", 15 } };
	const char *val[] = { a->o.label, a->o.desc, a->o.unit, a->o.n_unit };
	size_t i;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		if (val[i] != NULL && strlen(val[i]) > lim[i].max)
			return arg_usage_error(CMD, "%s is %zu bytes long; give at most %zu",
					       lim[i].opt, strlen(val[i]), lim[i].max);
		if (val[i] != NULL && val[i][0] == '\0')
			return arg_usage_error(CMD, "%s is empty; give some text", lim[i].opt);
	}
	return 0;
}

static int
import_parse(int argc, char **argv, struct import_args *a)
{
	enum { O_CSV = 256, O_LABEL, O_DESC, O_UNIT, O_NUNIT, O_FORCE };
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, O_CSV },
		{ "label", required_argument, NULL, O_LABEL },
		{ "desc", required_argument, NULL, O_DESC },
		{ "unit", required_argument, NULL, O_UNIT },
		{ "n-unit", required_argument, NULL, O_NUNIT },
		{ "force", no_argument, NULL, O_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			import_usage(stdout);
			return -1;
		case 'o':
			a->out = optarg;
			break;
		case O_CSV:
			a->csv = optarg;
			break;
		case O_LABEL:
			a->o.label = optarg;
			break;
		case O_DESC:
			a->o.desc = optarg;
			break;
		case O_UNIT:
			a->o.unit = optarg;
			break;
		case O_NUNIT:
			a->o.n_unit = optarg;
			break;
		case O_FORCE:
			a->force = true;
			break;
		case ':':
			return arg_usage_error(CMD,
					       "option '%s' needs a value: see '%s import "
					       "--help'",
					       argv[optind - 1], progname);
		default:
			return arg_usage_error(CMD, "unknown option '%s': see '%s import --help'",
					       argv[optind - 1], progname);
		}
	}
	if (optind < argc)
		return arg_usage_error(CMD, "unexpected argument '%s': give the file with --csv",
				       argv[optind]);
	if (a->csv == NULL)
		return arg_usage_error(CMD, "give the results: --csv FILE");
	if (a->o.label == NULL || a->o.label[0] == '\0')
		return arg_usage_error(CMD, "give a label saying what the results are: --label "
					    "LABEL");
	if (a->out == NULL)
		return arg_usage_error(CMD, "give the snapshot to write: -o OUT.json");
	return import_check_lengths(a);
}

int
cmd_import(int argc, char **argv)
{
	struct import_args a;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN], *buf = NULL;
	size_t len;
	int rc;

	memset(&a, 0, sizeof(a));
	if ((rc = import_parse(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	session_init(&s);
	rc = snapshot_file_read(a.csv, &buf, &len, err, sizeof(err));
	if (rc == 0)
		rc = snapshot_import_csv(buf, len, strcmp(a.csv, "-") ? a.csv : "(standard input)",
					 &a.o, &s, &m, err, sizeof(err));
	if (rc == 0)
		rc = snapshot_save(a.out, &s, &m, a.force, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
	free(buf);
	session_free(&s);
	return rc == 0 ? 0 : EXIT_RUNTIME;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop import: a published table into one snapshot per column of
 * throughput (one per system, as papers print them), or the one --column.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "scaletop/files.h"
#include "scaletop/report.h"

#define CMD "import"

struct import_args {
	const char *csv, *out, *column;
	bool force;
	struct snapshot_import o;
};

/* The snapshots to write: which column of throughput each holds, and where it goes. */
struct import_plan {
	int n;
	int col[SNAPSHOT_TABLE_MAX_COLUMNS];
	char path[SNAPSHOT_TABLE_MAX_COLUMNS][1100];
};

static void
import_usage(FILE *f)
{
	fprintf(f,
		"usage: %s import --csv FILE [--column NAME] [--label LABEL] [--desc TEXT]\n"
		"                      -o OUT.json|DIR/\n\n"
		"Turns published results into snapshots that show, compare and export read.\n"
		"FILE is a CSV or whitespace-separated table: N in the first column, a header\n"
		"naming the others (one column of throughput per system; NAME_sd or a '\xc2\xb1'\n"
		"column after it for its stddev, NAME_runs for its runs), or no header and\n"
		"lines of N,throughput[,stddev[,runs]].  Blank lines and '#' comments are\n"
		"skipped; '-' is a figure not given.\n"
		"      --csv FILE     the table ('-': standard input)\n"
		"      --column NAME  import only this column of throughput\n"
		"      --label LABEL  what the results are (default: the column's name;\n"
		"                     with several columns, LABEL (COLUMN))\n"
		"      --desc TEXT    where they come from (free text, kept in the snapshot)\n"
		"      --unit U       what one operation is (default ops)\n"
		"      --n-unit U     what N counts (default threads)\n"
		"  -o OUT.json        the snapshot to write; with several columns,\n"
		"                     OUT-COLUMN.json for each\n"
		"  -o DIR/            DIR/COLUMN.json for each column\n"
		"      --force        replace snapshots that exist\n",
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
	enum { O_CSV = 256, O_LABEL, O_DESC, O_UNIT, O_NUNIT, O_FORCE, O_COLUMN };
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, O_CSV },
		{ "column", required_argument, NULL, O_COLUMN },
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
		case O_COLUMN:
			a->column = optarg;
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
	if (a->out == NULL || a->out[0] == '\0')
		return arg_usage_error(CMD, "give the snapshot to write: -o OUT.json, or -o DIR/");
	if (a->column != NULL && a->column[0] == '\0')
		return arg_usage_error(CMD, "--column is empty; give a column's name");
	return import_check_lengths(a);
}

/* A column's name as a file name: bytes other than letters, digits and "._+-" become '_'. */
static void
import_file_name(char *dst, size_t size, const char *col)
{
	size_t i;

	snprintf(dst, size, "%s", col);
	for (i = 0; dst[i] != '\0'; i++) {
		if (!((dst[i] >= 'a' && dst[i] <= 'z') || (dst[i] >= 'A' && dst[i] <= 'Z') ||
		      (dst[i] >= '0' && dst[i] <= '9') || strchr("._+-", dst[i]) != NULL))
			dst[i] = '_';
	}
	if (dst[0] == '.')
		dst[0] = '_';
}

static bool
import_is_dir(const char *out)
{
	struct stat sb;
	size_t len = strlen(out);

	return out[len - 1] == '/' || (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode));
}

/* Where column c goes: -o itself, DIR/COLUMN.json, or OUT-COLUMN.json. */
static int
import_path(const struct import_args *a, const struct snapshot_table *t, int n, int c, char *path,
	    size_t size)
{
	const char *col = snapshot_table_column(t, c);
	size_t len = strlen(a->out);
	char file[SNAPSHOT_COLUMN_MAX + 1];
	bool dir = import_is_dir(a->out);
	int rc;

	import_file_name(file, sizeof(file), col);
	if (dir && col[0] == '\0')
		return arg_usage_error(CMD,
				       "-o %s: the table has no header naming its column; give "
				       "-o OUT.json",
				       a->out);
	if (dir)
		rc = snprintf(path, size, "%s%s%s.json", a->out, a->out[len - 1] == '/' ? "" : "/",
			      file);
	else if (n == 1)
		rc = snprintf(path, size, "%s", a->out);
	else if (len > 5 && strcmp(a->out + len - 5, ".json") == 0)
		rc = snprintf(path, size, "%.*s-%s.json", (int)(len - 5), a->out, file);
	else
		rc = snprintf(path, size, "%s-%s.json", a->out, file);
	if (rc < 0 || (size_t)rc >= size)
		return arg_usage_error(CMD, "-o %.40s...: the name is too long; give a shorter one",
				       a->out);
	/* Every label is checked before any file is written. */
	if (a->o.label != NULL && n > 1 && strlen(a->o.label) + strlen(col) + 3 > 255)
		return arg_usage_error(CMD,
				       "--label '%.40s...' (%s) is over 255 bytes; give a "
				       "shorter label",
				       a->o.label, col);
	return 0;
}

/* Which columns, written where; two columns may not come to one file. */
static int
import_plan(const struct import_args *a, const struct snapshot_table *t, struct import_plan *p)
{
	char err[ST_ERRLEN];
	int i, j, rc;

	p->n = 0;
	if (a->column != NULL) {
		if ((p->col[0] = snapshot_table_find(t, a->column, err, sizeof(err))) < 0)
			return arg_usage_error(CMD, "--column: %s", err);
		p->n = 1;
	}
	for (i = 0; a->column == NULL && i < snapshot_table_count(t); i++)
		p->col[p->n++] = i;
	if (a->o.label == NULL && snapshot_table_column(t, p->col[0])[0] == '\0')
		return arg_usage_error(CMD,
				       "%s has no header naming its column; give a label "
				       "saying what the results are: --label LABEL",
				       a->csv);
	for (i = 0; i < p->n; i++) {
		if ((rc = import_path(a, t, p->n, p->col[i], p->path[i], sizeof(p->path[i]))) != 0)
			return rc;
		for (j = 0; j < i; j++) {
			if (strcmp(p->path[i], p->path[j]) == 0)
				return arg_usage_error(CMD,
						       "columns '%s' and '%s' would both be "
						       "written to %s; import one with --column",
						       snapshot_table_column(t, p->col[j]),
						       snapshot_table_column(t, p->col[i]),
						       p->path[i]);
		}
	}
	return 0;
}

/*
 * Every file is refused before any is written: a set of snapshots is not
 * left half new, nor one written into a folder that takes none.
 */
static int
import_clobber(const struct import_args *a, const struct import_plan *p)
{
	char why[ST_ERRLEN];
	struct stat sb;
	int i;

	for (i = 0; i < p->n; i++) {
		if (!a->force && stat(p->path[i], &sb) == 0) {
			fprintf(stderr,
				"%s %s: %s exists and was not replaced; give --force to "
				"replace it, or another name\n",
				progname, CMD, p->path[i]);
			return EXIT_RUNTIME;
		}
		if (file_out_check(p->path[i], a->force, false, why, sizeof(why)) != 0) {
			fprintf(stderr, "%s %s: -o %s: %s\n", progname, CMD, p->path[i], why);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* One column's snapshot: LABEL (COLUMN) when --label names several. */
static int
import_write(const struct import_args *a, const struct snapshot_table *t,
	     const struct import_plan *p, int i)
{
	struct snapshot_import o = a->o;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN], label[512];
	const char *col = snapshot_table_column(t, p->col[i]);
	int rc;

	if (o.label != NULL && p->n > 1) {
		snprintf(label, sizeof(label), "%s (%s)", o.label, col);
		o.label = label;
	}
	rc = snapshot_table_session(t, p->col[i], &o, &s, &m, err, sizeof(err));
	if (rc == 0)
		rc = snapshot_save(p->path[i], &s, &m, a->force, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
	else if (col[0] != '\0')
		fprintf(stderr, "%s %s: wrote %s: column '%s', %d points\n", progname, CMD,
			p->path[i], col, s.nsteps);
	else
		fprintf(stderr, "%s %s: wrote %s: %d points\n", progname, CMD, p->path[i],
			s.nsteps);
	session_free(&s);
	return rc == 0 ? 0 : EXIT_RUNTIME;
}

int
cmd_import(int argc, char **argv)
{
	struct snapshot_table *t = NULL;
	struct import_plan *plan = NULL;
	struct import_args a;
	char err[ST_ERRLEN], *buf = NULL;
	size_t len;
	int rc, i;

	memset(&a, 0, sizeof(a));
	if ((rc = import_parse(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	rc = snapshot_file_read(a.csv, &buf, &len, err, sizeof(err));
	if (rc == 0)
		rc = snapshot_table_read(buf, len, strcmp(a.csv, "-") ? a.csv : "(standard input)",
					 &t, err, sizeof(err));
	if (rc == 0 && (plan = malloc(sizeof(*plan))) == NULL)
		rc = st_error(err, sizeof(err), "out of memory");
	if (rc != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		rc = EXIT_RUNTIME;
	}
	if (rc == 0 && (rc = import_plan(&a, t, plan)) == 0)
		rc = import_clobber(&a, plan);
	for (i = 0; rc == 0 && i < plan->n; i++)
		rc = import_write(&a, t, plan, i);
	free(plan);
	free(buf);
	snapshot_table_free(t);
	return rc;
}

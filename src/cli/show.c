/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop show: a saved snapshot, or a recording, as `run` printed it, with
 * its verdict; --save writes what was loaded as a snapshot (a recording's
 * finished steps), atomically and never over a file without --force.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "scaletop/files.h"
#include "scaletop/report.h"
#include "scaletop/step_table.h"

#define CMD "show"

static void
show_usage(FILE *f)
{
	fprintf(f,
		"usage: %s show FILE.json|FILE.jsonl [FILE ...]\n"
		"       %s show --save OUT.json [--force] FILE.jsonl\n\n"
		"Prints each snapshot's host fingerprint (CPUs, SMT, frequency policy, kernel,\n"
		"mitigations), then its results table, verdict and USL fit, as 'run' does.\n"
		"A recording ('run --record', the TUI's W) is read as a snapshot of its\n"
		"finished steps.  '-' reads standard input.\n"
		"      --save OUT   also write the one FILE as a snapshot OUT (a recording\n"
		"                   becomes a snapshot that show, compare and export read)\n"
		"      --force      let --save replace an existing file\n",
		progname, progname);
}

struct show_opts {
	const char *save; /* --save OUT, or NULL */
	bool force;
};

/* --save: the loaded session as a snapshot, with the recording's label. */
static int
show_save(const struct show_opts *o, const struct snapshot *snap)
{
	char err[ST_ERRLEN];
	struct snapshot_meta m;

	if (snap->s.nsteps == 0) {
		fprintf(stderr, "%s %s: --save: %s has no finished step; nothing to save\n",
			progname, CMD, snap->name);
		return EXIT_RUNTIME;
	}
	snapshot_meta_default(&m, &snap->s);
	snprintf(m.label, sizeof(m.label), "%s", snap->meta.label);
	if (snapshot_save(o->save, &snap->s, &m, o->force, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: --save: %s\n", progname, CMD, err);
		return EXIT_RUNTIME;
	}
	fprintf(stderr, "%s %s: saved %s (%d step%s)\n", progname, CMD, o->save, snap->s.nsteps,
		snap->s.nsteps == 1 ? "" : "s");
	return 0;
}

static int
show_one(const char *path, bool first, const struct show_opts *o)
{
	char err[ST_ERRLEN];
	struct snapshot snap;
	int rc = 0;

	if (snapshot_load(path, &snap, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		snapshot_free(&snap);
		return EXIT_RUNTIME;
	}
	if (snap.repair[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, snap.repair);
	if (snap.warning[0] != '\0')
		fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, snap.warning);
	printf("%s%s: %s, taken %s by %s %s\n", first ? "" : "\n", snap.name, snap.meta.label,
	       snap.meta.taken, snap.meta.tool_name, snap.meta.tool_version);
	snapshot_host_text(stdout, &snap.s);
	step_table_print(stdout, &snap.s);
	if (o->save != NULL)
		rc = show_save(o, &snap);
	snapshot_free(&snap);
	return fflush(stdout) == 0 ? rc : EXIT_RUNTIME;
}

/* --save takes one file, and a name that is not standard output. */
static int
show_check(const struct show_opts *o, int nfiles)
{
	char why[ST_ERRLEN];

	if (o->force && o->save == NULL)
		return arg_usage_error(CMD, "--force goes with --save OUT.json");
	if (o->save == NULL)
		return 0;
	if (o->save[0] == '\0' || strcmp(o->save, "-") == 0)
		return arg_usage_error(CMD, "--save '%s': give a file name", o->save);
	if (nfiles != 1)
		return arg_usage_error(CMD, "--save writes one snapshot: give one FILE, not %d",
				       nfiles);
	/* Before the file is read and shown: a name it cannot save to costs nothing. */
	if (file_out_check(o->save, o->force, false, why, sizeof(why)) != 0) {
		fprintf(stderr, "%s %s: --save %s: %s\n", progname, CMD, o->save, why);
		return EXIT_RUNTIME;
	}
	return 0;
}

int
cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "save", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct show_opts o = { NULL, false };
	int opt, i, rc = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			show_usage(stdout);
			return 0;
		}
		if (opt == 's') {
			o.save = optarg;
			continue;
		}
		if (opt == 'f') {
			o.force = true;
			continue;
		}
		if (opt == ':' || (optopt == 's' && opt == '?'))
			return arg_usage_error(CMD, "--save needs a file name: --save OUT.json");
		return arg_usage_error(CMD, "unknown option '%s': see '%s show --help'",
				       argv[optind - 1], progname);
	}
	if (optind == argc)
		return arg_usage_error(CMD, "give a snapshot file: %s show FILE.json", progname);
	if ((rc = show_check(&o, argc - optind)) != 0)
		return rc;
	for (i = optind; i < argc; i++) {
		if (show_one(argv[i], i == optind, &o) != 0)
			rc = EXIT_RUNTIME;
	}
	return rc;
}

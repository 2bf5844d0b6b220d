/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop export: snapshots as a gnuplot data file and script, rendered
 * when gnuplot is here; or one snapshot's stacks as flame-graph input
 * (--folded).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "scaletop/files.h"
#include "scaletop/nlist.h"
#include "scaletop/report.h"
#include "scaletop/spawn.h"

#define CMD "export"
#define EXPORT_GNUPLOT_TIMEOUT_NS (60ULL * 1000000000ULL)

struct export_args {
	bool gnuplot, folded, force, offcpu;
	bool latency; /* --latency: p50 and the tail against N instead of throughput */
	bool gp_only; /* --svg, --normalise or --latency: gnuplot's alone */
	int log_y;    /* 1 --log-y, 0 --no-log-y, -1 when the maxima differ more than tenfold */
	const char *term;
	const char *out; /* -o as given */
	long n;          /* --folded at this N; 0: every N */
	enum snapshot_norm norm;
	char base[1024];
};

static void
export_usage(FILE *f)
{
	fprintf(f,
		"usage: %s export --gnuplot [--normalise speedup|efficiency | --latency]\n"
		"                      [--log-y|--no-log-y] [--svg] [--force]\n"
		"                      -o BASE A.json [B.json ...]\n"
		"       %s export --folded [-n N] [--off-cpu] [-o FILE [--force]] A.json\n\n"
		"Writes BASE.dat and BASE.gp: throughput against N for each snapshot with\n"
		"95%% CI error bars, its ideal linear line, its USL curve, and its peak and\n"
		"collapse marks.  When gnuplot is installed, also renders BASE.png (or\n"
		"BASE.svg with --svg).  N is on a log2 axis when that spreads the N values\n"
		"wider (as when N doubles); snapshots of different workloads or units are\n"
		"plotted with a warning, each curve titled with its workload.\n"
		"  -o BASE       output name without extension (.png or .svg picks the format)\n"
		"      --normalise speedup     plot X(N)/X(1), for machines of different speed\n"
		"      --normalise efficiency  plot X(N)/(N X(1)); the CIs are divided alike,\n"
		"                              and each snapshot needs a point at N=1\n"
		"      --latency p50 and p99 latency against N on a log y axis, one line\n"
		"                per percentile and snapshot; each point the mean over\n"
		"                its trials, the error bar their lowest and highest (a\n"
		"                tool's own percentile, as p95, where it gave no p99)\n"
		"      --log-y   a log y axis (default: when one series' highest point is\n"
		"                more than 10 times another's)\n"
		"      --no-log-y  a linear y axis whatever the series\n"
		"      --svg     render SVG instead of PNG\n"
		"      --force   replace files that exist\n\n"
		"--folded writes the sampled stacks in the collapsed-stack format that\n"
		"flamegraph.pl, inferno and speedscope read: one line a stack, its frames\n"
		"from the root (the family: workload or target) to the leaf joined by ';',\n"
		"a space, and its count of on-CPU samples.  The steps of one N are added\n"
		"together; with every N, a root frame N=<n> keeps them apart.\n"
		"  -n, --n N     the stacks at N alone (default: every N)\n"
		"      --off-cpu the blocked threads' kernel stacks instead, counted in\n"
		"                milliseconds of blocked thread-time\n"
		"  -o FILE       write to FILE (default: standard output)\n",
		progname, progname);
}

static int
export_norm(struct export_args *a, const char *arg)
{
	if (strcmp(arg, "speedup") == 0)
		a->norm = SNAPSHOT_NORM_SPEEDUP;
	else if (strcmp(arg, "efficiency") == 0)
		a->norm = SNAPSHOT_NORM_EFFICIENCY;
	else
		return arg_usage_error(CMD, "--normalise '%s': give speedup or efficiency", arg);
	return 0;
}

/* "curve.png" is taken as BASE "curve" in PNG: what a user typing a picture name means. */
static int
export_base(struct export_args *a, const char *arg)
{
	size_t len = strlen(arg);

	if (len == 0 || len >= sizeof(a->base) - 8 || arg[len - 1] == '/')
		return arg_usage_error(CMD, "-o '%s': give a file name without extension", arg);
	snprintf(a->base, sizeof(a->base), "%s", arg);
	if (len > 4 && strcmp(arg + len - 4, ".png") == 0) {
		a->base[len - 4] = '\0';
		a->term = "png";
	} else if (len > 4 && strcmp(arg + len - 4, ".svg") == 0) {
		a->base[len - 4] = '\0';
		a->term = "svg";
	}
	return 0;
}

/* --folded's rest: one snapshot; -o is a file as given, or standard output. */
static int
export_parse_folded(int argc, char **argv, struct export_args *a)
{
	if (a->gp_only)
		return arg_usage_error(CMD,
				       "--svg and --normalise are --gnuplot's, not --folded's");
	if (a->log_y >= 0)
		return arg_usage_error(CMD, "--%slog-y is --gnuplot's, not --folded's",
				       a->log_y ? "" : "no-");
	if (a->out != NULL && (a->out[0] == '\0' || a->out[strlen(a->out) - 1] == '/'))
		return arg_usage_error(CMD, "-o '%s': give a file name, or - for standard output",
				       a->out);
	if (optind == argc)
		return arg_usage_error(CMD, "give the snapshot: %s export --folded A.json",
				       progname);
	if (argc - optind > 1)
		return arg_usage_error(CMD,
				       "%d snapshots; --folded takes one (export each, or give "
				       "--n to put two N side by side)",
				       argc - optind);
	return 0;
}

static int
export_parse(int argc, char **argv, struct export_args *a)
{
	static const struct option longopts[] = {
		{ "gnuplot", no_argument, NULL, 'g' },
		{ "svg", no_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "normalise", required_argument, NULL, 'N' },
		{ "normalize", required_argument, NULL, 'N' },
		{ "folded", no_argument, NULL, 'F' },
		{ "n", required_argument, NULL, 'n' },
		{ "off-cpu", no_argument, NULL, 'O' },
		{ "log-y", no_argument, NULL, 'l' },
		{ "latency", no_argument, NULL, 'T' },
		{ "no-log-y", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:n:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			export_usage(stdout);
			return -1;
		case 'g':
			a->gnuplot = true;
			break;
		case 's':
			a->term = "svg";
			a->gp_only = true;
			break;
		case 'F':
			a->folded = true;
			break;
		case 'l':
		case 'L':
			a->log_y = opt == 'l';
			break;
		case 'O':
			a->offcpu = true;
			break;
		case 'T':
			a->latency = true;
			a->gp_only = true;
			break;
		case 'n':
			if (arg_parse_int(CMD, "--n", optarg, NLIST_MIN, NLIST_MAX, &a->n) != 0)
				return EXIT_USAGE;
			break;
		case 'f':
			a->force = true;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'N':
			if ((rc = export_norm(a, optarg)) != 0)
				return rc;
			a->gp_only = true;
			break;
		case ':':
			return arg_usage_error(CMD,
					       "option '%s' needs a value: see '%s export "
					       "--help'",
					       argv[optind - 1], progname);
		default:
			return arg_usage_error(CMD, "unknown option '%s': see '%s export --help'",
					       argv[optind - 1], progname);
		}
	}
	if (a->gnuplot == a->folded)
		return arg_usage_error(CMD, "give one format: --gnuplot or --folded");
	if (a->folded)
		return export_parse_folded(argc, argv, a);
	if (a->n != 0 || a->offcpu)
		return arg_usage_error(CMD, "%s is --folded's; --gnuplot plots every N",
				       a->n != 0 ? "--n" : "--off-cpu");
	if (a->latency && a->norm != SNAPSHOT_NORM_NONE)
		return arg_usage_error(CMD, "--latency draws milliseconds; --normalise is for "
					    "throughput");
	if (a->latency && a->log_y == 0)
		return arg_usage_error(CMD, "--latency is drawn on a log y axis; --no-log-y is for "
					    "throughput");
	if (a->out == NULL)
		return arg_usage_error(CMD, "give the output name: -o BASE");
	if ((rc = export_base(a, a->out)) != 0)
		return rc;
	if (optind == argc)
		return arg_usage_error(CMD,
				       "give one snapshot or more: %s export --gnuplot "
				       "-o BASE A.json",
				       progname);
	if (argc - optind > SNAPSHOT_COMPARE_MAX)
		return arg_usage_error(CMD, "%d snapshots; export at most %d at once",
				       argc - optind, SNAPSHOT_COMPARE_MAX);
	return 0;
}

/* gnuplot on PATH, without running a shell to ask. */
static bool
export_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char dir[4096], prog[4200];
	const char *p, *colon;

	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0'; p = colon + 1) {
		colon = strchr(p, ':');
		if (colon == NULL)
			colon = p + strlen(p);
		snprintf(dir, sizeof(dir), "%.*s", (int)(colon - p), p);
		snprintf(prog, sizeof(prog), "%s/gnuplot", dir[0] ? dir : ".");
		if (access(prog, X_OK) == 0)
			return true;
		if (*colon == '\0')
			break;
	}
	return false;
}

static int
export_render(const struct export_args *a)
{
	char script[1100], image[1100], out[512], err[ST_ERRLEN];
	char *argv[] = { "gnuplot", script, NULL };

	snprintf(script, sizeof(script), "%s.gp", a->base);
	snprintf(image, sizeof(image), "%s.%s", a->base, a->term);
	if (!export_have_gnuplot()) {
		fprintf(stderr,
			"%s %s: wrote %s.dat and %s; gnuplot is not installed, so no %s: "
			"run 'gnuplot %s' where it is\n",
			progname, CMD, a->base, script, image, script);
		return 0;
	}
	if (spawn_run(argv, EXPORT_GNUPLOT_TIMEOUT_NS, out, sizeof(out), err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: gnuplot %s failed: %s%s%s\n", progname, CMD, script, err,
			out[0] ? ": " : "", out);
		return EXIT_RUNTIME;
	}
	fprintf(stderr, "%s %s: wrote %s.dat, %s and %s\n", progname, CMD, a->base, script, image);
	return 0;
}

static int
export_write(const struct export_args *a, struct snapshot *const *v, int k)
{
	char image[1100], err[ST_ERRLEN], what[2048];

	/* Drawn all the same, since the user asked; said, since one scale suggests alike. */
	if (snapshot_gnuplot_mixed(v, k, what, sizeof(what)))
		fprintf(stderr, "%s %s: warning: one plot of different workloads or units: %s\n",
			progname, CMD, what);
	snprintf(image, sizeof(image), "%s.%s", a->base, a->term);
	if (!a->force && access(image, F_OK) == 0) {
		fprintf(stderr,
			"%s %s: %s exists and was not replaced; give --force to replace "
			"it, or another name\n",
			progname, CMD, image);
		return EXIT_RUNTIME;
	}
	if (a->latency ? snapshot_gnuplot_latency_write(a->base, a->term, v, k, a->force, err,
							sizeof(err)) != 0
		       : snapshot_gnuplot_write(a->base, a->term, a->norm, a->log_y, v, k, a->force,
						err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		return EXIT_RUNTIME;
	}
	return export_render(a);
}

/* Where the output goes, checked before any snapshot is read (an existing file: later). */
static int
export_check_out(const struct export_args *a)
{
	const char *opt = a->folded ? a->out : a->base;
	char path[1100], why[ST_ERRLEN];

	if (opt == NULL || strcmp(opt, "-") == 0)
		return 0;
	snprintf(path, sizeof(path), "%s%s", opt, a->folded ? "" : ".dat");
	if (file_out_check(path, true, false, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "%s %s: -o %s: %s\n", progname, CMD, opt, why);
	return EXIT_RUNTIME;
}

int
cmd_export(int argc, char **argv)
{
	struct snapshot snaps[SNAPSHOT_COMPARE_MAX], *v[SNAPSHOT_COMPARE_MAX];
	struct export_args a = { .term = "png", .log_y = -1 };
	char err[ST_ERRLEN];
	int rc, i, k = 0;

	if ((rc = export_parse(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	if ((rc = export_check_out(&a)) != 0)
		return rc;
	for (i = optind; i < argc; i++) {
		v[k] = &snaps[k];
		rc = snapshot_load(argv[i], v[k++], err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
			rc = EXIT_RUNTIME;
			break;
		}
		if (v[k - 1]->repair[0] != '\0')
			fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, v[k - 1]->repair);
		if (v[k - 1]->warning[0] != '\0')
			fprintf(stderr, "%s %s: warning: %s\n", progname, CMD, v[k - 1]->warning);
	}
	if (rc == 0 && a.folded) {
		if (snapshot_folded_write(a.out, a.force, v[0], (int)a.n, a.offcpu, err,
					  sizeof(err)) != 0) {
			fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
			rc = EXIT_RUNTIME;
		}
	} else if (rc == 0)
		rc = export_write(&a, v, k);
	for (i = 0; i < k; i++)
		snapshot_free(v[i]);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run-style options: what to run, the N list, and how each step is
 * measured.  `scaletop run` and the TUI both parse here (the TUI adds its
 * own options through run_opt_ext), so an option means the same to both;
 * run_apply.c turns the result into a session and a sweep config.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/error.h"
#include "scaletop/files.h"
#include "scaletop/host.h"
#include "scaletop/nlist.h"
#include "scaletop/parse.h"
#include "scaletop/run_args.h"

#define CMD a->cmdname

enum {
	OPT_WARMUP = 256,
	OPT_STABLE,
	OPT_MIN_TIME,
	OPT_INTERVAL,
	OPT_MODE,
	OPT_REPEAT,
	OPT_TRIALS,
	OPT_REFINE,
	OPT_STALL,
	OPT_STOP,
	OPT_COLLAPSE,
	OPT_LINEAR,
	OPT_CMD,
	OPT_PARSE,
	OPT_REGEX,
	OPT_PARSE_LAT,
	OPT_SETUP,
	OPT_TEARDOWN,
	OPT_JSON,
	OPT_FORCE,
	OPT_RECORD,
	OPT_OPS,
	OPT_PROBE,
	OPT_TARGET,
	OPT_NO_HOT,
	OPT_NO_LATENCY,
	OPT_NO_LOCKS,
	OPT_REALTIME,
	OPT_NO_REALTIME,
	OPT_WAIT_QUIET,
};

static const struct option run_longopts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "n", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "param", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "until-stable", optional_argument, NULL, OPT_STABLE },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "trials", required_argument, NULL, OPT_TRIALS },
	{ "refine", optional_argument, NULL, OPT_REFINE },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "collapse", required_argument, NULL, OPT_COLLAPSE },
	{ "linear", required_argument, NULL, OPT_LINEAR },
	{ "stop-on-failure", no_argument, NULL, OPT_STOP },
	{ "cmd", required_argument, NULL, OPT_CMD },
	{ "parse", required_argument, NULL, OPT_PARSE },
	{ "parse-regex", required_argument, NULL, OPT_REGEX },
	{ "parse-lat", required_argument, NULL, OPT_PARSE_LAT },
	{ "ops", required_argument, NULL, OPT_OPS },
	{ "setup", required_argument, NULL, OPT_SETUP },
	{ "teardown", required_argument, NULL, OPT_TEARDOWN },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "no-hot", no_argument, NULL, OPT_NO_HOT },
	{ "no-latency", no_argument, NULL, OPT_NO_LATENCY },
	{ "no-locks", no_argument, NULL, OPT_NO_LOCKS },
	{ "realtime", optional_argument, NULL, OPT_REALTIME },
	{ "no-realtime", no_argument, NULL, OPT_NO_REALTIME },
	{ "wait-quiet", optional_argument, NULL, OPT_WAIT_QUIET },
	{ NULL, 0, NULL, 0 },
};

void
run_parse_choices(char *buf, size_t len, const char *sep, const char *last, bool elapsed)
{
	const char *const *names = parser_names();
	const char *pick[16];
	size_t used = 0;
	int i, n = 0;

	for (i = 0; names[i] != NULL && n < 15; i++) {
		if (!parser_takes_pattern(names[i]))
			pick[n++] = names[i];
	}
	if (elapsed)
		pick[n++] = "elapsed";
	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0       ? ""
					 : i + 1 == n ? last
						      : sep,
					 pick[i]);
}

int
run_nlist(struct nlist *nl, const char *spec, char *err, size_t errlen)
{
	struct topology t;

	host_topology_read(&t);
	if (spec != NULL)
		return nlist_parse_topo(nl, spec, &t, err, errlen);
	if (nlist_topo(nl, &t) == 0)
		return 0;
	nlist_free(nl);
	if (nlist_default(nl, (int)sysconf(_SC_NPROCESSORS_ONLN)) == 0)
		return 0;
	return st_error(err, errlen, "-n: out of memory");
}

/* The options `scaletop run` and the TUI share, with the caller's defaults. */
void
run_usage_options(FILE *f, const struct run_args *d)
{
	char parsers[128], topo[160] = "";
	char err[ST_ERRLEN];
	struct nlist nl;

	run_parse_choices(parsers, sizeof(parsers), ", ", " or ", false);
	if (run_nlist(&nl, NULL, err, sizeof(err)) == 0)
		nlist_format(&nl, topo, 60);
	nlist_free(&nl);
	fprintf(f,
		"  -w, --workload NAME    built-in workload (default %s; see '%s list')\n"
		"  -n LIST                N values: 1,2,4,8 or 1-16 or 1-64x2 or topo, combined\n"
		"                         with commas (default topo: the machine's boundaries,\n"
		"                         here %s)\n"
		"  -d, --duration S       measurement time per step (default %g; the cap with\n"
		"                         --until-stable, default 20)\n"
		"  -p, --param KEY=VALUE  workload parameter, repeatable\n"
		"      --warmup S         uncounted time before measuring (default %g)\n"
		"      --until-stable[=PCT] stop a step once the 95%% CI is within PCT%% of the\n"
		"                         mean (default 2)\n"
		"      --min-time S       --until-stable never stops sooner (default 2)\n"
		"      --interval S       interval sample length (default 0.25)\n"
		"      --mode M           threads (default) or processes\n"
		"      --trials K         run the whole sweep K times, N ascending then\n"
		"                         descending (default 1; compare needs 3 a side)\n"
		"      --repeat K         run every N K times back to back in each trial\n"
		"                         (default 1; steadies a trial, is not a trial)\n"
		"      --refine[=K]       after the list, add up to K N (default %d) where the\n"
		"                         curve is least known: the peak, then the collapse\n"
		"                         edge; each runs once a trial, marked refined\n"
		"      --stall S          fail a step in which no worker makes progress for\n"
		"                         S seconds (default 10, 0 = never)\n"
		"      --stop-on-failure  end the sweep at the first failed step\n"
		"      --collapse PCT     a fall of more than PCT%% below the peak is a collapse\n"
		"                         (default 20)\n"
		"      --linear PCT       linear range: efficiency at least PCT%% (default 90)\n"
		"      --cmd 'COMMAND'    run a command per step: {n} and {duration} are "
		"replaced;\n"
		"                         {latlog} by a private file prefix, read for latency\n"
		"                         after it exits: give it as pgbench's log prefix\n"
		"      --parse NAME       read its throughput lines: %s; or\n"
		"                         elapsed: time each run to its exit (runs/s)\n"
		"      --parse-regex RE   ... or the first group of this extended regex\n"
		"      --parse-lat RE[:UNIT[:STAT]] with --parse-regex: the first group of RE\n"
		"                         is the latency of the interval (same line or the next\n"
		"                         rate line); UNIT ns, us, ms (default) or s; STAT mean\n"
		"                         (default) or pN, e.g. 'p99: ([0-9.]+):us:p99'\n"
		"      --ops K[:UNIT]     with --parse elapsed: a run is K operations (K/s)\n"
		"      --setup 'COMMAND'  run once before the sweep; --teardown: once after\n"
		"      --probe 'COMMAND'  database-level waits: run about once a second while a\n"
		"                         step measures; each line it prints is one wait label,\n"
		"                         or TID<TAB>label, joined to --target's threads\n"
		"                         (repeatable, up to %d); presets: postgres[:CONNINFO]\n"
		"                         (psql), mariadb[:OPTIONS] (performance_schema)\n"
		"      --target SPEC      also measure the system under test: pid:N (and its\n"
		"                         descendants), comm:NAME, cgroup:PATH; repeatable\n"
		"      --no-hot           no on-CPU call paths (perf_event samples of the\n"
		"                         workload's and the target's threads, 99 Hz a CPU)\n"
		"      --no-locks         no lock census (which futex the blocked threads wait\n"
		"                         on, its name, waiters and holder) and no kernel\n"
		"                         stacks of the blocked threads\n"
		"      --no-latency       built-in workloads: time no operation (by default\n"
		"                         each worker times one operation a batch, about one\n"
		"                         every 0.1-1 ms, into its latency histogram)\n"
		"      --realtime[=PRIO]  the monitor's thread at SCHED_FIFO priority PRIO while\n"
		"                         a step measures (default: on, at 1, where allowed),\n"
		"                         so its ticks keep time among many runnable workers;\n"
		"                         dropped if one tick takes over 200 ms of CPU\n"
		"      --no-realtime      the monitor at the ordinary policy (its nice raised)\n"
		"      --wait-quiet[=S]   before the first step, wait until other processes use\n"
		"                         under a quarter of a CPU, for at most S seconds\n"
		"                         (default 60); then run anyway, saying so\n",
		d->default_workload, progname, topo[0] ? topo : "unknown", d->duration, d->warmup,
		RUN_REFINE_DEFAULT, parsers, SESSION_MAX_PROBES);
}

/* --help without a caller's own text: the command line and the shared options. */
static void
run_usage_plain(FILE *f, const struct run_args *d)
{
	fprintf(f, "usage: %s %s [options]\n\n", progname, d->cmdname);
	run_usage_options(f, d);
}

static int
run_parse_mode(const char *arg, struct run_args *a)
{
	if (strcmp(arg, "threads") == 0)
		a->mode = MODE_THREADS;
	else if (strcmp(arg, "processes") == 0)
		a->mode = MODE_PROCESSES;
	else
		return arg_usage_error(CMD, "--mode '%s': give threads or processes", arg);
	return 0;
}

/* --until-stable takes its PCT as --until-stable=2 or as the next word when that is a number. */
static int
run_parse_stable(int argc, char **argv, struct run_args *a)
{
	const char *arg = optarg;
	char *end;

	if (arg == NULL && optind < argc && argv[optind][0] != '-') {
		strtod(argv[optind], &end);
		if (end != argv[optind] && (*end == '\0' || strcmp(end, "%") == 0))
			arg = argv[optind++];
	}
	a->stable_pct = 2.0;
	return arg != NULL ? arg_parse_percent(CMD, "--until-stable", arg, &a->stable_pct) : 0;
}

/* --refine, --refine=K or --refine K: a count that follows is the option's. */
static int
run_parse_refine(int argc, char **argv, struct run_args *a)
{
	const char *arg = optarg;

	if (arg == NULL && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9' &&
	    strspn(argv[optind], "0123456789") == strlen(argv[optind]))
		arg = argv[optind++];
	a->refine = RUN_REFINE_DEFAULT;
	return arg != NULL ? arg_parse_int(CMD, "--refine", arg, 1, 64, &a->refine) : 0;
}

static int
run_parse_option(int opt, int argc, char **argv, struct run_args *a, const struct run_opt_ext *ext)
{
	if (opt >= RUN_OPT_EXT && ext != NULL && ext->parse != NULL)
		return ext->parse(opt, argc, argv, ext->arg);
	switch (opt) {
	case 'w':
		a->workload = optarg;
		return 0;
	case 'n':
		a->nspec = optarg;
		return 0;
	case 'q':
		a->view.quiet = true;
		return 0;
	case OPT_JSON:
		a->view.json = true;
		return 0;
	case 'o':
		a->output = optarg;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	case OPT_RECORD:
		a->view.record = optarg;
		return 0;
	case OPT_STOP:
		a->stop_on_failure = true;
		return 0;
	case OPT_NO_HOT:
		a->no_hot = true;
		return 0;
	case OPT_NO_LATENCY:
		a->no_latency = true;
		return 0;
	case OPT_NO_LOCKS:
		a->no_locks = true;
		return 0;
	case OPT_NO_REALTIME:
		a->realtime = 0;
		a->realtime_set = true;
		return 0;
	case OPT_REALTIME:
		a->realtime = 1;
		a->realtime_set = true;
		return optarg != NULL
			       ? arg_parse_int(CMD, "--realtime", optarg, 1, 99, &a->realtime)
			       : 0;
	case OPT_CMD:
		a->cmd = optarg;
		return 0;
	case OPT_PARSE:
		a->parse = optarg;
		return 0;
	case OPT_REGEX:
		a->regex = optarg;
		return 0;
	case OPT_PARSE_LAT:
		a->parse_lat = optarg;
		return 0;
	case OPT_OPS:
		a->ops = optarg;
		return 0;
	case OPT_SETUP:
		a->setup = optarg;
		return 0;
	case OPT_TEARDOWN:
		a->teardown = optarg;
		return 0;
	case OPT_TARGET:
		if (a->ntargets == SESSION_MAX_TARGETS)
			return arg_usage_error(CMD, "--target %s: at most %d targets", optarg,
					       SESSION_MAX_TARGETS);
		a->target[a->ntargets++] = optarg;
		return 0;
	case OPT_MODE:
		return run_parse_mode(optarg, a);
	case OPT_STABLE:
		return run_parse_stable(argc, argv, a);
	case OPT_WAIT_QUIET:
		a->wait_quiet = 60;
		return optarg != NULL ? arg_parse_seconds(CMD, "--wait-quiet", optarg, 1, 86400,
							  &a->wait_quiet)
				      : 0;
	case OPT_PROBE:
		if (a->nprobes == SESSION_MAX_PROBES)
			return arg_usage_error(CMD,
					       "--probe: at most %d probes; let one command print "
					       "all their labels",
					       SESSION_MAX_PROBES);
		a->probe[a->nprobes++] = optarg;
		return 0;
	case 'p':
		if (a->nparams == (int)(sizeof(a->params) / sizeof(a->params[0])))
			return arg_usage_error(CMD, "too many -p options");
		a->params[a->nparams++] = optarg;
		return 0;
	case 'd':
		a->duration_set = true;
		return arg_parse_seconds(CMD, "-d", optarg, 0.1, 86400, &a->duration);
	case OPT_WARMUP:
		a->warmup_set = true;
		return arg_parse_seconds(CMD, "--warmup", optarg, 0, 3600, &a->warmup);
	case OPT_MIN_TIME:
		return arg_parse_seconds(CMD, "--min-time", optarg, 0.1, 86400, &a->min_time);
	case OPT_INTERVAL:
		a->interval_set = true;
		return arg_parse_seconds(CMD, "--interval", optarg, 0.01, 60, &a->interval);
	case OPT_STALL:
		return arg_parse_seconds(CMD, "--stall", optarg, 0, 86400, &a->stall);
	case OPT_COLLAPSE:
		return arg_parse_percent(a->cmdname, "--collapse", optarg, &a->collapse_pct);
	case OPT_LINEAR:
		return arg_parse_percent(a->cmdname, "--linear", optarg, &a->linear_pct);
	case OPT_REPEAT:
		return arg_parse_int(CMD, "--repeat", optarg, 1, 1000, &a->repeat);
	case OPT_TRIALS:
		return arg_parse_int(CMD, "--trials", optarg, 1, 100, &a->trials);
	case OPT_REFINE:
		return run_parse_refine(argc, argv, a);
	default:
		return arg_usage_error(CMD, "unknown option '%s': see '%s %s --help'",
				       argv[optind - 1], progname, CMD);
	}
}

void
run_args_defaults(struct run_args *a, const char *cmdname)
{
	memset(a, 0, sizeof(*a));
	a->cmdname = cmdname;
	a->default_workload = "cpu";
	a->duration = 5;
	a->warmup = 1;
	a->min_time = 2;
	a->interval = 0.25;
	a->stall = 10;
	a->repeat = 1;
	a->trials = 1;
	a->realtime = 1; /* where allowed: docs/design-notes.md has the figures */
}

/*
 * A name an option will write, checked before the sweep, not after it: a
 * folder, a taken name or a folder that takes no file should cost a second,
 * not the whole sweep.  inplace: an existing file is written where it is
 * (a stream to a device), so only a new one needs its folder.
 */
static int
run_check_path(const struct run_args *a, const char *opt, const char *path, bool inplace)
{
	char why[ST_ERRLEN];
	size_t len = strlen(path);

	if (file_is_dir(path))
		return arg_usage_error(
			CMD, "%s %s: %s is a folder; give a file name, e.g. %s %s%s%s", opt, path,
			path, opt, path, len > 0 && path[len - 1] == '/' ? "" : "/",
			strcmp(opt, "-o") == 0 ? "run.json" : "run.jsonl");
	if (file_out_check(path, a->force, inplace, why, sizeof(why)) != 0)
		return arg_usage_error(CMD, "%s %s: %s", opt, path, why);
	return 0;
}

static int
run_check_output(const struct run_args *a)
{
	if (a->output == NULL)
		return a->force && a->view.record == NULL
			       ? arg_usage_error(CMD, "--force goes with -o FILE or --record FILE")
			       : 0;
	if (a->output[0] == '\0' || strcmp(a->output, "-") == 0)
		return arg_usage_error(CMD,
				       "-o '%s': give a file name (--json prints to standard "
				       "output)",
				       a->output);
	/* A snapshot replaces a file by a rename from its folder: that folder must take one. */
	return run_check_path(a, "-o", a->output, false);
}

/* --record: like -o, a name that cannot be written fails now, not after the sweep. */
static int
run_check_record(struct run_args *a)
{
	const char *r = a->view.record;

	a->view.record_force = a->force;
	if (r == NULL)
		return 0;
	/* The TUI draws on standard output: its stream needs a file of its own. */
	if (strcmp(r, "-") == 0 && strcmp(a->cmdname, "run") != 0)
		return arg_usage_error(CMD,
				       "--record -: the screen is on standard output; give a "
				       "file name, or stream with '%s run --record -'",
				       progname);
	if (strcmp(r, "-") == 0)
		return 0;
	if (r[0] == '\0')
		return arg_usage_error(CMD,
				       "--record '': give a file name, or - for standard output");
	return run_check_path(a, "--record", r, true);
}

bool
run_args_elapsed(const struct run_args *a)
{
	return a->parse != NULL && strcmp(a->parse, "elapsed") == 0;
}

/* --cmd's own rules: what applies to a command, and to a timed one. */
static int
run_check_external(const struct run_args *a)
{
	if (a->ops != NULL && !run_args_elapsed(a))
		return arg_usage_error(CMD,
				       "--ops %s goes with --parse elapsed, where a run counts "
				       "as K operations",
				       a->ops);
	if (a->cmd == NULL)
		return 0;
	/* Stopping a tool early would cost its closing report and make its exit a kill. */
	if (a->stable_pct > 0)
		return arg_usage_error(
			CMD, "--until-stable stops built-in workloads only: a --cmd "
			     "tool runs for the {duration} it is given; use -d and --repeat");
	if (!run_args_elapsed(a))
		return 0;
	if (a->warmup_set)
		return arg_usage_error(CMD,
				       "--warmup %g: --parse elapsed times the whole run, so "
				       "none of it is left uncounted; drop --warmup",
				       a->warmup);
	if (strstr(a->cmd, "{duration}") != NULL)
		return arg_usage_error(CMD,
				       "--cmd '%s': --parse elapsed times the run, so {duration} "
				       "has no value; give the command its own length",
				       a->cmd);
	return 0;
}

/* Cross-option rules that getopt cannot see. */
static int
run_check(struct run_args *a)
{
	if (run_check_output(a) != 0 || run_check_record(a) != 0)
		return EXIT_USAGE;
	if (a->cmd != NULL && a->workload != NULL)
		return arg_usage_error(CMD, "-w and --cmd both given: choose a built-in workload "
					    "or a command");
	if (a->cmd != NULL && a->parse == NULL && a->regex == NULL) {
		char parsers[128];

		run_parse_choices(parsers, sizeof(parsers), "|", "|", true);
		return arg_usage_error(CMD,
				       "--cmd needs --parse %s or --parse-regex 'RE' to read its "
				       "throughput",
				       parsers);
	}
	if (a->cmd == NULL && (a->parse != NULL || a->regex != NULL))
		return arg_usage_error(CMD, "--parse and --parse-regex go with --cmd");
	if (a->parse != NULL && a->regex != NULL)
		return arg_usage_error(CMD, "--parse and --parse-regex both given: choose one");
	if (a->parse_lat != NULL && a->regex == NULL)
		return arg_usage_error(CMD,
				       "--parse-lat goes with --parse-regex: it reads the latency "
				       "of the intervals that regex's lines make");
	if (a->cmd != NULL && a->nparams > 0)
		return arg_usage_error(CMD, "-p sets built-in workload parameters; put the "
					    "command's own options in --cmd");
	if (run_check_external(a) != 0)
		return EXIT_USAGE;
	if (a->stable_pct > 0 && !a->duration_set)
		a->duration = 20;
	if (a->stable_pct > 0 && a->min_time > a->duration)
		return arg_usage_error(CMD, "--min-time %g is longer than -d %g: lower one",
				       a->min_time, a->duration);
	return 0;
}

/* getopt's table: run's own options, then the caller's. */
static struct option *
run_longopts_with(const struct run_opt_ext *ext)
{
	size_t nrun = sizeof(run_longopts) / sizeof(run_longopts[0]) - 1, next = 0;
	struct option *all;

	while (ext != NULL && ext->longopts[next].name != NULL)
		next++;
	all = calloc(nrun + next + 1, sizeof(*all));
	if (all == NULL)
		return NULL;
	memcpy(all, run_longopts, nrun * sizeof(*all));
	if (next > 0)
		memcpy(all + nrun, ext->longopts, next * sizeof(*all));
	return all;
}

/* a holds the caller's defaults (run_args_defaults, then any changes). */
int
run_args_parse(int argc, char **argv, struct run_args *a, const struct run_opt_ext *ext)
{
	struct option *longopts = run_longopts_with(ext);
	int opt, rc = 0;

	if (longopts == NULL)
		return arg_usage_error(CMD, "out of memory");
	optind = 1;
	opterr = 0;
	while (rc == 0 && (opt = getopt_long(argc, argv, ":w:n:d:p:o:qh", longopts, NULL)) != -1) {
		if (opt == 'h') {
			if (ext != NULL && ext->usage != NULL)
				ext->usage(stdout, a);
			else
				run_usage_plain(stdout, a);
			rc = -1;
		} else if (opt == ':') {
			rc = arg_usage_error(CMD, "option '%s' needs a value: see '%s %s --help'",
					     argv[optind - 1], progname, CMD);
		} else {
			rc = run_parse_option(opt == '?' ? -1 : opt, argc, argv, a, ext);
		}
	}
	free(longopts);
	if (rc != 0)
		return rc;
	if (optind < argc)
		return arg_usage_error(CMD, "unexpected argument '%s': options only (quote --cmd)",
				       argv[optind]);
	return run_check(a);
}

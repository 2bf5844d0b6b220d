/* scaletop run's options: what to run, the N list, and how each step is measured. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "scaletop/cmdline.h"
#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/nlist.h"
#include "scaletop/parse.h"

#define CMD "run"

struct run_args {
	const char *workload, *nspec, *cmd, *parse, *regex, *setup, *teardown;
	const char *params[64];
	int nparams;
	double duration, warmup, stable_pct, min_time, interval, stall;
	bool duration_set, stop_on_failure;
	long repeat;
	enum run_mode mode;
	struct run_view view;
};

enum {
	OPT_WARMUP = 256, OPT_STABLE, OPT_MIN_TIME, OPT_INTERVAL, OPT_MODE, OPT_REPEAT,
	OPT_STALL, OPT_STOP, OPT_CMD, OPT_PARSE, OPT_REGEX, OPT_SETUP, OPT_TEARDOWN, OPT_JSON,
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
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "stop-on-failure", no_argument, NULL, OPT_STOP },
	{ "cmd", required_argument, NULL, OPT_CMD },
	{ "parse", required_argument, NULL, OPT_PARSE },
	{ "parse-regex", required_argument, NULL, OPT_REGEX },
	{ "setup", required_argument, NULL, OPT_SETUP },
	{ "teardown", required_argument, NULL, OPT_TEARDOWN },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static void
run_usage(FILE *f)
{
	fprintf(f,
		"usage: %s run [-w WORKLOAD] [-n LIST] [-d SECONDS] [-p KEY=VALUE]... [options]\n"
		"       %s run --cmd 'COMMAND {n}' --parse sysbench|pgbench [options]\n"
		"       %s run --cmd 'COMMAND {n}' --parse-regex 'RE' [options]\n\n"
		"  -w, --workload NAME    built-in workload (default cpu; see '%s list')\n"
		"  -n LIST                N values: 1,2,4,8 or 1-16 or 1-64x2 (default: doubling\n"
		"                         to 2x the CPUs, the CPU count included)\n"
		"  -d, --duration S       measurement time per step (default 5; the cap with\n"
		"                         --until-stable, default 20)\n"
		"  -p, --param KEY=VALUE  workload parameter, repeatable\n"
		"      --warmup S         uncounted time before measuring (default 1)\n"
		"      --until-stable[=PCT] stop a step once the 95%% CI is within PCT%% of the\n"
		"                         mean (default 2)\n"
		"      --min-time S       --until-stable never stops sooner (default 2)\n"
		"      --interval S       interval sample length (default 0.25)\n"
		"      --mode M           threads (default) or processes\n"
		"      --repeat K         run every N K times (default 1)\n"
		"      --stall S          fail a step whose worker makes no progress for S\n"
		"                         seconds (default 10, 0 = never)\n"
		"      --stop-on-failure  end the sweep at the first failed step\n"
		"      --cmd 'COMMAND'    run a command per step: {n} and {duration} are replaced\n"
		"      --parse NAME       read its throughput lines: sysbench or pgbench\n"
		"      --parse-regex RE   ... or the first group of this extended regex\n"
		"      --setup 'COMMAND'  run once before the sweep; --teardown: once after\n"
		"      --json             print the results as one JSON object\n"
		"  -q, --quiet            no progress on stderr\n",
		progname, progname, progname, progname);
}

static int
run_parse_mode(const char *arg, struct run_args *a)
{
	if (strcmp(arg, "threads") == 0)
		a->mode = MODE_THREADS;
	else if (strcmp(arg, "processes") == 0)
		a->mode = MODE_PROCESSES;
	else
		return cli_usage_error(CMD, "--mode '%s': give threads or processes", arg);
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
	return arg != NULL ? cli_parse_percent(CMD, "--until-stable", arg, &a->stable_pct) : 0;
}

static int
run_parse_option(int opt, int argc, char **argv, struct run_args *a)
{
	switch (opt) {
	case 'w': a->workload = optarg; return 0;
	case 'n': a->nspec = optarg; return 0;
	case 'q': a->view.quiet = true; return 0;
	case OPT_JSON: a->view.json = true; return 0;
	case OPT_STOP: a->stop_on_failure = true; return 0;
	case OPT_CMD: a->cmd = optarg; return 0;
	case OPT_PARSE: a->parse = optarg; return 0;
	case OPT_REGEX: a->regex = optarg; return 0;
	case OPT_SETUP: a->setup = optarg; return 0;
	case OPT_TEARDOWN: a->teardown = optarg; return 0;
	case OPT_MODE: return run_parse_mode(optarg, a);
	case OPT_STABLE: return run_parse_stable(argc, argv, a);
	case 'p':
		if (a->nparams == (int)(sizeof(a->params) / sizeof(a->params[0])))
			return cli_usage_error(CMD, "too many -p options");
		a->params[a->nparams++] = optarg;
		return 0;
	case 'd':
		a->duration_set = true;
		return cli_parse_seconds(CMD, "-d", optarg, 0.1, 86400, &a->duration);
	case OPT_WARMUP: return cli_parse_seconds(CMD, "--warmup", optarg, 0, 3600, &a->warmup);
	case OPT_MIN_TIME:
		return cli_parse_seconds(CMD, "--min-time", optarg, 0.1, 86400, &a->min_time);
	case OPT_INTERVAL:
		return cli_parse_seconds(CMD, "--interval", optarg, 0.01, 60, &a->interval);
	case OPT_STALL: return cli_parse_seconds(CMD, "--stall", optarg, 0, 86400, &a->stall);
	case OPT_REPEAT: return cli_parse_int(CMD, "--repeat", optarg, 1, 1000, &a->repeat);
	default:
		return cli_usage_error(CMD, "unknown option '%s': see '%s run --help'",
				       argv[optind - 1], progname);
	}
}

static void
run_defaults(struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	a->duration = 5;
	a->warmup = 1;
	a->min_time = 2;
	a->interval = 0.25;
	a->stall = 10;
	a->repeat = 1;
}

/* Cross-option rules that getopt cannot see. */
static int
run_check(struct run_args *a)
{
	if (a->cmd != NULL && a->workload != NULL)
		return cli_usage_error(CMD, "-w and --cmd both given: choose a built-in workload "
				       "or a command");
	if (a->cmd != NULL && a->parse == NULL && a->regex == NULL)
		return cli_usage_error(CMD, "--cmd needs --parse sysbench|pgbench or "
				       "--parse-regex 'RE' to read its throughput");
	if (a->cmd == NULL && (a->parse != NULL || a->regex != NULL))
		return cli_usage_error(CMD, "--parse and --parse-regex go with --cmd");
	if (a->parse != NULL && a->regex != NULL)
		return cli_usage_error(CMD, "--parse and --parse-regex both given: choose one");
	if (a->cmd != NULL && a->nparams > 0)
		return cli_usage_error(CMD, "-p sets built-in workload parameters; put the "
				       "command's own options in --cmd");
	if (a->stable_pct > 0 && !a->duration_set)
		a->duration = 20;
	if (a->stable_pct > 0 && a->min_time > a->duration)
		return cli_usage_error(CMD, "--min-time %g is longer than -d %g: lower one", a->min_time,
				       a->duration);
	return 0;
}

static int
run_parse(int argc, char **argv, struct run_args *a)
{
	int opt, rc;

	run_defaults(a);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":w:n:d:p:qh", run_longopts, NULL)) != -1) {
		if (opt == 'h') {
			run_usage(stdout);
			return -1;
		}
		if (opt == ':')
			return cli_usage_error(CMD, "option '%s' needs a value: see '%s run --help'",
					       argv[optind - 1], progname);
		if ((rc = run_parse_option(opt == '?' ? -1 : opt, argc, argv, a)) != 0)
			return rc;
	}
	if (optind < argc)
		return cli_usage_error(CMD, "unexpected argument '%s': options only (quote --cmd)",
				       argv[optind]);
	return run_check(a);
}

/* The settings half of the session: N list and measurement rules. */
static int
run_settings(struct session *s, const struct run_args *a)
{
	struct nlist nl;
	char err[ST_ERRLEN];
	int rc = a->nspec != NULL ? nlist_parse(&nl, a->nspec, err, sizeof(err))
				  : nlist_default(&nl, (int)sysconf(_SC_NPROCESSORS_ONLN));

	if (rc != 0) {
		nlist_free(&nl);
		return cli_usage_error(CMD, "-n: %s", a->nspec != NULL ? err : "out of memory");
	}
	s->set.n = nl.v;
	s->set.nn = (int)nl.count;
	s->set.duration_s = a->duration;
	s->set.warmup_s = a->warmup;
	s->set.stable_pct = a->stable_pct;
	s->set.min_measure_s = a->min_time;
	s->set.interval_s = a->interval;
	s->set.repeat = (int)a->repeat;
	s->set.stall_s = a->stall;
	s->set.stop_on_failure = a->stop_on_failure;
	s->set.mode = a->mode;
	return 0;
}

static int
run_builtin(struct session *s, struct sweep_config *cfg, const struct run_args *a)
{
	const char *name = a->workload != NULL ? a->workload : "cpu";
	char err[ST_ERRLEN];
	int i;

	cfg->wl = workload_find(name);
	if (cfg->wl == NULL)
		return cli_usage_error(CMD, "-w '%s': no such workload; '%s list' shows them", name,
				       progname);
	wl_args_defaults(&cfg->args, cfg->wl);
	for (i = 0; i < a->nparams; i++) {
		if (wl_args_set(&cfg->args, a->params[i], err, sizeof(err)) != 0)
			return cli_usage_error(CMD, "%s", err);
	}
	snprintf(s->wl.name, sizeof(s->wl.name), "%s", cfg->wl->name);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "%s", cfg->wl->unit);
	/* Verdicts speak of writers for the file study, else of what the mode starts. */
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "%s",
		 strcmp(cfg->wl->name, "fileio") == 0 ? "writers"
		 : a->mode == MODE_PROCESSES	     ? "processes"
						     : "threads");
	for (i = 0; i < cfg->wl->nparams && i < SESSION_MAX_PARAMS; i++) {
		snprintf(s->wl.key[i], sizeof(s->wl.key[i]), "%s", cfg->wl->params[i].name);
		snprintf(s->wl.value[i], sizeof(s->wl.value[i]), "%s", cfg->args.text[i]);
	}
	s->wl.nparams = i;
	return 0;
}

static int
run_split(const char *opt, const char *text, char ***out)
{
	char err[ST_ERRLEN];

	if (text == NULL)
		return 0;
	if (cmdline_split(text, out, err, sizeof(err)) != 0)
		return cli_usage_error(CMD, "%s: %s", opt, err);
	return 0;
}

static int
run_external(struct session *s, struct sweep_config *cfg, const struct run_args *a)
{
	char err[ST_ERRLEN];
	struct parser *p;
	int rc;

	cfg->parser = a->regex != NULL ? "regex" : a->parse;
	cfg->parse_arg = a->regex;
	/* Try the parser now, so a bad --parse or regex is a usage error, not a failed step. */
	p = parser_new(cfg->parser, cfg->parse_arg, err, sizeof(err));
	if (p == NULL)
		return cli_usage_error(CMD, "%s: %s", a->regex ? "--parse-regex" : "--parse", err);
	parser_free(p);
	if ((rc = run_split("--cmd", a->cmd, &s->wl.argv)) != 0)
		return rc;
	cfg->cmd = s->wl.argv;
	snprintf(s->wl.name, sizeof(s->wl.name), "external");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.parser, sizeof(s->wl.parser), "%s", cfg->parser);
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "%s",
		 strcmp(cfg->parser, "pgbench") == 0 ? "clients" : "threads");
	return 0;
}

int
cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct session s;
	struct sweep_config cfg;
	char err[ST_ERRLEN];
	int rc;

	rc = run_parse(argc, argv, &a);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	session_init(&s);
	memset(&cfg, 0, sizeof(cfg));
	rc = run_settings(&s, &a);
	if (rc == 0)
		rc = a.cmd != NULL ? run_external(&s, &cfg, &a) : run_builtin(&s, &cfg, &a);
	if (rc == 0)
		rc = run_split("--setup", a.setup, &cfg.setup);
	if (rc == 0)
		rc = run_split("--teardown", a.teardown, &cfg.teardown);
	if (rc == 0 && host_info_read(&s.host, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s run: %s\n", progname, err);
		rc = EXIT_RUNTIME;
	}
	if (rc == 0)
		rc = run_sweep(&s, &cfg, &a.view);
	cmdline_free(cfg.setup);
	cmdline_free(cfg.teardown);
	session_free(&s);
	return rc;
}

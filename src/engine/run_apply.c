/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parsed run-style options to what a sweep needs: the session's settings
 * and workload text, and the sweep config (a built-in workload, or an
 * external command and how its throughput is read).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/cmdline.h"
#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "scaletop/parse.h"
#include "scaletop/run_args.h"
#include "scaletop/spawn.h"
#include "probe_preset.h"
#include "target.h"

#define CMD a->cmdname

/* --target: each spec checked now (a cgroup's path resolved), so a bad one costs no sweep. */
static int
run_targets(struct session *s, const struct run_args *a)
{
	struct target_spec sp;
	char err[ST_ERRLEN];
	int i;

	for (i = 0; i < a->ntargets; i++) {
		if (strlen(a->target[i]) >= TARGET_SPEC_LEN)
			return arg_usage_error(CMD, "--target: a spec of at most %d characters",
					       TARGET_SPEC_LEN - 1);
		if (target_spec_parse(a->target[i], &sp, err, sizeof(err)) != 0)
			return arg_usage_error(CMD, "%s", err);
		snprintf(s->set.target[i], sizeof(s->set.target[i]), "%s", a->target[i]);
	}
	s->set.ntargets = a->ntargets;
	return 0;
}

/* The settings half of the session: N list and measurement rules. */
static int
run_settings(struct session *s, const struct run_args *a)
{
	struct nlist nl;
	char err[ST_ERRLEN];

	if (run_nlist(&nl, a->nspec, err, sizeof(err)) != 0) {
		nlist_free(&nl);
		/* nlist's message names -n and the list itself. */
		return arg_usage_error(CMD, "%s", err);
	}
	s->set.n = nl.v;
	s->set.nn = (int)nl.count;
	s->set.duration_s = a->duration;
	s->set.warmup_s = a->warmup;
	s->set.stable_pct = a->stable_pct;
	s->set.min_measure_s = a->min_time;
	s->set.interval_s = a->interval;
	s->set.repeat = (int)a->repeat;
	s->set.trials = (int)a->trials;
	s->set.refine = (int)a->refine;
	s->set.stall_s = a->stall;
	s->set.stop_on_failure = a->stop_on_failure;
	s->set.collapse_theta = a->collapse_pct / 100.0;
	s->set.efficiency_min = a->linear_pct / 100.0;
	s->set.mode = a->mode;
	return 0;
}

static int
run_builtin(struct session *s, struct sweep_config *cfg, const struct run_args *a)
{
	const char *name = a->workload != NULL ? a->workload : a->default_workload;
	char err[ST_ERRLEN];
	int i;

	cfg->wl = workload_find(name);
	if (cfg->wl == NULL)
		return arg_usage_error(CMD, "-w '%s': no such workload; '%s list' shows them", name,
				       progname);
	wl_args_defaults(&cfg->args, cfg->wl);
	for (i = 0; i < a->nparams; i++) {
		if (wl_args_set(&cfg->args, a->params[i], err, sizeof(err)) != 0)
			return arg_usage_error(CMD, "%s", err);
	}
	snprintf(s->wl.name, sizeof(s->wl.name), "%s", cfg->wl->name);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "%s", cfg->wl->unit);
	/* Verdicts speak of writers for the file study, else of what the mode starts. */
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "%s",
		 strcmp(cfg->wl->name, "fileio") == 0 ? "writers"
		 : a->mode == MODE_PROCESSES          ? "processes"
						      : "threads");
	for (i = 0; i < cfg->wl->nparams && i < SESSION_MAX_PARAMS; i++) {
		snprintf(s->wl.key[i], sizeof(s->wl.key[i]), "%s", cfg->wl->params[i].name);
		snprintf(s->wl.value[i], sizeof(s->wl.value[i]), "%s", cfg->args.text[i]);
	}
	s->wl.nparams = i;
	return 0;
}

static int
run_split(const struct run_args *a, const char *opt, const char *text, char ***out)
{
	char err[ST_ERRLEN];

	if (text == NULL)
		return 0;
	if (cmdline_split(text, out, err, sizeof(err)) != 0)
		return arg_usage_error(CMD, "%s: %s", opt, err);
	return 0;
}

/* A preset's options must split too (mariadb:OPTIONS); a postgres conninfo goes whole. */
static int
run_preset(const struct run_args *a, const char *text, bool *is)
{
	enum probe_preset kind;
	char err[ST_ERRLEN], **argv;

	*is = false;
	if (probe_preset_argv(text, &kind, &argv, err, sizeof(err)) != 0)
		return arg_usage_error(CMD, "--probe %s: %s", text, err);
	*is = kind != PRESET_NONE;
	cmdline_free(argv);
	return 0;
}

/* --probe: each command (or preset) must split (no shell) and fit the settings' field. */
static int
run_probes(struct session *s, const struct run_args *a)
{
	char **argv;
	bool preset;
	int i;

	for (i = 0; i < a->nprobes; i++) {
		if (strlen(a->probe[i]) >= sizeof(s->set.probe[i]))
			return arg_usage_error(CMD,
					       "--probe: a command of at most %zu characters; "
					       "put a longer one in a script",
					       sizeof(s->set.probe[i]) - 1);
		if (run_preset(a, a->probe[i], &preset) != 0)
			return EXIT_USAGE;
		if (!preset && run_split(a, "--probe", a->probe[i], &argv) != 0)
			return EXIT_USAGE;
		if (!preset)
			cmdline_free(argv);
		snprintf(s->set.probe[i], sizeof(s->set.probe[i]), "%s", a->probe[i]);
	}
	s->set.nprobes = a->nprobes;
	s->set.no_hot = a->no_hot;
	s->set.no_latency = a->no_latency;
	s->set.no_locks = a->no_locks;
	return 0;
}

/* --ops K[:UNIT]: a whole number of operations per run, and what one is ("runs" if not given). */
static int
run_parse_ops(const struct run_args *a, uint64_t *k, char *unit, size_t ulen)
{
	const char *text = a->ops;
	const char *colon = text != NULL ? strchr(text, ':') : NULL;
	char *end;
	double v;

	snprintf(unit, ulen, "%s", text == NULL ? "runs" : "ops");
	*k = 1;
	if (text == NULL)
		return 0;
	errno = 0;
	v = strtod(text, &end);
	if (end == text || (end != colon && *end != '\0') || errno != 0 || v < 1 || v > 1e15 ||
	    v != floor(v))
		return arg_usage_error(CMD,
				       "--ops '%s': give a whole number of operations per "
				       "run, 1 to 1e15, and optionally :UNIT, e.g. --ops 512:MiB",
				       text);
	if (colon != NULL &&
	    (colon[1] == '\0' || strlen(colon + 1) >= ulen || strpbrk(colon + 1, " \t/") != NULL))
		return arg_usage_error(CMD,
				       "--ops '%s': the unit after ':' must be one word of "
				       "1 to %zu characters, e.g. --ops 512:MiB",
				       text, ulen - 1);
	if (colon != NULL)
		snprintf(unit, ulen, "%s", colon + 1);
	*k = (uint64_t)v;
	return 0;
}

/* --parse elapsed: no parser; each run is timed, and K is kept with the workload's text. */
static int
run_elapsed(struct session *s, struct sweep_config *cfg, const struct run_args *a)
{
	if (run_parse_ops(a, &cfg->elapsed_ops, s->wl.unit, sizeof(s->wl.unit)) != 0)
		return EXIT_USAGE;
	cfg->time_limit_s = a->duration_set ? a->duration : 0;
	s->set.warmup_s = 0;
	if (a->ops != NULL) {
		snprintf(s->wl.key[0], sizeof(s->wl.key[0]), "ops");
		snprintf(s->wl.value[0], sizeof(s->wl.value[0]), "%s", a->ops);
		s->wl.nparams = 1;
	}
	return 0;
}

/*
 * --cmd's placeholders, before any step: an unknown one ({N}) is a usage
 * error naming the known ones, and a command without {n} is run as given,
 * which the session's first event says.
 */
static int
run_placeholders(struct session *s, const struct run_args *a)
{
	char err[ST_ERRLEN];
	bool uses_n;

	if (spawn_argv_check((const char *const *)s->wl.argv, &uses_n, err, sizeof(err)) != 0)
		return arg_usage_error(CMD, "--cmd: %s", err);
	if (!uses_n)
		session_add_event(s, -1, EV_INFO, 0,
				  "--cmd has no {n}: every step runs it as given, and N is not "
				  "passed to it");
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
	cfg->parse_lat = a->parse_lat;
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	if (run_args_elapsed(a)) {
		if ((rc = run_elapsed(s, cfg, a)) != 0)
			return rc;
	} else {
		/* Try the parser now, so a bad --parse or regex is a usage error, not a failed
		 * step. */
		if (a->regex == NULL && parser_takes_pattern(a->parse))
			return arg_usage_error(CMD,
					       "--parse %s: give the pattern as --parse-regex 'RE' "
					       "instead",
					       a->parse);
		p = parser_new(cfg->parser, cfg->parse_arg, err, sizeof(err));
		if (p == NULL && a->regex == NULL) {
			char parsers[128];

			run_parse_choices(parsers, sizeof(parsers), ", ", " or ", true);
			return arg_usage_error(CMD, "--parse '%s': give %s, or --parse-regex 'RE'",
					       a->parse, parsers);
		}
		if (p == NULL)
			return arg_usage_error(CMD, "%s", err);
		if (a->parse_lat != NULL &&
		    parser_set_latency(p, a->parse_lat, err, sizeof(err)) != 0) {
			parser_free(p);
			return arg_usage_error(CMD, "%s", err);
		}
		parser_free(p);
	}
	if ((rc = run_split(a, "--cmd", a->cmd, &s->wl.argv)) != 0 ||
	    (rc = run_placeholders(s, a)) != 0)
		return rc;
	cfg->cmd = s->wl.argv;
	snprintf(s->wl.name, sizeof(s->wl.name), "external");
	snprintf(s->wl.parser, sizeof(s->wl.parser), "%s", cfg->parser);
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "%s",
		 strcmp(cfg->parser, "pgbench") == 0 ? "clients" : "threads");
	return 0;
}

/* The session's settings and workload text, and the sweep's config, from parsed options. */
int
run_args_apply(const struct run_args *a, struct session *s, struct sweep_config *cfg)
{
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	rc = run_settings(s, a);
	if (rc == 0)
		rc = run_probes(s, a);
	if (rc == 0)
		rc = run_targets(s, a);
	if (rc == 0)
		rc = a->cmd != NULL ? run_external(s, cfg, a) : run_builtin(s, cfg, a);
	if (rc == 0)
		rc = run_split(a, "--setup", a->setup, &cfg->setup);
	if (rc == 0)
		rc = run_split(a, "--teardown", a->teardown, &cfg->teardown);
	cfg->realtime = (int)a->realtime;
	cfg->realtime_asked = a->realtime_set && a->realtime > 0;
	cfg->quiet_check = true;
	cfg->wait_quiet_s = a->wait_quiet;
	return rc;
}

int
run_args_targets_alive(const struct run_args *a)
{
	struct target_spec sp;
	char err[ST_ERRLEN];
	int i;

	for (i = 0; i < a->ntargets; i++) {
		if (target_spec_parse(a->target[i], &sp, err, sizeof(err)) != 0 ||
		    target_spec_present(&sp, err, sizeof(err)) != 0)
			return arg_usage_error(CMD, "%s", err);
	}
	return 0;
}

int
run_args_try(const struct run_args *a)
{
	struct sweep_config cfg;
	struct session s;
	int rc;

	session_init(&s);
	rc = run_args_apply(a, &s, &cfg);
	run_config_free(&cfg); /* zeroed first, so whatever was set */
	session_free(&s);
	return rc != 0 ? rc : run_args_targets_alive(a);
}

void
run_config_free(struct sweep_config *cfg)
{
	cmdline_free(cfg->setup);
	cmdline_free(cfg->teardown);
	cfg->setup = cfg->teardown = NULL;
}

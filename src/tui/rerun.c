/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * r runs what is on screen.  When a kept run is opened, its workload,
 * parameters, N list and settings (as its snapshot keeps them) become the
 * options r, +/- and n start from.  What a snapshot does not keep (--setup,
 * --teardown, --realtime, --wait-quiet) stays as it is, and the message
 * says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/parse.h"
#include "app.h"

/*
 * A run that cannot run again here (an imported table, a workload this
 * scaletop lacks, a command whose binary is gone, a regex not kept) leaves
 * the options alone, and r says why before it runs them.
 */

/* Whether argv0 names a program that can run: by its path, or found in PATH. */
static bool
rerun_found(const char *argv0)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	if (strchr(argv0, '/') != NULL)
		return access(argv0, X_OK) == 0;
	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), end == p ? "." : p, argv0);
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

/* Joins argv as one command line cmdline_split reads back: each odd byte escaped. */
static int
rerun_join(char *const *argv, char *out, size_t len)
{
	size_t o = 0;
	int i;
	const char *c;

	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0 && o + 1 < len)
			out[o++] = ' ';
		for (c = argv[i]; *c != '\0'; c++) {
			if (strchr(" \t\n'\"\\", *c) != NULL && o + 1 < len)
				out[o++] = '\\';
			if (o + 1 < len)
				out[o++] = *c;
		}
	}
	out[o < len ? o : len - 1] = '\0';
	return o + 1 < len ? 0 : -1;
}

/* The N list as "1,2,4"; -1 when it does not fit. */
static int
rerun_nlist(const struct sweep_settings *set, char *out, size_t len)
{
	size_t o = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < set->nn && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%d", i > 0 ? "," : "", set->n[i]);
	return set->nn > 0 && o < len ? 0 : -1;
}

/* Why the session s cannot run again here, into why; 0 when it can. */
static int
rerun_check(const struct session *s, char *why, size_t len)
{
	const struct workload *wl;
	struct wl_args wa;
	struct parser *p = NULL;
	char kv[300];
	int i;

	if (strcmp(s->wl.name, "imported") == 0)
		return st_error(why, len, "it is a table imported from a file, not a sweep");
	if (strcmp(s->wl.name, "external") == 0) {
		if (s->wl.argv == NULL || s->wl.argv[0] == NULL)
			return st_error(why, len, "its snapshot keeps no command");
		if (strcmp(s->wl.parser, "regex") == 0)
			return st_error(why, len, "its snapshot keeps no --parse-regex pattern");
		if (strcmp(s->wl.parser, "elapsed") != 0 &&
		    (p = parser_new(s->wl.parser, NULL, why, len)) == NULL)
			return -1;
		parser_free(p);
		if (!rerun_found(s->wl.argv[0]))
			return st_error(why, len, "%s: not found, or not executable",
					s->wl.argv[0]);
		return 0;
	}
	if ((wl = workload_find(s->wl.name)) == NULL)
		return st_error(why, len, "this scaletop has no workload '%s'", s->wl.name);
	wl_args_defaults(&wa, wl);
	for (i = 0; i < s->wl.nparams; i++) {
		snprintf(kv, sizeof(kv), "%s=%s", s->wl.key[i], s->wl.value[i]);
		if (wl_args_set(&wa, kv, why, len) != 0)
			return -1;
	}
	return 0;
}

/* The text r's options point to, made whole before any of the app's is replaced. */
struct rerun_text {
	char cmd[sizeof(((struct app *)0)->rerun.cmd)];
	char params[sizeof(((struct app *)0)->params)]; /* "k=v\0k=v\0" */
	int nparams;
	char nspec[sizeof(((struct app *)0)->nspec)];
};

/* The workload's text and the N list into t; why and -1 when one does not fit. */
static int
rerun_stage(const struct session *s, struct rerun_text *t, char *why, size_t len)
{
	size_t o = 0, room;
	int i;

	t->cmd[0] = '\0';
	t->nparams = 0;
	if (rerun_nlist(&s->set, t->nspec, sizeof(t->nspec)) != 0)
		return st_error(why, len, "its N list is too long");
	if (strcmp(s->wl.name, "external") == 0) {
		if (rerun_join(s->wl.argv, t->cmd, sizeof(t->cmd)) != 0)
			return st_error(why, len, "its command is too long");
		return 0;
	}
	for (i = 0; i < s->wl.nparams && i < WL_MAX_PARAMS; i++) {
		room = sizeof(t->params) - o;
		if ((size_t)snprintf(t->params + o, room, "%s=%s", s->wl.key[i], s->wl.value[i]) >=
		    room)
			return st_error(why, len, "its parameters are too long");
		o += strlen(t->params + o) + 1;
	}
	t->nparams = i;
	return 0;
}

/* The workload half: a built-in's name and parameters, or the command and its parser. */
static void
rerun_workload(struct app *a, const struct session *s, const struct rerun_text *t)
{
	size_t o = 0;
	int i;

	a->args.workload = a->args.cmd = a->args.parse = a->args.regex = a->args.ops = NULL;
	a->args.nparams = 0;
	if (strcmp(s->wl.name, "external") == 0) {
		snprintf(a->rerun.parse, sizeof(a->rerun.parse), "%s", s->wl.parser);
		a->args.parse = a->rerun.parse;
		for (i = 0; i < s->wl.nparams; i++) {
			if (strcmp(s->wl.key[i], "ops") != 0)
				continue;
			snprintf(a->rerun.ops, sizeof(a->rerun.ops), "%s", s->wl.value[i]);
			a->args.ops = a->rerun.ops;
		}
		memcpy(a->rerun.cmd, t->cmd, sizeof(a->rerun.cmd));
		a->args.cmd = a->rerun.cmd;
		return;
	}
	snprintf(a->wl_name, sizeof(a->wl_name), "%s", s->wl.name);
	a->args.workload = a->wl_name;
	memcpy(a->params, t->params, sizeof(a->params));
	for (i = 0; i < t->nparams; i++) {
		a->param_ptr[i] = a->params + o;
		a->args.params[i] = a->param_ptr[i];
		o += strlen(a->params + o) + 1;
	}
	a->args.nparams = t->nparams;
}

/* The settings half: the measurement rules, probes and targets the snapshot keeps. */
static void
rerun_settings(struct app *a, const struct sweep_settings *set)
{
	struct run_args *ra = &a->args;
	int i;

	ra->duration = set->duration_s;
	ra->warmup = set->warmup_s;
	ra->duration_set = ra->warmup_set = true;
	ra->stable_pct = set->stable_pct;
	ra->min_time = set->min_measure_s;
	if (set->interval_s > 0)
		ra->interval = set->interval_s, ra->interval_set = true;
	ra->repeat = set->repeat > 0 ? set->repeat : 1;
	ra->trials = set->trials > 0 ? set->trials : 1;
	ra->refine = set->refine; /* the list is the snapshot's own; the refiner picks again */
	ra->stall = set->stall_s;
	ra->stop_on_failure = set->stop_on_failure;
	ra->collapse_pct = set->collapse_theta * 100;
	ra->linear_pct = set->efficiency_min * 100;
	ra->mode = set->mode;
	ra->no_hot = set->no_hot;
	ra->no_latency = set->no_latency;
	ra->no_locks = set->no_locks;
	for (i = 0; i < set->nprobes && i < SESSION_MAX_PROBES; i++) {
		snprintf(a->rerun.probe[i], sizeof(a->rerun.probe[i]), "%s", set->probe[i]);
		ra->probe[i] = a->rerun.probe[i];
	}
	ra->nprobes = i;
	for (i = 0; i < set->ntargets && i < SESSION_MAX_TARGETS; i++) {
		snprintf(a->rerun.target[i], sizeof(a->rerun.target[i]), "%s", set->target[i]);
		ra->target[i] = a->rerun.target[i];
	}
	ra->ntargets = i;
}

/* The options a snapshot does not keep, as they stand: "--setup, --realtime" or "". */
static void
rerun_unkept(const struct run_args *ra, char *out, size_t len)
{
	const char *name[4] = { "--setup", "--teardown", "--realtime", "--wait-quiet" };
	bool set[4] = { ra->setup != NULL, ra->teardown != NULL,
			ra->realtime_set && ra->realtime > 0, ra->wait_quiet > 0 };
	size_t o = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < 4; i++)
		if (set[i] && o < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o > 0 ? ", " : "", name[i]);
}

void
rerun_describe(const struct run_args *ra, char *out, size_t len)
{
	const char *name = ra->workload != NULL ? ra->workload : ra->default_workload;
	size_t o;
	int i;

	if (ra->cmd != NULL)
		o = (size_t)snprintf(out, len, "%s", ra->cmd);
	else
		o = (size_t)snprintf(out, len, "%s", name);
	for (i = 0; i < ra->nparams && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, " %s", ra->params[i]);
	if (o < len)
		snprintf(out + o, len - o, " N=%s", ra->nspec != NULL ? ra->nspec : "default");
}

int
rerun_adopt(struct app *a, const struct session *s, char *msg, size_t len)
{
	char what[256], unkept[64];
	struct rerun_text *t = malloc(sizeof(*t));

	a->rerun.told = false;
	if (t == NULL)
		st_error(a->rerun.why, sizeof(a->rerun.why), "out of memory");
	if (t == NULL || rerun_check(s, a->rerun.why, sizeof(a->rerun.why)) != 0 ||
	    rerun_stage(s, t, a->rerun.why, sizeof(a->rerun.why)) != 0) {
		free(t);
		snprintf(msg, len, "it cannot run again here: %s", a->rerun.why);
		return -1;
	}
	a->rerun.why[0] = '\0';
	rerun_workload(a, s, t);
	memcpy(a->nspec, t->nspec, sizeof(a->nspec));
	a->args.nspec = a->nspec;
	free(t);
	rerun_settings(a, &s->set);
	rerun_describe(&a->args, what, sizeof(what));
	rerun_unkept(&a->args, unkept, sizeof(unkept));
	snprintf(msg, len, "r runs %s%s%s%s", what, unkept[0] ? " (" : "", unkept,
		 unkept[0] ? " as now: no snapshot keeps them)" : "");
	return 0;
}

bool
rerun_holds(struct app *a)
{
	char what[256];

	if (a->rerun.why[0] == '\0' || a->rerun.told)
		return false;
	a->rerun.told = true;
	rerun_describe(&a->args, what, sizeof(what));
	app_message(a, true, "cannot run the opened run again: %s; r again runs %s", a->rerun.why,
		    what);
	return true;
}

void
rerun_forget(struct app *a)
{
	a->rerun.why[0] = '\0';
	a->rerun.told = false;
}

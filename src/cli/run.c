/* SPDX-License-Identifier: BSD-2-Clause */
/* scaletop run: a headless sweep with progress on stderr and results on stdout. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "run.h"
#include "scaletop/error.h"
#include "scaletop/format.h"
#include "scaletop/host.h"
#include "scaletop/measures.h"
#include "scaletop/pgroup.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "scaletop/stream.h"
#include "scaletop/sweep.h"
#include "scaletop/step_table.h"

struct run_ctx {
	struct session *s;
	struct sweep *sw;
	struct loop *loop;
	struct progress prog; /* how stderr takes the progress line */
	bool quiet;
	int signo;            /* the signal that stopped the sweep, 0 if none */
	struct recorder *rec; /* --record, or NULL */
	int nrecorded;        /* events already streamed */
	int nshown;           /* events already said on stderr */
};

/*
 * At a step's end: the warnings since the last step (a target found
 * nowhere, a failing probe) each on a line of their own, then the newest
 * event, the step's own, as "[k/n] text".
 */
static void
run_show_events(struct run_ctx *c, int step)
{
	const struct event *ev;

	for (; c->nshown < c->s->nevents - 1; c->nshown++) {
		ev = &c->s->events[c->nshown];
		if (ev->kind == EV_WARNING) {
			progress_clear(&c->prog, stderr);
			fprintf(stderr, "%s run: warning: %s\n", progname, ev->text);
		}
	}
	c->nshown = c->s->nevents;
	ev = &c->s->events[c->s->nevents - 1];
	progress_clear(&c->prog, stderr);
	fprintf(stderr, "[%d/%d] %s\n", step + 1, sweep_live(c->sw)->steps_total, ev->text);
}

/* The events before the first step (the quiet check's), said as they come. */
static void
run_show_warnings(struct run_ctx *c)
{
	const struct event *ev;

	for (; c->nshown < c->s->nevents; c->nshown++) {
		ev = &c->s->events[c->nshown];
		if (ev->kind == EV_WARNING || ev->kind == EV_INFO) {
			progress_clear(&c->prog, stderr);
			fprintf(stderr, "%s run: %s: %s\n", progname,
				ev->kind == EV_WARNING ? "warning" : "note", ev->text);
		}
	}
}

/* A stream write failed (EPIPE, ENOSPC): say so once; the recorder stays quiet after. */
static void
run_record_check(struct run_ctx *c, int rc)
{
	if (rc != 0 && recorder_error(c->rec) != NULL)
		fprintf(stderr, "%s run: --record: %s\n", progname, recorder_error(c->rec));
}

static void
run_record_events(struct run_ctx *c)
{
	while (c->nrecorded < c->s->nevents)
		run_record_check(c, recorder_event(c->rec, &c->s->events[c->nrecorded++]));
}

static void
run_record_step(struct run_ctx *c, int step)
{
	struct analysis_opts o;
	struct analysis a;

	run_record_check(c, recorder_step(c->rec, c->s, step));
	analysis_opts_for(c->s, &o);
	if (analysis_run(c->s, &o, &a) == 0) {
		run_record_check(c, recorder_analysis(c->rec, &a, &o));
		analysis_free(&a);
	}
}

/* Everything the live views draw goes into the stream as it happens. */
static void
run_record(struct run_ctx *c, enum sweep_note note, int step)
{
	if (c->rec == NULL)
		return;
	if (note == SWEEP_TICK)
		run_record_check(
			c,
			recorder_tick(c->rec, c->s, sweep_live(c->sw),
				      sweep_live(c->sw)->have_ct ? &sweep_live(c->sw)->ct : NULL));
	else if (note == SWEEP_STEP_DONE && step >= 0)
		run_record_step(c, step);
	run_record_events(c);
}

static void
run_progress(struct run_ctx *c, int step)
{
	const struct sweep_live *lv = sweep_live(c->sw);
	const struct step *st = &c->s->steps[step];
	char rate[16], line[256], cpu[32] = "";

	fmt_si(lv->have_rate ? lv->rate : NAN, rate, sizeof(rate));
	if (lv->have_cpu)
		snprintf(cpu, sizeof(cpu), "  cpu %.0f%%", lv->cpu.all.busy);
	snprintf(line, sizeof(line), "[%d/%d] N=%d %s %.1f s  %s %s/s%s", step + 1, lv->steps_total,
		 st->n, sweep_phase_names[lv->phase], lv->phase_s, rate, c->s->wl.unit, cpu);
	progress_show(&c->prog, stderr, line);
}

static void
run_observe(void *arg, enum sweep_note note, int step)
{
	struct run_ctx *c = arg;

	run_record(c, note, step);
	if (note == SWEEP_FINISHED) {
		if (!c->quiet)
			progress_clear(&c->prog, stderr);
		loop_quit(c->loop);
		return;
	}
	if (!c->quiet && step < 0)
		run_show_warnings(c);
	if (c->quiet || step < 0)
		return;
	if (note == SWEEP_TICK && c->prog.redraw) {
		run_progress(c, step);
	} else if (note == SWEEP_STEP_DONE && c->s->nevents > 0)
		run_show_events(c, step);
}

static void
run_on_signal(struct loop *l, int signo, void *arg)
{
	struct run_ctx *c = arg;
	char why[64];

	c->signo = signo;
	snprintf(why, sizeof(why), "interrupted by %s",
		 signo == SIGINT   ? "^C"
		 : signo == SIGHUP ? "SIGHUP"
				   : "SIGTERM");
	sweep_interrupt(c->sw, why);
	loop_quit(l);
}

static void
run_stamp(struct session *s)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(s->started_utc, sizeof(s->started_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	s->t0_ns = mono_now_ns();
}

static int
run_exit_status(const struct run_ctx *c)
{
	int i;

	if (c->signo != 0)
		return 128 + c->signo;
	for (i = 0; i < c->s->nsteps; i++) {
		if (c->s->steps[i].status == STEP_FAILED)
			return EXIT_RUNTIME;
	}
	return 0;
}

/* Results go to stdout, unless the stream does (--record -): then to stderr. */
static void
run_report(const struct run_ctx *c, const struct run_view *v)
{
	bool streamed = v->record != NULL && strcmp(v->record, "-") == 0;
	FILE *f = streamed ? stderr : stdout;

	if (v->json) {
		if (session_json_write(f, c->s) != 0)
			fprintf(stderr, "%s run: cannot write the JSON results\n", progname);
	} else {
		step_table_print(f, c->s);
	}
	fflush(f);
}

static int
run_record_open(struct run_ctx *c, const struct run_view *v)
{
	char err[ST_ERRLEN];

	if (v->record == NULL)
		return 0;
	c->rec = recorder_open(v->record, v->record_force ? RECORDER_FORCE : 0, err, sizeof(err));
	if (c->rec == NULL) {
		fprintf(stderr, "%s run: --record: %s\n", progname, err);
		return -1;
	}
	run_record_check(c, recorder_header(c->rec, c->s));
	return 0;
}

/* Events the teardown added, then the end of the stream. */
static void
run_record_close(struct run_ctx *c)
{
	char err[ST_ERRLEN];

	if (c->rec == NULL)
		return;
	run_record_events(c);
	if (recorder_close(c->rec, err, sizeof(err)) != 0)
		fprintf(stderr, "%s run: --record: %s\n", progname, err);
	c->rec = NULL;
}

/* The notes the options gave before any step (a --cmd without {n}), each on a line. */
static void
run_show_notes(struct run_ctx *c)
{
	for (; c->nshown < c->s->nevents; c->nshown++) {
		if (!c->quiet)
			fprintf(stderr, "%s run: note: %s\n", progname,
				c->s->events[c->nshown].text);
	}
}

/* Runs the sweep the options describe; the session is filled by the caller. */
int
run_sweep(struct session *s, const struct sweep_config *cfg, const struct run_view *v)
{
	char err[ST_ERRLEN] = "";
	struct run_ctx c = { .s = s, .quiet = v->quiet };
	struct sampler *smp = sampler_open(err, sizeof(err));
	int status = EXIT_RUNTIME;

	if (smp == NULL) {
		fprintf(stderr, "%s run: %s\n", progname, err);
		return EXIT_RUNTIME;
	}
	progress_open(&c.prog, STDERR_FILENO);
	if (sampler_note(smp) != NULL)
		snprintf(s->sampler_note, sizeof(s->sampler_note), "%s", sampler_note(smp));
	c.loop = loop_new(err, sizeof(err));
	if (c.loop != NULL)
		c.sw = sweep_new(s, c.loop, smp, cfg, err, sizeof(err));
	if (c.sw != NULL) {
		loop_catch_signal(c.loop, SIGINT, run_on_signal, &c);
		loop_catch_signal(c.loop, SIGTERM, run_on_signal, &c);
		loop_catch_signal(c.loop, SIGHUP, run_on_signal, &c);
		sweep_set_observer(c.sw, run_observe, &c);
		run_stamp(s);
		run_show_notes(&c);
		if (run_record_open(&c, v) == 0 && sweep_start(c.sw, err, sizeof(err)) == 0 &&
		    loop_run(c.loop, err, sizeof(err)) == 0) {
			sweep_free(c.sw);
			c.sw = NULL;
			run_record_close(&c);
			run_report(&c, v);
			status = run_exit_status(&c);
		}
	}
	run_record_close(&c);
	if (status == EXIT_RUNTIME && err[0] != '\0' && s->nsteps == 0)
		fprintf(stderr, "%s run: %s\n", progname, err);
	sweep_free(c.sw);
	pgroup_kill_all(SIGKILL);
	loop_free(c.loop);
	sampler_close(smp);
	progress_close(&c.prog);
	return status;
}

/* --- the command ------------------------------------------------------------ */

/* run has no options beyond the shared ones; the ext only gives its --help. */
static const struct option run_no_longopts[] = { { NULL, 0, NULL, 0 } };

static void
run_usage(FILE *f, const struct run_args *d)
{
	char parsers[128];

	run_parse_choices(parsers, sizeof(parsers), "|", "|", false);
	fprintf(f,
		"usage: %s run [-w WORKLOAD] [-n LIST] [-d SECONDS] [-p KEY=VALUE]... [options]\n"
		"       %s run --cmd 'COMMAND {n}' --parse %s [options]\n"
		"       %s run --cmd 'COMMAND {n}' --parse-regex 'RE' [options]\n"
		"       %s run --cmd 'make -j{n}' --parse elapsed [--ops K] [options]\n\n",
		progname, progname, parsers, progname, progname);
	run_usage_options(f, d);
	fprintf(f,
		"      --json             print the results as one JSON object\n"
		"  -o, --output FILE      save a snapshot (show, compare, export read it)\n"
		"      --force            let -o and --record replace an existing file\n"
		"      --record FILE      stream every tick, step and event as JSON Lines\n"
		"                         ('-': standard output) for 'scaletop replay' or 'view'\n"
		"  -q, --quiet            no progress on stderr\n");
}

static int
run_save(const struct run_args *a, const struct session *s)
{
	char err[ST_ERRLEN];

	if (snapshot_save(a->output, s, NULL, a->force, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, a->cmdname, err);
		return -1;
	}
	if (!a->view.quiet)
		fprintf(stderr, "%s %s: saved %s\n", progname, a->cmdname, a->output);
	return 0;
}

/*
 * A database benchmark measures its client; the server, where a collapse
 * usually lives, is measured only with --target.  Which server it is, is the
 * user's to say: this suggests one and assumes nothing.
 */
static void
run_target_hint(const struct run_args *a)
{
	const char *server = NULL;

	if (a->ntargets > 0 || a->cmd == NULL || a->parse == NULL || a->view.quiet)
		return;
	if (strcmp(a->parse, "pgbench") == 0 ||
	    (strcmp(a->parse, "sysbench") == 0 && strstr(a->cmd, "pgsql") != NULL))
		server = "comm:postgres";
	else if (strcmp(a->parse, "sysbench") == 0 && strstr(a->cmd, "mysql") != NULL)
		server = "comm:mariadbd (or comm:mysqld)";
	if (server != NULL)
		fprintf(stderr,
			"%s run: hint: this measures the client only; add --target %s to measure "
			"the server too\n",
			progname, server);
}

int
cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct session s;
	struct sweep_config cfg;
	struct run_opt_ext ext = { run_no_longopts, NULL, run_usage, NULL };
	char err[ST_ERRLEN];
	int rc;

	run_args_defaults(&a, "run");
	rc = run_args_parse(argc, argv, &a, &ext);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	session_init(&s);
	rc = run_args_apply(&a, &s, &cfg);
	cfg.collectors = collectors;
	cfg.ncollectors = ncollectors;
	if (rc == 0)
		rc = run_args_targets_alive(&a);
	if (rc == 0 && host_info_read(&s.host, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s run: %s\n", progname, err);
		rc = EXIT_RUNTIME;
	}
	if (rc == 0) {
		run_target_hint(&a);
		rc = run_sweep(&s, &cfg, &a.view);
		/* What was measured is kept even when a step failed or the sweep was stopped. */
		if (a.output != NULL && s.nsteps > 0 && run_save(&a, &s) != 0 && rc == 0)
			rc = EXIT_RUNTIME;
	}
	run_config_free(&cfg);
	session_free(&s);
	return rc;
}

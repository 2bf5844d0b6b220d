/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What runs: the sweep (r, n, w), the live run at one N outside a sweep
 * (+/-), the session each writes, and the ticks that follow them (the
 * sweep's observer, and the idle tick at the refresh interval while nothing
 * runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/error.h"
#include "scaletop/measures.h"
#include "scaletop/nlist.h"
#include "scaletop/snapshot.h"
#include "scaletop/workload.h"
#include "app.h"

/*
 * A live run gets a session of its own, so its endless step never mixes with
 * the sweep's results; the tick series moves to it and back so the heatmap
 * runs on (each session's file holds only its own ticks).
 */

static struct sweep_config sweeps_cfg, sweeps_live_cfg;

static void
sweeps_stamp(struct session *s)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(s->started_utc, sizeof(s->started_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	s->t0_ns = mono_now_ns();
}

/*
 * The throughput interval, unless --interval gives one: the refresh, at
 * most an eighth of the window, and from run's default (0.25 s) to 1 s.
 * Each tick reads everything (the CPUs, the threads, the perf ring, the
 * counters) while a frame shows one a refresh: at a 1 s refresh a long
 * 1-thread step cost the monitor 1.0 ms of CPU a second at four ticks, 0.6
 * at one (bench/tui-cpu.sh); short steps keep 0.25 s, which their CI needs.
 */
static double
sweeps_interval(const struct app *a, const struct run_args *ra)
{
	double s = a->ui.refresh_s;

	if (s > ra->duration / 8)
		s = ra->duration / 8;
	if (s > 1)
		s = 1;
	return s > ra->interval ? s : ra->interval;
}

/*
 * A session from run-style options; the host is this machine's (a kept run
 * opened on screen may be another's), the clock and note like a->s's.
 */
static struct session *
sweeps_session(const struct app *a, const struct run_args *ra, struct sweep_config *cfg)
{
	const struct session *like = a->s;
	struct session *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	session_init(s);
	if (run_args_apply(ra, s, cfg) != 0) {
		session_free(s);
		free(s);
		return NULL;
	}
	cfg->collectors = collectors;
	cfg->ncollectors = ncollectors;
	if (!ra->interval_set)
		s->set.interval_s = sweeps_interval(a, ra);
	if (like != NULL) {
		s->host = a->host.hostname[0] != '\0' ? a->host : like->host;
		memcpy(s->sampler_note, like->sampler_note, sizeof(s->sampler_note));
	}
	s->t0_ns = like != NULL ? like->t0_ns : mono_now_ns();
	return s;
}

int
sweeps_new_session(struct app *a)
{
	struct sweep_config cfg;
	struct session *s;

	/* a sweep's session carries the machine's fingerprint: read the first time one is made */
	if (!a->have_fp && a->host.hostname[0] != '\0') {
		host_fingerprint_read(&a->host);
		a->have_fp = true;
	}
	s = sweeps_session(a, &a->args, &cfg);

	if (s == NULL)
		return -1;
	keep_run(a); /* the session about to go: r, n and w come through here */
	if (a->s != NULL) {
		record_session_ends(a);
		session_take_series(s, a->s);
		session_free(a->s);
		free(a->s);
	}
	run_config_free(&sweeps_cfg);
	sweeps_cfg = cfg;
	a->s = s;
	if (a->have_an)
		analysis_free(&a->an);
	a->have_an = false;
	a->collapse_seen = false;
	a->ui.sel_step = -1;
	a->ui.detail = false;
	a->ui.src_label[0] = '\0';
	keep_reset(a);
	rerun_forget(a);
	return 0;
}

static void
sweeps_free_live(struct app *a)
{
	if (a->live_s == NULL)
		return;
	session_take_series(a->s, a->live_s);
	session_free(a->live_s);
	free(a->live_s);
	a->live_s = NULL;
	run_config_free(&sweeps_live_cfg);
}

/* Ends whatever runs, now: the step is interrupted, its process group killed. */
void
sweeps_stop(struct app *a, const char *why)
{
	bool was_sweep = a->live_s == NULL;

	if (a->sw == NULL)
		return;
	a->switching = true;
	sweep_interrupt(a->sw, why);
	sweep_free(a->sw);
	a->sw = NULL;
	a->switching = false;
	sweeps_free_live(a);
	if (was_sweep) /* a live N (+/-) is a look at one N: its endless step is not kept */
		keep_run(a);
	idle_reset(&a->idle);
	if (!a->quit)
		sweeps_set_refresh(a, a->ui.refresh_s);
}

void
sweeps_reap(struct app *a)
{
	if (a->sw != NULL && sweep_finished(a->sw)) {
		sweep_free(a->sw);
		a->sw = NULL;
		sweeps_free_live(a);
	}
	if (a->quit)
		run_config_free(&sweeps_cfg);
}

/* --- ticks: the idle tick, and the sweep's observer ------------------------- */

static void
sweeps_idle_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct app *a = arg;

	sweeps_reap(a);
	idle_tick(&a->idle, app_tick_session(a), now);
	if (!a->ui.paused)
		app_redraw(a);
}

void
sweeps_set_refresh(struct app *a, double s)
{
	a->ui.refresh_s = s;
	if (a->rp == NULL && (a->sw == NULL || sweep_finished(a->sw)))
		loop_set_tick(a->loop, (uint64_t)(s * 1e9), sweeps_idle_tick, a);
}

/* The sweep's observer: analysis when a step ends, a redraw at most once per refresh. */
static void
sweeps_observe(void *arg, enum sweep_note note, int step)
{
	struct app *a = arg;

	if (note == SWEEP_STEP_DONE && a->live_s == NULL)
		app_analyse(a);
	record_observe(a, note, step);
	if (note == SWEEP_FINISHED && !a->quit && !a->switching) {
		if (sweep_live(a->sw)->have_cpu)
			idle_adopt(&a->idle, &sweep_live(a->sw)->cpu);
		else
			idle_reset(&a->idle);
		sweeps_set_refresh(a, a->ui.refresh_s);
		if (a->live_s == NULL && keep_run(a) == 0)
			app_message(
				a, false, "%s",
				a->keep.path[0] != '\0'
					? "sweep finished and kept (R lists the runs): r runs it "
					  "again, s saves a copy"
					: "sweep finished: r runs it again, s saves a snapshot");
	}
	if (a->quit || a->ui.paused ||
	    (note == SWEEP_TICK && ui_now() - a->last_draw < a->ui.refresh_s - 0.02))
		return;
	app_redraw(a);
}

/* --- sessions and sweeps ------------------------------------------------------ */

static int
sweeps_begin(struct app *a, struct session *s, const struct sweep_config *cfg)
{
	char err[ST_ERRLEN];

	if (a->smp == NULL) {
		app_message(a, true,
			    "--fake-cpus is a monitoring-only test hook: no workload runs");
		return -1;
	}
	sweeps_stamp(s);
	a->sw = sweep_new(s, a->loop, a->smp, cfg, err, sizeof(err));
	if (a->sw != NULL) {
		sweep_set_observer(a->sw, sweeps_observe, a);
		if (sweep_start(a->sw, err, sizeof(err)) == 0)
			return 0;
	}
	app_message(a, true, "cannot start: %s", err);
	if (a->sw != NULL) {
		a->switching = true;
		sweep_free(a->sw);
		a->switching = false;
		a->sw = NULL;
	}
	return -1;
}

/* r: the sweep from the first N, in a fresh session with the current settings. */
int
sweeps_start(struct app *a)
{
	sweeps_stop(a, "restarted by the user");
	if (keep_holds(a))
		return -1;
	if (sweeps_new_session(a) != 0) {
		app_message(a, true, "cannot start the sweep: out of memory");
		return -1;
	}
	if (sweeps_begin(a, a->s, &sweeps_cfg) != 0)
		return -1;
	record_sweep_started(a);
	return 0;
}

/* +/-: one N, measured without end, in its own session. */
void
sweeps_live(struct app *a, int n)
{
	struct run_args la = a->args;
	char spec[16];

	if (a->sw != NULL && a->live_s == NULL && !sweep_finished(a->sw)) {
		app_message(a, true, "+/- work outside a sweep: x stops the sweep first");
		return;
	}
	if (n < 1)
		n = 1;
	if (n > NLIST_MAX)
		n = NLIST_MAX;
	sweeps_stop(a, "N changed");
	snprintf(spec, sizeof(spec), "%d", n);
	la.nspec = spec;
	la.duration = 86400;
	la.duration_set = true;
	la.stable_pct = 0;
	la.repeat = 1;
	la.trials = 1;
	la.setup = la.teardown = NULL;
	a->live_s = sweeps_session(a, &la, &sweeps_live_cfg);
	if (a->live_s == NULL) {
		app_message(a, true, "cannot run N=%d: out of memory", n);
		return;
	}
	a->live_n = n;
	session_take_series(a->live_s, a->s);
	if (sweeps_begin(a, a->live_s, &sweeps_live_cfg) != 0)
		sweeps_free_live(a);
}

int
sweeps_set_nlist(struct app *a, const char *spec)
{
	char err[ST_ERRLEN];
	struct nlist nl;
	int rc = nlist_parse(&nl, spec, err, sizeof(err));

	nlist_free(&nl);
	if (rc != 0) {
		app_message(a, true, "%s", err);
		return -1;
	}
	snprintf(a->nspec, sizeof(a->nspec), "%s", spec);
	a->args.nspec = a->nspec;
	return sweeps_start(a);
}

/* Splits "k=v k=v" into a->params, in place, for run_args. */
static int
sweeps_split_params(struct app *a, const char *params)
{
	char *p, *save = NULL;
	int n = 0;

	snprintf(a->params, sizeof(a->params), "%s", params);
	for (p = strtok_r(a->params, " \t,", &save); p != NULL && n < WL_MAX_PARAMS;
	     p = strtok_r(NULL, " \t,", &save))
		a->param_ptr[n++] = p;
	return n;
}

int
sweeps_set_workload(struct app *a, const char *name, const char *params)
{
	const struct workload *wl = workload_find(name);
	char err[ST_ERRLEN];
	struct wl_args wa;
	int i, n;

	if (wl == NULL)
		return -1;
	n = sweeps_split_params(a, params);
	wl_args_defaults(&wa, wl);
	for (i = 0; i < n; i++) {
		if (wl_args_set(&wa, a->param_ptr[i], err, sizeof(err)) != 0) {
			app_message(a, true, "%s", err);
			return -1;
		}
	}
	snprintf(a->wl_name, sizeof(a->wl_name), "%s", name);
	a->args.workload = a->wl_name;
	a->args.cmd = a->args.parse = a->args.regex = NULL;
	a->args.nparams = n;
	for (i = 0; i < n; i++)
		a->args.params[i] = a->param_ptr[i];
	if (sweeps_start(a) != 0)
		return -1;
	app_save_prefs(a);
	return 0;
}

/*
 * Enter in the history view: the kept run becomes the session every view
 * shows (as `scaletop show` prints it), after the one on screen is kept.
 * The live tick series stays, so the CPU panels run on; r then sweeps it
 * anew on this machine (rerun.c).  Not while something runs.
 */
int
sweeps_open_run(struct app *a, const char *path, char *msg, size_t len)
{
	struct snapshot snap;
	struct session *s;
	char err[ST_ERRLEN] = "";

	if (a->rp != NULL || a->s == NULL) {
		app_message(a, true, "a replay shows a recorded run: o overlays a kept one");
		return -1;
	}
	if (a->sw != NULL && !sweep_finished(a->sw)) {
		app_message(a, true, "x stops what runs first: a kept run opens when nothing runs");
		return -1;
	}
	snapshot_init(&snap);
	if (snapshot_load(path, &snap, err, sizeof(err)) != 0 ||
	    (s = calloc(1, sizeof(*s))) == NULL) {
		app_message(a, true, "%s", err[0] ? err : "out of memory");
		snapshot_free(&snap);
		return -1;
	}
	keep_run(a);
	sweeps_reap(a);
	*s = snap.s;
	session_init(&snap.s);
	snapshot_free(&snap);
	session_take_series(s, a->s);
	session_free(a->s);
	free(a->s);
	a->s = s;
	if (a->have_an)
		analysis_free(&a->an);
	a->have_an = false;
	a->collapse_seen = true; /* its collapse is old news: no flash, no new event */
	app_analyse(a);
	a->ui.sel_step = -1;
	a->ui.detail = false;
	keep_adopt(a, path);
	rerun_adopt(a, s, msg, len);
	snprintf(a->ui.src_label, sizeof(a->ui.src_label), "kept run %s", path);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sweep controller.  Each tick samples the CPUs, lets the running step
 * advance through its kind's table (step_ctx.h: a built-in workload or an
 * external command), and when a step ends records it and starts the next.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/contention.h"
#include "scaletop/error.h"
#include "scaletop/format.h"
#include "scaletop/pgroup.h"
#include "scaletop/spawn.h"
#include "step_ctx.h"
#include "sweep_quiet.h"
#include "sweep_refine.h"

/*
 * The measurement window the kinds share lives in the step context
 * (step_ctx.c); the sweep owns the plan, the CPU samples, the pause and the
 * events that describe each step.
 */

#define SETUP_TIMEOUT_NS (UINT64_C(600) * 1000000000u)
/*
 * How far the monitor raises its own priority where it may (pgroup.h): at
 * nice -20 it weighs 88761 against a nice-0 worker's 1024, so the scheduler
 * runs a woken tick ahead of the workers and lets a tick's few ms of reading
 * finish within the tick even beside 1024 runnable workers (at -10, 9548, a
 * tick's 4 ms of reading once took over 250 ms of wall clock there); it asks
 * for ~1% of a CPU, so no worker starves.
 */
#define MONITOR_NICE_BOOST 20
/*
 * The most of its thread's CPU one wake of the loop may take while the
 * monitor runs at a real-time priority (loop_set_guard).  Its longest
 * rightful wake is the window's start, every worker's counters read whole:
 * 50-56 ms at 1000 workers on a loaded 2-CPU machine; four times that, and
 * the monitor drops to the ordinary policy for good, so that a real-time
 * monitor never holds a CPU from the machine for long (docs/design-notes.md).
 * The loop checks after each wake; Linux's RLIMIT_RTTIME, set to the same,
 * also stops a wake that never ends.
 */
#define MONITOR_RT_GUARD_NS (UINT64_C(200) * 1000000u)

struct sweep {
	struct session *s;
	struct loop *loop;
	struct sampler *smp;
	struct sweep_config cfg;
	struct wl_sweep wls;
	const struct step_kind *kind; /* what runs each step */
	bool prepared;
	sweep_observer obs;
	void *obs_arg;
	struct sweep_live live;
	int next;     /* position in the plan (session_plan_step) */
	bool running; /* a step is in progress */
	struct raw_sample prev, cur;
	bool have_prev;
	struct step_ctx ctx; /* the running step's, bound to this sweep */
	bool rt_said;        /* the first try at SCHED_FIFO was told (an event) */
	bool rt_off;         /* refused, or the guard tripped: no more tries */
	struct sweep_quiet quiet;
	bool quieting;              /* the quiet check runs: no step yet */
	struct sweep_refine refine; /* --refine, once the plan has run */
};

static void sweep_step_end(struct sweep *sw, enum step_status status, const char *reason);

/* A wake of the loop went over the guard's bound: the monitor is back at the ordinary policy. */
static void
sweep_rt_guard(struct loop *l, uint64_t used_ns, void *arg)
{
	struct sweep *sw = arg;
	int rc = pgroup_realtime_drop();

	(void)l;
	sw->rt_off = true;
	session_add_event(
		sw->s, sw->running ? sw->live.step : -1, EV_WARNING,
		session_time(sw->s, mono_now_ns()),
		"the monitor's own work took %.1f ms of CPU in one tick, over the %.0f ms "
		"a real-time monitor may take: %s",
		(double)used_ns / 1e6, (double)MONITOR_RT_GUARD_NS / 1e6,
		rc == 0 ? "it runs at the ordinary policy from here on" : "cannot drop SCHED_FIFO");
}

/*
 * A step starts: the loop's thread at SCHED_FIFO, guarded, when the config
 * asks, until its window closes (sweep_rt_rest).  The first try is told.
 */
static void
sweep_rt_take(struct sweep *sw)
{
	double t = session_time(sw->s, mono_now_ns());
	bool said = sw->rt_said;

	if (sw->cfg.realtime <= 0 || sw->rt_off || pgroup_is_realtime())
		return;
	sw->rt_said = true;
	if (pgroup_realtime(sw->cfg.realtime, MONITOR_RT_GUARD_NS) == 0) {
		loop_set_guard(sw->loop, MONITOR_RT_GUARD_NS, sweep_rt_guard, sw);
		if (!said)
			session_add_event(
				sw->s, -1, EV_INFO, t,
				"the monitor's thread runs at SCHED_FIFO priority %d while "
				"steps measure (dropped if one tick takes over %.0f ms of CPU)",
				sw->cfg.realtime, (double)MONITOR_RT_GUARD_NS / 1e6);
		return;
	}
	sw->rt_off = true;
	session_add_event(sw->s, -1, sw->cfg.realtime_asked ? EV_WARNING : EV_INFO, t,
			  "%sthe monitor's thread cannot run at SCHED_FIFO (%s); it runs at the "
			  "ordinary policy, its nice raised where allowed",
			  sw->cfg.realtime_asked ? "--realtime: " : "", strerror(errno));
}

/* A window closes, or the sweep ends: what follows (naming, saving) need not keep time. */
static void
sweep_rt_rest(struct sweep *sw)
{
	if (!pgroup_is_realtime())
		return;
	loop_set_guard(sw->loop, 0, NULL, NULL);
	(void)pgroup_realtime_drop();
}

static void
sweep_on_closing(void *arg)
{
	sweep_rt_rest(arg);
}

/* A kind's step has ended (step_ctx_end). */
static void
sweep_on_step_end(void *arg, enum step_status status, const char *reason)
{
	sweep_step_end(arg, status, reason);
}

/* The step context, bound for the sweep's life. */
static void
sweep_bind(struct sweep *sw)
{
	struct step_ctx *c = &sw->ctx;

	step_ctx_init(c);
	c->s = sw->s;
	c->loop = sw->loop;
	c->cfg = &sw->cfg;
	c->wls = &sw->wls;
	c->live = &sw->live;
	c->end = sweep_on_step_end;
	c->closing = sweep_on_closing;
	c->end_arg = sw;
}

struct sweep *
sweep_new(struct session *s, struct loop *l, struct sampler *smp, const struct sweep_config *cfg,
	  char *err, size_t errlen)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	int i;

	if (sw == NULL) {
		st_error(err, errlen, "sweep: out of memory");
		return NULL;
	}
	sw->s = s;
	sw->loop = l;
	sw->smp = smp;
	sw->cfg = *cfg;
	/* Path values point into their own wl_args' text: re-point them at the copy. */
	for (i = 0; cfg->wl != NULL && i < cfg->wl->nparams; i++) {
		if (cfg->wl->params[i].type == WP_PATH)
			sw->cfg.args.v[i].s = sw->cfg.args.text[i];
	}
	sw->wls.args = &sw->cfg.args;
	sw->kind = cfg->cmd != NULL ? &external_step_kind : &builtin_step_kind;
	sweep_bind(sw);
	if (step_ctx_set_target(&sw->ctx, &s->set, err, errlen) != 0) {
		step_ctx_free(&sw->ctx);
		free(sw);
		return NULL;
	}
	sw->live.step = -1;
	sw->live.steps_total = session_plan_len(&s->set);
	raw_sample_init(&sw->prev);
	raw_sample_init(&sw->cur);
	sample_delta_init(&sw->live.cpu);
	sweep_quiet_init(&sw->quiet);
	return sw;
}

void
sweep_set_observer(struct sweep *sw, sweep_observer cb, void *arg)
{
	sw->obs = cb;
	sw->obs_arg = arg;
}

static void
sweep_notify(struct sweep *sw, enum sweep_note note, int step)
{
	if (sw->obs != NULL)
		sw->obs(sw->obs_arg, note, step);
}

/* One CPU sample per tick: the live view's figures and the window's edges. */
static void
sweep_sample_cpu(struct sweep *sw)
{
	struct raw_sample tmp;
	char err[ST_ERRLEN];

	if (sampler_read(sw->smp, &sw->cur, err, sizeof(err)) != 0) {
		sw->live.have_cpu = false;
		return;
	}
	if (sw->have_prev)
		sw->live.have_cpu = sample_delta_compute(&sw->live.cpu, &sw->prev, &sw->cur) == 0;
	tmp = sw->prev;
	sw->prev = sw->cur;
	sw->cur = tmp;
	sw->have_prev = true;
	sw->ctx.cpu = &sw->prev; /* the newest, since the swap */
}

static void
sweep_describe_step(struct sweep *sw, const struct step *st, int idx)
{
	char rate[32];
	double t = session_time(sw->s, sw->ctx.phase_ns);

	if (st->status == STEP_FAILED) {
		session_add_event(sw->s, idx, EV_FAILURE, t, "N=%d failed: %s", st->n, st->reason);
		return;
	}
	if (st->status == STEP_INTERRUPTED) { /* as the table has it: no throughput */
		session_add_event(sw->s, idx, EV_STEP, t,
				  "N=%d not measured (%s): its window was cut short", st->n,
				  st->reason[0] != '\0' ? st->reason : "interrupted");
		return;
	}
	fmt_si(st->ops_s, rate, sizeof(rate));
	if (st->status == STEP_UNSTABLE)
		session_add_event(sw->s, idx, EV_UNSTABLE, t, "N=%d unstable: %s", st->n,
				  st->reason);
	else
		session_add_event(sw->s, idx, EV_STEP, t, "N=%d: %s %s/s (%s%s) over %.1f s", st->n,
				  rate, sw->s->wl.unit, step_status_word(st),
				  st->refined ? ", refined" : "", st->window_s);
}

static void sweep_launch_next(struct sweep *sw, uint64_t now);

/* Kills what the step left running outside its group, and says so: it was not meant to. */
static void
sweep_kill_leftovers(struct sweep *sw, const struct step *st, int idx)
{
	int left = pgroup_kill_descendants();

	if (left > 0)
		session_add_event(sw->s, idx, EV_WARNING, session_time(sw->s, mono_now_ns()),
				  "N=%d: killed %d process%s the step left running outside its "
				  "process group (a command that daemonises escapes the group)",
				  st->n, left, left == 1 ? "" : "es");
}

static void
sweep_step_end(struct sweep *sw, enum step_status status, const char *reason)
{
	struct step *st = step_ctx_step(&sw->ctx);
	int idx = sw->ctx.idx;

	sweep_rt_rest(sw);
	sweep_kill_leftovers(sw, st, idx);
	st->status = status;
	if (reason != NULL)
		snprintf(st->reason, sizeof(st->reason), "%s", reason);
	if (status == STEP_FAILED) /* no throughput, so nothing per operation either */
		contention_forget_per_op(&st->ct, &st->tg);
	if (status == STEP_OK && sw->s->set.stable_pct <= 0 && stats_is_wide(&st->st)) {
		/* A step whose mean is not known is not ok; --until-stable's own target rules
		 * there. */
		st->status = STEP_UNSTABLE;
		if (st->st.mean > 0)
			snprintf(st->reason, sizeof(st->reason),
				 "95%% CI +-%.0f%% of the mean over %.1f s: wider than the mean "
				 "itself",
				 100 * stats_ci(&st->st) / st->st.mean, st->window_s);
		else
			snprintf(st->reason, sizeof(st->reason),
				 "no operation was counted in the %.1f s window", st->window_s);
	}
	sw->running = false;
	sweep_describe_step(sw, st, idx);
	sweep_notify(sw, SWEEP_STEP_DONE, idx);
	if (status == STEP_FAILED && sw->s->set.stop_on_failure) {
		sweep_interrupt(sw, NULL);
		return;
	}
	if (status != STEP_INTERRUPTED)
		sweep_launch_next(sw, mono_now_ns());
}

/* With --repeat or --trials: says where reruns moved more than each run's own CI admits. */
static void
sweep_note_drift(struct sweep *sw)
{
	struct analysis_opts o;
	struct analysis a;
	int n, i;

	if (session_plan_len(&sw->s->set) < 2 * sw->s->set.nn)
		return;
	analysis_opts_for(sw->s, &o);
	if (analysis_run(sw->s, &o, &a) != 0)
		return;
	if ((n = analysis_repeat_drift(&a)) > 0) {
		for (i = 0; a.pts[i].n != n; i++)
			;
		session_add_event(
			sw->s, -1, EV_WARNING, session_time(sw->s, mono_now_ns()),
			"N=%d: the %d runs differ by +-%.1f%% (95%%), %.1fx what their own "
			"CIs allow (+-%.1f%%): the machine or the workload drifts between "
			"runs; the pooled CI allows for it",
			n, a.pts[i].runs, 100 * a.pts[i].ci_between / a.pts[i].x,
			a.pts[i].ci_between / a.pts[i].ci_within,
			100 * a.pts[i].ci_within / a.pts[i].x);
	}
	analysis_free(&a);
}

static void
sweep_finish(struct sweep *sw)
{
	sweep_note_drift(sw);
	step_ctx_enter(&sw->ctx, PHASE_DONE, mono_now_ns());
	loop_set_tick(sw->loop, 0, NULL, NULL);
	sweep_notify(sw, SWEEP_FINISHED, -1);
}

/* The plan has run, and --refine has nothing more to run. */
static bool
sweep_plan_over(const struct sweep *sw)
{
	return sw->next >= session_plan_len(&sw->s->set) &&
	       (sw->s->set.refine <= 0 || sw->refine.over);
}

/*
 * The next step's N, repeat and trial: the plan's, then --refine's; false
 * when the sweep is done.
 */
static bool
sweep_next_step(struct sweep *sw, uint64_t now, int *n, int *rep, int *trial, bool *refined)
{
	const struct sweep_settings *set = &sw->s->set;
	int ni, added;

	*refined = sw->next >= session_plan_len(set);
	if (!*refined) {
		session_plan_step(set, sw->next, &ni, rep, trial);
		*n = set->n[ni];
		sw->next++;
		return true;
	}
	if (!sweep_refine_step(sw->s, &sw->refine, session_time(sw->s, now), n, rep, trial, &added))
		return false;
	sw->live.steps_total += added;
	return true;
}

static void
sweep_launch_next(struct sweep *sw, uint64_t now)
{
	char err[ST_ERRLEN];
	struct step *st;
	int rc, n, rep, trial;
	bool ok, refined;

	if (sw->live.paused && !sweep_plan_over(sw)) {
		sw->live.step = -1;
		step_ctx_enter(&sw->ctx, PHASE_IDLE, now);
		return;
	}
	if (!sweep_next_step(sw, now, &n, &rep, &trial, &refined) ||
	    (st = session_add_step(sw->s, n, rep)) == NULL) {
		sweep_finish(sw);
		return;
	}
	st->trial = trial;
	st->refined = refined;
	ok = step_ctx_begin(&sw->ctx, sw->kind, sw->s->nsteps - 1, st->n, now) == 0;
	sw->live.step = sw->ctx.idx;
	sw->live.have_rate = false;
	sw->live.have_ct = false;
	sw->live.have_tg = false;
	sw->live.nwaits = 0;
	sw->running = true;
	step_ctx_enter(&sw->ctx, PHASE_STARTING, now);
	pgroup_adopt_orphans();
	sweep_rt_take(sw);
	if (!ok)
		rc = st_error(err, sizeof(err), "N=%d: out of memory", st->n);
	else
		rc = sw->kind->start(&sw->ctx, err, sizeof(err));
	if (rc != 0)
		sweep_step_end(sw, STEP_FAILED, err);
}

/* What this tick saw, into the session's series for live views and the recorder. */
static void
sweep_record_tick(struct sweep *sw, uint64_t now)
{
	struct series *ser = &sw->s->ticks;
	const struct sample_delta *d = &sw->live.cpu;
	float busy[ser->ncpu > 0 ? ser->ncpu : 1];
	struct tick t = {
		.t = session_time(sw->s, now),
		.step = sw->running ? sw->live.step : -1,
		.phase = (int)sw->live.phase,
		.rate = sw->live.have_rate && sw->running ? sw->live.rate : NAN,
		.busy_all = sw->live.have_cpu ? (float)d->all.busy : NAN,
	};
	int i;

	if (ser->cap == 0)
		return;
	for (i = 0; i < ser->ncpu; i++)
		busy[i] = NAN;
	for (i = 0; sw->live.have_cpu && i < d->ncpu; i++) {
		if (d->cpu[i].id >= 0 && d->cpu[i].id < ser->ncpu &&
		    !(d->cpu[i].flags & CPU_USAGE_NO_DATA))
			busy[d->cpu[i].id] = (float)d->cpu[i].busy;
	}
	series_add(ser, &t, busy);
}

static void
sweep_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct sweep *sw = arg;

	sweep_sample_cpu(sw);
	sw->live.held = sw->running && sw->live.paused && sw->kind->pause != NULL;
	if (sw->running)
		step_ctx_note_late(&sw->ctx, loop_tick_late_ns(l), loop_tick_busy_late_ns(l));
	if (sw->running && !sw->live.held) {
		step_ctx_sample(&sw->ctx, now);
		sw->kind->tick(&sw->ctx, now);
	}
	if (sw->quieting && sweep_quiet_tick(&sw->quiet, sw->s, sw->have_prev ? &sw->prev : NULL,
					     now, sw->cfg.wait_quiet_s)) {
		sw->quieting = false;
		sweep_launch_next(sw, now);
	}
	/* A phase may have begun after this tick's time was taken (a step ended and the next
	 * began).  A held step's clock stands still: its stopped time is not measured time. */
	if (!sw->live.held)
		sw->live.phase_s =
			now > sw->ctx.phase_ns ? (double)(now - sw->ctx.phase_ns) / 1e9 : 0;
	sweep_record_tick(sw, now);
	step_ctx_tick_done(&sw->ctx);
	sweep_notify(sw, SWEEP_TICK, sw->live.step);
}

static int
sweep_run_hook(char **argv, const char *what, char *err, size_t errlen)
{
	char out[512], why[ST_ERRLEN];

	if (argv == NULL)
		return 0;
	if (spawn_run(argv, SETUP_TIMEOUT_NS, out, sizeof(out), why, sizeof(why)) != 0)
		return st_error(err, errlen, "%s command failed: %s", what, why);
	return 0;
}

int
sweep_start(struct sweep *sw, char *err, size_t errlen)
{
	uint64_t period = (uint64_t)(sw->s->set.interval_s * 1e9);

	if (sw->cfg.wl != NULL && sw->cfg.wl->prepare != NULL) {
		if (sw->cfg.wl->prepare(&sw->wls, err, errlen) != 0)
			return -1;
	}
	sw->prepared = true;
	if (sweep_run_hook(sw->cfg.setup, "--setup", err, errlen) != 0)
		return -1;
	/* Ticks on time behind 1024 runnable workers; the workload keeps the user's nice. */
	(void)pgroup_raise_monitor(MONITOR_NICE_BOOST);
	sweep_sample_cpu(sw);
	if (sw->s->ticks.cap == 0 && sw->have_prev && sw->prev.ncpu > 0)
		session_start_series(sw->s, sw->prev.cpu[sw->prev.ncpu - 1].id + 1,
				     SERIES_DEFAULT_CAP);
	loop_set_tick(sw->loop, period, sweep_tick, sw);
	if (sw->cfg.quiet_check) {
		sw->quieting = true;
		sweep_quiet_begin(&sw->quiet, sw->have_prev ? &sw->prev : NULL, mono_now_ns());
		return 0;
	}
	sweep_launch_next(sw, mono_now_ns());
	return 0;
}

void
sweep_pause(struct sweep *sw, bool pause)
{
	uint64_t now = mono_now_ns();

	if (pause == sw->live.paused || sw->live.phase == PHASE_DONE)
		return;
	sw->live.paused = pause;
	sw->live.held = pause && sw->running && sw->kind->pause != NULL;
	if (sw->running && sw->kind->pause != NULL)
		sw->kind->pause(&sw->ctx, pause, now);
	else if (!pause && !sw->running && !sw->quieting)
		sweep_launch_next(sw, now);
}

void
sweep_interrupt(struct sweep *sw, const char *why)
{
	if (sw->live.paused && sw->running && sw->kind->pause != NULL)
		sw->kind->pause(&sw->ctx, false, mono_now_ns());
	sw->live.paused = sw->live.held = false;
	if (sw->running) {
		sw->kind->abort(&sw->ctx);
		sweep_step_end(sw, STEP_INTERRUPTED, why != NULL ? why : "sweep stopped");
	}
	sw->next = session_plan_len(&sw->s->set);
	sw->refine.over = true;
	sw->quieting = false;
	if (sw->live.phase != PHASE_DONE)
		sweep_finish(sw);
}

bool
sweep_finished(const struct sweep *sw)
{
	return sw->live.phase == PHASE_DONE;
}

const struct sweep_live *
sweep_live(const struct sweep *sw)
{
	return &sw->live;
}

void
sweep_free(struct sweep *sw)
{
	char err[ST_ERRLEN];

	if (sw == NULL)
		return;
	if (sw->running)
		sweep_interrupt(sw, NULL);
	sweep_rt_rest(sw);
	if (sw->prepared) {
		if (sweep_run_hook(sw->cfg.teardown, "--teardown", err, sizeof(err)) != 0)
			session_add_event(sw->s, -1, EV_WARNING, session_time(sw->s, mono_now_ns()),
					  "%s", err);
		if (sw->cfg.wl != NULL && sw->cfg.wl->cleanup != NULL)
			sw->cfg.wl->cleanup(&sw->wls);
	}
	raw_sample_free(&sw->prev);
	raw_sample_free(&sw->cur);
	step_ctx_free(&sw->ctx);
	sweep_quiet_free(&sw->quiet);
	sample_delta_free(&sw->live.cpu);
	free(sw->live.waits);
	free(sw);
}

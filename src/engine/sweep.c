/*
 * The sweep controller.  Each tick samples the CPUs, lets the running step
 * advance (built-in or external), and when a step ends records it and starts
 * the next.  Every rate uses the CLOCK_MONOTONIC time measured between the
 * two edges it spans.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/error.h"
#include "scaletop/format.h"
#include "scaletop/lockprof.h"
#include "scaletop/pgroup.h"
#include "scaletop/spawn.h"
#include "sweep_priv.h"

const char *const sweep_phase_names[] = {
	"idle", "starting", "warm-up", "measuring", "stopping", "done",
};

#define SETUP_TIMEOUT_NS (UINT64_C(600) * 1000000000u)

struct sweep *
sweep_new(struct session *s, struct loop *l, struct sampler *smp,
	  const struct sweep_config *cfg, char *err, size_t errlen)
{
	struct sweep *sw = calloc(1, sizeof(*sw));

	if (sw == NULL) {
		st_error(err, errlen, "sweep: out of memory");
		return NULL;
	}
	sw->s = s;
	sw->loop = l;
	sw->smp = smp;
	sw->cfg = *cfg;
	/* Path values point into their own wl_args' text: re-point them at the copy. */
	for (int i = 0; cfg->wl != NULL && i < cfg->wl->nparams; i++) {
		if (cfg->wl->params[i].type == WP_PATH)
			sw->cfg.args.v[i].s = sw->cfg.args.text[i];
	}
	sw->wls.args = &sw->cfg.args;
	sw->live.step = -1;
	sw->live.steps_total = s->set.nn * s->set.repeat;
	raw_sample_init(&sw->prev);
	raw_sample_init(&sw->cur);
	raw_sample_init(&sw->run.w0_raw);
	sample_delta_init(&sw->run.live_delta);
	sample_delta_init(&sw->live.cpu);
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

struct step *
sweep_step(struct sweep *sw)
{
	return &sw->s->steps[sw->run.idx];
}

void
sweep_enter(struct sweep *sw, enum sweep_phase ph, uint64_t now)
{
	sw->live.phase = ph;
	sw->run.phase_ns = now;
	sw->live.phase_s = 0;
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
		sw->live.have_cpu =
			sample_delta_compute(&sw->live.cpu, &sw->prev, &sw->cur) == 0;
	tmp = sw->prev;
	sw->prev = sw->cur;
	sw->cur = tmp;
	sw->have_prev = true;
}

/* The newest CPU sample (sweep_sample_cpu swaps, so it sits in prev). */
static const struct raw_sample *
sweep_latest(const struct sweep *sw)
{
	return sw->have_prev ? &sw->prev : NULL;
}

bool
sweep_read_tasks(struct sweep *sw, struct task_counters *out)
{
	pid_t pids[RUNNER_MAX_WORKERS];
	struct task_counters one;
	char err[ST_ERRLEN];
	int n, i, got = 0;

	if (sw->run.r != NULL)
		n = runner_task_pids(sw->run.r, pids, RUNNER_MAX_WORKERS);
	else if (sw->run.have_proc && sw->run.proc.pid > 0)
		pids[0] = sw->run.proc.pid, n = 1;
	else
		n = 0;
	memset(out, 0, sizeof(*out));
	out->have = ~0u;
	for (i = 0; i < n; i++) {
		if (task_counters_read(pids[i], &one, err, sizeof(err)) != 0)
			continue;
		out->vol_csw += one.vol_csw;
		out->invol_csw += one.invol_csw;
		out->user_ns += one.user_ns;
		out->sys_ns += one.sys_ns;
		out->cpu_ns += one.cpu_ns;
		out->run_delay_ns += one.run_delay_ns;
		out->nthreads += one.nthreads;
		out->have &= one.have;
		got++;
	}
	if (got == 0)
		out->have = 0;
	return got > 0;
}

/*
 * The kernel's lock profile at the window's start: every class, since one
 * outside a top list now may be among the most contended by its end.
 */
static void
sweep_locks_begin(struct sweep *sw)
{
	struct step_run *run = &sw->run;

	free(run->w0_locks);
	run->w0_locks = NULL;
	if (platform_lock_profile(&run->w0_locks, &run->w0_nlocks) != 0)
		run->w0_nlocks = -1;
}

/* The window's most contended kernel locks: the profile's change across it. */
static void
sweep_locks_end(struct sweep *sw, struct step *st)
{
	struct step_run *run = &sw->run;
	struct lockprof_entry *now;
	int n;

	if (run->w0_nlocks < 0 || platform_lock_profile(&now, &n) != 0)
		return;
	lockprof_delta(run->w0_locks, run->w0_nlocks, now, n, st->locks, STEP_TOP_LOCKS,
		       &st->nlocks);
	free(now);
}

void
sweep_window_begin(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy)
{
	struct step_run *run = &sw->run;
	const struct raw_sample *raw = sweep_latest(sw);

	run->w0_ns = now;
	run->w0_ops = ops;
	run->w0_wait = wait;
	run->w0_busy = busy;
	if (raw != NULL)
		raw_sample_copy(&run->w0_raw, raw);
	run->w0_have_task = sweep_read_tasks(sw, &run->w0_task);
	sweep_locks_begin(sw);
	sweep_step(sw)->warmup_s = (double)(now - run->go_ns) / 1e9;
	sweep_enter(sw, PHASE_MEASURING, now);
}

/*
 * The window from its start to now: the counts, the workers' task counters
 * (read now), and the system CPU delta into d once a later sample exists.
 */
static void
sweep_edges(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy,
	    struct sample_delta *d, struct window_edges *e)
{
	const struct step_run *run = &sw->run;
	const struct raw_sample *raw = sweep_latest(sw);

	memset(e, 0, sizeof(*e));
	e->seconds = (double)(now - run->w0_ns) / 1e9;
	e->ops = ops - run->w0_ops;
	e->workers = run->r != NULL ? run->n : 0; /* an external command: the threads summed */
	e->wait_ns = wait - run->w0_wait;
	e->busy_ns = busy - run->w0_busy;
	e->t0 = run->w0_task;
	e->have_tasks = run->w0_have_task && sweep_read_tasks(sw, &e->t1);
	if (raw != NULL && run->w0_raw.mono_ns != 0 && raw->mono_ns > run->w0_raw.mono_ns &&
	    sample_delta_compute(d, &run->w0_raw, raw) == 0)
		e->sys = d;
}

/* Closes the window: headline throughput, CPU breakdown, contention, statistics. */
void
sweep_window_end(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy)
{
	struct step_run *run = &sw->run;
	struct step *st = sweep_step(sw);
	struct sample_delta d;
	struct window_edges e;

	sample_delta_init(&d);
	sweep_edges(sw, now, ops, wait, busy, &d, &e);
	if (e.sys != NULL)
		step_set_cpus(st, &d);
	if (run->w0_have_task && run->have_last_task &&
	    (!e.have_tasks || e.t1.user_ns + e.t1.sys_ns < run->last_task.user_ns +
							       run->last_task.sys_ns)) {
		/* An external command has exited: its last live reading closes the window. */
		e.t1 = run->last_task;
		e.have_tasks = true;
	}
	contention_compute(&st->ct, &e);
	sample_delta_free(&d);
	sweep_locks_end(sw, st);

	st->window_s = e.seconds;
	st->ops = e.ops;
	st->ops_s = e.seconds > 0 ? (double)e.ops / e.seconds : 0;
	stats_compute(&st->st, st->iv, (size_t)st->niv);
}

/* How often the running step's contention is worked out: it reads every task's counters. */
#define LIVE_CT_PERIOD_NS 1000000000u

/*
 * The running step's contention from its window's start to now, for live
 * views and the stream.  ops, wait and busy are the running totals.
 */
void
sweep_live_contention(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait,
		      uint64_t busy)
{
	struct step_run *run = &sw->run;
	struct window_edges e;

	if (sw->live.phase != PHASE_MEASURING || now < run->live_ct_ns + LIVE_CT_PERIOD_NS)
		return;
	run->live_ct_ns = now;
	sweep_edges(sw, now, ops, wait, busy, &run->live_delta, &e);
	contention_compute(&sw->live.ct, &e);
	sw->live.have_ct = true;
}

/*
 * Whether a window of `elapsed` ns has reached `target` seconds, to the
 * nearest tick: a tick a hair early would otherwise add a whole interval.
 * Rates are divided by the measured window, so ending at the nearest tick
 * costs nothing in honesty.
 */
bool
sweep_reached(const struct sweep *sw, uint64_t elapsed, double target)
{
	return (double)elapsed / 1e9 + sw->s->set.interval_s / 2 >= target;
}

/*
 * A fixed-length step past its length whose CI is still wide (stats_is_wide)
 * measures on, up to STATS_WIDE_EXTEND times its length: its mean is not
 * known yet, and more intervals are the one cure.
 */
static bool
sweep_extend_wide(struct sweep *sw, uint64_t elapsed)
{
	const struct sweep_settings *set = &sw->s->set;
	struct step *st = sweep_step(sw);
	struct stats stt;

	if (set->stable_pct > 0 || sweep_reached(sw, elapsed, STATS_WIDE_EXTEND * set->duration_s))
		return false;
	if (stats_compute(&stt, st->iv, (size_t)st->niv) != 0)
		return false;
	return stats_is_wide(&stt);
}

/*
 * Fixed duration (extended while the CI is wide), or until the CI is tight
 * enough (never before the minimum time).
 */
bool
sweep_window_complete(struct sweep *sw, uint64_t now)
{
	const struct sweep_settings *set = &sw->s->set;
	struct step *st = sweep_step(sw);
	double w = (double)(now - sw->run.w0_ns) / 1e9;
	struct stats stt;

	if (sweep_reached(sw, now - sw->run.w0_ns, set->duration_s))
		return !sweep_extend_wide(sw, now - sw->run.w0_ns);
	if (set->stable_pct <= 0 || w < set->min_measure_s || st->niv < 3)
		return false;
	if (stats_compute(&stt, st->iv, (size_t)st->niv) != 0)
		return false;
	return stats_is_stable(&stt, set->stable_pct);
}

static void
sweep_describe_step(struct sweep *sw, const struct step *st, int idx)
{
	char rate[32];
	double t = session_time(sw->s, sw->run.phase_ns);

	if (st->status == STEP_FAILED) {
		session_add_event(sw->s, idx, EV_FAILURE, t, "N=%d failed: %s", st->n, st->reason);
		return;
	}
	fmt_si(st->ops_s, rate, sizeof(rate));
	if (st->status == STEP_UNSTABLE)
		session_add_event(sw->s, idx, EV_UNSTABLE, t, "N=%d unstable: %s", st->n,
				  st->reason);
	else
		session_add_event(sw->s, idx, EV_STEP, t, "N=%d: %s %s/s (%s) over %.1f s", st->n,
				  rate, sw->s->wl.unit, step_status_names[st->status],
				  st->window_s);
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

void
sweep_step_end(struct sweep *sw, enum step_status status, const char *reason)
{
	struct step *st = sweep_step(sw);
	int idx = sw->run.idx;

	sweep_kill_leftovers(sw, st, idx);
	st->status = status;
	if (reason != NULL)
		snprintf(st->reason, sizeof(st->reason), "%s", reason);
	if (status == STEP_OK && sw->s->set.stable_pct <= 0 && stats_is_wide(&st->st)) {
		/* A step whose mean is not known is not ok; --until-stable's own target rules there. */
		st->status = STEP_UNSTABLE;
		snprintf(st->reason, sizeof(st->reason),
			 "95%% CI +-%.0f%% of the mean over %.1f s: wider than the mean itself",
			 st->st.mean > 0 ? 100 * stats_ci(&st->st) / st->st.mean : 0.0, st->window_s);
	}
	sw->running = false;
	free(sw->run.w0_wops);
	sw->run.w0_wops = NULL;
	sweep_describe_step(sw, st, idx);
	sweep_notify(sw, SWEEP_STEP_DONE, idx);
	if (status == STEP_FAILED && sw->s->set.stop_on_failure) {
		sweep_interrupt(sw, NULL);
		return;
	}
	if (status != STEP_INTERRUPTED)
		sweep_launch_next(sw, mono_now_ns());
}

/* With --repeat: says where reruns moved more than each run's own CI admits. */
static void
sweep_note_drift(struct sweep *sw)
{
	struct analysis_opts o;
	struct analysis a;
	int n, i;

	if (sw->s->set.repeat < 2)
		return;
	analysis_opts_for(sw->s, &o);
	if (analysis_run(sw->s, &o, &a) != 0)
		return;
	if ((n = analysis_repeat_drift(&a)) > 0) {
		for (i = 0; a.pts[i].n != n; i++)
			;
		session_add_event(sw->s, -1, EV_WARNING, session_time(sw->s, mono_now_ns()),
				  "N=%d: the %d runs differ by +-%.1f%% (95%%), %.1fx what their own "
				  "CIs allow (+-%.1f%%): the machine or the workload drifts between "
				  "runs; the pooled CI allows for it", n, a.pts[i].runs,
				  100 * a.pts[i].ci_between / a.pts[i].x,
				  a.pts[i].ci_between / a.pts[i].ci_within,
				  100 * a.pts[i].ci_within / a.pts[i].x);
	}
	analysis_free(&a);
}

static void
sweep_finish(struct sweep *sw)
{
	sweep_note_drift(sw);
	sweep_enter(sw, PHASE_DONE, mono_now_ns());
	loop_set_tick(sw->loop, 0, NULL, NULL);
	sweep_notify(sw, SWEEP_FINISHED, -1);
}

static void
sweep_launch_next(struct sweep *sw, uint64_t now)
{
	const struct sweep_settings *set = &sw->s->set;
	char err[ST_ERRLEN];
	struct step *st;
	int rc;

	if (sw->next >= set->nn * set->repeat) {
		sweep_finish(sw);
		return;
	}
	if (sw->live.paused) {
		sw->live.step = -1;
		sweep_enter(sw, PHASE_IDLE, now);
		return;
	}
	st = session_add_step(sw->s, set->n[sw->next / set->repeat], sw->next % set->repeat);
	sw->next++;
	if (st == NULL) {
		sweep_finish(sw);
		return;
	}
	raw_sample_free(&sw->run.w0_raw);
	sample_delta_free(&sw->run.live_delta);
	free(sw->run.w0_locks);
	memset(&sw->run, 0, sizeof(sw->run));
	raw_sample_init(&sw->run.w0_raw);
	sample_delta_init(&sw->run.live_delta);
	sw->run.idx = sw->s->nsteps - 1;
	sw->run.n = st->n;
	sw->run.start_ns = now;
	sw->live.step = sw->run.idx;
	sw->live.have_rate = false;
	sw->live.have_ct = false;
	sw->running = true;
	sweep_enter(sw, PHASE_STARTING, now);
	pgroup_adopt_orphans();
	rc = sw->cfg.cmd != NULL ? external_step_start(sw, err, sizeof(err))
				 : builtin_step_start(sw, err, sizeof(err));
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
	if (sw->running && !(sw->live.paused && sw->cfg.cmd == NULL)) {
		if (sw->cfg.cmd != NULL)
			external_step_tick(sw, now);
		else
			builtin_step_tick(sw, now);
	}
	/* A phase may have begun after this tick's time was taken (a step ended and the next began). */
	sw->live.phase_s = now > sw->run.phase_ns ? (double)(now - sw->run.phase_ns) / 1e9 : 0;
	sweep_record_tick(sw, now);
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
	sweep_sample_cpu(sw);
	if (sw->s->ticks.cap == 0 && sw->have_prev && sw->prev.ncpu > 0)
		session_start_series(sw->s, sw->prev.cpu[sw->prev.ncpu - 1].id + 1,
				     SERIES_DEFAULT_CAP);
	loop_set_tick(sw->loop, period, sweep_tick, sw);
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
	if (sw->running && sw->cfg.cmd == NULL)
		builtin_step_pause(sw, pause, now);
	else if (!pause && !sw->running)
		sweep_launch_next(sw, now);
}

void
sweep_interrupt(struct sweep *sw, const char *why)
{
	if (sw->live.paused && sw->running && sw->cfg.cmd == NULL)
		builtin_step_pause(sw, false, mono_now_ns());
	sw->live.paused = false;
	if (sw->running) {
		if (sw->cfg.cmd != NULL)
			external_step_abort(sw);
		else
			builtin_step_abort(sw);
		sweep_step_end(sw, STEP_INTERRUPTED, why != NULL ? why : "sweep stopped");
	}
	sw->next = sw->s->set.nn * sw->s->set.repeat;
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
	if (sw->prepared) {
		if (sweep_run_hook(sw->cfg.teardown, "--teardown", err, sizeof(err)) != 0)
			session_add_event(sw->s, -1, EV_WARNING,
					  session_time(sw->s, mono_now_ns()), "%s", err);
		if (sw->cfg.wl != NULL && sw->cfg.wl->cleanup != NULL)
			sw->cfg.wl->cleanup(&sw->wls);
	}
	raw_sample_free(&sw->prev);
	raw_sample_free(&sw->cur);
	raw_sample_free(&sw->run.w0_raw);
	sample_delta_free(&sw->run.live_delta);
	free(sw->run.w0_locks);
	sample_delta_free(&sw->live.cpu);
	free(sw);
}

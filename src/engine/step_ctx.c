/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step context: what every kind of step shares.  Above all the
 * measurement window, which is one thing whatever runs the step: opened at
 * the end of warm-up (counts, CPU sample, task counters and the kernel's lock
 * profile at that edge), closed into the step's figures.  Every rate uses
 * the CLOCK_MONOTONIC time measured between the two edges it spans.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/contention.h"
#include "scaletop/error.h"
#include "scaletop/grow.h"
#include "scaletop/latency.h"
#include "scaletop/stats.h"
#include "probe.h"
#include "runner.h"
#include "step_ctx.h"
#include "target.h"

/* How often the running step's contention is worked out: it reads every task's counters. */
#define LIVE_CT_PERIOD_NS 1000000000u
/* ... and the task counters behind it wait this many times their reading's CPU time (0.05%). */
#define LIVE_CT_SHARE 2000u
/* How often the sampled processes are found afresh, and the target's read into its book. */
#define FIND_PERIOD_NS 1000000000u

void
step_ctx_init(struct step_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->late_idx = -1;
	raw_sample_init(&c->w0_raw);
	sample_delta_init(&c->live_delta);
	wait_tally_init(&c->waits);
	wait_sampler_init(&c->ws);
	hot_sampler_init(&c->hot);
}

/* The sweep's collectors, each with its state: cfg's table, once per context. */
static int
step_ctx_collectors(struct step_ctx *c)
{
	const struct collector *k;
	int i;

	if (c->coll != NULL || c->cfg == NULL || c->cfg->collectors == NULL)
		return 0;
	c->coll = c->cfg->collectors;
	c->ncoll = c->cfg->ncollectors < COLLECTORS_MAX ? c->cfg->ncollectors : COLLECTORS_MAX;
	for (i = 0; i < c->ncoll; i++) {
		k = c->coll[i];
		if (k->size > 0 && (c->cstate[i] = calloc(1, k->size)) == NULL)
			return -1;
	}
	return 0;
}

/* Each collector's state freed, after its release. */
static void
step_ctx_collectors_free(struct step_ctx *c)
{
	int i;

	for (i = 0; i < c->ncoll; i++) {
		if (c->coll[i]->release != NULL)
			c->coll[i]->release(c, c->cstate[i]);
		free(c->cstate[i]);
		c->cstate[i] = NULL;
	}
	c->coll = NULL;
	c->ncoll = 0;
}

/* The last step's state: its kind frees what it holds; the block is kept for reuse. */
static void
step_ctx_release(struct step_ctx *c)
{
	if (c->state != NULL && c->kind != NULL && c->kind->release != NULL)
		c->kind->release(c);
}

int
step_ctx_begin(struct step_ctx *c, const struct step_kind *k, int idx, int n, uint64_t now)
{
	step_ctx_release(c);
	probes_stop(c->probes);
	if (c->state != NULL && c->kind != k) {
		free(c->state);
		c->state = NULL;
	}
	raw_sample_free(&c->w0_raw);
	sample_delta_free(&c->live_delta);
	free(c->w0_locks);
	c->kind = k;
	c->idx = idx;
	c->n = n;
	c->start_ns = now;
	c->phase_ns = c->go_ns = 0;
	c->w0_ns = c->w0_ops = c->w0_wait = c->w0_busy = 0;
	raw_sample_init(&c->w0_raw);
	memset(&c->w0_task, 0, sizeof(c->w0_task));
	c->w0_have_task = false;
	c->w0_locks = NULL;
	c->w0_nlocks = 0;
	memset(&c->last_task, 0, sizeof(c->last_task));
	c->have_last_task = false;
	task_reader_free(c->tasks); /* a new step's workers are other processes */
	c->tasks = NULL;
	c->live_ct_ns = c->live_tasks_ns = c->live_tasks_cost_ns = 0;
	c->tg_pass_ns = 0;
	sample_delta_init(&c->live_delta);
	wait_sampler_reset(&c->ws);
	c->ws_pids_ns = 0;
	c->lat.hist = NULL;
	c->lat.whole_run = false;
	c->lat.exact = false;
	c->lat.niv = 0;
	if (step_ctx_collectors(c) != 0)
		return -1;
	/* The same kind's block is zeroed, not freed: one step's state follows the last's. */
	if (c->state != NULL)
		memset(c->state, 0, k->size);
	else if (k->size > 0 && (c->state = calloc(1, k->size)) == NULL)
		return -1;
	return 0;
}

void
step_ctx_free(struct step_ctx *c)
{
	step_ctx_release(c);
	free(c->state);
	c->state = NULL;
	raw_sample_free(&c->w0_raw);
	sample_delta_free(&c->live_delta);
	free(c->w0_locks);
	c->w0_locks = NULL;
	wait_tally_free(&c->waits);
	probes_free(c->probes);
	c->probes = NULL;
	wait_sampler_free(&c->ws);
	hot_sampler_free(&c->hot);
	task_reader_free(c->tasks);
	c->tasks = NULL;
	step_ctx_collectors_free(c);
	step_ctx_census_free(c);
	step_ctx_kstacks_free(c);
	step_ctx_hot_free(c);
	target_free(c->target);
	c->target = NULL;
	others_book_free(&c->others);
	free(c->lat.iv_ms);
	memset(&c->lat, 0, sizeof(c->lat));
}

void
step_ctx_lat_late(struct step_ctx *c, const struct lathist *ops, const struct lathist *sync)
{
	latency_from_hist(&step_ctx_step(c)->lat, ops, LAT_HISTOGRAM);
	latency_from_hist(&step_ctx_step(c)->lat_sync, sync, LAT_HISTOGRAM);
}

void
step_ctx_lat_interval(struct step_ctx *c, double ms, int pct)
{
	struct lat_feed *f = &c->lat;

	/* One percentile a step: a tool that mixed them would give a median of nothing. */
	if (!isfinite(ms) || ms < 0 || (f->niv > 0 && pct != f->iv_pct))
		return;
	if (grow_array_int(&f->iv_ms, &f->capiv, f->niv + 1, sizeof(*f->iv_ms), 64) != 0)
		return;
	f->iv_ms[f->niv++] = ms;
	f->iv_pct = pct;
}

int
step_ctx_set_target(struct step_ctx *c, const struct sweep_settings *set, char *err, size_t errlen)
{
	if (set->ntargets == 0)
		return 0;
	c->target = target_new(set, err, errlen);
	return c->target != NULL ? 0 : -1;
}

struct step *
step_ctx_step(struct step_ctx *c)
{
	return &c->s->steps[c->idx];
}

void
step_ctx_end(struct step_ctx *c, enum step_status status, const char *reason)
{
	/* A step that failed inside its window never closed it: nothing it started runs on. */
	probes_stop(c->probes);
	c->end(c->end_arg, status, reason);
}

void
step_ctx_enter(struct step_ctx *c, enum sweep_phase ph, uint64_t now)
{
	c->live->phase = ph;
	c->phase_ns = now;
	c->live->phase_s = 0;
}

void
step_ctx_rate(struct step_ctx *c, double rate)
{
	c->live->rate = rate;
	c->live->have_rate = true;
}

bool
step_ctx_read_tasks(struct step_ctx *c, struct task_counters *out)
{
	pid_t pids[RUNNER_MAX_WORKERS];
	struct task_counters one;
	char err[ST_ERRLEN];
	int n = 0, i, got = 0;

	if (c->state != NULL && c->kind != NULL && c->kind->task_pids != NULL)
		n = c->kind->task_pids(c, pids, RUNNER_MAX_WORKERS);
	memset(out, 0, sizeof(*out));
	out->have = ~0u;
	if (n > 0 && c->tasks == NULL && (c->tasks = task_reader_new()) == NULL)
		n = 0;
	for (i = 0; i < n; i++) {
		if (task_reader_read(c->tasks, pids[i], &one, err, sizeof(err)) != 0)
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
 * The workload's processes for the wait sampler: a built-in step's (its
 * child, or its worker processes), or an external command's whole tree,
 * since a tool may fork its clients.
 */
static void
step_ctx_find_workload(struct step_ctx *c)
{
	pid_t pids[RUNNER_MAX_WORKERS], *tree = NULL;
	size_t ntree = 0;
	int n = 0;

	if (c->state != NULL && c->kind != NULL && c->kind->task_pids != NULL)
		n = c->kind->task_pids(c, pids, RUNNER_MAX_WORKERS);
	if (n == 1 && !c->kind->per_worker && proc_tree(pids[0], &tree, &ntree) == 0 && ntree > 0) {
		(void)wait_sampler_set_pids(&c->ws, WAIT_WORKLOAD, tree, ntree, false);
		(void)hot_sampler_set_pids(&c->hot, WAIT_WORKLOAD, tree, ntree);
	} else {
		(void)wait_sampler_set_pids(&c->ws, WAIT_WORKLOAD, pids, (size_t)n,
					    c->kind->per_worker && c->s->set.mode == MODE_THREADS);
		(void)hot_sampler_set_pids(&c->hot, WAIT_WORKLOAD, pids, (size_t)n);
	}
	free(tree);
}

void
step_ctx_sample(struct step_ctx *c, uint64_t now)
{
	const pid_t *tp;
	size_t ntp;
	int i;

	if (c->live->phase != PHASE_WARMUP && c->live->phase != PHASE_MEASURING)
		return;
	if (c->ws_pids_ns == 0 || now >= c->ws_pids_ns + FIND_PERIOD_NS) {
		c->ws_pids_ns = now;
		step_ctx_find_workload(c);
		if (c->target != NULL) {
			/* in the window, a pass finds the processes and books them */
			if (c->live->phase == PHASE_MEASURING && target_pass_due(c->target, now)) {
				target_window_pass(c->target, now);
				c->tg_pass_ns = now;
				tp = target_found(c->target, &ntp);
			} else
				tp = target_find(c->target, &ntp);
			(void)wait_sampler_set_pids(&c->ws, WAIT_TARGET, tp, ntp, false);
			(void)hot_sampler_set_pids(&c->hot, WAIT_TARGET, tp, ntp);
		}
	}
	wait_sampler_tick(&c->ws, &c->waits, now);
	step_ctx_step(c)->wait_read_ms = (double)c->ws.worst_ns / 1e6;
	for (i = 0; c->live->phase == PHASE_MEASURING && i < c->ncoll; i++) {
		if (c->coll[i]->tick != NULL)
			c->coll[i]->tick(c, c->cstate[i], now);
	}
}

void
step_ctx_tick_done(struct step_ctx *c)
{
	c->late_idx =
		c->live->phase == PHASE_WARMUP || c->live->phase == PHASE_MEASURING ? c->idx : -1;
}

void
step_ctx_note_late(struct step_ctx *c, uint64_t late_ns, uint64_t busy_ns)
{
	struct step *st;
	double ms = (double)late_ns / 1e6, busy = (double)busy_ns / 1e6;

	c->tick_late_ns = late_ns;
	/*
	 * A tick after one that ended with this step measuring: a window's end
	 * (its counters read whole, its paths and locks named) comes after the
	 * window closed, and may hold the next tick up, the next step's first
	 * one too when the same tick launched it, without a reading being late.
	 */
	if (c->idx < 0 || c->idx >= c->s->nsteps || c->late_idx != c->idx)
		return;
	st = step_ctx_step(c);
	if (ms > st->tick_late_ms)
		st->tick_late_ms = ms;
	if (busy > st->tick_busy_ms)
		st->tick_busy_ms = busy;
}

void
step_ctx_window_begin(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy)
{
	int i;

	c->w0_ns = now;
	c->w0_ops = ops;
	c->w0_wait = wait;
	c->w0_busy = busy;
	if (c->cpu != NULL)
		raw_sample_copy(&c->w0_raw, c->cpu);
	c->w0_have_task = step_ctx_read_tasks(c, &c->w0_task);
	wait_sampler_window(&c->ws, true, now);
	c->w0_reads = c->ws.reads;
	for (i = 0; i < c->ncoll; i++) {
		if (c->coll[i]->begin != NULL)
			c->coll[i]->begin(c, c->cstate[i], now);
	}
	step_ctx_step(c)->warmup_s = (double)(now - c->go_ns) / 1e9;
	step_ctx_enter(c, PHASE_MEASURING, now);
}

/*
 * The window from its start to now: the counts, the workers' task counters
 * (read now), and the system CPU delta into d once a later sample exists.
 */
static void
step_ctx_edges(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy,
	       struct sample_delta *d, struct window_edges *e)
{
	const struct raw_sample *raw = c->cpu;

	memset(e, 0, sizeof(*e));
	e->seconds = (double)(now - c->w0_ns) / 1e9;
	e->ops = ops - c->w0_ops;
	/* An external command: the threads summed (pgbench -c 64 -j 4 runs 4, not 64). */
	e->workers = c->kind != NULL && c->kind->per_worker ? c->n : 0;
	e->wait_ns = wait - c->w0_wait;
	e->busy_ns = busy - c->w0_busy;
	e->t0 = c->w0_task;
	e->have_tasks = c->w0_have_task && step_ctx_read_tasks(c, &e->t1);
	if (raw != NULL && c->w0_raw.mono_ns != 0 && raw->mono_ns > c->w0_raw.mono_ns &&
	    sample_delta_compute(d, &c->w0_raw, raw) == 0)
		e->sys = d;
}

void
step_ctx_window_end(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait, uint64_t busy)
{
	struct step *st = step_ctx_step(c);
	struct sample_delta d;
	struct window_edges e;
	int i;

	if (c->closing != NULL)
		c->closing(c->end_arg);
	sample_delta_init(&d);
	step_ctx_edges(c, now, ops, wait, busy, &d, &e);
	if (e.sys != NULL)
		step_set_cpus(st, &d);
	if (c->w0_have_task && c->have_last_task &&
	    (!e.have_tasks ||
	     e.t1.user_ns + e.t1.sys_ns < c->last_task.user_ns + c->last_task.sys_ns)) {
		/* An external command has exited: its last live reading closes the window. */
		e.t1 = c->last_task;
		e.have_tasks = true;
	}
	contention_compute(&st->ct, &e);
	sample_delta_free(&d);
	wait_sampler_window(&c->ws, false, now);
	st->wait_reads = (int64_t)(c->ws.reads - c->w0_reads);
	c->close.seconds = e.seconds;
	c->close.ops = e.ops;
	c->close.counted = e.sys != NULL;
	/* In reverse: the last begun ends first, so the window's edges nest. */
	for (i = c->ncoll - 1; i >= 0; i--) {
		if (c->coll[i]->end != NULL)
			c->coll[i]->end(c, c->cstate[i], st, &st->slot[i], now);
	}

	st->window_s = e.seconds;
	st->ops = e.ops;
	st->ops_s = e.seconds > 0 ? (double)e.ops / e.seconds : 0;
	stats_compute(&st->st, st->iv, (size_t)st->niv);
}

/*
 * The target's figures over the window so far, on the tick its processes
 * were booked (so the book and the window end at one time): the live view's
 * and the stream's, never the step's.
 */
static void
step_ctx_live_target(struct step_ctx *c, uint64_t now, uint64_t ops)
{
	static const struct contention none;

	if (c->target == NULL || c->live->phase != PHASE_MEASURING || c->tg_pass_ns != now ||
	    now <= c->w0_ns)
		return;
	target_window_figures(c->target, (double)(now - c->w0_ns) / 1e9, ops - c->w0_ops,
			      c->live->have_ct ? &c->live->ct : &none, c->s->host.ncpus,
			      &c->live->tg);
	c->live->have_tg = true;
}

/*
 * Room this tick for the live contention's reading of every thread (15-30 ms
 * among 1024 computing workers; one begun on a late tick made the next 28.6
 * ms late): fired under half an interval late, less its last cost (under a
 * quarter, the first time).  A live view may wait; the window's edges may not.
 */
static bool
step_ctx_live_room(const struct step_ctx *c)
{
	uint64_t half = (uint64_t)(c->s->set.interval_s * 1e9) / 2;

	return c->tick_late_ns + c->live_tasks_cost_ns < half &&
	       (c->live_tasks_cost_ns > 0 || c->tick_late_ns < half / 2);
}

void
step_ctx_live_contention(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait,
			 uint64_t busy)
{
	struct window_edges e;
	uint64_t c0;

	step_ctx_live_target(c, now, ops);
	if (c->live->phase != PHASE_MEASURING || now < c->live_ct_ns + LIVE_CT_PERIOD_NS)
		return;
	c->live_ct_ns = now;
	/*
	 * Every thread's task counters (three files each) cost 5 ms a second at 256
	 * threads: read at most 0.05% of the time (LIVE_CT_SHARE), as the frequency is.
	 */
	if (now >= c->live_tasks_ns && step_ctx_live_room(c)) {
		c0 = self_cpu_ns();
		step_ctx_edges(c, now, ops, wait, busy, &c->live_delta, &e);
		contention_compute(&c->live->ct, &e);
		c->live->have_ct = true;
		c->live_tasks_cost_ns = self_cpu_ns() - c0;
		c->live_tasks_ns = now + c->live_tasks_cost_ns * LIVE_CT_SHARE;
	}
	free(c->live->waits);
	if (wait_tally_shares(&c->waits, WAITS_PER_FAMILY, &c->live->waits, &c->live->nwaits) != 0)
		c->live->nwaits = 0; /* only the live view goes without, until the next refresh */
}

/*
 * Whether a window of `elapsed` ns has reached `target` seconds, to the
 * nearest tick: a tick a hair early would otherwise add a whole interval.
 * Rates are divided by the measured window, so ending at the nearest tick
 * costs nothing in honesty.
 */
static bool
step_ctx_reached(const struct step_ctx *c, uint64_t elapsed, double target)
{
	return (double)elapsed / 1e9 + c->s->set.interval_s / 2 >= target;
}

/*
 * A fixed-length step past its length whose CI is still wide (stats_is_wide)
 * measures on, up to STATS_WIDE_EXTEND times its length: its mean is not
 * known yet, and more intervals are the one cure.
 */
static bool
step_ctx_extend_wide(struct step_ctx *c, uint64_t elapsed)
{
	const struct sweep_settings *set = &c->s->set;
	struct step *st = step_ctx_step(c);
	struct stats stt;

	if (set->stable_pct > 0 ||
	    step_ctx_reached(c, elapsed, STATS_WIDE_EXTEND * set->duration_s))
		return false;
	if (stats_compute(&stt, st->iv, (size_t)st->niv) != 0)
		return false;
	return stats_is_wide(&stt);
}

/* A fixed duration (longer while the CI is wide), or a tight CI after the minimum time. */
bool
step_ctx_window_complete(struct step_ctx *c, uint64_t now)
{
	const struct sweep_settings *set = &c->s->set;
	struct step *st = step_ctx_step(c);
	double w = (double)(now - c->w0_ns) / 1e9;
	struct stats stt;

	if (step_ctx_reached(c, now - c->w0_ns, set->duration_s))
		return !step_ctx_extend_wide(c, now - c->w0_ns);
	if (set->stable_pct <= 0 || w < set->min_measure_s || st->niv < 3)
		return false;
	if (stats_compute(&stt, st->iv, (size_t)st->niv) != 0)
		return false;
	return stats_is_stable(&stt, set->stable_pct);
}

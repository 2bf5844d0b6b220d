/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A built-in workload's step: the runner forks the child and its workers;
 * each tick reads their slots, turns the count into an interval rate, and
 * moves through warm-up, measurement and stop.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/fairness.h"
#include "scaletop/stats.h"
#include "runner.h"
#include "step_ctx.h"

/* Per worker queued for each CPU: the time it may need to get one, see stop and exit. */
#define BUILTIN_GRACE_PER_QUEUED_NS UINT64_C(10000000)

/* The step's own state, c->state. */
struct builtin_step {
	struct runner *r;
	uint64_t last_ns; /* previous tick, for interval rates */
	uint64_t last_ops;
	uint64_t *w0_wops; /* each worker's count at the window's start, for its fairness */
	int nw;
	/* Stall detection: total ops (while starting: workers at the line), and when it moved. */
	uint64_t moved_ops, moved_ns;
	bool windowed; /* the window has closed: the workers' latency is its */
};

/*
 * The grace workers get to return after stop.  Far beyond the CPUs (1024
 * workers on 2) each waits its turn for a CPU, and for the workload's lock,
 * before it can even see the flag: the default alone would call them stuck.
 */
static uint64_t
builtin_grace(int n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpu < 1)
		ncpu = 1;
	return RUNNER_GRACE_NS + (uint64_t)(n / ncpu) * BUILTIN_GRACE_PER_QUEUED_NS;
}

static int
builtin_start(struct step_ctx *c, char *err, size_t errlen)
{
	struct builtin_step *b = c->state;
	struct runner_config rc = {
		.wl = c->cfg->wl,
		.args = &c->cfg->args,
		.sweep = c->wls,
		.nworkers = c->n,
		.mode = c->s->set.mode == MODE_PROCESSES ? RUNNER_PROCESSES : RUNNER_THREADS,
		.grace_ns = builtin_grace(c->n),
		.latency = !c->s->set.no_latency,
	};

	b->w0_wops = calloc((size_t)c->n, sizeof(*b->w0_wops));
	if (b->w0_wops == NULL)
		return st_error(err, errlen, "N=%d: out of memory", c->n);
	b->nw = c->n;
	b->r = runner_start(&rc, err, errlen);
	return b->r != NULL ? 0 : -1;
}

/* The step's end, whatever ended it: the runner is reaped and freed here. */
static void
builtin_close(struct step_ctx *c, enum step_status status, const char *reason)
{
	struct builtin_step *b = c->state;
	char why[RUNNER_REASONLEN];

	/* The reason may be the runner's own string, which runner_free releases. */
	snprintf(why, sizeof(why), "%s", reason != NULL ? reason : "");
	/* The workers' histograms are merged once they have all returned: after the window. */
	if (b->windowed && runner_latency(b->r, RUNNER_LAT_OPS) != NULL)
		step_ctx_lat_late(c, runner_latency(b->r, RUNNER_LAT_OPS),
				  runner_latency(b->r, RUNNER_LAT_SYNC));
	runner_free(b->r);
	b->r = NULL;
	step_ctx_end(c, status, reason != NULL ? why : NULL);
}

/*
 * true when the step as a whole has made no progress for --stall seconds.
 * One worker that makes none is starved, and the step's fairness says so:
 * unfair locks at N well above the CPUs do that, and it is what the user
 * came to see.
 */
static bool
builtin_stalled(struct step_ctx *c, uint64_t now, uint64_t ops, char *why, size_t len)
{
	struct builtin_step *b = c->state;
	double limit = c->s->set.stall_s;

	if (ops != b->moved_ops || b->moved_ns == 0) {
		b->moved_ops = ops;
		b->moved_ns = now;
		return false;
	}
	if (limit <= 0 || (double)(now - b->moved_ns) / 1e9 < limit)
		return false;
	snprintf(why, len, "no worker made progress for %.1f s (--stall)", limit);
	return true;
}

/* Each worker's count now: the window's opening edge for its fairness. */
static void
builtin_fair_begin(struct builtin_step *b)
{
	int i;

	for (i = 0; i < b->nw; i++)
		b->w0_wops[i] = runner_worker_ops(b->r, i);
}

/* The window's closing edge: how evenly the workers shared its operations. */
static void
builtin_fair_end(struct step_ctx *c)
{
	struct builtin_step *b = c->state;
	uint64_t *d = calloc((size_t)b->nw, sizeof(*d));
	uint64_t ops;
	int i;

	for (i = 0; d != NULL && i < b->nw; i++) {
		ops = runner_worker_ops(b->r, i);
		d[i] = ops > b->w0_wops[i] ? ops - b->w0_wops[i] : 0;
	}
	/* Without memory the step keeps no fairness figures (have stays false): no fault. */
	if (d != NULL)
		(void)fairness_compute(&step_ctx_step(c)->fair, d, b->nw);
	free(d);
}

static void
builtin_measure(struct step_ctx *c, uint64_t now, const struct runner_status *st)
{
	struct builtin_step *b = c->state;
	double dt = (double)(now - b->last_ns) / 1e9;
	double rate = dt > 0 ? (double)(st->ops - b->last_ops) / dt : 0;

	step_ctx_rate(c, rate);
	b->last_ns = now;
	b->last_ops = st->ops;
	if (c->live->phase == PHASE_WARMUP) {
		/*
		 * Never shorter than asked: warm-up ends at the first tick past it
		 * at which an operation has been counted.  A thousand workers can
		 * take longer than the warm-up to get going (--stall bounds it).
		 */
		if ((double)(now - c->go_ns) / 1e9 >= c->s->set.warmup_s && st->ops > 0) {
			step_ctx_window_begin(c, now, st->ops, st->wait_ns, st->busy_ns);
			builtin_fair_begin(b);
			runner_latency_on(b->r, true);
		}
		return;
	}
	step_add_interval(step_ctx_step(c), rate);
	step_ctx_live_contention(c, now, st->ops, st->wait_ns, st->busy_ns);
	if (!step_ctx_window_complete(c, now))
		return;
	runner_latency_on(b->r, false);
	step_ctx_window_end(c, now, st->ops, st->wait_ns, st->busy_ns);
	builtin_fair_end(c);
	b->windowed = true;
	runner_stop(b->r);
	step_ctx_enter(c, PHASE_STOPPING, now);
}

/* Stopping: the figures are in; the step is ok unless the workers fail to stop. */
static void
builtin_stopping(struct step_ctx *c, enum runner_state state, const struct runner_status *st)
{
	const struct sweep_settings *set = &c->s->set;
	struct step *step = step_ctx_step(c);
	char why[200];

	if (state == RUNNER_FAILED) {
		builtin_close(c, STEP_FAILED, st->reason);
		return;
	}
	if (state != RUNNER_DONE)
		return;
	if (set->stable_pct > 0 && !stats_is_stable(&step->st, set->stable_pct)) {
		snprintf(why, sizeof(why), "95%% CI %.1f%% of mean after %.1f s, target %.1f%%",
			 step->st.mean > 0 ? 100.0 * step->st.ci95_ac / step->st.mean : 0.0,
			 step->window_s, set->stable_pct);
		builtin_close(c, STEP_UNSTABLE, why);
		return;
	}
	builtin_close(c, STEP_OK, NULL);
}

/*
 * Workers that stop arriving at the start line (a hung step_init, a stuck
 * fork) are a stall too; a start that is slow but moving is not.
 */
static void
builtin_check_start(struct step_ctx *c, uint64_t now, int ready)
{
	struct builtin_step *b = c->state;
	double limit = c->s->set.stall_s;
	char why[200];

	if (c->live->phase != PHASE_STARTING)
		return;
	if (b->moved_ns == 0 || (uint64_t)ready != b->moved_ops) {
		b->moved_ops = (uint64_t)ready;
		b->moved_ns = b->moved_ns == 0 ? c->start_ns : now;
	}
	if (limit <= 0 || (double)(now - b->moved_ns) / 1e9 < limit)
		return;
	snprintf(why, sizeof(why),
		 "the workers did not start: %d of %d at the start line, none more for %.1f s "
		 "(--stall)",
		 ready, c->n, limit);
	runner_abort(b->r);
	builtin_close(c, STEP_FAILED, why);
}

/* The workers are released: warm-up starts at their release, not at this tick. */
static void
builtin_released(struct step_ctx *c, uint64_t go_ns)
{
	struct builtin_step *b = c->state;

	b->moved_ns = 0; /* the stall clock now follows operations, not arrivals */
	c->go_ns = go_ns;
	b->last_ns = go_ns;
	b->last_ops = 0;
	step_ctx_step(c)->start_s = session_time(c->s, go_ns);
	step_ctx_enter(c, PHASE_WARMUP, go_ns);
}

static void
builtin_tick(struct step_ctx *c, uint64_t now)
{
	struct builtin_step *b = c->state;
	struct runner_status st;
	enum runner_state state = runner_poll(b->r, &st);
	char why[200];

	if (c->live->phase == PHASE_STOPPING) {
		builtin_stopping(c, state, &st);
		return;
	}
	if (state == RUNNER_FAILED || state == RUNNER_DONE) {
		builtin_close(c, STEP_FAILED,
			      state == RUNNER_FAILED ? st.reason
						     : "workers returned before the step ended");
		return;
	}
	if (state != RUNNER_RUNNING) {
		builtin_check_start(c, now, st.ready);
		return;
	}
	if (c->live->phase == PHASE_STARTING)
		builtin_released(c, st.go_ns);
	if (builtin_stalled(c, now, st.ops, why, sizeof(why))) {
		runner_abort(b->r);
		builtin_close(c, STEP_FAILED, why);
		return;
	}
	builtin_measure(c, now, &st);
}

/* Quitting mid-step: keep what the window measured so far, then end the child. */
static void
builtin_abort(struct step_ctx *c)
{
	struct builtin_step *b = c->state;
	struct runner_status st;

	if (b->r == NULL)
		return;
	if (c->live->phase == PHASE_MEASURING && runner_poll(b->r, &st) == RUNNER_RUNNING) {
		step_ctx_window_end(c, mono_now_ns(), st.ops, st.wait_ns, st.busy_ns);
		builtin_fair_end(c);
	}
	runner_abort(b->r);
	runner_free(b->r);
	b->r = NULL;
}

/*
 * SIGSTOP holds the whole step (child and workers); on SIGCONT the step
 * starts its warm-up again, with its intervals and stall clock reset.
 */
static void
builtin_pause(struct step_ctx *c, bool pause, uint64_t now)
{
	struct builtin_step *b = c->state;
	struct runner_status st;

	if (b->r == NULL)
		return;
	kill(-runner_pgid(b->r), pause ? SIGSTOP : SIGCONT);
	if (pause)
		return;
	/* Warm-up again: what was timed before the hold is not the window's. */
	runner_latency_on(b->r, false);
	/* A held step could make no progress: it is not stalled for that. */
	if (b->moved_ns != 0)
		b->moved_ns = now;
	if (c->live->phase == PHASE_STARTING || c->live->phase == PHASE_STOPPING)
		return;
	runner_poll(b->r, &st);
	step_ctx_step(c)->niv = 0;
	c->go_ns = b->last_ns = now;
	b->last_ops = st.ops;
	step_ctx_enter(c, PHASE_WARMUP, now);
}

static int
builtin_task_pids(struct step_ctx *c, pid_t *pids, int max)
{
	struct builtin_step *b = c->state;

	return b->r != NULL ? runner_task_pids(b->r, pids, max) : 0;
}

static void
builtin_release(struct step_ctx *c)
{
	struct builtin_step *b = c->state;

	runner_free(b->r);
	b->r = NULL;
	free(b->w0_wops);
	b->w0_wops = NULL;
}

const struct step_kind builtin_step_kind = {
	.name = "built-in",
	.size = sizeof(struct builtin_step),
	.per_worker = true,
	.start = builtin_start,
	.tick = builtin_tick,
	.pause = builtin_pause,
	.abort = builtin_abort,
	.task_pids = builtin_task_pids,
	.release = builtin_release,
};

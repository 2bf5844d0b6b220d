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
#include "sweep_priv.h"

/* Per worker queued for each CPU: the time it may need to get one, see stop and exit. */
#define BUILTIN_GRACE_PER_QUEUED_NS UINT64_C(10000000)

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

int
builtin_step_start(struct sweep *sw, char *err, size_t errlen)
{
	struct runner_config rc = {
		.wl = sw->cfg.wl,
		.args = &sw->cfg.args,
		.sweep = &sw->wls,
		.nworkers = sw->run.n,
		.mode = sw->s->set.mode == MODE_PROCESSES ? RUNNER_PROCESSES : RUNNER_THREADS,
		.grace_ns = builtin_grace(sw->run.n),
	};

	sw->run.w0_wops = calloc((size_t)sw->run.n, sizeof(*sw->run.w0_wops));
	if (sw->run.w0_wops == NULL)
		return st_error(err, errlen, "N=%d: out of memory", sw->run.n);
	sw->run.nw = sw->run.n;
	sw->run.r = runner_start(&rc, err, errlen);
	return sw->run.r != NULL ? 0 : -1;
}

/* The step's end, whatever ended it: the runner is reaped and freed here. */
static void
builtin_step_close(struct sweep *sw, enum step_status status, const char *reason)
{
	char why[RUNNER_REASONLEN];

	/* The reason may be the runner's own string, which runner_free releases. */
	snprintf(why, sizeof(why), "%s", reason != NULL ? reason : "");
	runner_free(sw->run.r);
	sw->run.r = NULL;
	sweep_step_end(sw, status, reason != NULL ? why : NULL);
}

/*
 * true when the step as a whole has made no progress for --stall seconds.
 * One worker that makes none is starved, and the step's fairness says so:
 * unfair locks at N well above the CPUs do that, and it is what the user
 * came to see.
 */
static bool
builtin_stalled(struct sweep *sw, uint64_t now, uint64_t ops, char *why, size_t len)
{
	struct step_run *run = &sw->run;
	double limit = sw->s->set.stall_s;

	if (ops != run->moved_ops || run->moved_ns == 0) {
		run->moved_ops = ops;
		run->moved_ns = now;
		return false;
	}
	if (limit <= 0 || (double)(now - run->moved_ns) / 1e9 < limit)
		return false;
	snprintf(why, len, "no worker made progress for %.1f s (--stall)", limit);
	return true;
}

/* Each worker's count now: the window's opening edge for its fairness. */
static void
builtin_fair_begin(struct sweep *sw)
{
	for (int i = 0; i < sw->run.nw; i++)
		sw->run.w0_wops[i] = runner_worker_ops(sw->run.r, i);
}

/* The window's closing edge: how evenly the workers shared its operations. */
static void
builtin_fair_end(struct sweep *sw)
{
	struct step_run *run = &sw->run;
	uint64_t *d = calloc((size_t)run->nw, sizeof(*d));

	for (int i = 0; d != NULL && i < run->nw; i++) {
		uint64_t ops = runner_worker_ops(run->r, i);

		d[i] = ops > run->w0_wops[i] ? ops - run->w0_wops[i] : 0;
	}
	/* Without memory the step keeps no fairness figures (have stays false): no fault. */
	if (d != NULL)
		(void)fairness_compute(&sweep_step(sw)->fair, d, run->nw);
	free(d);
}

static void
builtin_measure(struct sweep *sw, uint64_t now, const struct runner_status *st)
{
	struct step_run *run = &sw->run;
	double dt = (double)(now - run->last_ns) / 1e9;
	double rate = dt > 0 ? (double)(st->ops - run->last_ops) / dt : 0;

	sw->live.rate = rate;
	sw->live.have_rate = true;
	run->last_ns = now;
	run->last_ops = st->ops;
	if (sw->live.phase == PHASE_WARMUP) {
		/* Never shorter than asked: warm-up ends at the first tick past it. */
		if ((double)(now - run->go_ns) / 1e9 >= sw->s->set.warmup_s) {
			sweep_window_begin(sw, now, st->ops, st->wait_ns, st->busy_ns);
			builtin_fair_begin(sw);
		}
		return;
	}
	step_add_interval(sweep_step(sw), rate);
	sweep_live_contention(sw, now, st->ops, st->wait_ns, st->busy_ns);
	if (!sweep_window_complete(sw, now))
		return;
	sweep_window_end(sw, now, st->ops, st->wait_ns, st->busy_ns);
	builtin_fair_end(sw);
	runner_stop(run->r);
	sweep_enter(sw, PHASE_STOPPING, now);
}

/* Stopping: the figures are in; the step is ok unless the workers fail to stop. */
static void
builtin_stopping(struct sweep *sw, enum runner_state state, const struct runner_status *st)
{
	const struct sweep_settings *set = &sw->s->set;
	struct step *step = sweep_step(sw);
	char why[200];

	if (state == RUNNER_FAILED) {
		builtin_step_close(sw, STEP_FAILED, st->reason);
		return;
	}
	if (state != RUNNER_DONE)
		return;
	if (set->stable_pct > 0 && !stats_is_stable(&step->st, set->stable_pct)) {
		snprintf(why, sizeof(why), "95%% CI %.1f%% of mean after %.1f s, target %.1f%%",
			 step->st.mean > 0 ? 100.0 * step->st.ci95_ac / step->st.mean : 0.0,
			 step->window_s, set->stable_pct);
		builtin_step_close(sw, STEP_UNSTABLE, why);
		return;
	}
	builtin_step_close(sw, STEP_OK, NULL);
}

/*
 * Workers that stop arriving at the start line (a hung step_init, a stuck
 * fork) are a stall too; a start that is slow but moving is not.
 */
static void
builtin_check_start(struct sweep *sw, uint64_t now, int ready)
{
	struct step_run *run = &sw->run;
	double limit = sw->s->set.stall_s;
	char why[200];

	if (sw->live.phase != PHASE_STARTING)
		return;
	if (run->moved_ns == 0 || (uint64_t)ready != run->moved_ops) {
		run->moved_ops = (uint64_t)ready;
		run->moved_ns = run->moved_ns == 0 ? run->start_ns : now;
	}
	if (limit <= 0 || (double)(now - run->moved_ns) / 1e9 < limit)
		return;
	snprintf(why, sizeof(why),
		 "the workers did not start: %d of %d at the start line, none more for %.1f s "
		 "(--stall)", ready, run->n, limit);
	runner_abort(run->r);
	builtin_step_close(sw, STEP_FAILED, why);
}

void
builtin_step_tick(struct sweep *sw, uint64_t now)
{
	struct runner_status st;
	enum runner_state state = runner_poll(sw->run.r, &st);
	char why[200];

	if (sw->live.phase == PHASE_STOPPING) {
		builtin_stopping(sw, state, &st);
		return;
	}
	if (state == RUNNER_FAILED || state == RUNNER_DONE) {
		builtin_step_close(sw, STEP_FAILED,
				   state == RUNNER_FAILED ? st.reason
							  : "workers returned before the step ended");
		return;
	}
	if (state != RUNNER_RUNNING) {
		builtin_check_start(sw, now, st.ready);
		return;
	}
	if (sw->live.phase == PHASE_STARTING) {
		sw->run.moved_ns = 0; /* the stall clock now follows operations, not arrivals */
		sw->run.go_ns = st.go_ns;
		sw->run.last_ns = st.go_ns;
		sw->run.last_ops = 0;
		sweep_step(sw)->start_s = session_time(sw->s, st.go_ns);
		sweep_enter(sw, PHASE_WARMUP, st.go_ns);
	}
	if (builtin_stalled(sw, now, st.ops, why, sizeof(why))) {
		runner_abort(sw->run.r);
		builtin_step_close(sw, STEP_FAILED, why);
		return;
	}
	builtin_measure(sw, now, &st);
}

/* Quitting mid-step: keep what the window measured so far, then end the child. */
void
builtin_step_abort(struct sweep *sw)
{
	struct runner_status st;

	if (sw->run.r == NULL)
		return;
	if (sw->live.phase == PHASE_MEASURING &&
	    runner_poll(sw->run.r, &st) == RUNNER_RUNNING) {
		sweep_window_end(sw, mono_now_ns(), st.ops, st.wait_ns, st.busy_ns);
		builtin_fair_end(sw);
	}
	runner_abort(sw->run.r);
	runner_free(sw->run.r);
	sw->run.r = NULL;
}

/*
 * SIGSTOP holds the whole step (child and workers); on SIGCONT the step
 * starts its warm-up again, with its intervals and stall clock reset.
 */
void
builtin_step_pause(struct sweep *sw, bool pause, uint64_t now)
{
	struct step_run *run = &sw->run;
	struct runner_status st;

	if (run->r == NULL)
		return;
	kill(-runner_pgid(run->r), pause ? SIGSTOP : SIGCONT);
	if (pause)
		return;
	/* A held step could make no progress: it is not stalled for that. */
	if (run->moved_ns != 0)
		run->moved_ns = now;
	if (sw->live.phase == PHASE_STARTING || sw->live.phase == PHASE_STOPPING)
		return;
	runner_poll(run->r, &st);
	sweep_step(sw)->niv = 0;
	run->go_ns = run->last_ns = now;
	run->last_ops = st.ops;
	sweep_enter(sw, PHASE_WARMUP, now);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An external command's step: {n}, {duration} and {latlog} go into its argv,
 * it runs in its own process group, and its throughput is read from its
 * periodic output lines as they arrive (ext_timing.h says which count), or
 * with --parse elapsed from its run time; its latency from those lines, a
 * histogram it prints, or the log it writes to {latlog} (ext_latlog.h).
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"
#include "scaletop/spawn.h"
#include "scaletop/stats.h"
#include "ext_latlog.h"
#include "ext_timing.h"
#include "ext_window.h"
#include "step_ctx.h"

/* A command gets this long past warm-up + duration before it counts as hung. */
#define EXTERNAL_GRACE_S 30.0

/* How long a command whose output has ended gets to exit before the next tick looks. */
#define EXTERNAL_EXIT_WAIT_NS 20000000u

/* The step's own state, c->state. */
struct external_step {
	struct spawn_proc proc;
	bool have_proc;
	char **argv;
	struct parser *parser[2]; /* per stream: pgbench -P reports on stderr, sysbench on stdout */
	struct ext_timing timing; /* places its interval lines in time */
	double win_ops, win_s;    /* sum of rate*dt and dt over window intervals */
	double last_rate, last_end; /* the latest interval line, counted or not */
	bool have_last_line;
	uint64_t exit_ns;      /* when the command was seen to exit */
	struct ext_window win; /* tick marks, and the counted intervals' span */
	struct parse_summary summary;
	bool have_summary;
	char last_err[200];       /* its last stderr line that was no report, for failure reasons */
	struct ext_latlog latlog; /* {latlog}'s folder and what was read from it */
};

static void external_on_output(struct loop *l, int fd, short revents, void *arg);
static void external_release(struct step_ctx *c);

static void
external_watch(struct step_ctx *c)
{
	struct external_step *x = c->state;
	int i;

	for (i = 0; i < 2; i++) {
		if (x->proc.fd[i] >= 0)
			loop_add_fd(c->loop, x->proc.fd[i], POLLIN, external_on_output, c);
	}
}

static void
external_unwatch(struct step_ctx *c)
{
	struct external_step *x = c->state;
	int i;

	for (i = 0; i < 2; i++) {
		if (x->proc.fd[i] >= 0)
			loop_del_fd(c->loop, x->proc.fd[i]);
	}
}

static bool
external_elapsed(const struct step_ctx *c)
{
	return strcmp(c->cfg->parser, "elapsed") == 0;
}

static int
external_start(struct step_ctx *c, char *err, size_t errlen)
{
	const struct sweep_settings *set = &c->s->set;
	/* One second more: tools such as sysbench leave out the report of their last second. */
	long duration = (long)ceil(set->warmup_s + set->duration_s) + 1;
	struct external_step *x = c->state;
	struct spawn_vars vars = { c->n, external_elapsed(c) ? -1 : duration, NULL };
	int i;

	if (spawn_argv_uses((const char *const *)c->cfg->cmd, "latlog")) {
		if (ext_latlog_make(&x->latlog, err, errlen) != 0)
			return -1;
		vars.latlog = x->latlog.prefix;
	}
	if (spawn_argv_fill((const char *const *)c->cfg->cmd, &vars, &x->argv, err, errlen) != 0)
		goto fail;
	for (i = 0; i < 2 && !external_elapsed(c); i++) {
		x->parser[i] = parser_new(c->cfg->parser, c->cfg->parse_arg, err, errlen);
		if (x->parser[i] == NULL ||
		    (c->cfg->parse_lat != NULL &&
		     parser_set_latency(x->parser[i], c->cfg->parse_lat, err, errlen) != 0))
			goto fail;
	}
	ext_timing_init(&x->timing, set->warmup_s, set->duration_s);
	if (external_elapsed(c))
		x->win.have_tree0 = ext_children_usage(&x->win.tree0);
	/* The run starts when it is asked for: a monitor preempted after the fork must not start
	 * its clock late. */
	c->go_ns = mono_now_ns();
	ext_latlog_clock(&x->latlog);
	if (spawn_start(x->argv, &x->proc, err, errlen) != 0)
		goto fail;
	x->have_proc = true;
	step_ctx_step(c)->start_s = session_time(c->s, c->go_ns);
	external_watch(c);
	ext_marks_note(&x->win, c, c->go_ns);
	step_ctx_enter(c, PHASE_WARMUP, c->go_ns);
	/* A timed run has no warm-up: all of it is measured. */
	if (external_elapsed(c))
		step_ctx_window_begin(c, c->go_ns, 0, 0, 0);
	return 0;
fail:
	external_release(c);
	return -1;
}

/* The session's unit is what one operation is: "tps" counts transactions, "writes/s" writes. */
static void
external_set_unit(struct step_ctx *c, const char *rate_unit)
{
	static const char *const names[][2] = {
		{ "tps", "transactions" },
		{ "eps", "events" },
		{ "qps", "queries" },
	};
	size_t i, len = strlen(rate_unit);
	char *unit = c->s->wl.unit;

	if (len == 0)
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(rate_unit, names[i][0]) == 0) {
			snprintf(unit, sizeof(c->s->wl.unit), "%s", names[i][1]);
			return;
		}
	}
	if (len > 2 && strcmp(rate_unit + len - 2, "/s") == 0)
		len -= 2;
	snprintf(unit, sizeof(c->s->wl.unit), "%.*s", (int)len, rate_unit);
}

/* One interval line, which arrived now: counted if it lies in the window asked for. */
static void
external_interval(struct step_ctx *c, const struct parse_interval *iv)
{
	struct external_step *x = c->state;
	double arrival = (double)(mono_now_ns() - c->go_ns) / 1e9;
	struct ext_span sp;

	step_ctx_rate(c, iv->rate);
	x->last_rate = iv->rate;
	x->last_end = arrival;
	x->have_last_line = true;
	external_set_unit(c, iv->unit);
	if (!ext_timing_place(&x->timing, iv, arrival, &sp))
		return;
	step_add_interval(step_ctx_step(c), iv->rate);
	if (iv->have & PARSE_HAVE_LAT)
		step_ctx_lat_interval(c, iv->lat_ms, iv->lat_pct);
	x->win_ops += iv->rate * (sp.end - sp.start);
	x->win_s += sp.end - sp.start;
	if (!x->win.have_mono)
		x->win.mono0 = sp.mono_start;
	x->win.mono1 = sp.mono_end;
	x->win.have_mono = true;
}

/* Takes what the stream's parser has found; the number of events. */
static int
external_drain_events(struct step_ctx *c, int stream)
{
	struct external_step *x = c->state;
	struct parse_event ev;
	int n = 0;

	while (parser_next(x->parser[stream], &ev)) {
		n++;
		if (ev.type == PARSE_INTERVAL)
			external_interval(c, &ev.interval);
		else if (ev.type == PARSE_SUMMARY) {
			x->summary = ev.summary;
			x->have_summary = true;
		}
	}
	return n;
}

/*
 * Both streams are parsed, each by a parser of its own so that one stream's
 * lines cannot break the other's multi-line report: pgbench prints its -P
 * progress on stderr and its summary on stdout.
 */
static void
external_line(void *arg, int stream, const char *line)
{
	struct step_ctx *c = arg;
	struct external_step *x = c->state;
	struct parser *p = x->parser[stream];

	if (p != NULL) {
		parser_feed(p, line, strlen(line));
		parser_feed(p, "\n", 1);
	}
	if ((p == NULL || external_drain_events(c, stream) == 0) && stream == SPAWN_STDERR &&
	    line[0] != '\0') {
		/* Kept for failure reasons, which every view prints: no terminal escapes. */
		snprintf(x->last_err, sizeof(x->last_err), "%s", line);
		st_printable(x->last_err);
	}
}

static void external_finished(struct step_ctx *c, uint64_t now);

/*
 * Once both pipes are at end of file the command is exiting: it is reaped
 * here rather than at the next tick, so a timed run ends when it ends and
 * not up to a tick later.
 */
static void
external_on_output(struct loop *l, int fd, short revents, void *arg)
{
	struct step_ctx *c = arg;
	struct external_step *x = c->state;

	external_unwatch(c);
	if (spawn_read(&x->proc, external_line, c) == 0 &&
	    spawn_wait(&x->proc, EXTERNAL_EXIT_WAIT_NS)) {
		x->exit_ns = mono_now_ns();
		external_finished(c, x->exit_ns);
		return;
	}
	external_watch(c);
}

static void
external_release(struct step_ctx *c)
{
	struct external_step *x = c->state;
	int i;

	if (x->have_proc) {
		external_unwatch(c);
		spawn_close(&x->proc);
		x->have_proc = false;
	}
	for (i = 0; i < 2; i++) {
		parser_free(x->parser[i]);
		x->parser[i] = NULL;
	}
	spawn_argv_free(x->argv);
	x->argv = NULL;
	ext_marks_free(&x->win);
	ext_latlog_free(&x->latlog);
}

/* A step measured over its whole run, from the start to secs: no intervals. */
static void
external_whole_run(struct step_ctx *c, uint64_t ops, double ops_s, double secs)
{
	struct external_step *x = c->state;
	struct step *st = step_ctx_step(c);

	st->no_intervals = true;
	st->ops = ops;
	st->ops_s = ops_s;
	st->window_s = secs;
	x->win.mono0 = 0;
	x->win.mono1 = secs;
	x->win.have_mono = true;
}

/* A timed run: K operations (one run by default) over its time from start to exit. */
static void
external_timed(struct step_ctx *c)
{
	struct external_step *x = c->state;
	uint64_t ops = c->cfg->elapsed_ops > 0 ? c->cfg->elapsed_ops : 1;
	double secs;

	if (x->exit_ns == 0) {
		step_ctx_step(c)->no_intervals = true;
		return; /* interrupted: the run was not timed */
	}
	secs = (double)(x->exit_ns - c->go_ns) / 1e9;
	external_whole_run(c, ops, secs > 0 ? (double)ops / secs : 0, secs);
}

/*
 * A tool that prints one figure and no closing report a parser knows (a
 * --parse-regex line at the end): the figure is its rate over its run, from
 * the start to that line.
 */
static void
external_last_line(struct step_ctx *c)
{
	const struct external_step *x = c->state;

	external_whole_run(c, (uint64_t)llround(x->last_rate * x->last_end), x->last_rate,
			   x->last_end);
}

/*
 * The headline for an external step: its intervals, or its summary if that
 * is all it printed, or its one line; then CPU and contention over the same span.
 */
static void
external_figures(struct step_ctx *c)
{
	struct external_step *x = c->state;
	struct step *st = step_ctx_step(c);

	if (external_elapsed(c)) {
		external_timed(c);
	} else if (st->niv > 0 && x->win_s > 0) {
		st->ops = (uint64_t)llround(x->win_ops);
		st->ops_s = x->win_ops / x->win_s;
		st->window_s = x->win_s;
	} else if (x->have_summary) {
		st->no_intervals = true;
		st->ops_s = x->summary.rate;
		st->ops = (x->summary.have & PARSE_HAVE_OPS) ? x->summary.ops : 0;
		if (x->summary.have & PARSE_HAVE_DURATION)
			st->window_s = x->summary.duration;
		external_set_unit(c, x->summary.unit);
	} else if (x->have_last_line && x->last_end > 0) {
		external_last_line(c);
	}
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	ext_window_align(&x->win, c, x->proc.reaped);
}

/* How the command ended, as the step's status: ok, or failed with why. */
static void
external_verdict(struct step_ctx *c, int status)
{
	struct external_step *x = c->state;
	char why[256];
	char full[sizeof(why) + sizeof(x->last_err) + 2];

	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		spawn_reason(status, why, sizeof(why));
		snprintf(full, sizeof(full), "%s%s%s", why, x->last_err[0] ? ": " : "",
			 x->last_err);
		step_ctx_end(c, STEP_FAILED, full);
	} else if (step_ctx_step(c)->ops_s <= 0) {
		step_ctx_end(c, STEP_FAILED,
			     "no throughput found in the command's output "
			     "(check --parse)");
	} else {
		step_ctx_end(c, STEP_OK, NULL);
	}
}

static void
external_finished(struct step_ctx *c, uint64_t now)
{
	struct external_step *x = c->state;
	int status = x->proc.status, i;

	/* Once, not until EOF: something the command left behind may hold the pipe open. */
	spawn_read(&x->proc, external_line, c);
	for (i = 0; i < 2 && x->parser[i] != NULL; i++) {
		parser_finish(x->parser[i]);
		external_drain_events(c, i);
		/* A tool's histogram (sysbench --histogram) is of its whole run, warm-up too. */
		if (parser_histogram(x->parser[i]) != NULL) {
			c->lat.hist = parser_histogram(x->parser[i]);
			c->lat.whole_run = true;
		}
	}
	/* The tool's own log of every transaction beats both. */
	ext_latlog_read(&x->latlog, c);
	if (c->live->phase == PHASE_MEASURING)
		step_ctx_window_end(c, now, (uint64_t)llround(x->win_ops), 0, 0);
	external_figures(c);
	external_release(c);
	external_verdict(c, status);
}

/*
 * The command's latest task counters while it is alive, for the monitor's
 * window (the latest mark's, which leave out an exited process's zombie).
 */
static void
external_note_tasks(struct step_ctx *c)
{
	struct external_step *x = c->state;
	const struct ext_mark *m = ext_marks_latest(&x->win);

	if (m != NULL && m->have_task) {
		c->last_task = m->task;
		c->have_last_task = true;
	}
}

/* A command past its time is killed: why, or false while it has time left. */
static bool
external_overdue(struct step_ctx *c, double elapsed, char *why, size_t len)
{
	const struct sweep_settings *set = &c->s->set;

	if (external_elapsed(c)) {
		if (c->cfg->time_limit_s <= 0 || elapsed <= c->cfg->time_limit_s)
			return false;
		snprintf(why, len, "the command was still running after %g s (-d); killed",
			 c->cfg->time_limit_s);
		return true;
	}
	if (elapsed <= set->warmup_s + set->duration_s + EXTERNAL_GRACE_S)
		return false;
	snprintf(why, len, "the command was still running %.0f s after its %.0f s step; killed",
		 EXTERNAL_GRACE_S, set->warmup_s + set->duration_s);
	return true;
}

static void
external_tick(struct step_ctx *c, uint64_t now)
{
	const struct sweep_settings *set = &c->s->set;
	struct external_step *x = c->state;
	double elapsed = (double)(now - c->go_ns) / 1e9;
	char why[200];

	ext_marks_note(&x->win, c, now);
	if (c->live->phase == PHASE_WARMUP && elapsed >= set->warmup_s)
		step_ctx_window_begin(c, now, 0, 0, 0);
	else if (c->live->phase == PHASE_MEASURING) {
		external_note_tasks(c);
		step_ctx_live_contention(c, now, (uint64_t)llround(x->win_ops), 0, 0);
	}
	if (spawn_poll(&x->proc)) {
		x->exit_ns = now;
		external_finished(c, now);
		return;
	}
	if (external_overdue(c, elapsed, why, sizeof(why))) {
		external_release(c);
		step_ctx_end(c, STEP_FAILED, why);
	}
}

static void
external_abort(struct step_ctx *c)
{
	struct external_step *x = c->state;

	if (c->live->phase == PHASE_MEASURING)
		step_ctx_window_end(c, mono_now_ns(), (uint64_t)llround(x->win_ops), 0, 0);
	external_figures(c);
	external_release(c);
}

static int
external_task_pids(struct step_ctx *c, pid_t *pids, int max)
{
	struct external_step *x = c->state;

	if (max < 1 || !x->have_proc || x->proc.pid <= 0)
		return 0;
	pids[0] = x->proc.pid;
	return 1;
}

/* An external command cannot be re-timed from outside: no pause, its step runs on. */
const struct step_kind external_step_kind = {
	.name = "external",
	.size = sizeof(struct external_step),
	.per_worker = false,
	.start = external_start,
	.tick = external_tick,
	.pause = NULL,
	.abort = external_abort,
	.task_pids = external_task_pids,
	.release = external_release,
};

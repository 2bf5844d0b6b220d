/*
 * An external command's step: {n} and {duration} are put into its argv, it
 * runs in its own process group, and its throughput is read from its own
 * periodic output lines as they arrive (ext_timing.h says which are
 * counted), or with --parse elapsed from the time it takes to run.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "scaletop/error.h"
#include "sweep_priv.h"

/* A command gets this long past warm-up + duration before it counts as hung. */
#define EXTERNAL_GRACE_S 30.0

static void external_on_output(struct loop *l, int fd, short revents, void *arg);
static void external_release(struct sweep *sw);

static void
external_watch(struct sweep *sw)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (sw->run.proc.fd[i] >= 0)
			loop_add_fd(sw->loop, sw->run.proc.fd[i], POLLIN, external_on_output, sw);
	}
}

static void
external_unwatch(struct sweep *sw)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (sw->run.proc.fd[i] >= 0)
			loop_del_fd(sw->loop, sw->run.proc.fd[i]);
	}
}

static bool
external_elapsed(const struct sweep *sw)
{
	return strcmp(sw->cfg.parser, "elapsed") == 0;
}

int
external_step_start(struct sweep *sw, char *err, size_t errlen)
{
	const struct sweep_settings *set = &sw->s->set;
	/* One second more: tools such as sysbench leave out the report of their last second. */
	long duration = (long)ceil(set->warmup_s + set->duration_s) + 1;
	struct step_run *run = &sw->run;

	if (spawn_argv_expand((const char *const *)sw->cfg.cmd, run->n,
			      external_elapsed(sw) ? -1 : duration, &run->argv, err, errlen) != 0)
		return -1;
	for (int i = 0; i < 2 && !external_elapsed(sw); i++) {
		run->parser[i] = parser_new(sw->cfg.parser, sw->cfg.parse_arg, err, errlen);
		if (run->parser[i] == NULL)
			goto fail;
	}
	ext_timing_init(&run->timing, set->warmup_s, set->duration_s);
	if (external_elapsed(sw))
		run->have_tree0 = ext_children_usage(&run->tree0);
	/* The run starts when it is asked for: a monitor preempted after the fork must not start its clock late. */
	run->go_ns = mono_now_ns();
	if (spawn_start(run->argv, &run->proc, err, errlen) != 0)
		goto fail;
	run->have_proc = true;
	sweep_step(sw)->start_s = session_time(sw->s, run->go_ns);
	external_watch(sw);
	ext_marks_note(sw, run->go_ns);
	sweep_enter(sw, PHASE_WARMUP, run->go_ns);
	/* A timed run has no warm-up: all of it is measured. */
	if (external_elapsed(sw))
		sweep_window_begin(sw, run->go_ns, 0, 0, 0);
	return 0;
fail:
	external_release(sw);
	return -1;
}

/* The session's unit is what one operation is: "tps" counts transactions, "writes/s" writes. */
static void
external_set_unit(struct sweep *sw, const char *rate_unit)
{
	static const char *const names[][2] = {
		{ "tps", "transactions" }, { "eps", "events" }, { "qps", "queries" },
	};
	size_t i, len = strlen(rate_unit);

	if (len == 0)
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(rate_unit, names[i][0]) == 0) {
			snprintf(sw->s->wl.unit, sizeof(sw->s->wl.unit), "%s", names[i][1]);
			return;
		}
	}
	if (len > 2 && strcmp(rate_unit + len - 2, "/s") == 0)
		len -= 2;
	snprintf(sw->s->wl.unit, sizeof(sw->s->wl.unit), "%.*s", (int)len, rate_unit);
}

/* One interval line, which arrived now: counted if it lies in the window asked for. */
static void
external_interval(struct sweep *sw, const struct parse_interval *iv)
{
	struct step_run *run = &sw->run;
	double arrival = (double)(mono_now_ns() - run->go_ns) / 1e9;
	struct ext_span sp;

	sw->live.rate = iv->rate;
	sw->live.have_rate = true;
	run->last_rate = iv->rate;
	run->last_end = arrival;
	run->have_last_line = true;
	external_set_unit(sw, iv->unit);
	if (!ext_timing_place(&run->timing, iv, arrival, &sp))
		return;
	step_add_interval(sweep_step(sw), iv->rate);
	run->win_ops += iv->rate * (sp.end - sp.start);
	run->win_s += sp.end - sp.start;
	if (!run->have_win_mono)
		run->win_mono0 = sp.mono_start;
	run->win_mono1 = sp.mono_end;
	run->have_win_mono = true;
}

/* Takes what the stream's parser has found; the number of events. */
static int
external_drain_events(struct sweep *sw, int stream)
{
	struct parse_event ev;
	int n = 0;

	while (parser_next(sw->run.parser[stream], &ev)) {
		n++;
		if (ev.type == PARSE_INTERVAL)
			external_interval(sw, &ev.interval);
		else if (ev.type == PARSE_SUMMARY) {
			sw->run.summary = ev.summary;
			sw->run.have_summary = true;
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
	struct sweep *sw = arg;
	struct parser *p = sw->run.parser[stream];

	if (p != NULL) {
		parser_feed(p, line, strlen(line));
		parser_feed(p, "\n", 1);
	}
	if ((p == NULL || external_drain_events(sw, stream) == 0) && stream == SPAWN_STDERR &&
	    line[0] != '\0') {
		/* Kept for failure reasons, which every view prints: no terminal escapes. */
		snprintf(sw->run.last_err, sizeof(sw->run.last_err), "%s", line);
		st_printable(sw->run.last_err);
	}
}

static void external_finished(struct sweep *sw, uint64_t now);

/* How long a command whose output has ended gets to exit before the next tick looks. */
#define EXTERNAL_EXIT_WAIT_NS 20000000u

/*
 * Once both pipes are at end of file the command is exiting: it is reaped
 * here rather than at the next tick, so a timed run ends when it ends and
 * not up to a tick later.
 */
static void
external_on_output(struct loop *l, int fd, short revents, void *arg)
{
	struct sweep *sw = arg;
	struct step_run *run = &sw->run;

	external_unwatch(sw);
	if (spawn_read(&run->proc, external_line, sw) == 0 &&
	    spawn_wait(&run->proc, EXTERNAL_EXIT_WAIT_NS)) {
		run->exit_ns = mono_now_ns();
		external_finished(sw, run->exit_ns);
		return;
	}
	external_watch(sw);
}

static void
external_release(struct sweep *sw)
{
	struct step_run *run = &sw->run;

	if (run->have_proc) {
		external_unwatch(sw);
		spawn_close(&run->proc);
		run->have_proc = false;
	}
	for (int i = 0; i < 2; i++) {
		parser_free(run->parser[i]);
		run->parser[i] = NULL;
	}
	spawn_argv_free(run->argv);
	run->argv = NULL;
	ext_marks_free(run);
}

/* A step measured over its whole run, from the start to secs: no intervals. */
static void
external_whole_run(struct sweep *sw, uint64_t ops, double ops_s, double secs)
{
	struct step *st = sweep_step(sw);
	struct step_run *run = &sw->run;

	st->no_intervals = true;
	st->ops = ops;
	st->ops_s = ops_s;
	st->window_s = secs;
	run->win_mono0 = 0;
	run->win_mono1 = secs;
	run->have_win_mono = true;
}

/* A timed run: K operations (one run by default) over its time from start to exit. */
static void
external_timed(struct sweep *sw)
{
	struct step_run *run = &sw->run;
	uint64_t ops = sw->cfg.elapsed_ops > 0 ? sw->cfg.elapsed_ops : 1;
	double secs;

	if (run->exit_ns == 0) {
		sweep_step(sw)->no_intervals = true;
		return; /* interrupted: the run was not timed */
	}
	secs = (double)(run->exit_ns - run->go_ns) / 1e9;
	external_whole_run(sw, ops, secs > 0 ? (double)ops / secs : 0, secs);
}

/*
 * A tool that prints one figure and no closing report a parser knows (a
 * --parse-regex line at the end): the figure is its rate over its run, from
 * the start to that line.
 */
static void
external_last_line(struct sweep *sw)
{
	const struct step_run *run = &sw->run;

	external_whole_run(sw, (uint64_t)llround(run->last_rate * run->last_end), run->last_rate,
			   run->last_end);
}

/*
 * The headline for an external step: its intervals, or its summary if that
 * is all it printed, or its one line; then CPU and contention over the same span.
 */
static void
external_figures(struct sweep *sw)
{
	struct step *st = sweep_step(sw);
	struct step_run *run = &sw->run;

	if (external_elapsed(sw)) {
		external_timed(sw);
	} else if (st->niv > 0 && run->win_s > 0) {
		st->ops = (uint64_t)llround(run->win_ops);
		st->ops_s = run->win_ops / run->win_s;
		st->window_s = run->win_s;
	} else if (run->have_summary) {
		st->no_intervals = true;
		st->ops_s = run->summary.rate;
		st->ops = (run->summary.have & PARSE_HAVE_OPS) ? run->summary.ops : 0;
		if (run->summary.have & PARSE_HAVE_DURATION)
			st->window_s = run->summary.duration;
		external_set_unit(sw, run->summary.unit);
	} else if (run->have_last_line && run->last_end > 0) {
		external_last_line(sw);
	}
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	ext_window_align(sw);
}

static void
external_finished(struct sweep *sw, uint64_t now)
{
	struct step_run *run = &sw->run;
	char why[256];
	int status = run->proc.status;

	/* Once, not until EOF: something the command left behind may hold the pipe open. */
	spawn_read(&run->proc, external_line, sw);
	for (int i = 0; i < 2 && run->parser[i] != NULL; i++) {
		parser_finish(run->parser[i]);
		external_drain_events(sw, i);
	}
	if (sw->live.phase == PHASE_MEASURING)
		sweep_window_end(sw, now, (uint64_t)llround(run->win_ops), 0, 0);
	external_figures(sw);
	external_release(sw);
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char full[sizeof(why) + sizeof(run->last_err) + 2];

		spawn_reason(status, why, sizeof(why));
		snprintf(full, sizeof(full), "%s%s%s", why, run->last_err[0] ? ": " : "",
			 run->last_err);
		sweep_step_end(sw, STEP_FAILED, full);
	} else if (sweep_step(sw)->ops_s <= 0) {
		sweep_step_end(sw, STEP_FAILED, "no throughput found in the command's output "
						"(check --parse)");
	} else {
		sweep_step_end(sw, STEP_OK, NULL);
	}
}

/*
 * The command's latest task counters while it is alive, for the monitor's
 * window (the latest mark's, which leave out an exited process's zombie).
 */
static void
external_note_tasks(struct sweep *sw)
{
	struct step_run *run = &sw->run;
	const struct ext_mark *m = ext_marks_latest(run);

	if (m != NULL && m->have_task) {
		run->last_task = m->task;
		run->have_last_task = true;
	}
}

/* A command past its time is killed: why, or false while it has time left. */
static bool
external_overdue(struct sweep *sw, double elapsed, char *why, size_t len)
{
	const struct sweep_settings *set = &sw->s->set;

	if (external_elapsed(sw)) {
		if (sw->cfg.time_limit_s <= 0 || elapsed <= sw->cfg.time_limit_s)
			return false;
		snprintf(why, len, "the command was still running after %g s (-d); killed",
			 sw->cfg.time_limit_s);
		return true;
	}
	if (elapsed <= set->warmup_s + set->duration_s + EXTERNAL_GRACE_S)
		return false;
	snprintf(why, len, "the command was still running %.0f s after its %.0f s step; killed",
		 EXTERNAL_GRACE_S, set->warmup_s + set->duration_s);
	return true;
}

void
external_step_tick(struct sweep *sw, uint64_t now)
{
	const struct sweep_settings *set = &sw->s->set;
	struct step_run *run = &sw->run;
	double elapsed = (double)(now - run->go_ns) / 1e9;
	char why[200];

	ext_marks_note(sw, now);
	if (sw->live.phase == PHASE_WARMUP && elapsed >= set->warmup_s)
		sweep_window_begin(sw, now, 0, 0, 0);
	else if (sw->live.phase == PHASE_MEASURING) {
		external_note_tasks(sw);
		sweep_live_contention(sw, now, (uint64_t)llround(run->win_ops), 0, 0);
	}
	if (spawn_poll(&run->proc)) {
		run->exit_ns = now;
		external_finished(sw, now);
		return;
	}
	if (external_overdue(sw, elapsed, why, sizeof(why))) {
		external_release(sw);
		sweep_step_end(sw, STEP_FAILED, why);
	}
}

void
external_step_abort(struct sweep *sw)
{
	if (sw->live.phase == PHASE_MEASURING)
		sweep_window_end(sw, mono_now_ns(), (uint64_t)llround(sw->run.win_ops), 0, 0);
	external_figures(sw);
	external_release(sw);
}

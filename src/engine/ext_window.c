/*
 * An external step's CPU and contention window, aligned with its throughput.
 *
 * Throughput comes from the intervals the step counts, which begin after the
 * command has started (fork, exec, a tool's set-up, pgbench's connections)
 * and may end before it exits (its closing report, its clean-up).  The CPU
 * breakdown and contention must cover the same span, or a second of
 * connection set-up is charged to the benchmark.  So while the command runs
 * the monitor keeps a mark each tick (the tick's CPU sample and the command's
 * task counters), and at the end the marks nearest the first counted
 * interval's start and the last one's end, on the monitor's clock, bound the
 * window.  The error is at most half a tick at each edge.  A tool stamps its
 * own intervals, so a stamped interval is placed at its line's arrival less
 * its length.
 *
 * A timed run (--parse elapsed) is measured as a whole, and its work is
 * mostly in the processes it starts (make's jobs), which its own task
 * counters leave out.  So its CPU time and switches are those of everything
 * the monitor reaped during the run: the command and every descendant its
 * parent waited for (getrusage RUSAGE_CHILDREN, before and after).  Run
 * delay is not in those figures, so it is not reported for such a run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sweep_priv.h"

/* Marks kept: 16 s at the default 0.25 s tick, more than any tool's report interval. */
#define EXT_MARKS 64

const struct ext_mark *
ext_marks_latest(const struct step_run *run)
{
	if (run->nmarks == 0)
		return NULL;
	return &run->marks[(run->mark_next + EXT_MARKS - 1) % EXT_MARKS];
}

/*
 * The command's task counters for a mark.  A process that has exited but is
 * not yet reaped still shows its main thread with the other threads' time
 * gone; such a reading (CPU time went down), or none, keeps the last one.
 */
static void
ext_mark_tasks(struct sweep *sw, struct ext_mark *m, const struct ext_mark *prev)
{
	struct task_counters t;

	m->have_task = false;
	if (sweep_read_tasks(sw, &t) &&
	    !(prev != NULL && prev->have_task &&
	      t.user_ns + t.sys_ns < prev->task.user_ns + prev->task.sys_ns)) {
		m->task = t;
		m->have_task = true;
	} else if (prev != NULL && prev->have_task) {
		m->task = prev->task;
		m->have_task = true;
	}
}

void
ext_marks_note(struct sweep *sw, uint64_t now)
{
	struct step_run *run = &sw->run;
	struct ext_mark prev, *m;
	bool have_prev = false;

	if (run->marks == NULL && (run->marks = calloc(EXT_MARKS, sizeof(*run->marks))) == NULL)
		return;
	if (ext_marks_latest(run) != NULL) {
		prev = *ext_marks_latest(run); /* only its task counters are read */
		have_prev = true;
	}
	m = &run->marks[run->mark_next];
	m->ns = now;
	m->have_raw = sw->have_prev && raw_sample_copy(&m->raw, &sw->prev) == 0;
	ext_mark_tasks(sw, m, have_prev ? &prev : NULL);
	run->mark_next = (run->mark_next + 1) % EXT_MARKS;
	if (run->nmarks < EXT_MARKS)
		run->nmarks++;
}

void
ext_marks_free(struct step_run *run)
{
	for (int i = 0; run->marks != NULL && i < EXT_MARKS; i++)
		raw_sample_free(&run->marks[i].raw);
	free(run->marks);
	run->marks = NULL;
	run->nmarks = run->mark_next = 0;
}

static uint64_t
ext_tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

bool
ext_children_usage(struct task_counters *out)
{
	struct rusage ru;

	memset(out, 0, sizeof(*out));
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return false;
	out->user_ns = ext_tv_ns(ru.ru_utime);
	out->sys_ns = ext_tv_ns(ru.ru_stime);
	out->vol_csw = (uint64_t)ru.ru_nvcsw;
	out->invol_csw = (uint64_t)ru.ru_nivcsw;
	out->have = TASK_HAVE_CPU | TASK_HAVE_CSW;
	return true;
}

/* A timed run that has been reaped: its whole process tree's counters. */
static bool
ext_window_tree(struct sweep *sw, struct window_edges *e)
{
	const struct step_run *run = &sw->run;

	if (!run->have_tree0 || !run->proc.reaped || !ext_children_usage(&e->t1))
		return false;
	e->t0 = run->tree0;
	e->have_tasks = true;
	return true;
}

static const struct ext_mark *
ext_mark_nearest(const struct step_run *run, uint64_t ns)
{
	const struct ext_mark *best = NULL;
	double gap, best_gap = INFINITY;

	for (int i = 0; i < run->nmarks; i++) {
		const struct ext_mark *m = &run->marks[i];

		gap = fabs((double)m->ns - (double)ns);
		if (gap < best_gap) {
			best_gap = gap;
			best = m;
		}
	}
	return best;
}

/*
 * Replaces the step's CPU breakdown and contention with those over the
 * counted intervals' span.  Left as the monitor's window when no two marks
 * bound that span (a command that ran for less than a tick), but for a
 * timed run, whose whole-tree counters need no marks.
 */
void
ext_window_align(struct sweep *sw)
{
	struct step_run *run = &sw->run;
	struct step *st = sweep_step(sw);
	const struct ext_mark *m0, *m1;
	struct window_edges e;
	struct sample_delta d;
	bool have_marks;

	if (!run->have_win_mono)
		return;
	m0 = ext_mark_nearest(run, run->go_ns + (uint64_t)llround(run->win_mono0 * 1e9));
	m1 = ext_mark_nearest(run, run->go_ns + (uint64_t)llround(run->win_mono1 * 1e9));
	have_marks = m0 != NULL && m1 != NULL && m1->ns > m0->ns;
	memset(&e, 0, sizeof(e));
	e.ops = st->ops;
	e.workers = 0; /* the threads summed: pgbench -c 64 -j 4 runs 4, not 64 */
	if (ext_window_tree(sw, &e)) {
		/* A timed run's tree counters need no marks: a run shorter than a tick has them too. */
		e.seconds = have_marks ? (double)(m1->ns - m0->ns) / 1e9
				       : run->win_mono1 - run->win_mono0;
	} else if (have_marks) {
		e.seconds = (double)(m1->ns - m0->ns) / 1e9;
		e.t0 = m0->task;
		e.t1 = m1->task;
		e.have_tasks = m0->have_task && m1->have_task;
	}
	if (!(e.seconds > 0))
		return;
	sample_delta_init(&d);
	if (have_marks && m0->have_raw && m1->have_raw && m1->raw.mono_ns > m0->raw.mono_ns &&
	    sample_delta_compute(&d, &m0->raw, &m1->raw) == 0) {
		step_set_cpus(st, &d);
		e.sys = &d;
	}
	contention_compute(&st->ct, &e);
	sample_delta_free(&d);
}

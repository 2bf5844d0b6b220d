/* SPDX-License-Identifier: BSD-2-Clause */
/* An external step's CPU and contention window, aligned with its throughput. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "scaletop/contention.h"
#include "scaletop/pgroup.h"
#include "ext_window.h"

/*
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
 * parent waited for (getrusage RUSAGE_CHILDREN, before and after), less
 * what the monitor's own --probe runs used (pgroup_side_usage).  Run
 * delay is not in those figures, so it is not reported for such a run.
 */

/* Marks kept: 16 s at the default 0.25 s tick, more than any tool's report interval. */
#define EXT_MARKS 64

const struct ext_mark *
ext_marks_latest(const struct ext_window *w)
{
	if (w->nmarks == 0)
		return NULL;
	return &w->marks[(w->mark_next + EXT_MARKS - 1) % EXT_MARKS];
}

/*
 * The command's task counters for a mark.  A process that has exited but is
 * not yet reaped still shows its main thread with the other threads' time
 * gone; such a reading (CPU time went down), or none, keeps the last one.
 */
static void
ext_mark_tasks(struct step_ctx *c, struct ext_mark *m, const struct ext_mark *prev)
{
	struct task_counters t;

	m->have_task = false;
	if (step_ctx_read_tasks(c, &t) &&
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
ext_marks_note(struct ext_window *w, struct step_ctx *c, uint64_t now)
{
	struct ext_mark prev, *m;
	bool have_prev = false;

	if (w->marks == NULL && (w->marks = calloc(EXT_MARKS, sizeof(*w->marks))) == NULL)
		return;
	if (ext_marks_latest(w) != NULL) {
		prev = *ext_marks_latest(w); /* only its task counters are read */
		have_prev = true;
	}
	m = &w->marks[w->mark_next];
	m->ns = now;
	m->have_raw = c->cpu != NULL && raw_sample_copy(&m->raw, c->cpu) == 0;
	ext_mark_tasks(c, m, have_prev ? &prev : NULL);
	w->mark_next = (w->mark_next + 1) % EXT_MARKS;
	if (w->nmarks < EXT_MARKS)
		w->nmarks++;
}

void
ext_marks_free(struct ext_window *w)
{
	int i;

	for (i = 0; w->marks != NULL && i < EXT_MARKS; i++)
		raw_sample_free(&w->marks[i].raw);
	free(w->marks);
	w->marks = NULL;
	w->nmarks = w->mark_next = 0;
}

static uint64_t
ext_tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

bool
ext_children_usage(struct task_counters *out)
{
	uint64_t side[4];
	struct rusage ru;

	memset(out, 0, sizeof(*out));
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return false;
	/* The monitor's own helpers (--probe runs) are its children too, not the command's. */
	pgroup_side_usage(side);
	out->user_ns = ext_tv_ns(ru.ru_utime) - side[0];
	out->sys_ns = ext_tv_ns(ru.ru_stime) - side[1];
	out->vol_csw = (uint64_t)ru.ru_nvcsw - side[2];
	out->invol_csw = (uint64_t)ru.ru_nivcsw - side[3];
	out->have = TASK_HAVE_CPU | TASK_HAVE_CSW;
	return true;
}

/* A timed run that has been reaped: its whole process tree's counters. */
static bool
ext_window_tree(const struct ext_window *w, bool reaped, struct window_edges *e)
{
	if (!w->have_tree0 || !reaped || !ext_children_usage(&e->t1))
		return false;
	e->t0 = w->tree0;
	e->have_tasks = true;
	return true;
}

static const struct ext_mark *
ext_mark_nearest(const struct ext_window *w, uint64_t ns)
{
	const struct ext_mark *best = NULL, *m;
	double gap, best_gap = INFINITY;
	int i;

	for (i = 0; i < w->nmarks; i++) {
		m = &w->marks[i];
		gap = fabs((double)m->ns - (double)ns);
		if (gap < best_gap) {
			best_gap = gap;
			best = m;
		}
	}
	return best;
}

/*
 * Left as the monitor's window when no two marks bound the span (a command
 * that ran for less than a tick), but for a timed run, whose whole-tree
 * counters need no marks.
 */
void
ext_window_align(struct ext_window *w, struct step_ctx *c, bool reaped)
{
	struct step *st = step_ctx_step(c);
	const struct ext_mark *m0, *m1;
	struct window_edges e;
	struct sample_delta d;
	bool have_marks;

	if (!w->have_mono)
		return;
	m0 = ext_mark_nearest(w, c->go_ns + (uint64_t)llround(w->mono0 * 1e9));
	m1 = ext_mark_nearest(w, c->go_ns + (uint64_t)llround(w->mono1 * 1e9));
	have_marks = m0 != NULL && m1 != NULL && m1->ns > m0->ns;
	memset(&e, 0, sizeof(e));
	e.ops = st->ops;
	e.workers = 0; /* the threads summed: pgbench -c 64 -j 4 runs 4, not 64 */
	if (ext_window_tree(w, reaped, &e)) {
		/* A timed run's tree counters need no marks: a run shorter than a tick has them
		 * too. */
		e.seconds = have_marks ? (double)(m1->ns - m0->ns) / 1e9 : w->mono1 - w->mono0;
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

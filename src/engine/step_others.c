/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who else was on the CPUs over a step's window (others.h): the process
 * table's CPU times read at the window's start, once a second in it, and at
 * its end, into the step's others.
 */
#include <stdlib.h>
#include <unistd.h>

#include "runner.h"
#include "step_ctx.h"
#include "target.h"

#define OTHERS_PERIOD_NS 1000000000u
/*
 * A scan reads one file a process (1.1 to 2.5 ms of CPU for 132 processes on
 * the 2-CPU development VM, about 0.2% of a CPU at once a second), so it
 * comes at the same cadence as the target's find and costs nothing on the
 * ticks between; a table so large that a scan costs more than 1% of the time
 * is read less often.
 */

/* A scan waits at least this many times its CPU time (1%). */
#define OTHERS_SHARE 100u

/* The pids whose CPU the step counts itself: the workload's tasks and the target's processes. */
static size_t
step_others_measured(struct step_ctx *c, pid_t *v, size_t cap)
{
	const pid_t *tp = NULL;
	size_t n = 0, ntp = 0, i;
	int k = 0;

	if (c->kind != NULL && c->kind->task_pids != NULL && c->state != NULL)
		k = c->kind->task_pids(c, v, (int)cap);
	n = k > 0 ? (size_t)k : 0;
	if (c->target != NULL)
		tp = target_found(c->target, &ntp);
	for (i = 0; i < ntp && n < cap; i++)
		v[n++] = tp[i];
	return n;
}

static void
step_others_scan(struct step_ctx *c, uint64_t now)
{
	pid_t measured[RUNNER_MAX_WORKERS + 64];
	struct proc_cpu *t;
	uint64_t c0 = self_cpu_ns(), cost;
	size_t n, nm;

	c->others_ns = now;
	if (proc_cpu_read(&t, &n) != 0)
		return;
	nm = step_others_measured(c, measured, sizeof(measured) / sizeof(measured[0]));
	(void)others_book_add(&c->others, t, n, measured, nm);
	free(t);
	cost = self_cpu_ns() - c0;
	if (cost > c->others_cost_ns)
		c->others_cost_ns = cost;
}

void
step_ctx_others_begin(struct step_ctx *c, uint64_t now)
{
	others_book_reset(&c->others);
	c->others_cost_ns = 0;
	step_others_scan(c, now);
}

void
step_ctx_others_tick(struct step_ctx *c, uint64_t now)
{
	uint64_t wait = c->others_cost_ns * OTHERS_SHARE;

	if (c->others.scans > 0 &&
	    now >= c->others_ns + (wait > OTHERS_PERIOD_NS ? wait : OTHERS_PERIOD_NS))
		step_others_scan(c, now);
}

void
step_ctx_others_end(struct step_ctx *c, struct step *st, uint64_t now, bool counted)
{
	struct others_totals t;
	int ncpu = st->ncpu > 0 ? st->ncpu : c->s->host.ncpus;

	st->others.known = false;
	if (c->others.scans == 0 || !counted) {
		others_book_reset(&c->others);
		return;
	}
	step_others_scan(c, now);
	t.seconds = (double)(now - c->w0_ns) / 1e9;
	t.busy_cpus = (st->all.busy - st->all.pct[CPU_STEAL]) / 100.0 * ncpu;
	t.measured_cpus = st->ct.cpu_used > 0 ? st->ct.cpu_used : -1;
	if (t.measured_cpus > 0 && (st->tg.have & TG_HAVE_CPU))
		t.measured_cpus += st->tg.cpu_used;
	t.self = getpid();
	others_book_figures(&c->others, &t, &st->others, NULL);
	others_book_reset(&c->others);
}

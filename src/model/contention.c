/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Contention over a window: switches, run delay, kernel share, ops per
 * CPU-second, lock wait.  A figure per operation needs operations counted
 * in the window: a tool that prints only a summary gives none there, and a
 * failed step's count is not its throughput, so those are left unset
 * (null, '-'), never 0.
 */
#include <math.h>
#include <string.h>

#include "scaletop/contention.h"

static uint64_t
udiff(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* a task that exited takes its counts with it */
}

/* The run delay's share of the wall time each task had (see window_edges.workers). */
static void
contention_run_delay(struct contention *c, const struct window_edges *e)
{
	int tasks = e->workers > 0 ? e->workers : e->t1.nthreads;
	double delay = (double)udiff(e->t0.run_delay_ns, e->t1.run_delay_ns) / 1e9;
	double pct;

	if (tasks <= 0)
		return;
	pct = 100.0 * delay / (e->seconds * tasks);
	c->run_delay_pct = pct > 100.0 ? 100.0 : pct;
	c->have |= CT_HAVE_RUN_DELAY;
}

/*
 * CPU time over the window.  Linux's user and system times are clock ticks
 * (10 ms at HZ 100), so a short window or a light worker is off by up to
 * a tick a thread; schedstat's on-CPU time is exact.  With it, the ticks
 * only split that total between user and system.  Without any tick in the
 * window the split is unknown, and the kernel share is left unset.
 */
static void
contention_cpu(struct contention *c, const struct window_edges *e, unsigned have)
{
	const struct task_counters *a = &e->t0, *b = &e->t1;
	double user = (double)udiff(a->user_ns, b->user_ns) / 1e9;
	double sys = (double)udiff(a->sys_ns, b->sys_ns) / 1e9;
	double ticks = user + sys, total = ticks;

	if (have & TASK_HAVE_CPU_EXACT)
		total = (double)udiff(a->cpu_ns, b->cpu_ns) / 1e9;
	c->cpu_used = total / e->seconds;
	if (ticks > 0) {
		/* 100*x/x can round to one ulp above 100 */
		c->kernel_pct = fmin(100.0 * sys / ticks, 100.0);
		c->have |= CT_HAVE_KERNEL;
	}
	if (total > 0 && e->ops > 0) {
		c->ops_per_cpu_s = (double)e->ops / total;
		c->have |= CT_HAVE_OPS_CPU;
	}
}

static void
contention_tasks(struct contention *c, const struct window_edges *e)
{
	const struct task_counters *a = &e->t0, *b = &e->t1;
	unsigned have = a->have & b->have;
	double kops = (double)e->ops / 1000.0;

	if (have & TASK_HAVE_CSW) {
		double v = (double)udiff(a->vol_csw, b->vol_csw);
		double iv = (double)udiff(a->invol_csw, b->invol_csw);

		c->vcsw_s = v / e->seconds;
		c->ivcsw_s = iv / e->seconds;
		c->have |= CT_HAVE_CSW;
		if (kops > 0) {
			c->vcsw_kop = v / kops;
			c->ivcsw_kop = iv / kops;
			c->have |= CT_HAVE_CSW_KOP;
		}
	}
	if (have & TASK_HAVE_CPU)
		contention_cpu(c, e, have);
	if (have & TASK_HAVE_RUN_DELAY)
		contention_run_delay(c, e);
}

void
contention_compute(struct contention *c, const struct window_edges *e)
{
	memset(c, 0, sizeof(*c));
	if (e->seconds <= 0)
		return;
	if (e->have_tasks) {
		contention_tasks(c, e);
		c->threads = e->t1.nthreads;
		c->have |= CT_HAVE_THREADS;
	}
	if (e->sys != NULL && (e->sys->have_rate & (1u << SYS_CTXSW))) {
		c->sys_ctxsw_s = e->sys->rate[SYS_CTXSW];
		c->have |= CT_HAVE_SYS_CTXSW;
	}
	if (e->sys != NULL && (e->sys->flags & SYS_HAVE_PSI_SOME)) {
		c->psi_some_pct = e->sys->psi_some_pct;
		c->have |= CT_HAVE_PSI;
	}
	if (e->busy_ns > 0) {
		double pct = 100.0 * (double)e->wait_ns / (double)e->busy_ns;

		c->lock_wait_pct = pct > 100.0 ? 100.0 : pct;
		c->have |= CT_HAVE_LOCK_WAIT;
	}
}

void
contention_forget_per_op(struct contention *c, struct target_figures *tg)
{
	c->have &= ~(unsigned)(CT_HAVE_CSW_KOP | CT_HAVE_OPS_CPU);
	c->vcsw_kop = c->ivcsw_kop = c->ops_per_cpu_s = 0;
	if (tg == NULL)
		return;
	tg->have &= ~(unsigned)(TG_HAVE_CSW | TG_HAVE_OPS_CPU);
	tg->vcsw_kop = tg->ivcsw_kop = tg->ops_per_cpu_s = 0;
}

void
contention_forget_old_zeros(struct contention *c)
{
	if ((c->have & CT_HAVE_CSW_KOP) && c->vcsw_kop == 0 && c->ivcsw_kop == 0 &&
	    (c->vcsw_s > 0 || c->ivcsw_s > 0))
		c->have &= ~(unsigned)CT_HAVE_CSW_KOP;
	if ((c->have & CT_HAVE_OPS_CPU) && c->ops_per_cpu_s == 0)
		c->have &= ~(unsigned)CT_HAVE_OPS_CPU;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A --target's figures over a window, measured like the workload's own
 * (contention.c): CPUs used and their user/system split, switches per 1000
 * of the workload's operations, run delay per thread, the target's share of
 * the machine, and operations per CPU-second of workload and target
 * together.  Pure arithmetic.
 */
#include <string.h>

#include "scaletop/contention.h"

static uint64_t
target_udiff(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

/*
 * CPU seconds and the user/system split.  A group's cpu.stat counts every
 * task it had, the exited included, to the microsecond; the processes'
 * schedstat total is exact too, and their clock ticks only split it.
 */
static bool
target_cpu(const struct target_edges *e, double *total, double *user, double *sys)
{
	const struct task_counters *d = &e->d;
	double ticks;

	if (e->cgroup_only && e->have_cgroup && (e->cg0.have & e->cg1.have & CGROUP_HAVE_CPU)) {
		*total = (double)target_udiff(e->cg0.usage_us, e->cg1.usage_us) / 1e6;
		*user = (double)target_udiff(e->cg0.user_us, e->cg1.user_us) / 1e6;
		*sys = (double)target_udiff(e->cg0.system_us, e->cg1.system_us) / 1e6;
		ticks = *user + *sys;
	} else if (d->have & TASK_HAVE_CPU) {
		*user = (double)d->user_ns / 1e9;
		*sys = (double)d->sys_ns / 1e9;
		ticks = *user + *sys;
		*total = (d->have & TASK_HAVE_CPU_EXACT) ? (double)d->cpu_ns / 1e9 : ticks;
	} else
		return false;
	if (ticks > 0) {
		*user = *total * *user / ticks;
		*sys = *total - *user;
	} else
		*user = *sys = 0;
	return true;
}

static void
target_fig_cpu(struct target_figures *tg, const struct target_edges *e)
{
	double total, user, sys, both;

	if (!target_cpu(e, &total, &user, &sys))
		return;
	tg->cpu_used = total / e->seconds;
	tg->user_cpu = user / e->seconds;
	tg->sys_cpu = sys / e->seconds;
	if (e->ncpu > 0)
		tg->machine_pct = 100.0 * tg->cpu_used / e->ncpu;
	tg->have |= TG_HAVE_CPU;
	both = total + e->workload_cpu_s;
	if (e->workload_cpu_s >= 0 && both > 0 && e->ops > 0) {
		tg->ops_per_cpu_s = (double)e->ops / both;
		tg->have |= TG_HAVE_OPS_CPU;
	}
}

static void
target_fig_tasks(struct target_figures *tg, const struct target_edges *e)
{
	const struct task_counters *d = &e->d;
	double kops = (double)e->ops / 1000.0, pct;

	if ((d->have & TASK_HAVE_CSW) && kops > 0) {
		tg->vcsw_kop = (double)d->vol_csw / kops;
		tg->ivcsw_kop = (double)d->invol_csw / kops;
		tg->have |= TG_HAVE_CSW;
	}
	if ((d->have & TASK_HAVE_RUN_DELAY) && e->thread_s > 0) {
		pct = 100.0 * ((double)d->run_delay_ns / 1e9) / e->thread_s;
		tg->run_delay_pct = pct > 100.0 ? 100.0 : pct;
		tg->have |= TG_HAVE_RUN_DELAY;
	}
}

void
target_figures_compute(struct target_figures *tg, const struct target_edges *e)
{
	double pct;

	memset(tg, 0, sizeof(*tg));
	tg->present = true;
	tg->procs = e->procs;
	tg->threads = e->d.nthreads;
	if (e->seconds <= 0)
		return;
	target_fig_cpu(tg, e);
	target_fig_tasks(tg, e);
	if (e->have_cgroup && (e->cg0.have & e->cg1.have & CGROUP_HAVE_PSI)) {
		pct = 100.0 * ((double)target_udiff(e->cg0.psi_some_us, e->cg1.psi_some_us) / 1e6) /
		      e->seconds;
		tg->psi_some_pct = pct > 100.0 ? 100.0 : pct;
		tg->have |= TG_HAVE_PSI;
	}
}

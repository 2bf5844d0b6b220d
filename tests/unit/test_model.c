/* SPDX-License-Identifier: BSD-2-Clause */
/* The session model, contention arithmetic, speedup and efficiency. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/contention.h"
#include "scaletop/session.h"
#include "../tap.h"

static void
test_session_lists(void)
{
	struct session s;
	struct step *st;
	int i;

	session_init(&s);
	for (i = 0; i < 40; i++) {
		st = session_add_step(&s, i + 1, 0);
		ok(st != NULL, "step %d added", i);
		step_add_interval(st, i * 10.0);
	}
	is_int(s.nsteps, 40, "40 steps kept across growth");
	is_int(s.steps[39].n, 40, "the last step keeps its N");
	is_int(s.steps[5].niv, 1, "each step keeps its intervals");
	is_int(s.steps[7].status, STEP_RUNNING, "a new step is running");
	session_add_event(&s, 3, EV_FAILURE, 1.5, "N=%d failed: %s", 4, "boom");
	is_str(s.events[0].text, "N=4 failed: boom", "event text is formatted");
	is_int(s.events[0].step, 3, "event keeps its step");
	s.t0_ns = 1000000000;
	is_double(session_time(&s, 3500000000u), 2.5, 1e-12, "session time is seconds since t0");
	is_double(session_time(&s, 10), 0, 0, "a time before t0 is 0, not negative");
	session_free(&s);
	is_int(s.nsteps, 0, "free leaves an empty session");
}

/* --trials: the plan runs the N list up, then down, each N --repeat times in a row. */
static void
test_plan(void)
{
	static int nl[] = { 1, 2, 4 };
	struct sweep_settings set;
	char got[128], *p = got;
	int i, ni, rep, trial;

	memset(&set, 0, sizeof(set));
	set.n = nl;
	set.nn = 3;
	set.repeat = 2;
	set.trials = 3;
	is_int(session_plan_len(&set), 18, "plan: 3 trials of 3 N, 2 repeats each");
	for (i = 0; i < session_plan_len(&set); i++) {
		session_plan_step(&set, i, &ni, &rep, &trial);
		p += sprintf(p, "%d%c%d ", trial, 'a' + rep, nl[ni]);
	}
	is_str(got, "0a1 0b1 0a2 0b2 0a4 0b4 1a4 1b4 1a2 1b2 1a1 1b1 2a1 2b1 2a2 2b2 2a4 2b4 ",
	       "plan: trial 0 up, trial 1 down, trial 2 up; repeats back to back");
	set.trials = 0; /* a session from before trials */
	set.repeat = 1;
	is_int(session_plan_len(&set), 3, "plan: no trials given is one trial");
}

static struct step *
add_ok(struct session *s, int n, double x, enum step_status status)
{
	struct step *st = session_add_step(s, n, 0);

	st->ops_s = x;
	st->status = status;
	return st;
}

static void
test_speedup(void)
{
	struct session s;

	session_init(&s);
	add_ok(&s, 1, 100, STEP_OK);
	add_ok(&s, 1, 120, STEP_OK); /* a repeat: pooled as the mean, 110 */
	add_ok(&s, 2, 198, STEP_OK);
	add_ok(&s, 4, 330, STEP_UNSTABLE);
	add_ok(&s, 8, 999, STEP_FAILED);
	is_double(analysis_throughput_at(&s, 1), 110, 1e-9, "repeats of N=1 are pooled");
	is_double(analysis_speedup(&s, 2), 1.8, 1e-9, "speedup(2) = X(2)/X(1)");
	is_double(analysis_efficiency(&s, 4), 0.75, 1e-9, "efficiency(4) = X(4)/(4 X(1))");
	ok(isnan(analysis_throughput_at(&s, 8)), "a failed step gives no throughput");
	ok(isnan(analysis_speedup(&s, 16)), "an N never run has no speedup");
	session_free(&s);

	session_init(&s);
	add_ok(&s, 2, 200, STEP_OK);
	ok(isnan(analysis_speedup(&s, 2)), "no N=1 step: no speedup rather than a guess");
	session_free(&s);
}

static void
test_contention(void)
{
	struct window_edges e;
	struct contention c;
	struct sample_delta d;

	memset(&e, 0, sizeof(e));
	memset(&d, 0, sizeof(d));
	e.seconds = 2.0;
	e.ops = 4000;
	e.workers = 4;
	e.have_tasks = true;
	e.t0.have = e.t1.have = TASK_HAVE_CSW | TASK_HAVE_CPU | TASK_HAVE_RUN_DELAY;
	e.t0.vol_csw = 100, e.t1.vol_csw = 300;
	e.t0.invol_csw = 10, e.t1.invol_csw = 50;
	e.t1.user_ns = 3000000000u;
	e.t1.sys_ns = 1000000000u;
	e.t1.run_delay_ns = 4000000000u;
	e.wait_ns = 250;
	e.busy_ns = 1000;
	d.have_rate = 1u << SYS_CTXSW;
	d.rate[SYS_CTXSW] = 5000;
	e.sys = &d;
	contention_compute(&c, &e);
	is_double(c.vcsw_s, 100, 1e-9, "voluntary switches per second");
	is_double(c.ivcsw_kop, 10, 1e-9, "involuntary switches per 1000 operations");
	is_double(c.kernel_pct, 25, 1e-9, "kernel share of the workload's CPU time");
	is_double(c.ops_per_cpu_s, 1000, 1e-9, "operations per CPU-second");
	is_double(c.cpu_used, 2, 1e-9, "CPUs' worth of time used");
	is_double(c.run_delay_pct, 50, 1e-9, "run delay: per task, % of wall time");
	/* pgbench -c 64 -j 4: 64 clients, but the 4 threads read are what the delay is shared by */
	e.workers = 0;
	e.t1.nthreads = 2;
	contention_compute(&c, &e);
	is_double(c.run_delay_pct, 100, 1e-9, "workers 0: run delay per thread summed (capped)");
	e.t1.nthreads = 8;
	contention_compute(&c, &e);
	is_double(c.run_delay_pct, 25, 1e-9, "workers 0: divided by the 8 threads read, not N");
	e.t1.nthreads = 0;
	contention_compute(&c, &e);
	ok(!(c.have & CT_HAVE_RUN_DELAY), "no thread count and no N: no run-delay figure");
	e.workers = 4;
	is_double(c.lock_wait_pct, 25, 1e-9, "lock wait %");
	is_double(c.sys_ctxsw_s, 5000, 1e-9, "system ctxsw/s comes from the window delta");
	ok(!(c.have & CT_HAVE_PSI), "no PSI in the delta: PSI is not claimed");

	e.t1.vol_csw = 50; /* a task exited: the sum went down */
	e.t1.have &= ~TASK_HAVE_RUN_DELAY;
	e.busy_ns = 0;
	contention_compute(&c, &e);
	is_double(c.vcsw_s, 0, 0, "a counter that went down counts as 0, never negative");
	ok(!(c.have & CT_HAVE_RUN_DELAY), "run delay missing in one edge: not reported");
	ok(!(c.have & CT_HAVE_LOCK_WAIT), "no lock sampling: no lock-wait figure");
	/* All time in the kernel: 100*x/x rounds one ulp above 100 for 6% of x; one is 0.7 s. */
	e.t1.user_ns = 0;
	for (unsigned i = 0, over = 0; i < 2000 && !over; i++) {
		e.t1.sys_ns = 700000000u + i * 7919u;
		contention_compute(&c, &e);
		over = c.kernel_pct > 100.0;
		if (over || i == 1999)
			ok(!over, "kernel only: the kernel share is at most 100%% (sys_ns %llu)",
			   (unsigned long long)e.t1.sys_ns);
	}
	e.seconds = 0;
	contention_compute(&c, &e);
	is_int(c.have, 0, "an empty window reports nothing");
}

/* sysbench without --report-interval: switches and CPU, but no operation counted in the window. */
static void
test_contention_no_ops(void)
{
	struct target_figures tg;
	struct window_edges e;
	struct contention c;

	memset(&e, 0, sizeof(e));
	e.seconds = 2.0;
	e.have_tasks = true;
	e.t0.have = e.t1.have = TASK_HAVE_CSW | TASK_HAVE_CPU;
	e.t1.vol_csw = 10, e.t1.invol_csw = 500;
	e.t1.user_ns = 1900000000u;
	e.t1.sys_ns = 10000000u;
	contention_compute(&c, &e);
	ok((c.have & CT_HAVE_CSW) && c.ivcsw_s == 250, "no ops: switches per second are measured");
	ok(!(c.have & CT_HAVE_CSW_KOP), "no ops: no switches per 1000 operations (not 0)");
	ok((c.have & CT_HAVE_KERNEL) && c.cpu_used > 0.9, "no ops: the CPU used is measured");
	ok(!(c.have & CT_HAVE_OPS_CPU), "no ops: no operations per CPU-second (not 0)");
	e.ops = 1;
	contention_compute(&c, &e);
	ok((c.have & CT_HAVE_CSW_KOP) && (c.have & CT_HAVE_OPS_CPU), "1 op: both per-op figures");
	memset(&tg, 0, sizeof(tg));
	tg.have = TG_HAVE_CPU | TG_HAVE_CSW | TG_HAVE_OPS_CPU;
	contention_forget_per_op(&c, &tg);
	ok(!(c.have & (CT_HAVE_CSW_KOP | CT_HAVE_OPS_CPU)) && (c.have & CT_HAVE_CSW),
	   "a failed step forgets its per-op figures, keeps its switch rates");
	is_int((int)tg.have, TG_HAVE_CPU, "and the target's per-op figures");
	/* An older file's figures: 0 per 1000 ops beside switches, 0 ops/CPU-s. */
	memset(&c, 0, sizeof(c));
	c.have = CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_OPS_CPU;
	c.ivcsw_s = 246.9;
	contention_forget_old_zeros(&c);
	is_int((int)c.have, CT_HAVE_CSW, "an older file's 0 per-op figures are read as unknown");
	c.have = CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_OPS_CPU;
	c.ivcsw_s = 0;
	c.ops_per_cpu_s = 5;
	contention_forget_old_zeros(&c);
	is_int((int)c.have, CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_OPS_CPU,
	       "no switch at all: 0 per 1000 ops stands, as does a figure that is not 0");
}

int
main(void)
{
	test_session_lists();
	test_plan();
	test_speedup();
	test_contention();
	test_contention_no_ops();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A workload's CPU time over a window, from recorded /proc buffers: the
 * total is schedstat's exact on-CPU time, and the clock ticks of stat only
 * split it between user and system.
 *
 * The fixtures are one busy thread (python3 calling getppid and stat in a
 * loop) read 1.5 s apart on a loaded 2-CPU VM, HZ 100.  Its ticks grew by 28
 * user and 2 system (300 ms); schedstat's on-CPU time by 309.239430 ms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/contention.h"
#include "scaletop/decode_linux.h"
#include "../tap.h"

#define HZ 100

/* One edge: the thread's stat and schedstat fixtures summed as linux_task.c sums them. */
static int
edge(const char *stat, const char *sched, bool with_sched, struct task_counters *out)
{
	struct task_one t;
	struct task_sum sum;
	size_t len;
	char *text;
	int r;

	memset(&t, 0, sizeof(t));
	task_sum_init(&sum);
	text = fixture_read(stat, &len);
	r = text != NULL ? task_stat_decode(text, len, &t.stat) : -1;
	free(text);
	if (r != 0)
		return -1;
	t.have = TASK_HAVE_CPU | TASK_HAVE_CSW;
	if (with_sched) {
		text = fixture_read(sched, &len);
		r = text != NULL ? task_schedstat_decode(text, len, &t.sched) : -1;
		free(text);
		if (r != 0)
			return -1;
		t.have |= TASK_HAVE_RUN_DELAY;
	}
	task_sum_add(&sum, &t);
	task_sum_finish(&sum, HZ, out);
	return 0;
}

static int
window(bool with_sched, struct contention *c)
{
	struct window_edges e;

	memset(&e, 0, sizeof(e));
	e.seconds = 1.5;
	e.ops = 1000000;
	e.workers = 1;
	e.have_tasks = true;
	if (edge("linux/task_stat_busy_a", "linux/task_schedstat_busy_a", with_sched, &e.t0) != 0 ||
	    edge("linux/task_stat_busy_b", "linux/task_schedstat_busy_b", with_sched, &e.t1) != 0)
		return -1;
	contention_compute(c, &e);
	return 0;
}

static void
test_exact_total(void)
{
	struct contention c;

	if (!ok(window(true, &c) == 0, "the recorded edges decode"))
		return;
	ok((c.have & CT_HAVE_KERNEL) && (c.have & CT_HAVE_OPS_CPU), "kernel share and ops/CPU-s");
	is_double(c.cpu_used * 1.5, 0.309239430, 1e-12,
		  "CPU time is schedstat's 309.239430 ms, not the ticks' 300 ms");
	is_double(c.ops_per_cpu_s, 1e6 / 0.309239430, 1e-3, "ops per CPU-second over it");
	is_double(c.kernel_pct, 100.0 * 2 / 30, 1e-12, "the ticks split it: 2 of 30 in the kernel");
}

static void
test_ticks_without_schedstat(void)
{
	struct contention c;

	if (!ok(window(false, &c) == 0, "without schedstat: the edges decode"))
		return;
	is_double(c.cpu_used * 1.5, 0.300, 1e-12, "without schedstat: the ticks' 300 ms");
	is_double(c.kernel_pct, 100.0 * 2 / 30, 1e-12, "without schedstat: the same split");
}

/* A window with no tick at all: the total is known, the split is not. */
static void
test_no_ticks(void)
{
	struct window_edges e;
	struct contention c;

	memset(&e, 0, sizeof(e));
	e.seconds = 1;
	e.ops = 10;
	e.have_tasks = true;
	e.t0.have = e.t1.have = TASK_HAVE_CPU | TASK_HAVE_CPU_EXACT;
	e.t0.user_ns = e.t1.user_ns = 10000000;
	e.t0.cpu_ns = 12000000;
	e.t1.cpu_ns = 15000000;
	contention_compute(&c, &e);
	ok(!(c.have & CT_HAVE_KERNEL), "no tick in the window: no kernel share");
	ok((c.have & CT_HAVE_OPS_CPU) && fabs(c.ops_per_cpu_s - 10 / 0.003) < 1e-6,
	   "but ops per CPU-second from the exact 3 ms");
}

int
main(void)
{
	test_exact_total();
	test_ticks_without_schedstat();
	test_no_ticks();
	return done_testing();
}

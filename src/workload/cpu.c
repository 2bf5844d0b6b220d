/* SPDX-License-Identifier: BSD-2-Clause */
/* cpu: pure computation with no shared state, the baseline of ideal scaling. */
#include <stdint.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_WORK };

static const struct wl_param cpu_params[] = {
	{ "work", WP_INT, "1000", 1, 100000000, NULL,
	  "hash-mix rounds per operation (a round is a few cycles)" },
};

static int
cpu_work(struct wl_worker *w)
{
	long long rounds = w->args->v[P_WORK].i;
	uint64_t x = w->seed;
	struct wl_pace pace;

	wl_pace_init(&pace);
	do {
		x = wl_mix(x, rounds);
		wl_keep(x);
	} while (!wl_pace_add(&pace, w, 1));
	wl_count(w, pace.ops, 0, 0);
	return 0;
}

const struct workload wl_cpu = {
	.name = "cpu",
	.unit = "ops",
	.summary = "pure computation, no shared state: the ideal-scaling baseline",
	.help = "Each worker runs a chain of integer multiply-xorshift rounds in registers and "
		"touches no shared memory, so nothing but CPU time limits it; one operation is "
		"work= rounds. It is the baseline the other workloads are judged against. A "
		"healthy system scales it linearly up to the number of physical cores, gains less "
		"per SMT sibling, and stays flat (not falling) beyond the CPU count; ops per "
		"CPU-second stay constant throughout. Anything less points at frequency scaling, "
		"thermal limits, or other load on the machine.",
	.params = cpu_params,
	.nparams = sizeof(cpu_params) / sizeof(cpu_params[0]),
	.work = cpu_work,
};

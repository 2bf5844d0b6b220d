/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's lock profile over the window (step_lockprof.c), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
kernel_locks_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_locks_begin(c);
}

static void
kernel_locks_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot,
		 uint64_t now)
{
	step_ctx_locks_end(c, st);
}

const struct collector kernel_locks_collector = {
	.key = "kernel_locks",
	.begin = kernel_locks_begin,
	.end = kernel_locks_end,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the CPUs went over the window (step_hot.c), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
hot_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_hot_begin(c, now);
}

static void
hot_tick(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_hot_tick(c);
}

static void
hot_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_hot_end(c, st, now);
}

const struct collector hot_collector = {
	.key = "hot",
	.begin = hot_begin,
	.tick = hot_tick,
	.end = hot_end,
};

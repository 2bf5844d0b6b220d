/* SPDX-License-Identifier: BSD-2-Clause */
/* Who else was on the CPUs over the window (step_others.c), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
others_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_others_begin(c, now);
}

static void
others_tick(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_others_tick(c, now);
}

/* Without CPU counters across the window the others' CPUs are not known. */
static void
others_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_others_end(c, st, now, c->close.counted);
}

const struct collector others_collector = {
	.key = "others",
	.begin = others_begin,
	.tick = others_tick,
	.end = others_end,
};

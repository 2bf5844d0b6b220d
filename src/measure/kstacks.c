/* SPDX-License-Identifier: BSD-2-Clause */
/* The blocked threads' kernel stacks over the window (step_kstacks.c), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
kstacks_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_kstacks_begin(c);
}

static void
kstacks_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_kstacks_end(c, st, now);
}

const struct collector kstacks_collector = {
	.key = "kstacks",
	.begin = kstacks_begin,
	.end = kstacks_end,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/* The lock census of each family over the window (step_census.c), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
census_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_census_begin(c);
}

static void
census_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_census_end(c, st);
}

const struct collector census_collector = {
	.key = "locks",
	.begin = census_begin,
	.end = census_end,
};

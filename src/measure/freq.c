/* SPDX-License-Identifier: BSD-2-Clause */
/* The CPUs' mean frequency over the window (freq_sampler.h), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
freq_begin(struct step_ctx *c, void *state, uint64_t now)
{
	freq_sampler_begin(&c->freq, now);
}

static void
freq_tick(struct step_ctx *c, void *state, uint64_t now)
{
	freq_sampler_tick(&c->freq, now);
}

static void
freq_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	st->freq_mhz = freq_sampler_end(&c->freq, now);
}

const struct collector freq_collector = {
	.key = "freq_mhz",
	.begin = freq_begin,
	.tick = freq_tick,
	.end = freq_end,
};

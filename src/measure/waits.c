/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the threads waited over the window: the tally the wait sampler and
 * the probes add to (reset with the window's core, step_ctx.c), made into the
 * step's shares at its end, after every other collector's.
 */
#include <stdlib.h>

#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

/* Without memory the step just has no wait profile. */
static void
waits_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	free(st->waits);
	st->waits = NULL;
	st->nwaits = 0;
	if (wait_tally_shares(&c->waits, WAITS_PER_FAMILY, &st->waits, &st->nwaits) != 0)
		session_add_event(c->s, c->idx, EV_WARNING, st->start_s,
				  "the step's wait profile was lost: out of memory");
}

const struct collector waits_collector = {
	.key = "waits",
	.end = waits_end,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/* --target's processes over the window (target.h), as a collector. */
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"
#include "../engine/target.h"

static void
target_begin(struct step_ctx *c, void *state, uint64_t now)
{
	if (c->target == NULL)
		return;
	target_window_begin(c->target, now);
	/* Its processes were just found; but a warm-up shorter than a tick found none yet. */
	if (c->ws_pids_ns != 0)
		c->ws_pids_ns = now;
}

static void
target_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	char hint[160];

	if (c->target == NULL)
		return;
	target_window_end(c->target, now, c->close.seconds, c->close.ops, &st->ct,
			  st->ncpu > 0 ? st->ncpu : c->s->host.ncpus, &st->tg);
	if (st->tg.procs > 0)
		return;
	target_missing_hint(c->target, hint, sizeof(hint));
	session_add_event(c->s, c->idx, EV_WARNING, session_time(c->s, now),
			  "N=%d: --target found no process in the window: %s?", st->n, hint);
}

const struct collector target_collector = {
	.key = "target",
	.begin = target_begin,
	.end = target_end,
};

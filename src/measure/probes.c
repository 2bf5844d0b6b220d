/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --probe as a collector: its commands run while the window is open and add
 * to its wait tally (probe.h); with --target, their TID lines are joined
 * to the target's threads.
 */
#include <stdlib.h>

#include "scaletop/grow.h"
#include "scaletop/measures.h"
#include "../engine/probe.h"
#include "../engine/step_ctx.h"
#include "../engine/target.h"

/* Collects a process's thread ids (thread_samples_read's callback). */
struct tid_list {
	pid_t *v;
	size_t n, cap;
};

static void
probes_note_tid(const struct thread_sample *t, void *arg)
{
	struct tid_list *l = arg;

	if (grow_array(&l->v, &l->cap, l->n + 1, sizeof(*l->v), 256) != 0)
		return;
	l->v[l->n++] = t->tid;
}

static bool
tid_in(const pid_t *v, size_t n, pid_t tid)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i] == tid)
			return true;
	}
	return false;
}

/*
 * The join's question (probe.h): which TIDs are threads of the target's
 * processes, as its last find found them.  A PostgreSQL backend's TID is
 * its pid, so the pids answer first; only a TID they do not name makes the
 * processes' threads be listed, once for the run.  The wait sampler reads
 * the same threads, and could answer from its marks instead.
 */
static int
probes_target_threads(void *arg, const pid_t *tids, size_t n, bool *is_target)
{
	struct step_ctx *c = arg;
	struct tid_list all = { NULL, 0, 0 };
	const pid_t *tp;
	size_t ntp, i, left = 0;

	if (c->target == NULL)
		return -1;
	tp = target_found(c->target, &ntp);
	for (i = 0; i < n; i++) {
		is_target[i] = tid_in(tp, ntp, tids[i]);
		left += !is_target[i];
	}
	for (i = 0; left > 0 && i < ntp; i++)
		(void)thread_samples_read(tp[i], probes_note_tid, &all);
	for (i = 0; left > 0 && i < n; i++) {
		if (!is_target[i])
			is_target[i] = tid_in(all.v, all.n, tids[i]);
	}
	free(all.v);
	return 0;
}

/* The runners are made at the first window, and hold for the context's life. */
static void
probes_collector_begin(struct step_ctx *c, void *state, uint64_t now)
{
	if (c->probes == NULL && c->s->set.nprobes > 0 && c->loop != NULL) {
		c->probes = probes_new(c->s, c->loop);
		if (c->target != NULL)
			probes_set_threads(c->probes, probes_target_threads, c);
	}
	probes_begin(c->probes, c->idx, &c->waits, now);
}

static void
probes_collector_tick(struct step_ctx *c, void *state, uint64_t now)
{
	probes_tick(c->probes, now);
}

static void
probes_collector_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot,
		     uint64_t now)
{
	probes_end(c->probes, now);
}

const struct collector probes_collector = {
	.key = "probe_join",
	.begin = probes_collector_begin,
	.tick = probes_collector_tick,
	.end = probes_collector_end,
};

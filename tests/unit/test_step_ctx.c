/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step context (step_ctx.c), driven by a fake kind of step instead of
 * the sweep: the kind's state is allocated, reused and released; a step's
 * end reaches the bound callback; the measurement window turns counts into
 * the step's figures; and a fixed-length window ends at the nearest tick,
 * or measures on while its CI is wider than its mean.  And the two real
 * kinds' tables are complete.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/engine/step_ctx.h"
#include "../tap.h"

#define SEC UINT64_C(1000000000)

struct fake_state {
	int marker;
};

static int fake_released;
static int fake_npids;

static int
fake_task_pids(struct step_ctx *c, pid_t *pids, int max)
{
	(void)c;
	if (fake_npids == 0 || max < 1)
		return 0;
	pids[0] = getpid();
	return 1;
}

static void
fake_release(struct step_ctx *c)
{
	(void)c;
	fake_released++;
}

static const struct step_kind fake_kind = {
	.name = "fake",
	.size = sizeof(struct fake_state),
	.per_worker = true,
	.task_pids = fake_task_pids,
	.release = fake_release,
};

static int ended;
static enum step_status ended_status;
static char ended_reason[64];

static void
fake_end(void *arg, enum step_status status, const char *reason)
{
	(void)arg;
	ended++;
	ended_status = status;
	strcpy(ended_reason, reason != NULL ? reason : "");
}

static void
bind(struct step_ctx *c, struct session *s, struct sweep_live *live)
{
	step_ctx_init(c);
	c->s = s;
	c->live = live;
	c->end = fake_end;
}

static void
test_state(struct session *s, struct sweep_live *live)
{
	struct step_ctx c;
	struct fake_state *st;

	bind(&c, s, live);
	session_add_step(s, 4, 0);
	is_int(step_ctx_begin(&c, &fake_kind, 0, 4, 7 * SEC), 0, "begin: the kind's state is made");
	ok(c.state != NULL && c.kind == &fake_kind, "begin: the state and kind are the context's");
	is_int(c.idx, 0, "begin: the step's index");
	is_int(c.n, 4, "begin: its N");
	is_u64(c.start_ns, 7 * SEC, "begin: when it was launched");
	is_int(fake_released, 0, "begin: nothing to release before the first step");
	st = c.state;
	st->marker = 42;
	c.go_ns = 8 * SEC;
	c.have_last_task = true;

	session_add_step(s, 8, 0);
	step_ctx_begin(&c, &fake_kind, 1, 8, 9 * SEC);
	is_int(fake_released, 1, "the next step: the last one's state is released");
	ok(c.state == st && st->marker == 0, "and its block is zeroed for the same kind");
	ok(c.go_ns == 0 && !c.have_last_task, "the per-step fields start afresh");
	is_int(step_ctx_step(&c)->n, 8, "step_ctx_step: the session's step at idx");

	step_ctx_end(&c, STEP_FAILED, "why not");
	is_int(ended, 1, "step_ctx_end reaches the bound callback once");
	ok(ended_status == STEP_FAILED && strcmp(ended_reason, "why not") == 0,
	   "with the kind's status and reason");

	step_ctx_enter(&c, PHASE_WARMUP, 10 * SEC);
	ok(live->phase == PHASE_WARMUP && c.phase_ns == 10 * SEC && live->phase_s == 0,
	   "enter: the live phase and when it began");
	step_ctx_rate(&c, 123.5);
	ok(live->have_rate && live->rate == 123.5, "rate: the live view's throughput");

	step_ctx_free(&c);
	is_int(fake_released, 2, "free: the last state is released");
}

static void
test_tasks(struct session *s, struct sweep_live *live)
{
	struct step_ctx c;
	struct task_counters t;

	bind(&c, s, live);
	ok(!step_ctx_read_tasks(&c, &t) && t.have == 0, "no step: no tasks to read");
	step_ctx_begin(&c, &fake_kind, 0, 1, SEC);
	fake_npids = 0;
	ok(!step_ctx_read_tasks(&c, &t) && t.have == 0, "a kind with no pids: nothing read");
	fake_npids = 1;
	ok(step_ctx_read_tasks(&c, &t) && t.nthreads >= 1, "the kind's pids are read and summed");
	fake_npids = 0;
	step_ctx_free(&c);
}

static void
test_window(struct session *s, struct sweep_live *live)
{
	struct step_ctx c;
	struct step *st;
	int i;

	bind(&c, s, live);
	s->set.duration_s = 1;
	s->set.interval_s = 0.25;
	s->set.stable_pct = 0;
	session_add_step(s, 2, 0);
	step_ctx_begin(&c, &fake_kind, s->nsteps - 1, 2, 0);
	c.go_ns = 1 * SEC;
	step_ctx_window_begin(&c, 3 * SEC / 2, 100, 10, 20);
	st = step_ctx_step(&c);
	is_int(live->phase, PHASE_MEASURING, "window begin: measuring");
	is_double(st->warmup_s, 0.5, 1e-12, "window begin: the warm-up's length");
	for (i = 0; i < 4; i++)
		step_add_interval(st, 1000);
	ok(!step_ctx_window_complete(&c, 3 * SEC / 2 + 800000000u),
	   "0.8 s of a 1 s window: more than half a tick short, not yet complete");
	ok(step_ctx_window_complete(&c, 3 * SEC / 2 + 900000000u),
	   "0.9 s: within half a tick of its length, complete");
	step_ctx_window_end(&c, 5 * SEC / 2, 1100, 10, 20);
	is_u64(st->ops, 1000, "window end: the operations across it");
	is_double(st->window_s, 1, 1e-12, "window end: its length");
	is_double(st->ops_s, 1000, 1e-9, "window end: the rate is ops over the measured time");
	is_int(st->niv, 4, "window end: the intervals are kept");

	session_add_step(s, 2, 1);
	step_ctx_begin(&c, &fake_kind, s->nsteps - 1, 2, 0);
	step_ctx_window_begin(&c, 0, 0, 0, 0);
	st = step_ctx_step(&c);
	step_add_interval(st, 10);
	step_add_interval(st, 5000);
	step_add_interval(st, 1);
	ok(!step_ctx_window_complete(&c, SEC),
	   "a window whose CI is wider than its mean measures on past its length");
	ok(step_ctx_window_complete(&c, 3 * SEC), "up to STATS_WIDE_EXTEND times its length");
	step_ctx_free(&c);
}

static void
test_live_contention(struct session *s, struct sweep_live *live)
{
	struct step_ctx c;

	bind(&c, s, live);
	session_add_step(s, 1, 0);
	step_ctx_begin(&c, &fake_kind, s->nsteps - 1, 1, 0);
	live->have_ct = false;
	step_ctx_enter(&c, PHASE_WARMUP, 0);
	step_ctx_live_contention(&c, 2 * SEC, 10, 0, 0);
	ok(!live->have_ct, "live contention: none before the window opens");
	step_ctx_window_begin(&c, 2 * SEC, 0, 0, 0);
	step_ctx_live_contention(&c, 3 * SEC, 10, 0, 0);
	ok(live->have_ct, "live contention: worked out while measuring");
	is_u64(c.live_ct_ns, 3 * SEC, "and when");
	step_ctx_live_contention(&c, 3 * SEC + SEC / 2, 20, 0, 0);
	is_u64(c.live_ct_ns, 3 * SEC, "not again within a second");
	step_ctx_free(&c);
}

/* The two kinds' tables: every operation the sweep calls is there. */
static void
test_tables(void)
{
	const struct step_kind *k[] = { &builtin_step_kind, &external_step_kind };
	int i;

	for (i = 0; i < 2; i++)
		ok(k[i]->size > 0 && k[i]->start != NULL && k[i]->tick != NULL &&
			   k[i]->abort != NULL && k[i]->task_pids != NULL && k[i]->release != NULL,
		   "%s: a private state and every operation", k[i]->name);
	ok(builtin_step_kind.pause != NULL && builtin_step_kind.per_worker,
	   "built-in: can be held, and its N are its workers");
	ok(external_step_kind.pause == NULL && !external_step_kind.per_worker,
	   "external: runs on through a pause, and its threads are summed");
}

int
main(void)
{
	struct session s;
	struct sweep_live live;

	session_init(&s);
	memset(&live, 0, sizeof(live));
	test_state(&s, &live);
	test_tasks(&s, &live);
	test_window(&s, &live);
	test_live_contention(&s, &live);
	test_tables();
	free(live.waits); /* the live profile is the sweep's to free; here the test is the sweep */
	session_free(&s);
	return done_testing();
}

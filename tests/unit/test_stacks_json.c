/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's whole stacks through a snapshot and a stream (stacks_write.c,
 * stacks_read.c): on-CPU and off-CPU stacks come back frame for frame;
 * a set too large for a stream's line is written down to its budget, the rest in
 * "other", and still reads back with its counts adding up to the samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "json_steps.h"
#include "scaletop/hotstacks.h"

static char tmpdir[] = "/tmp/test_stacks_json.XXXXXX";

#define BIG_STACKS HOT_STACKS_MAX
#define BIG_FRAMES 16

static struct hot_stacks *
small_set(bool kernel_only)
{
	struct hot_stacks *s = hot_stacks_new();
	const char *a[] = { "main", "worker", "mutex_work", "do_syscall_64", "futex_wait" };
	const char *b[] = { "main", "std::map<int, int>::find(int const&)" };

	if (kernel_only) {
		(void)hot_stacks_add_names(s, WAIT_WORKLOAD, a + 3, 2, 2, 1234);
		(void)hot_stacks_add_names(s, WAIT_TARGET, a + 4, 1, 1, 56);
		s->other[WAIT_WORKLOAD] = 7;
	} else {
		(void)hot_stacks_add_names(s, WAIT_WORKLOAD, a, 5, 2, 30);
		(void)hot_stacks_add_names(s, WAIT_WORKLOAD, b, 2, 0, 12);
		(void)hot_stacks_add_names(s, WAIT_TARGET, b, 2, 0, 8);
		s->other[WAIT_WORKLOAD] = 3;
	}
	hot_stacks_finish(s, 0);
	return s;
}

/* Distinct long names on every frame: far past what a stream's line may carry. */
static struct hot_stacks *
big_set(uint64_t *total)
{
	struct hot_stacks *s = hot_stacks_new();
	char buf[BIG_FRAMES][200];
	const char *name[BIG_FRAMES];
	int i, j;

	*total = 0;
	for (i = 0; i < BIG_STACKS; i++) {
		for (j = 0; j < BIG_FRAMES; j++) {
			snprintf(buf[j], sizeof(buf[j]), "frame_%d_%d_%0150d", i, j, 0);
			name[j] = buf[j];
		}
		(void)hot_stacks_add_names(s, WAIT_WORKLOAD, name, BIG_FRAMES, 0, (uint64_t)i + 1);
		*total += (uint64_t)i + 1;
	}
	hot_stacks_finish(s, 0);
	return s;
}

static int
same_stacks(const struct hot_stacks *a, const struct hot_stacks *b)
{
	const struct hot_stack *x, *y;
	int i;
	uint32_t j;

	if (a == NULL || b == NULL || a->nstacks != b->nstacks ||
	    memcmp(a->other, b->other, sizeof(a->other)) != 0)
		return 0;
	for (i = 0; i < a->nstacks; i++) {
		x = &a->stack[i];
		y = &b->stack[i];
		if (x->family != y->family || x->count != y->count || x->nframes != y->nframes ||
		    x->nkernel != y->nkernel)
			return 0;
		for (j = 0; j < x->nframes; j++)
			if (strcmp(a->name[a->frame[x->at + j]], b->name[b->frame[y->at + j]]) != 0)
				return 0;
	}
	return 1;
}

static void
make_session(struct session *s, uint64_t *big_total)
{
	static const int n[] = { 1, 2 };
	struct step *st;

	json_steps_session(s, "mutex", n, 2);
	st = &s->steps[0];
	st->hot.present = true;
	st->hot.samples[WAIT_WORKLOAD] = 45;
	st->hot.samples[WAIT_TARGET] = 8;
	st->hot.stacks = small_set(false);
	st->kstacks.present = true;
	st->kstacks.stacks = small_set(true);
	st = &s->steps[1];
	st->hot.present = true;
	st->hot.stacks = big_set(big_total);
	st->hot.samples[WAIT_WORKLOAD] = *big_total;
}

static void
check_big(const struct step_hot *h, uint64_t total, const char *what)
{
	const struct hot_stacks *s = h->stacks;

	ok(s != NULL && s->nstacks > 0 && s->nstacks < BIG_STACKS,
	   "%s: the large set is written down to its budget (%d of %d stacks)", what,
	   s != NULL ? s->nstacks : -1, BIG_STACKS);
	ok(s != NULL && s->stack[0].count == BIG_STACKS, "%s: the largest stack kept", what);
	ok(s != NULL && hot_stacks_total(s, WAIT_WORKLOAD) == total,
	   "%s: its counts and other add up to the samples", what);
	ok(s != NULL && s->nnames == s->nstacks * BIG_FRAMES,
	   "%s: only the names the written stacks use are written", what);
}

static void
test_round_trips(void)
{
	struct snapshot snap;
	struct session s;
	struct stream_reader *r;
	const struct session *got;
	uint64_t big_total;

	make_session(&s, &big_total);
	if (json_steps_round_trip(&s, tmpdir, &snap, &r) == 0) {
		ok(same_stacks(snap.s.steps[0].hot.stacks, s.steps[0].hot.stacks),
		   "the on-CPU stacks come back frame for frame");
		ok(same_stacks(snap.s.steps[0].kstacks.stacks, s.steps[0].kstacks.stacks),
		   "the off-CPU stacks too");
		check_big(&snap.s.steps[1].hot, big_total, "snapshot");
		snapshot_free(&snap);
		got = stream_reader_session(r);
		ok(same_stacks(got->steps[0].hot.stacks, s.steps[0].hot.stacks),
		   "the stream's step has the same stacks");
		check_big(&got->steps[1].hot, big_total, "stream");
		stream_reader_free(r);
	}
	session_free(&s);
}

static void
make_small(struct session *s)
{
	uint64_t total;

	make_session(s, &total);
}

static void
test_refusals(void)
{
	json_steps_refused(make_small, "steps.0.hot.stacks.workload.0.1", json_integer(9),
			   "out of range");
	json_steps_refused(make_small, "steps.0.hot.stacks.other.workload", json_integer(4),
			   "the workload family's stacks count 46 samples and the step 45");
	json_steps_refused(make_small, "steps.0.kstacks.stacks.names.0", json_integer(1),
			   "expected a string");
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return ok(0, "mkdtemp"), done_testing();
	test_round_trips();
	test_refusals();
	remove_tree(tmpdir);
	return done_testing();
}

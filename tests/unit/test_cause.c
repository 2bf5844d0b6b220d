/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cause a collapse's verdict names (src/model/analysis_cause.c), on
 * hand-built sessions whose steps carry wait profiles made by the real
 * tally (waits.h): the category that grew most is named with its shares at
 * both N; the target comes before the workload and the workload before the
 * probes; a rise under the minimum, running, and the folded rest are never
 * named; at most two categories; repeats at one N are pooled; and no
 * waits, waits without a collapse, or a collapse where nothing grew leave
 * the verdict as it was.  Every verdict is checked word for word.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/session.h"
#include "../../src/model/analysis_cause.h"
#include "../tap.h"

/* A curve that collapses above 4: 67% of its peak at 32. */
static const int coll_n[] = { 1, 2, 4, 8, 16, 32 };
static const double coll_x[] = { 1000, 1950, 3800, 3000, 2600, 2550 };
#define COLLAPSE_VERDICT                                                                      \
	"collapse above 4: 67% of peak at 32; scales to 4 threads (efficiency >= 90%); peak " \
	"3.80k ops/s at 4"

/* One line of a profile to be: family, state, channel, weight (thread-seconds or labels). */
struct w {
	enum wait_family f;
	enum wait_state s;
	const char *ch;
	double weight;
};

static struct step *
add(struct session *s, int n, double x, enum step_status status)
{
	struct step *st = session_add_step(s, n, 0);

	st->ops_s = x;
	st->status = status;
	return st;
}

/* The step's profile from weights, through the tally as the step context makes it. */
static void
profile(struct step *st, const struct w *w, int k)
{
	struct wait_tally t;
	int i;

	wait_tally_init(&t);
	for (i = 0; i < k; i++)
		wait_tally_add(&t, w[i].f, w[i].s, w[i].ch, w[i].weight);
	free(st->waits);
	if (wait_tally_shares(&t, 12, &st->waits, &st->nwaits) != 0)
		diag("wait_tally_shares: out of memory");
	wait_tally_free(&t);
}

/* The collapsing curve, one run per N, no profiles. */
static void
collapsing(struct session *s)
{
	int i;

	session_init(s);
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "threads");
	for (i = 0; i < 6; i++)
		add(s, coll_n[i], coll_x[i], STEP_OK);
}

/* The step at n (the first run). */
static struct step *
at(struct session *s, int n)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n)
			return &s->steps[i];
	}
	return NULL;
}

static void
verdict_of(const struct session *s, struct analysis *a)
{
	if (analysis_run(s, NULL, a) != 0)
		diag("analysis_run failed");
}

static const struct w peak_target[] = {
	{ WAIT_TARGET, WS_RUNNING, "", 92 },
	{ WAIT_TARGET, WS_RUNNABLE, "", 3 },
	{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 5 },
};
static const struct w fall_target[] = {
	{ WAIT_TARGET, WS_RUNNING, "", 21 },
	{ WAIT_TARGET, WS_RUNNABLE, "", 41 },
	{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 38 },
};

static void
test_unchanged(void)
{
	static const int n[] = { 1, 2, 4, 8 };
	static const double x[] = { 1000, 1990, 3960, 7800 };
	struct session s;
	struct analysis a;
	int i;

	collapsing(&s);
	verdict_of(&s, &a);
	is_str(a.verdict, COLLAPSE_VERDICT, "no waits at all: the verdict as it always was");
	ok(!a.cause.found, "and no cause");
	analysis_free(&a);
	session_free(&s);

	/* Waits that change a lot, on a curve without collapse. */
	session_init(&s);
	for (i = 0; i < 4; i++)
		add(&s, n[i], x[i], STEP_OK);
	profile(at(&s, 1), peak_target, 3);
	profile(at(&s, 8), fall_target, 3);
	verdict_of(&s, &a);
	is_str(a.verdict, "scales linearly to 8 threads: 7.8x at 8",
	       "waits without a collapse: the verdict is unchanged");
	ok(!a.cause.found, "and no cause is looked for");
	analysis_free(&a);
	session_free(&s);

	/* A collapse where no waiting grew: the running share rose, nothing else did. */
	collapsing(&s);
	profile(at(&s, 4), fall_target, 3);
	profile(at(&s, 32), peak_target, 3);
	verdict_of(&s, &a);
	is_str(a.verdict, COLLAPSE_VERDICT, "a collapse where nothing grew: unchanged");
	ok(!a.cause.found, "running is work, never a cause");
	analysis_free(&a);
	session_free(&s);

	/* A profile at only one of the two N: nothing to compare. */
	collapsing(&s);
	profile(at(&s, 32), fall_target, 3);
	verdict_of(&s, &a);
	is_str(a.verdict, COLLAPSE_VERDICT, "a profile at the fall only: unchanged");
	analysis_free(&a);
	session_free(&s);
}

static void
test_target(void)
{
	struct session s;
	struct analysis a;

	collapsing(&s);
	profile(at(&s, 4), peak_target, 3);
	profile(at(&s, 32), fall_target, 3);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32 the target's threads were runnable 41% (3% at 4) and in "
				"futex_wait_queue 38% (5% at 4)",
	       "the issue's example: the two categories that grew, with their shares at both N");
	ok(a.cause.found && a.cause.family == WAIT_TARGET && a.cause.ncat == 2,
	   "the cause: the target, two categories");
	ok(a.cause.n_from == 4 && a.cause.n_to == 32, "between the peak's N and the fallen N");
	is_double(a.cause.cat[0].to - a.cause.cat[0].from, 0.38, 1e-12,
		  "the largest rise first (38 points)");
	analysis_free(&a);
	session_free(&s);
}

/* A step's on-CPU samples: spin share of the family and its one spinning caller. */
static void
spun(struct step *st, enum wait_family f, double share, const char *spin, const char *caller)
{
	step_hot_clear(&st->hot);
	st->hot.present = true;
	st->hot.samples[f] = 400;
	st->hot.spin_share[f] = share;
	if (share <= 0)
		return;
	st->hot.spins = calloc(1, sizeof(*st->hot.spins));
	st->hot.nspins = 1;
	st->hot.spins[0].family = f;
	st->hot.spins[0].share = share;
	st->hot.spins[0].samples = (uint64_t)(400 * share);
	snprintf(st->hot.spins[0].spin, HOT_NAME_LEN, "%s", spin);
	snprintf(st->hot.spins[0].caller, HOT_NAME_LEN, "%s", caller);
}

static void
test_spin(void)
{
	struct session s;
	struct analysis a;

	collapsing(&s);
	spun(at(&s, 4), WAIT_WORKLOAD, 0.04, "native_queued_spin_lock_slowpath", "alloc_fd");
	spun(at(&s, 32), WAIT_WORKLOAD, 0.38, "native_queued_spin_lock_slowpath", "alloc_fd");
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32, 38% of the workload's CPU spun in "
				"native_queued_spin_lock_slowpath from alloc_fd (the fd table's "
				"lock) (4% at 4)",
	       "the spin that grew is named with its caller and the lock it takes");
	ok(a.cause.spin.found && a.cause.spin.family == WAIT_WORKLOAD, "a workload spin cause");
	ok(!a.cause.found, "and no wait category beside it");
	analysis_free(&a);

	/* with a wait category that grew as well, both are said */
	profile(at(&s, 4), peak_target, 3);
	profile(at(&s, 32), fall_target, 3);
	spun(at(&s, 32), WAIT_WORKLOAD, 0.20, "_raw_spin_lock", "");
	verdict_of(&s, &a);
	ok(strstr(a.verdict, "; at 32 the target's threads were runnable 41%") != NULL &&
		   strstr(a.verdict, "; at 32, 20% of the workload's CPU spun in _raw_spin_lock "
				     "(4% at 4)") != NULL,
	   "a wait cause and a spin without a caller, both: %s", a.verdict);
	analysis_free(&a);

	/* a rise under the minimum, or a family sampled at one N only, is no cause */
	spun(at(&s, 32), WAIT_WORKLOAD, 0.13, "_raw_spin_lock", "alloc_fd");
	verdict_of(&s, &a);
	ok(!a.cause.spin.found, "9 points of rise is under the minimum");
	analysis_free(&a);
	step_hot_clear(&at(&s, 4)->hot);
	spun(at(&s, 32), WAIT_WORKLOAD, 0.90, "_raw_spin_lock", "alloc_fd");
	verdict_of(&s, &a);
	ok(!a.cause.spin.found, "no samples at the peak: nothing to compare");
	analysis_free(&a);
	session_free(&s);
}

/* Step st's census saw one lock of family f with this share, waiters and holder. */
static void
censused(struct step *st, enum wait_family f, const char *name, double share, unsigned waiters,
	 pid_t owner, const char *state)
{
	struct step_ulock *u;

	st->ulocks.present = true;
	u = &st->ulocks.lock[st->ulocks.n++];
	memset(u, 0, sizeof(*u));
	u->family = f;
	u->pid = 900;
	snprintf(u->comm, sizeof(u->comm), "mariadbd");
	snprintf(u->name, sizeof(u->name), "%s", name);
	snprintf(u->kind, sizeof(u->kind), "mutex");
	u->share = share;
	u->max_waiters = waiters;
	u->threads = waiters;
	u->owner = owner;
	snprintf(u->owner_state, sizeof(u->owner_state), "%s", state);
}

static void
test_lock(void)
{
	struct session s;
	struct analysis a;

	collapsing(&s);
	censused(at(&s, 4), WAIT_TARGET, "lock_sys+64", 0.03, 2, 0, "");
	censused(at(&s, 32), WAIT_TARGET, "lock_sys+64", 0.41, 41, 4711, "running");
	at(&s, 32)->tg.present = true;
	at(&s, 32)->tg.threads = 64;
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32, 41 of 64 mariadbd threads waited on one futex "
				"(lock_sys+64, held by thread 4711, running)",
	       "the lock whose share grew is named with its waiters and holder");
	ok(a.cause.lock.found && a.cause.lock.family == WAIT_TARGET, "a target lock cause");
	is_double(a.cause.lock.from, 0.03, 1e-9, "its share at the peak");
	is_double(a.cause.lock.to, 0.41, 1e-9, "and at the fall");
	analysis_free(&a);

	/* a lock the peak's census did not see counts 0 there; no owner, no thread count */
	at(&s, 4)->ulocks.n = 0;
	at(&s, 32)->tg.present = false;
	at(&s, 32)->ulocks.n = 0;
	censused(at(&s, 32), WAIT_WORKLOAD, "zero+0x1000", 0.30, 3, 0, "");
	verdict_of(&s, &a);
	ok(strstr(a.verdict, "; at 32, 3 mariadbd threads waited on one futex (zero+0x1000)") !=
		   NULL,
	   "a lock unseen at the peak, no holder: %s", a.verdict);
	analysis_free(&a);

	/* a process-shared futex that 12 processes wait on is said so */
	at(&s, 32)->ulocks.lock[0].shared = true;
	at(&s, 32)->ulocks.lock[0].processes = 12;
	verdict_of(&s, &a);
	ok(strstr(a.verdict, "; at 32, 3 mariadbd threads in 12 processes waited on one shared "
			     "futex (zero+0x1000)") != NULL,
	   "a shared lock names its processes: %s", a.verdict);
	analysis_free(&a);
	at(&s, 32)->ulocks.lock[0].shared = false;
	at(&s, 32)->ulocks.lock[0].processes = 1;

	/* a rise under the minimum, or no census at the peak, is no cause */
	at(&s, 32)->ulocks.lock[0].share = 0.09;
	verdict_of(&s, &a);
	ok(!a.cause.lock.found, "9 points of rise is under the minimum");
	analysis_free(&a);
	at(&s, 4)->ulocks.present = false;
	at(&s, 32)->ulocks.lock[0].share = 0.9;
	verdict_of(&s, &a);
	ok(!a.cause.lock.found, "no census at the peak: nothing to compare");
	analysis_free(&a);
	session_free(&s);
}

/*
 * Idleness is no cause: an idle condvar whose share grew most is passed over
 * for the contended lock, and an event loop's wait (epoll) that grew names no
 * wait category while a real one beside it does.
 */
static void
test_idle(void)
{
	static const struct w peak[] = {
		{ WAIT_TARGET, WS_RUNNING, "", 80 },
		{ WAIT_TARGET, WS_SLEEPING, "do_epoll_wait", 15 },
		{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 5 },
	};
	static const struct w fall[] = {
		{ WAIT_TARGET, WS_RUNNING, "", 20 },
		{ WAIT_TARGET, WS_SLEEPING, "do_epoll_wait", 55 },
		{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 25 },
	};
	struct session s;
	struct analysis a;

	collapsing(&s);
	censused(at(&s, 4), WAIT_TARGET, "lock_sys+64", 0.03, 2, 0, "");
	censused(at(&s, 32), WAIT_TARGET, "lock_sys+64", 0.25, 9, 4711, "");
	censused(at(&s, 4), WAIT_TARGET, "wait_for_tasks (heap)", 0.10, 4, 0, "");
	censused(at(&s, 32), WAIT_TARGET, "wait_for_tasks (heap)", 0.70, 30, 0, "");
	at(&s, 4)->ulocks.lock[1].idle = true;
	at(&s, 32)->ulocks.lock[1].idle = true;
	verdict_of(&s, &a);
	ok(a.cause.lock.found && strcmp(a.cause.lock.name, "lock_sys+64") == 0,
	   "an idle condvar with the larger share and rise is passed over for the lock (%s)",
	   a.cause.lock.found ? a.cause.lock.name : "none");
	analysis_free(&a);
	at(&s, 4)->ulocks.n = at(&s, 32)->ulocks.n = 1;
	at(&s, 4)->ulocks.lock[0] = at(&s, 4)->ulocks.lock[1];
	at(&s, 32)->ulocks.lock[0] = at(&s, 32)->ulocks.lock[1];
	verdict_of(&s, &a);
	ok(!a.cause.lock.found, "an idle wait alone names no lock");
	analysis_free(&a);
	session_free(&s);

	collapsing(&s);
	profile(at(&s, 4), peak, 3);
	profile(at(&s, 32), fall, 3);
	verdict_of(&s, &a);
	ok(a.cause.found && a.cause.ncat == 1 &&
		   strcmp(a.cause.cat[0].channel, "futex_wait_queue") == 0,
	   "epoll's wait grew 40 points and is no cause; the futex wait beside it is: %s",
	   a.verdict);
	analysis_free(&a);
	session_free(&s);
}

static void
test_order(void)
{
	static const struct w peak[] = {
		{ WAIT_WORKLOAD, WS_RUNNING, "", 90 },
		{ WAIT_WORKLOAD, WS_SLEEPING, "unix_stream_read_generic", 10 },
		{ WAIT_TARGET, WS_RUNNING, "", 90 },
		{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 10 },
		{ WAIT_PROBE, WS_REPORTED, "CPU", 95 },
		{ WAIT_PROBE, WS_REPORTED, "Lock:tuple", 5 },
	};
	struct w fall[] = {
		{ WAIT_WORKLOAD, WS_RUNNING, "", 20 },
		{ WAIT_WORKLOAD, WS_SLEEPING, "unix_stream_read_generic", 80 },
		{ WAIT_TARGET, WS_RUNNING, "", 70 },
		{ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 30 },
		{ WAIT_PROBE, WS_REPORTED, "CPU", 50 },
		{ WAIT_PROBE, WS_REPORTED, "Lock:tuple", 50 },
	};
	struct session s;
	struct analysis a;

	collapsing(&s);
	profile(at(&s, 4), peak, 6);
	profile(at(&s, 32), fall, 6);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT
	       "; at 32 the target's threads were in futex_wait_queue 30% (10% at 4)",
	       "the target first, though the workload's waits grew more");
	analysis_free(&a);

	/* The target's rise under the minimum: the workload is asked next. */
	fall[3].weight = 19.9;
	fall[2].weight = 80.1;
	profile(at(&s, 32), fall, 6);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32 the workload's threads were in unix_stream_read_generic "
				"80% (10% at 4)",
	       "a rise of 9.9 points is not worth saying: the workload's is");
	analysis_free(&a);

	/* Neither threads' waits grew: the probes' labels. */
	fall[1].weight = 10;
	fall[0].weight = 90;
	profile(at(&s, 32), fall, 6);
	verdict_of(&s, &a);
	is_str(a.verdict, COLLAPSE_VERDICT "; at 32 the probes reported Lock:tuple 50% (5% at 4)",
	       "then the probes: a label that grew");
	ok(a.cause.family == WAIT_PROBE && a.cause.ncat == 1,
	   "the probes' CPU label fell, so one category");
	analysis_free(&a);
	session_free(&s);
}

static void
test_limits(void)
{
	static const struct w peak[] = {
		{ WAIT_WORKLOAD, WS_RUNNING, "", 100 },
	};
	static const struct w three[] = {
		{ WAIT_WORKLOAD, WS_RUNNING, "", 40 },
		{ WAIT_WORKLOAD, WS_UNINTERRUPTIBLE, "io_schedule", 10 },
		{ WAIT_WORKLOAD, WS_RUNNABLE, "", 30 },
		{ WAIT_WORKLOAD, WS_SLEEPING, "", 20 },
	};
	static const struct w exact[] = {
		{ WAIT_WORKLOAD, WS_RUNNING, "", 50 },
		{ WAIT_WORKLOAD, WS_OTHER, "(rest)", 40 },
		{ WAIT_WORKLOAD, WS_UNINTERRUPTIBLE, "", 10 },
	};
	struct session s;
	struct analysis a;

	collapsing(&s);
	profile(at(&s, 4), peak, 1);
	profile(at(&s, 32), three, 4);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32 the workload's threads were runnable 30% (0% at 4) and "
				"sleeping 20% (0% at 4)",
	       "three grew: the two largest rises are named, a channel-less sleep as sleeping");
	analysis_free(&a);

	profile(at(&s, 32), exact, 3);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32 the workload's threads were uninterruptible 10% (0% at 4)",
	       "a rise of exactly 10 points is named; state other never is");
	analysis_free(&a);
	session_free(&s);
}

static void
test_pooled(void)
{
	static const struct w r1[] = {
		{ WAIT_TARGET, WS_RUNNING, "", 50 },
		{ WAIT_TARGET, WS_RUNNABLE, "", 50 },
	};
	static const struct w r2[] = {
		{ WAIT_TARGET, WS_RUNNING, "", 70 },
		{ WAIT_TARGET, WS_RUNNABLE, "", 30 },
	};
	static const struct w r3[] = {
		{ WAIT_TARGET, WS_RUNNING, "", 100 },
	};
	static const struct w workload_only[] = {
		{ WAIT_WORKLOAD, WS_RUNNABLE, "", 100 },
	};
	struct session s;
	struct analysis a;
	struct step *st;

	collapsing(&s);
	profile(at(&s, 4), r3, 1);
	profile(at(&s, 32), r1, 2);
	st = add(&s, 32, 2550, STEP_OK);
	st->rep = 1;
	profile(st, r2, 2);
	st = add(&s, 32, 2550, STEP_OK);
	st->rep = 2;
	profile(st, workload_only, 1);
	st = add(&s, 32, 2550, STEP_FAILED);
	profile(st, r3, 1);
	st = add(&s, 4, 3800, STEP_OK);
	st->rep = 1;
	profile(st, r1, 2);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       COLLAPSE_VERDICT "; at 32 the target's threads were runnable 40% (25% at 4)",
	       "repeats pooled: the mean of the runs with a target profile, a failed run left out");
	analysis_free(&a);
	session_free(&s);
}

/* A collapse with a recovery names the first collapsed N, and so does its cause. */
static void
test_recovery(void)
{
	static const int n[] = { 1, 2, 4, 8, 16 };
	static const double x[] = { 1000, 1950, 3800, 2000, 3500 };
	struct session s;
	struct analysis a;
	int i;

	session_init(&s);
	for (i = 0; i < 5; i++)
		add(&s, n[i], x[i], STEP_OK);
	profile(at(&s, 4), peak_target, 3);
	profile(at(&s, 8), fall_target, 3);
	profile(at(&s, 16), peak_target, 3);
	verdict_of(&s, &a);
	is_str(a.verdict,
	       "collapse above 4: 53% of peak at 8, back to 92% at 16; scales to 4 threads "
	       "(efficiency >= 90%); peak 3.80k ops/s at 4; at 8 the target's threads were "
	       "runnable 41% "
	       "(3% at 4) and in futex_wait_queue 38% (5% at 4)",
	       "back above the bar at 16: the cause is told at 8, where it fell");
	analysis_free(&a);
	session_free(&s);
}

/* Long labels: the clause is cut to what fits whole, never mid-word. */
static void
test_fit(void)
{
	char l1[64], l2[64], want[400];
	struct w peak[] = {
		{ WAIT_PROBE, WS_REPORTED, "CPU", 100 },
	};
	struct w fall[] = {
		{ WAIT_PROBE, WS_REPORTED, l1, 60 },
		{ WAIT_PROBE, WS_REPORTED, l2, 40 },
	};
	struct session s;
	struct analysis a;

	memset(l1, 'a', 63);
	memset(l2, 'b', 63);
	l1[63] = l2[63] = '\0';
	collapsing(&s);
	profile(at(&s, 4), peak, 1);
	profile(at(&s, 32), fall, 2);
	verdict_of(&s, &a);
	snprintf(want, sizeof(want), "%s; at 32 the probes reported %s 60%% (0%% at 4)",
		 COLLAPSE_VERDICT, l1);
	is_str(a.verdict, want, "two long labels do not fit the verdict: the first alone does");
	is_int(a.cause.ncat, 2, "the cause itself keeps both");
	analysis_free(&a);
	session_free(&s);
}

static void
test_text(void)
{
	struct analysis_cause c;
	char buf[128];

	memset(&c, 0, sizeof(c));
	analysis_cause_text(&c, 2, buf, sizeof(buf));
	is_str(buf, "", "no cause: no clause");
	c.found = true;
	c.family = WAIT_TARGET;
	c.n_from = 2;
	c.n_to = 16;
	c.ncat = 1;
	c.cat[0].state = WS_UNINTERRUPTIBLE;
	snprintf(c.cat[0].channel, sizeof(c.cat[0].channel), "io_schedule");
	c.cat[0].from = 0.004;
	c.cat[0].to = 0.256;
	analysis_cause_text(&c, 2, buf, sizeof(buf));
	is_str(buf,
	       "; at 16 the target's threads were uninterruptible in io_schedule 26% (0% at 2)",
	       "uninterruptible with its channel; ncat beyond the cause's own is ignored");
	analysis_cause_text(&c, 1, buf, 20);
	is_int((long long)strlen(buf), 19, "cut to the buffer");
}

int
main(void)
{
	test_unchanged();
	test_target();
	test_spin();
	test_lock();
	test_idle();
	test_order();
	test_limits();
	test_pooled();
	test_recovery();
	test_fit();
	test_text();
	return done_testing();
}

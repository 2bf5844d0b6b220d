/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step runner, run for real with workloads defined here: counting,
 * crashing, failing, stalling, hanging.  After each step nothing may be left
 * of its process group, and no zombie.  Waits are bounded only to catch a
 * hang; nothing asserts on how long anything took.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "scaletop/slot.h"
#include "scaletop/workload.h"
#include "../../src/engine/runner.h"
#include "../tap.h"

#define SEC UINT64_C(1000000000)
#define PATIENCE (60 * SEC) /* only a hang reaches this */
#define GRACE (SEC / 5)
#define MAXW 8
#define INIT_MAGIC 0x5ca1e

static const char *const mode_names[] = { "threads", "processes" };

/* --- test workloads ------------------------------------------------------ */

struct tshared {
	atomic_int magic;    /* set by step_init */
	atomic_int nworkers; /* as step_init was told */
	atomic_int fini;     /* set by step_fini */
	atomic_int bad;      /* a worker saw something wrong */
	_Atomic uint64_t seed[MAXW];
};

static int
t_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers, char *err,
       size_t errlen)
{
	struct tshared *t = shared;

	atomic_store(&t->magic, INIT_MAGIC);
	atomic_store(&t->nworkers, nworkers);
	return 0;
}

static void
t_fini(void *shared, const struct wl_args *a)
{
	atomic_store(&((struct tshared *)shared)->fini, 1);
}

/* Checks what the runner handed the worker. */
static void
t_check(struct wl_worker *w)
{
	struct tshared *t = w->shared;

	if (t == NULL || atomic_load(&t->magic) != INIT_MAGIC || w->index < 0 ||
	    w->index >= w->nworkers || w->nworkers != atomic_load(&t->nworkers) || w->stop == NULL)
		atomic_store(&t->bad, 1);
	else if (w->index < MAXW)
		atomic_store(&t->seed[w->index], w->seed);
}

static int
count_work(struct wl_worker *w)
{
	uint64_t ops = 0;

	t_check(w);
	while (!wl_should_stop(w)) {
		ops++;
		wl_count(w, ops, ops / 2, ops);
	}
	return 0;
}

/* Counts up to `at` operations, or forever when the worker is not the chosen one. */
static uint64_t
count_until(struct wl_worker *w, int who, uint64_t at)
{
	uint64_t ops = 0;

	while (!wl_should_stop(w)) {
		wl_count(w, ++ops, 0, 0);
		if (w->index == who && ops == at)
			break;
	}
	return ops;
}

static int
segv_work(struct wl_worker *w)
{
	count_until(w, 1, 1000);
	if (!wl_should_stop(w) && w->index == 1)
		raise(SIGSEGV);
	return 0;
}

static int
eio_work(struct wl_worker *w)
{
	count_until(w, 0, 1000);
	return w->index == 0 ? EIO : 0;
}

static int
exit7_work(struct wl_worker *w)
{
	count_until(w, 0, 1000);
	if (w->index == 0)
		exit(7);
	return 0;
}

static int
early_work(struct wl_worker *w)
{
	wl_count(w, 1, 0, 0);
	return 0;
}

static void
nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Stops publishing after one operation, but still returns when told. */
static int
stall_work(struct wl_worker *w)
{
	wl_count(w, 1, 0, 0);
	while (!wl_should_stop(w))
		nap_ms(1);
	return 0;
}

/* Stops publishing and never returns. */
static int
hang_work(struct wl_worker *w)
{
	wl_count(w, 1, 0, 0);
	for (;;)
		pause();
	return 0;
}

static int
badinit_init(void *shared, const struct wl_args *a, const struct wl_sweep *sw, int nworkers,
	     char *err, size_t errlen)
{
	fprintf(stderr, "init says hello\n");
	return st_error(err, errlen, "cannot use /nonexistent/dir: No such file or directory");
}

#define TWL(nm, fn)                                                                              \
	{                                                                                        \
		.name = nm, .unit = "ops", .summary = nm, .help = nm,                            \
		.shared_size = sizeof(struct tshared), .step_init = t_init, .step_fini = t_fini, \
		.work = fn                                                                       \
	}

static const struct workload wl_count_ = TWL("count", count_work);
static const struct workload wl_segv = TWL("segv", segv_work);
static const struct workload wl_eio = TWL("eio", eio_work);
static const struct workload wl_exit7 = TWL("exit7", exit7_work);
static const struct workload wl_early = TWL("early", early_work);
static const struct workload wl_stall = TWL("stall", stall_work);
static const struct workload wl_hang = TWL("hang", hang_work);
static const struct workload wl_badinit = { .name = "badinit",
					    .unit = "ops",
					    .summary = "",
					    .help = "",
					    .step_init = badinit_init,
					    .work = count_work };
/* No shared memory and no hooks: the smallest table the runner accepts. */
static const struct workload wl_bare = {
	.name = "bare", .unit = "ops", .summary = "", .help = "", .work = stall_work
};

/* --- helpers ------------------------------------------------------------- */

static struct wl_args targs;
static struct wl_sweep tsweep;

static struct runner *
start(const struct workload *wl, int n, enum runner_mode mode)
{
	struct runner_config cfg = { wl, &targs, &tsweep, n, mode, GRACE, false };
	char err[ST_ERRLEN];
	struct runner *r = runner_start(&cfg, err, sizeof(err));

	if (r == NULL)
		diag("runner_start(%s): %s", wl->name, err);
	return r;
}

static bool
ended(enum runner_state s)
{
	return s == RUNNER_DONE || s == RUNNER_FAILED;
}

/* Polls, as the engine's ticks would, until every worker has counted or the step ended. */
static bool
wait_counting(struct runner *r, struct runner_status *st)
{
	uint64_t deadline = mono_now_ns() + PATIENCE;
	int i;

	while (mono_now_ns() < deadline) {
		int counted = 0;

		if (ended(runner_poll(r, st)))
			return false;
		for (i = 0; i < runner_nworkers(r); i++)
			counted += runner_worker_ops(r, i) > 0;
		if (counted == runner_nworkers(r) && st->state == RUNNER_RUNNING)
			return true;
		nap_ms(2);
	}
	return false;
}

static enum runner_state
wait_end(struct runner *r, struct runner_status *st)
{
	uint64_t deadline = mono_now_ns() + PATIENCE;

	while (!ended(runner_poll(r, st)) && mono_now_ns() < deadline)
		nap_ms(2);
	return st->state;
}

static bool
group_gone(pid_t pgid)
{
	return kill(-pgid, 0) == -1 && errno == ESRCH;
}

/* Frees the runner and checks that nothing of the step is left: no process, no zombie. */
static void
finish(struct runner *r, const char *what)
{
	pid_t pgid = runner_pgid(r);

	runner_free(r);
	ok(group_gone(pgid), "%s: no process left in group %ld", what, (long)pgid);
	ok(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "%s: no zombie", what);
}

/* --- runner tests -------------------------------------------------------- */

static void
test_count(int n, enum runner_mode mode)
{
	struct runner_status st;
	char what[64];
	uint64_t before = mono_now_ns(), sum = 0;
	pid_t pids[MAXW + 1];
	struct tshared *t;
	struct runner *r;
	int np, inpgid = 0, seeds = 1, i, j;

	snprintf(what, sizeof(what), "count %d %s", n, mode_names[mode]);
	if (!ok((r = start(&wl_count_, n, mode)) != NULL, "%s: starts", what))
		return;
	ok(wait_counting(r, &st), "%s: every worker counts", what);
	ok(st.go_ns >= before && st.go_ns <= mono_now_ns(), "%s: go time set", what);

	np = runner_task_pids(r, pids, MAXW + 1);
	for (i = 0; i < np; i++)
		inpgid += getpgid(pids[i]) == runner_pgid(r);
	if (mode == RUNNER_THREADS)
		ok(np == 1 && pids[0] == runner_pgid(r), "%s: task pid is the child", what);
	else
		ok(np == n && pids[0] != runner_pgid(r), "%s: a task pid per worker", what);
	is_int(inpgid, np, "count: task pids are in the step's group");

	runner_stop(r);
	is_int(wait_end(r, &st), RUNNER_DONE, "count: stops cleanly");
	ok(st.reason[0] == '\0', "%s: no reason (%s)", what, st.reason);
	is_int(st.unread, 0, "count: once stopped, every slot reads consistently");
	for (i = 0; i < n; i++)
		sum += runner_worker_ops(r, i);
	ok(sum == st.ops && st.ops >= (uint64_t)n, "%s: ops are the sum over workers (%llu)", what,
	   (unsigned long long)st.ops);
	ok(st.busy_ns == st.ops, "%s: busy_ns summed alongside", what);
	t = runner_shared(r);
	ok(atomic_load(&t->bad) == 0, "%s: workers got index, count, stop and shared", what);
	is_int(atomic_load(&t->fini), 1, "count: step_fini ran");
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			seeds &= atomic_load(&t->seed[i]) != atomic_load(&t->seed[j]);
	ok(seeds, "%s: seeds differ", what);
	finish(r, what);
}

/* A step that must fail on its own, with a reason containing both needles. */
static void
test_fails(const struct workload *wl, int n, enum runner_mode mode, const char *n1, const char *n2)
{
	struct runner_status st;
	struct runner *r;
	char what[64];

	snprintf(what, sizeof(what), "%s %d %s", wl->name, n, mode_names[mode]);
	if (!ok((r = start(wl, n, mode)) != NULL, "%s: starts", what))
		return;
	is_int(wait_end(r, &st), RUNNER_FAILED, "a faulty workload fails its step");
	ok(strstr(st.reason, n1) != NULL && strstr(st.reason, n2) != NULL &&
		   strchr(st.reason, '\n') == NULL,
	   "%s: reason names \"%s\" and \"%s\" (%s)", what, n1, n2, st.reason);
	finish(r, what);
}

static void
test_faults(void)
{
	char sig[64], eio[64];
	int m;

	snprintf(sig, sizeof(sig), "signal %d (%s)", SIGSEGV, strsignal(SIGSEGV));
	snprintf(eio, sizeof(eio), "failed: %s", strerror(EIO));
	for (m = RUNNER_THREADS; m <= RUNNER_PROCESSES; m++) {
		test_fails(&wl_segv, 2, m, "worker 1 killed by", sig);
		test_fails(&wl_eio, 2, m, "worker 0 ", eio);
		test_fails(&wl_early, 1, m, "worker 0 ", "before the step was stopped");
		test_fails(&wl_badinit, 2, m, "badinit: step setup failed",
			   "/nonexistent/dir: No such file");
	}
	test_fails(&wl_exit7, 2, RUNNER_PROCESSES, "worker 0 ", "exited with status 7");
	test_fails(&wl_exit7, 2, RUNNER_THREADS, "step child ", "exited with status 7");
	ok(1, "the monitor (this test) outlived every faulty step");
}

static void
test_output(void)
{
	struct runner_status st;
	struct runner *r;

	if ((r = start(&wl_badinit, 1, RUNNER_THREADS)) == NULL)
		return;
	wait_end(r, &st);
	is_str(st.output, "init says hello", "child output: read through the pipe");
	finish(r, "output");
}

/* A worker that stops publishing: its ops stay flat, and stop still ends it. */
static void
test_stall(enum runner_mode mode)
{
	struct runner_status st;
	struct runner *r;
	char what[64];
	int flat = 1, k;

	snprintf(what, sizeof(what), "stall %s", mode_names[mode]);
	if (!ok((r = start(&wl_stall, 2, mode)) != NULL, "%s: starts", what))
		return;
	ok(wait_counting(r, &st), "%s: published once", what);
	for (k = 0; k < 20; k++) {
		nap_ms(5);
		runner_poll(r, &st);
		flat &= runner_worker_ops(r, 0) == 1 && runner_worker_ops(r, 1) == 1;
	}
	ok(flat && st.state == RUNNER_RUNNING, "%s: per-worker ops stay flat while it runs", what);
	runner_stop(r);
	is_int(wait_end(r, &st), RUNNER_DONE, "stall: stop ends it");
	finish(r, what);
}

/* A worker that ignores stop: the grace runs out, the step fails, nothing is left. */
static void
test_hang(enum runner_mode mode)
{
	struct runner_status st;
	struct runner *r;
	char what[64];

	snprintf(what, sizeof(what), "hang %s", mode_names[mode]);
	if (!ok((r = start(&wl_hang, 3, mode)) != NULL, "%s: starts", what))
		return;
	ok(wait_counting(r, &st), "%s: published once", what);
	runner_stop(r);
	is_int(wait_end(r, &st), RUNNER_FAILED, "hang: fails after the grace");
	ok(strstr(st.reason, "did not stop within 0.2 s") != NULL, "%s: reason (%s)", what,
	   st.reason);
	finish(r, what);
}

static void
test_bare(void)
{
	struct runner_status st;
	struct runner *r;

	if (!ok((r = start(&wl_bare, 1, RUNNER_THREADS)) != NULL, "bare: starts"))
		return;
	ok(runner_shared(r) == NULL, "bare: no shared memory when shared_size is 0");
	ok(wait_counting(r, &st), "bare: runs without step_init");
	runner_stop(r);
	is_int(wait_end(r, &st), RUNNER_DONE, "bare: stops");
	finish(r, "bare");
}

static volatile sig_atomic_t got_term;

static void
on_term(int sig)
{
	got_term = 1;
}

/* The child must not keep the monitor's handlers: a kill of its group must end it. */
static void
test_group_signals(void)
{
	struct sigaction sa;
	struct runner_status st;
	struct runner *r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	if ((r = start(&wl_count_, 2, RUNNER_THREADS)) == NULL)
		return;
	ok(wait_counting(r, &st), "SIGTERM: running");
	kill(-runner_pgid(r), SIGTERM);
	is_int(wait_end(r, &st), RUNNER_FAILED, "SIGTERM to the group ends the step");
	ok(strstr(st.reason, "killed by signal 15") != NULL, "SIGTERM: reason (%s)", st.reason);
	ok(!got_term, "SIGTERM: the monitor's own handler did not run");
	finish(r, "SIGTERM");
	signal(SIGTERM, SIG_DFL);

	if ((r = start(&wl_count_, 2, RUNNER_THREADS)) == NULL)
		return;
	ok(wait_counting(r, &st), "kill_all: running");
	pgroup_kill_all(SIGKILL);
	is_int(wait_end(r, &st), RUNNER_FAILED, "kill_all: the registry reaches the step");
	ok(strstr(st.reason, "killed by signal 9") != NULL, "kill_all: reason (%s)", st.reason);
	finish(r, "kill_all");
}

/* runner_free on a running step (the quit path) ends it at once. */
static void
test_free_running(enum runner_mode mode)
{
	struct runner_status st;
	struct runner *r;
	char what[64];

	snprintf(what, sizeof(what), "free while running %s", mode_names[mode]);
	if ((r = start(&wl_hang, 2, mode)) == NULL)
		return;
	ok(wait_counting(r, &st), "%s: running", what);
	finish(r, what);
}

/* runner_abort (quitting): no grace, and the step counts as stopped, not failed. */
static void
test_abort(enum runner_mode mode)
{
	struct runner_status st;
	struct runner *r;
	char what[64];

	snprintf(what, sizeof(what), "abort %s", mode_names[mode]);
	if ((r = start(&wl_hang, 2, mode)) == NULL)
		return;
	ok(wait_counting(r, &st), "%s: running", what);
	runner_abort(r);
	is_int(wait_end(r, &st), RUNNER_DONE, "abort: ends the step as stopped");
	ok(st.reason[0] == '\0', "%s: no failure reason (%s)", what, st.reason);
	finish(r, what);
}

static void
test_bad_config(void)
{
	struct runner_config cfg = { &wl_count_, &targs, &tsweep, 0, RUNNER_THREADS, 0, false };
	char err[ST_ERRLEN];

	ok(runner_start(&cfg, err, sizeof(err)) == NULL && strstr(err, "0 workers") != NULL,
	   "config: 0 workers refused (%s)", err);
	cfg.nworkers = RUNNER_MAX_WORKERS + 1;
	ok(runner_start(&cfg, err, sizeof(err)) == NULL, "config: too many workers refused");
}

/*
 * The monitor dies by SIGKILL, with no chance to clean up: the step's child
 * and its workers must die with it.  We play init for the orphans
 * (subreaper), so we can see them go and reap them.
 */
static void
test_monitor_death(void)
{
#ifdef __linux__
	int fds[2], st;
	pid_t mon, pgid = -1;
	uint64_t deadline;
	bool gone = false;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1 || pipe(fds) == -1) {
		skip("no subreaper", "monitor death");
		return;
	}
	if ((mon = fork()) == 0) {
		struct runner_status rs;
		struct runner *r = start(&wl_count_, 3, RUNNER_PROCESSES);

		close(fds[0]);
		if (r != NULL && wait_counting(r, &rs)) {
			pid_t g = runner_pgid(r);

			(void)!write(fds[1], &g, sizeof(g));
		}
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &pgid, sizeof(pgid)) != sizeof(pgid))
		pgid = -1;
	close(fds[0]);
	ok(pgid > 0 && !group_gone(pgid), "monitor death: the step runs");
	kill(mon, SIGKILL);
	waitpid(mon, &st, 0);
	deadline = mono_now_ns() + PATIENCE;
	while (pgid > 0 && mono_now_ns() < deadline) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;
		if ((gone = group_gone(pgid)))
			break;
		nap_ms(2);
	}
	ok(gone, "monitor death: the step's whole group died with the monitor");
	ok(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "monitor death: all reaped");
#else
	skip("needs a subreaper to watch orphans", "monitor death");
#endif
}

/* --- slots --------------------------------------------------------------- */

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
test_slot_garbage(void)
{
	static struct wl_slot slot;
	struct slot_view v;
	uint64_t rng = UINT64_C(0x2545f4914f6cdd1d), bytes[sizeof(slot) / 8];
	int accepted = 0, k;
	size_t i;

	slot_publish(&slot, 5, 42, 7, 9);
	ok(slot_read(&slot, 5, &v) && v.ops == 42 && v.wait_ns == 7 && v.busy_ns == 9,
	   "slot: a published slot reads back");
	ok(!slot_read(&slot, 4, &v), "slot: read as another worker's slot, it is rejected");
	/* A writer stopped halfway through its next update (preempted): half a copy is written. */
	atomic_store(&slot.copy[(atomic_load(&slot.seq) + 1) & 1].ops, 43);
	ok(slot_read(&slot, 5, &v) && v.ops == 42,
	   "slot: a writer stopped mid-update leaves its last update readable");
	atomic_store(&slot.seq, atomic_load(&slot.seq) + 1);
	ok(!slot_read(&slot, 5, &v), "slot: a half-written copy that seq points to is rejected");

	for (k = 0; k < 10000; k++) {
		for (i = 0; i < sizeof(bytes) / 8; i++)
			bytes[i] = xorshift(&rng);
		if (k % 2 == 0)
			bytes[0] &= ~UINT64_C(
				1); /* half with an even seq, so only the check word guards */
		memcpy(&slot, bytes, sizeof(slot));
		accepted += slot_read(&slot, 5, &v);
	}
	is_int(accepted, 0, "slot: random bytes over a slot are always rejected");
}

struct tear {
	struct wl_slot slot;
	atomic_int go, stop;
	uint64_t last; /* the writer's last value, read after join */
};

/* Publishes ops = wait_ns = k, busy_ns = 2k for k = 1, 2, ... until told to stop. */
static void *
tear_writer(void *arg)
{
	struct tear *t = arg;
	uint64_t k = 0;

	while (!atomic_load(&t->go))
		;
	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		k++;
		slot_publish(&t->slot, 3, k, k, 2 * k);
	}
	t->last = k;
	return NULL;
}

static void
test_slot_tearing(void)
{
	static struct tear t;
	struct slot_view v;
	uint64_t good = 0, torn = 0, back = 0, last = 0, deadline = mono_now_ns() + PATIENCE;
	pthread_t th;
	uint64_t reads;

	slot_publish(&t.slot, 3, 0, 0, 0);
	if (pthread_create(&th, NULL, tear_writer, &t) != 0) {
		skip("no thread", "tearing");
		return;
	}
	atomic_store(&t.go, 1);
	/* Until both sides have done plenty, however the two threads get scheduled. */
	for (reads = 0; reads < 1000000 || last < 1000000; reads++) {
		if ((reads & 0xffff) == 0 && mono_now_ns() > deadline)
			break;
		if (!slot_read(&t.slot, 3, &v))
			continue;
		good++;
		torn += v.ops != v.wait_ns || v.busy_ns != 2 * v.ops;
		back += v.ops < last;
		last = v.ops;
	}
	atomic_store(&t.stop, 1);
	pthread_join(th, NULL);
	ok(good > 0, "tearing: the reader got consistent reads (%llu)", (unsigned long long)good);
	ok(last >= 1000000, "tearing: and saw the writer's updates (up to %llu)",
	   (unsigned long long)last);
	is_u64(torn, 0, "tearing: no read mixes two updates");
	is_u64(back, 0, "tearing: reads never go backwards");
	ok(slot_read(&t.slot, 3, &v) && v.ops == t.last, "tearing: the last value reads back");
}

int
main(void)
{
	int m;

	memset(&targs, 0, sizeof(targs));
	memset(&tsweep, 0, sizeof(tsweep));
	tsweep.args = &targs;

	test_slot_garbage();
	test_slot_tearing();
	test_bad_config();
	for (m = RUNNER_THREADS; m <= RUNNER_PROCESSES; m++) {
		test_count(1, m);
		test_count(2, m);
		test_count(MAXW, m);
		test_stall(m);
		test_hang(m);
		test_free_running(m);
		test_abort(m);
	}
	test_faults();
	test_output();
	test_bare();
	test_group_signals();
	test_monitor_death();
	return done_testing();
}

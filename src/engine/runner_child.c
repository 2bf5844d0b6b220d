/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step's child: the process runner_start forks.  It runs step_init,
 * starts the N workers (threads, or processes in its group), releases them
 * together at the start line, watches them until the monitor sets stop (or
 * one fails), gives them the grace to return, and forces the rest.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "runner_priv.h"

/*
 * It talks to the monitor only through the control block and the slots
 * (runner_priv.h) and its exit status; it dies with the monitor.
 */

/* One per worker thread. */
struct runner_task {
	struct runner *r;
	int index;
};

/* The child's view of its workers. */
struct runner_child {
	struct runner *r;
	pid_t self;
	int started, nended;
	bool forced; /* we killed the stragglers: their SIGKILL is no news */
	bool *ended;
	pthread_t *threads;
	struct runner_task *tasks;
};

/* Which worker this thread (or process) is, for the crash handler. */
static _Thread_local int runner_self = -1;
static struct runner_ctl *runner_crash_ctl;

/*
 * A fatal signal in a thread takes the whole child down, and wait status
 * alone cannot say which worker it was: note the worker, then let the
 * default action (SA_RESETHAND restored it) end the process with the same
 * signal, so the monitor sees the real one.
 */
static void
runner_on_crash(int sig)
{
	struct runner_ctl *c = runner_crash_ctl;
	int none = -1;

	if (c != NULL && runner_self >= 0 &&
	    atomic_compare_exchange_strong(&c->crash_worker, &none, runner_self))
		atomic_store(&c->crash_signal, sig);
	raise(sig);
}

static void
runner_catch_crashes(struct runner_ctl *c)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS };
	struct sigaction sa;
	size_t i;

	runner_crash_ctl = c;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = runner_on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		(void)sigaction(sigs[i], &sa, NULL);
}

/* Records the first failure only: later ones are usually its consequences. */
static void
runner_fail(struct runner_ctl *c, enum runner_fail kind, int worker, int code)
{
	if (atomic_load_explicit(&c->fail, memory_order_relaxed) != RF_NONE)
		return;
	c->fail_worker = worker;
	c->fail_code = code;
	atomic_store_explicit(&c->fail, (int)kind, memory_order_release);
	atomic_store(&c->stop, 1);
}

static bool
runner_flag(atomic_int *f)
{
	return atomic_load_explicit(f, memory_order_acquire) != 0;
}

/* splitmix64: distinct, well-mixed seeds from small indexes, the same every run. */
static uint64_t
runner_seed(int index)
{
	uint64_t z = (uint64_t)(index + 1) * UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A worker, thread or process: start line, work(), and the outcome in its slot. */
static int
runner_work(struct runner *r, int i)
{
	struct runner_ctl *c = r->ctl;
	struct wl_slot *s = &r->slots[i];
	struct wl_worker w;
	int rc;

	memset(&w, 0, sizeof(w));
	w.index = i;
	w.nworkers = r->cfg.nworkers;
	w.slot = s;
	w.stop = &c->stop;
	w.shared = r->shared;
	w.args = r->cfg.args;
	w.sweep = r->cfg.sweep;
	w.seed = runner_seed(i);
	if (r->wlat != NULL) {
		w.lat = &r->wlat[RUNNER_LAT_N * i + RUNNER_LAT_OPS];
		w.lat_sync = &r->wlat[RUNNER_LAT_N * i + RUNNER_LAT_SYNC];
		w.lat_on = &c->lat_on;
		w.lat_epoch = &c->lat_epoch;
		/* By its worker, in zeroed memory: a page or two of its own. */
		lathist_clear(w.lat);
		lathist_clear(w.lat_sync);
	}
	runner_self = i;

	atomic_store(&s->state, SLOT_READY);
	if (!startline_wait(&r->gate, &c->stop)) {
		atomic_store(&s->state, SLOT_DONE);
		return 0;
	}
	atomic_store(&s->state, SLOT_RUNNING);
	rc = r->cfg.wl->work(&w);
	atomic_store(&s->error, rc);
	atomic_store_explicit(&s->state, rc != 0 ? SLOT_FAILED : SLOT_DONE, memory_order_release);
	return rc;
}

static void *
runner_thread(void *arg)
{
	struct runner_task *t = arg;

	runner_work(t->r, t->index);
	return NULL;
}

static int
runner_start_one(struct runner_child *ch, int i)
{
	struct runner *r = ch->r;
	pid_t pid;

	if (r->cfg.mode == RUNNER_THREADS) {
		ch->tasks[i].r = r;
		ch->tasks[i].index = i;
		return pthread_create(&ch->threads[i], NULL, runner_thread, &ch->tasks[i]);
	}
	if ((pid = fork()) == -1)
		return errno;
	if (pid == 0) {
		if (pgroup_child_link(ch->self) == -1)
			_exit(127);
		startline_forked(&r->gate);
		_exit(runner_work(r, i) == 0 ? 0 : RUNNER_WORKER_FAILED);
	}
	atomic_store(&r->ctl->pids[i], pid);
	return 0;
}

static void
runner_ended(struct runner_child *ch, int i)
{
	ch->ended[i] = true;
	ch->nended++;
}

/* A worker process has been reaped: what happened to it. */
static void
runner_worker_exit(struct runner_child *ch, int i, int st)
{
	struct runner_ctl *c = ch->r->ctl;
	struct wl_slot *s = &ch->r->slots[i];

	atomic_store(&c->pids[i], 0);
	runner_ended(ch, i);
	if (WIFSIGNALED(st) && ch->forced && WTERMSIG(st) == SIGKILL)
		return;
	if (WIFSIGNALED(st))
		runner_fail(c, RF_SIGNAL, i, WTERMSIG(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == RUNNER_WORKER_FAILED &&
		 atomic_load(&s->state) == SLOT_FAILED)
		runner_fail(c, RF_ERROR, i, atomic_load(&s->error));
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		runner_fail(c, RF_EXIT, i, WEXITSTATUS(st));
	else if (!runner_flag(&c->stop))
		runner_fail(c, RF_EARLY, i, 0);
}

/* Notices workers that have finished, without blocking. */
static void
runner_check_workers(struct runner_child *ch)
{
	struct runner_ctl *c = ch->r->ctl;
	pid_t pid;
	int st, state, i;

	if (ch->r->cfg.mode == RUNNER_PROCESSES) {
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (i = 0; i < ch->started; i++) {
				if (!ch->ended[i] && atomic_load(&c->pids[i]) == pid) {
					runner_worker_exit(ch, i, st);
					break;
				}
			}
		}
		return;
	}
	for (i = 0; i < ch->started; i++) {
		if (ch->ended[i])
			continue;
		state = atomic_load_explicit(&ch->r->slots[i].state, memory_order_acquire);
		if (state != SLOT_DONE && state != SLOT_FAILED)
			continue;
		/* The thread stores its state just before it returns, so this join is short. */
		pthread_join(ch->threads[i], NULL);
		runner_ended(ch, i);
		if (state == SLOT_FAILED)
			runner_fail(c, RF_ERROR, i, atomic_load(&ch->r->slots[i].error));
		else if (!runner_flag(&c->stop))
			runner_fail(c, RF_EARLY, i, 0);
	}
}

/*
 * Where the kernel cannot kill us with the monitor, notice it ourselves and wind down
 * at once; reaping our workers first leaves no zombie to an init that might not reap.
 */
static void
runner_check_monitor(struct runner_child *ch)
{
	if (getppid() != ch->r->monitor) {
		atomic_store(&ch->r->ctl->abort, 1);
		atomic_store(&ch->r->ctl->stop, 1);
	}
}

/* Kills the workers still running: our unreaped children, so the pids are surely theirs. */
static void
runner_kill_workers(struct runner_child *ch)
{
	pid_t pid;
	int i;

	for (i = 0; i < ch->started; i++) {
		if (!ch->ended[i] && (pid = atomic_load(&ch->r->ctl->pids[i])) > 0)
			(void)kill(pid, SIGKILL);
	}
}

static int
runner_first_running(const struct runner_child *ch)
{
	int i;

	for (i = 0; i < ch->started; i++) {
		if (!ch->ended[i])
			return i;
	}
	return -1;
}

/* After stop: the grace for the workers to return, then force. */
static void
runner_wind_down(struct runner_child *ch)
{
	struct runner_ctl *c = ch->r->ctl;
	uint64_t deadline = mono_now_ns() + c->grace_ns;

	atomic_store(&c->stop, 1);
	for (;;) {
		runner_check_workers(ch);
		if (ch->nended == ch->started)
			return;
		if (!ch->forced && (runner_flag(&c->abort) || mono_now_ns() >= deadline)) {
			if (!runner_flag(&c->abort))
				runner_fail(c, RF_STUCK, runner_first_running(ch), 0);
			/* A thread cannot be killed alone, and step_fini must not run under it. */
			if (ch->r->cfg.mode == RUNNER_THREADS)
				_exit(atomic_load(&c->fail) != RF_NONE ? RUNNER_EXIT_FAILED : 0);
			ch->forced = true;
			runner_kill_workers(ch);
		}
		runner_check_monitor(ch);
		runner_nap(RUNNER_STOP_NAP_NS);
	}
}

/*
 * One histogram a worker, in memory the workers share with the child (they
 * may be processes) but the monitor never maps: it gets the merge alone.
 * Without the memory the step is not timed, and is measured all the same.
 */
static void
runner_latency_map(struct runner *r)
{
	size_t len = (size_t)r->cfg.nworkers * RUNNER_LAT_N * sizeof(*r->wlat);
	void *p;

	if (!r->cfg.latency)
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	r->wlat = p != MAP_FAILED ? p : NULL;
}

/* Every worker has returned: their histograms into the monitor's, and the flag that says so. */
static void
runner_latency_merge(struct runner_child *ch)
{
	struct runner *r = ch->r;
	int i, k;

	if (r->wlat == NULL)
		return;
	for (k = 0; k < RUNNER_LAT_N; k++) {
		lathist_init(&r->lat[k]);
		for (i = 0; i < ch->started; i++)
			lathist_merge(&r->lat[k], &r->wlat[RUNNER_LAT_N * i + k]);
	}
	atomic_store_explicit(&r->ctl->lat_merged, 1, memory_order_release);
}

/* Start line to stop: release the workers together, then watch them. */
static void
runner_watch(struct runner_child *ch)
{
	struct runner_ctl *c = ch->r->ctl;

	while (!runner_flag(&c->stop)) {
		if (startline_ready(&ch->r->gate) == ch->started) {
			startline_release(&ch->r->gate);
			break;
		}
		runner_check_workers(ch);
		runner_check_monitor(ch);
		runner_nap(RUNNER_GATHER_NAP_NS);
	}
	/* Stopped before the release: the waiting workers must wake to return. */
	startline_close(&ch->r->gate);
	while (!runner_flag(&c->stop)) {
		runner_check_workers(ch);
		runner_check_monitor(ch);
		runner_nap(RUNNER_RUN_NAP_NS);
	}
}

static void
runner_child_stdio(int outfd)
{
	int null = open("/dev/null", O_RDONLY);

	/* outfd is above 2 (spawn_pipe), so these cannot collide. */
	if (null != -1) {
		(void)dup2(null, 0);
		if (null > 2)
			close(null);
	}
	(void)dup2(outfd, 1);
	(void)dup2(outfd, 2);
	close(outfd);
}

void
runner_child(struct runner *r, int outfd)
{
	struct runner_ctl *c = r->ctl;
	const struct workload *wl = r->cfg.wl;
	struct runner_child ch;
	int n = r->cfg.nworkers, rc, i;

	runner_child_stdio(outfd);
	runner_catch_crashes(c);
	memset(&ch, 0, sizeof(ch));
	ch.r = r;
	ch.self = getpid();
	ch.ended = calloc((size_t)n, sizeof(*ch.ended));
	ch.threads = calloc((size_t)n, sizeof(*ch.threads));
	ch.tasks = calloc((size_t)n, sizeof(*ch.tasks));
	if (ch.ended == NULL || ch.threads == NULL || ch.tasks == NULL) {
		runner_fail(c, RF_START, 0, ENOMEM);
		_exit(RUNNER_EXIT_FAILED);
	}
	if (wl->step_init != NULL && wl->step_init(r->shared, r->cfg.args, r->cfg.sweep, n,
						   c->fail_text, sizeof(c->fail_text)) != 0) {
		c->fail_text[sizeof(c->fail_text) - 1] = '\0';
		if (c->fail_text[0] == '\0')
			snprintf(c->fail_text, sizeof(c->fail_text), "no reason given");
		runner_fail(c, RF_INIT, -1, 0);
		_exit(RUNNER_EXIT_FAILED);
	}
	runner_latency_map(r);
	if (startline_open(&r->gate, &c->line) == -1) {
		runner_fail(c, RF_START, 0, errno);
		_exit(RUNNER_EXIT_FAILED);
	}
	for (i = 0; i < n; i++) {
		if ((rc = runner_start_one(&ch, i)) != 0) {
			runner_fail(c, RF_START, i, rc);
			break;
		}
		ch.started++;
	}
	runner_watch(&ch);
	runner_wind_down(&ch);
	if (!ch.forced)
		runner_latency_merge(&ch);
	if (wl->step_fini != NULL)
		wl->step_fini(r->shared, r->cfg.args);
	_exit(atomic_load(&c->fail) != RF_NONE ? RUNNER_EXIT_FAILED : 0);
}

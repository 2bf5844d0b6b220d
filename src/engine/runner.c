/*
 * The step runner.  The monitor side (runner_start/poll/stop/free) never
 * blocks for long; the child side (runner_child and below) runs step_init,
 * starts the workers, releases them together, watches them, and winds them
 * down.  They talk through a control block in the same MAP_SHARED mapping as
 * the slots: the monitor writes only stop/abort, the child writes the rest.
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

#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "scaletop/runner.h"
#include "scaletop/spawn.h"
#include "scaletop/startline.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define RUNNER_EXIT_FAILED 113 /* the child recorded why in the control block */
#define RUNNER_WORKER_FAILED 1 /* a worker process whose work() returned an errno */
#define RUNNER_BACKSTOP_NS UINT64_C(1000000000) /* past the grace, the monitor kills the group */
#define RUNNER_BAD_POLLS 16 /* polls in a row with no consistent read of a slot */
#define RUNNER_GATHER_NAP_NS 1000000L /* the child, while workers gather (they block) */
/* The watch interval while workers run: 20 wake-ups a second add little to their counters. */
#define RUNNER_RUN_NAP_NS 50000000L
#define RUNNER_STOP_NAP_NS 1000000L

_Static_assert(sizeof(struct wl_slot) % SLOT_STRIDE == 0, "slots must not share a stride");

/* Why the child says the step failed (runner_ctl.fail). */
enum runner_fail {
	RF_NONE,
	RF_INIT,   /* step_init failed: fail_text */
	RF_START,  /* a worker could not be started: fail_code is errno */
	RF_ERROR,  /* work() returned fail_code */
	RF_SIGNAL, /* a worker process was killed by signal fail_code */
	RF_EXIT,   /* a worker process exited with status fail_code */
	RF_EARLY,  /* work() returned 0 before stop */
	RF_STUCK   /* a worker ignored stop for the whole grace */
};

struct runner_ctl {
	struct startline_state line; /* workers at the start line, and their release */
	atomic_int stop;         /* the workers' stop flag (wl_worker.stop) */
	atomic_int abort;        /* the monitor wants the child gone now */
	uint64_t grace_ns;       /* written before fork */
	atomic_int fail;         /* enum runner_fail, stored (release) after its details */
	int fail_worker;
	int fail_code;
	atomic_int crash_worker; /* the worker a fatal signal hit, -1 */
	atomic_int crash_signal;
	char fail_text[192];     /* step_init's message, cut to fit a reason */
	atomic_int pids[];       /* process mode: worker pids, 0 once reaped by the child */
};

/* What the monitor keeps per worker. */
struct runner_seen {
	struct slot_view last; /* the last consistent read */
	int bad;               /* polls in a row without one */
};

struct runner {
	struct runner_config cfg;
	void *map;
	size_t maplen;
	struct runner_ctl *ctl;
	struct wl_slot *slots;
	void *shared;
	struct runner_seen *seen;
	struct startline gate; /* the child's, and (copied by fork) each worker process's */

	pid_t pid;            /* the child, also its group id */
	pid_t monitor;        /* our own pid, for the child's orphan check */
	bool reaped;
	int status;           /* wait status, once reaped */
	int out_fd;
	struct spawn_lines out_lines;
	char output[160];

	enum runner_state state;
	bool stopping;        /* stop was set, by us or on the child's failure */
	bool aborted;
	bool killed;          /* we killed the group: the child missed its deadline */
	uint64_t kill_ns;     /* when to kill the group if the child is still there; 0: never */
	uint64_t go_ns, ops, wait_ns, busy_ns;
	int unread;
	char reason[RUNNER_REASONLEN];
};

/* --- the child ---------------------------------------------------------- */

/* One per worker thread. */
struct runner_task {
	struct runner *r;
	int index;
};

/* The child's view of its workers. */
struct runner_child {
	struct runner *r;
	pid_t self;
	int started;
	int nended;
	bool forced;            /* we killed the stragglers: their SIGKILL is no news */
	bool *ended;
	pthread_t *threads;
	struct runner_task *tasks;
};

/* Which worker this thread (or process) is, for the crash handler. */
static _Thread_local int runner_self = -1;
static struct runner_ctl *runner_crash_ctl;

static void
runner_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	nanosleep(&ts, NULL);
}

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

	runner_crash_ctl = c;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = runner_on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
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
	int st, state;

	if (ch->r->cfg.mode == RUNNER_PROCESSES) {
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (int i = 0; i < ch->started; i++) {
				if (!ch->ended[i] && atomic_load(&c->pids[i]) == pid) {
					runner_worker_exit(ch, i, st);
					break;
				}
			}
		}
		return;
	}
	for (int i = 0; i < ch->started; i++) {
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

	for (int i = 0; i < ch->started; i++) {
		if (!ch->ended[i] && (pid = atomic_load(&ch->r->ctl->pids[i])) > 0)
			(void)kill(pid, SIGKILL);
	}
}

static int
runner_first_running(const struct runner_child *ch)
{
	for (int i = 0; i < ch->started; i++) {
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

static void
runner_child(struct runner *r, int outfd)
{
	struct runner_ctl *c = r->ctl;
	const struct workload *wl = r->cfg.wl;
	struct runner_child ch;
	int n = r->cfg.nworkers, rc;

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
	if (startline_open(&r->gate, &c->line) == -1) {
		runner_fail(c, RF_START, 0, errno);
		_exit(RUNNER_EXIT_FAILED);
	}
	for (int i = 0; i < n; i++) {
		if ((rc = runner_start_one(&ch, i)) != 0) {
			runner_fail(c, RF_START, i, rc);
			break;
		}
		ch.started++;
	}
	runner_watch(&ch);
	runner_wind_down(&ch);
	if (wl->step_fini != NULL)
		wl->step_fini(r->shared, r->cfg.args);
	_exit(atomic_load(&c->fail) != RF_NONE ? RUNNER_EXIT_FAILED : 0);
}

/* --- the monitor -------------------------------------------------------- */

static size_t
runner_round(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

static int
runner_check_config(const struct runner_config *cfg, char *err, size_t errlen)
{
	if (cfg->wl == NULL || cfg->wl->work == NULL)
		return st_error(err, errlen, "no workload to run");
	if (cfg->nworkers < 1 || cfg->nworkers > RUNNER_MAX_WORKERS)
		return st_error(err, errlen, "%s: %d workers: give 1 to %d", cfg->wl->name,
				cfg->nworkers, RUNNER_MAX_WORKERS);
	if (cfg->mode != RUNNER_THREADS && cfg->mode != RUNNER_PROCESSES)
		return st_error(err, errlen, "%s: unknown worker mode %d", cfg->wl->name,
				(int)cfg->mode);
	return 0;
}

/* One mapping: control block, then the slots, then the workload's memory on its own pages. */
static int
runner_map(struct runner *r, char *err, size_t errlen)
{
	size_t n = (size_t)r->cfg.nworkers, page = (size_t)sysconf(_SC_PAGESIZE);
	size_t slots_off, shared_off;

	if (page == 0 || page == (size_t)-1)
		page = 4096;
	slots_off = runner_round(sizeof(struct runner_ctl) + n * sizeof(atomic_int), SLOT_STRIDE);
	shared_off = runner_round(slots_off + n * sizeof(struct wl_slot), page);
	r->maplen = runner_round(shared_off + r->cfg.wl->shared_size, page);
	r->map = mmap(NULL, r->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return st_error(err, errlen, "%s: cannot map %zu bytes of shared memory: %s",
				r->cfg.wl->name, r->maplen, strerror(errno));
	}
	r->ctl = r->map;
	r->slots = (struct wl_slot *)((char *)r->map + slots_off);
	r->shared = r->cfg.wl->shared_size > 0 ? (char *)r->map + shared_off : NULL;
	return 0;
}

static void
runner_init_ctl(struct runner *r)
{
	struct runner_ctl *c = r->ctl;

	startline_state_init(&c->line);
	atomic_init(&c->stop, 0);
	atomic_init(&c->abort, 0);
	atomic_init(&c->fail, RF_NONE);
	atomic_init(&c->crash_worker, -1);
	atomic_init(&c->crash_signal, 0);
	c->grace_ns = r->cfg.grace_ns;
	for (int i = 0; i < r->cfg.nworkers; i++) {
		atomic_init(&c->pids[i], 0);
		/* Valid from the start, so the monitor never reads an unpublished slot. */
		slot_publish(&r->slots[i], i, 0, 0, 0);
		atomic_store(&r->slots[i].state, SLOT_IDLE);
		atomic_store(&r->slots[i].error, 0);
	}
}

static void
runner_release(struct runner *r)
{
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->map != NULL)
		munmap(r->map, r->maplen);
	free(r->seen);
	free(r);
}

struct runner *
runner_start(const struct runner_config *cfg, char *err, size_t errlen)
{
	struct runner *r;
	int fds[2], saved;

	if (runner_check_config(cfg, err, errlen) == -1)
		return NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		st_error(err, errlen, "out of memory starting %s", cfg->wl->name);
		return NULL;
	}
	r->cfg = *cfg;
	if (r->cfg.grace_ns == 0)
		r->cfg.grace_ns = RUNNER_GRACE_NS;
	r->out_fd = -1;
	r->pid = -1;
	if (runner_map(r, err, errlen) == -1) {
		runner_release(r);
		return NULL;
	}
	if ((r->seen = calloc((size_t)cfg->nworkers, sizeof(*r->seen))) == NULL) {
		st_error(err, errlen, "out of memory starting %s", cfg->wl->name);
		runner_release(r);
		return NULL;
	}
	runner_init_ctl(r);
	if (spawn_pipe(fds) == -1) {
		saved = errno;
		st_error(err, errlen, "%s: cannot make a pipe: %s", cfg->wl->name, strerror(saved));
		runner_release(r);
		return NULL;
	}
	r->monitor = getpid();
	if ((r->pid = pgroup_fork(err, errlen)) == 0) {
		close(fds[0]);
		runner_child(r, fds[1]);
	}
	close(fds[1]);
	r->out_fd = fds[0];
	if (r->pid == -1) {
		runner_release(r);
		return NULL;
	}
	r->state = RUNNER_STARTING;
	return r;
}

static void
runner_on_line(void *arg, int stream, const char *line)
{
	struct runner *r = arg;

	if (line[0] != '\0')
		snprintf(r->output, sizeof(r->output), "%s", line);
}

static void
runner_begin_stop(struct runner *r, uint64_t within_ns)
{
	uint64_t when = mono_now_ns() + within_ns;

	atomic_store(&r->ctl->stop, 1);
	r->stopping = true;
	if (r->kill_ns == 0 || when < r->kill_ns)
		r->kill_ns = when;
}

/* Sums the slots; a slot with no consistent read keeps its last good figures. */
static void
runner_read_slots(struct runner *r)
{
	struct slot_view v;

	r->ops = r->wait_ns = r->busy_ns = 0;
	r->unread = 0;
	for (int i = 0; i < r->cfg.nworkers; i++) {
		struct runner_seen *s = &r->seen[i];

		if (slot_read(&r->slots[i], i, &v) && v.ops >= s->last.ops) {
			s->last = v;
			s->bad = 0;
		} else {
			r->unread++;
			/* One miss is a writer preempted mid-update; many in a row is damage. */
			if (++s->bad == RUNNER_BAD_POLLS && !r->stopping && r->reason[0] == '\0') {
				snprintf(r->reason, sizeof(r->reason),
					 "worker %d's counter slot gave no consistent read %d times "
					 "in a row; its counts cannot be trusted",
					 i, RUNNER_BAD_POLLS);
				runner_begin_stop(r, r->cfg.grace_ns + RUNNER_BACKSTOP_NS);
			}
		}
		r->ops += s->last.ops;
		r->wait_ns += s->last.wait_ns;
		r->busy_ns += s->last.busy_ns;
	}
}

/* The child's account of a failure, as one line. */
static void
runner_fail_reason(struct runner *r)
{
	struct runner_ctl *c = r->ctl;
	int w = c->fail_worker, code = c->fail_code, n = r->cfg.nworkers;
	const char *name;

	switch (atomic_load_explicit(&c->fail, memory_order_acquire)) {
	case RF_INIT:
		snprintf(r->reason, sizeof(r->reason), "%s: step setup failed: %.*s",
			 r->cfg.wl->name, (int)sizeof(c->fail_text) - 1, c->fail_text);
		return;
	case RF_START:
		snprintf(r->reason, sizeof(r->reason), "could not start worker %d of %d: %s", w, n,
			 strerror(code));
		return;
	case RF_ERROR:
		snprintf(r->reason, sizeof(r->reason), "worker %d failed: %s", w, strerror(code));
		return;
	case RF_SIGNAL:
		name = strsignal(code);
		snprintf(r->reason, sizeof(r->reason), "worker %d killed by signal %d (%s)", w,
			 code, name != NULL ? name : "unknown");
		return;
	case RF_EXIT:
		snprintf(r->reason, sizeof(r->reason), "worker %d exited with status %d", w, code);
		return;
	case RF_EARLY:
		snprintf(r->reason, sizeof(r->reason),
			 "worker %d returned before the step was stopped", w);
		return;
	case RF_STUCK:
		snprintf(r->reason, sizeof(r->reason),
			 "worker %d did not stop within %.1f s of being asked", w,
			 (double)r->cfg.grace_ns / 1e9);
		return;
	default:
		snprintf(r->reason, sizeof(r->reason), "step child exited with status %d",
			 RUNNER_EXIT_FAILED);
		return;
	}
}

/* The child has been reaped: DONE, or FAILED with a reason. */
static void
runner_finish(struct runner *r)
{
	struct runner_ctl *c = r->ctl;
	int st = r->status, sig, w;
	const char *name;

	r->state = RUNNER_FAILED;
	if (r->reason[0] != '\0')
		return;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		if (r->stopping)
			r->state = RUNNER_DONE;
		else
			snprintf(r->reason, sizeof(r->reason),
				 "step child exited before the step was stopped");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == RUNNER_EXIT_FAILED &&
		   atomic_load(&c->fail) != RF_NONE) {
		runner_fail_reason(r);
	} else if (WIFEXITED(st)) {
		snprintf(r->reason, sizeof(r->reason), "step child exited with status %d",
			 WEXITSTATUS(st));
	} else if (WIFSIGNALED(st) && r->killed && WTERMSIG(st) == SIGKILL) {
		if (r->aborted)
			r->state = RUNNER_DONE;
		else
			snprintf(r->reason, sizeof(r->reason),
				 "step did not end within %.1f s of being stopped; its process "
				 "group was killed",
				 (double)(r->cfg.grace_ns + RUNNER_BACKSTOP_NS) / 1e9);
	} else if (WIFSIGNALED(st)) {
		sig = WTERMSIG(st);
		name = strsignal(sig);
		w = atomic_load(&c->crash_worker);
		if (w >= 0 && w < r->cfg.nworkers && atomic_load(&c->crash_signal) == sig)
			snprintf(r->reason, sizeof(r->reason), "worker %d killed by signal %d (%s)",
				 w, sig, name != NULL ? name : "unknown");
		else
			snprintf(r->reason, sizeof(r->reason),
				 "step child killed by signal %d (%s)", sig,
				 name != NULL ? name : "unknown");
	} else {
		snprintf(r->reason, sizeof(r->reason), "step child ended with wait status %#x",
			 (unsigned)st);
	}
}

static void
runner_try_reap(struct runner *r)
{
	int rc = pgroup_reap(r->pid, true, false, &r->status);

	if (rc == 0) {
		if (r->kill_ns != 0 && !r->killed && mono_now_ns() >= r->kill_ns) {
			(void)kill(-r->pid, SIGKILL);
			r->killed = true;
		}
		return;
	}
	r->reaped = true;
	if (rc == -1) {
		/* Someone else reaped it: nothing is known of how it ended. */
		r->status = 0;
		if (r->reason[0] == '\0')
			snprintf(r->reason, sizeof(r->reason),
				 "step child %ld was reaped by someone else", (long)r->pid);
	}
	/* What the child wrote before it ended is still in the pipe; the slots are final. */
	if (r->out_fd >= 0)
		spawn_drain(&r->out_fd, &r->out_lines, 0, runner_on_line, r);
	runner_read_slots(r);
	runner_finish(r);
}

enum runner_state
runner_poll(struct runner *r, struct runner_status *st)
{
	struct runner_ctl *c = r->ctl;

	if (!r->reaped) {
		if (r->out_fd >= 0)
			spawn_drain(&r->out_fd, &r->out_lines, 0, runner_on_line, r);
		runner_read_slots(r);
		if (r->go_ns == 0)
			r->go_ns = startline_go_ns(&c->line);
		if (!r->stopping && atomic_load_explicit(&c->fail, memory_order_acquire) != RF_NONE)
			runner_begin_stop(r, r->cfg.grace_ns + RUNNER_BACKSTOP_NS);
		if (r->stopping)
			r->state = RUNNER_STOPPING;
		else if (r->go_ns != 0)
			r->state = RUNNER_RUNNING;
		runner_try_reap(r);
	}
	if (st != NULL) {
		st->state = r->state;
		st->go_ns = r->go_ns;
		st->ops = r->ops;
		st->wait_ns = r->wait_ns;
		st->busy_ns = r->busy_ns;
		st->unread = r->unread;
		st->ready = atomic_load(&c->line.ready);
		st->reason = r->reason;
		st->output = r->output;
	}
	return r->state;
}

void
runner_stop(struct runner *r)
{
	if (!r->reaped && !r->stopping)
		runner_begin_stop(r, r->cfg.grace_ns + RUNNER_BACKSTOP_NS);
}

void
runner_abort(struct runner *r)
{
	if (r->reaped)
		return;
	atomic_store(&r->ctl->abort, 1);
	r->aborted = true;
	runner_begin_stop(r, RUNNER_BACKSTOP_NS);
}

void
runner_free(struct runner *r)
{
	if (r == NULL)
		return;
	if (!r->reaped) {
		runner_abort(r);
		for (;;) {
			runner_poll(r, NULL);
			if (r->reaped)
				break;
			if (r->killed) {
				/* SIGKILL cannot be ignored: this wait is short. */
				(void)pgroup_reap(r->pid, true, true, &r->status);
				break;
			}
			runner_nap(RUNNER_STOP_NAP_NS);
		}
	}
	runner_release(r);
}

pid_t
runner_pgid(const struct runner *r)
{
	return r->pid;
}

int
runner_nworkers(const struct runner *r)
{
	return r->cfg.nworkers;
}

uint64_t
runner_worker_ops(const struct runner *r, int i)
{
	if (i < 0 || i >= r->cfg.nworkers)
		return 0;
	return r->seen[i].last.ops;
}

void *
runner_shared(const struct runner *r)
{
	return r->shared;
}

int
runner_task_pids(const struct runner *r, pid_t *pids, int max)
{
	int n = 0;
	pid_t pid;

	if (r->reaped || max <= 0)
		return 0;
	if (r->cfg.mode == RUNNER_THREADS) {
		pids[n++] = r->pid;
		return n;
	}
	for (int i = 0; i < r->cfg.nworkers && n < max; i++) {
		if ((pid = atomic_load(&r->ctl->pids[i])) > 0)
			pids[n++] = pid;
	}
	return n;
}

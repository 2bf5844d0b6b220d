/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step runner, the monitor's side: maps the slots and control block,
 * forks the step's child (runner_child.c), and then only reads: each poll
 * sums the slots, drains the child's output, and reaps it when it ends,
 * turning its exit status and the control block into one line of reason.
 * Nothing here blocks for long but runner_free.
 */
#include "config.h"

#include <errno.h>
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
#include "runner_priv.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

_Static_assert(sizeof(struct wl_slot) % SLOT_STRIDE == 0, "slots must not share a stride");

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
	size_t slots_off, lat_off, shared_off;

	if (page == 0 || page == (size_t)-1)
		page = 4096;
	slots_off = runner_round(sizeof(struct runner_ctl) + n * sizeof(atomic_int), SLOT_STRIDE);
	lat_off = runner_round(slots_off + n * sizeof(struct wl_slot), SLOT_STRIDE);
	shared_off = runner_round(lat_off + RUNNER_LAT_N * sizeof(struct lathist), page);
	r->maplen = runner_round(shared_off + r->cfg.wl->shared_size, page);
	r->map = mmap(NULL, r->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return st_error(err, errlen, "%s: cannot map %zu bytes of shared memory: %s",
				r->cfg.wl->name, r->maplen, strerror(errno));
	}
	r->ctl = r->map;
	r->slots = (struct wl_slot *)((char *)r->map + slots_off);
	r->lat = (struct lathist *)((char *)r->map + lat_off);
	r->shared = r->cfg.wl->shared_size > 0 ? (char *)r->map + shared_off : NULL;
	return 0;
}

static void
runner_init_ctl(struct runner *r)
{
	struct runner_ctl *c = r->ctl;
	int i;

	startline_state_init(&c->line);
	atomic_init(&c->stop, 0);
	atomic_init(&c->abort, 0);
	atomic_init(&c->fail, RF_NONE);
	atomic_init(&c->crash_worker, -1);
	atomic_init(&c->crash_signal, 0);
	atomic_init(&c->lat_on, 0);
	atomic_init(&c->lat_epoch, 0);
	atomic_init(&c->lat_merged, 0);
	c->grace_ns = r->cfg.grace_ns;
	for (i = 0; i < r->cfg.nworkers; i++) {
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
	int i;

	r->ops = r->wait_ns = r->busy_ns = 0;
	r->unread = 0;
	for (i = 0; i < r->cfg.nworkers; i++) {
		struct runner_seen *s = &r->seen[i];

		if (slot_read(&r->slots[i], i, &v) && v.ops >= s->last.ops) {
			s->last = v;
			s->bad = 0;
		} else {
			r->unread++;
			/* One miss is a writer preempted mid-update; many in a row is damage. */
			if (++s->bad == RUNNER_BAD_POLLS && !r->stopping && r->reason[0] == '\0') {
				snprintf(
					r->reason, sizeof(r->reason),
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
	int i;

	if (r->reaped || max <= 0)
		return 0;
	if (r->cfg.mode == RUNNER_THREADS) {
		pids[n++] = r->pid;
		return n;
	}
	for (i = 0; i < r->cfg.nworkers && n < max; i++) {
		if ((pid = atomic_load(&r->ctl->pids[i])) > 0)
			pids[n++] = pid;
	}
	return n;
}

void
runner_latency_on(struct runner *r, bool on)
{
	if (on)
		atomic_fetch_add_explicit(&r->ctl->lat_epoch, 1, memory_order_relaxed);
	atomic_store_explicit(&r->ctl->lat_on, on ? 1 : 0, memory_order_release);
}

/* Only once the child is reaped: it merged before its exit, and nothing writes since. */
const struct lathist *
runner_latency(const struct runner *r, enum runner_lat which)
{
	if (!r->reaped || !atomic_load_explicit(&r->ctl->lat_merged, memory_order_acquire))
		return NULL;
	return &r->lat[which];
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* The event loop: ticks on absolute deadlines, fds, signals through the self-pipe. */
#ifdef __linux__
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/loop.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "../tap.h"

#define PERIOD_NS 20000000u /* 20 ms */

struct tick_log {
	uint64_t start_ns;
	uint64_t when[16];
	uint64_t missed[16];
	uint64_t late[16], busy[16];
	int n;
	uint64_t k; /* deadlines passed so far, counting missed ones */
	int early;  /* ticks that fired before their deadline */
};

static void
on_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct tick_log *t = arg;

	t->when[t->n] = now;
	t->missed[t->n] = missed;
	t->late[t->n] = loop_tick_late_ns(l);
	t->busy[t->n] = loop_tick_busy_late_ns(l);
	t->n++;
	/* The k-th deadline is start + k * period; start was read just before arming. */
	t->k += 1 + missed;
	if (now < t->start_ns + t->k * PERIOD_NS)
		t->early++;
	if (t->n == 2) {
		/* Oversleep three periods: the loop must report the missed deadlines, not drift. */
		struct timespec ts = { 0, 3 * PERIOD_NS + PERIOD_NS / 2 };

		nanosleep(&ts, NULL);
	}
	if (t->n == 5)
		loop_quit(l);
}

static void
test_ticks(void)
{
	char err[ST_ERRLEN];
	struct loop *l = loop_new(err, sizeof(err));
	struct tick_log t;

	memset(&t, 0, sizeof(t));
	t.start_ns = mono_now_ns();
	loop_set_tick(l, PERIOD_NS, on_tick, &t);
	is_int(loop_run(l, err, sizeof(err)), 0, "loop runs until quit");
	is_int(t.n, 5, "five ticks delivered");
	is_int(t.early, 0, "no tick fires before its absolute deadline");
	ok(t.missed[2] >= 2, "oversleeping 3.5 periods reports missed deadlines (%llu)",
	   (unsigned long long)t.missed[2]);
	/*
	 * A tick the machine's load delayed past its next deadline misses it
	 * rightly; what must hold whatever the load is that no deadline is
	 * counted missed that the tick was not late past (on time: none).
	 */
	ok(t.missed[0] <= t.late[0] / PERIOD_NS && t.missed[1] <= t.late[1] / PERIOD_NS,
	   "no missed deadline counted that a tick was not late past (%llu and %llu missed, %.1f "
	   "and %.1f ms late)",
	   (unsigned long long)t.missed[0], (unsigned long long)t.missed[1], t.late[0] / 1e6,
	   t.late[1] / 1e6);
	/* The callback held the loop 2.5 periods past the next deadline, whatever the load. */
	ok(t.busy[2] >= 5 * PERIOD_NS / 2,
	   "a tick held up by the loop's own work says so (%.1f ms of %.1f ms late)",
	   t.busy[2] / 1e6, t.late[2] / 1e6);
	ok(t.busy[0] <= t.late[0] && t.busy[1] <= t.late[1] && t.busy[4] <= t.late[4],
	   "the loop's own part of a tick's lateness is never more than the whole");
	loop_free(l);
}

#ifdef __linux__
#define SHARE_PERIOD_NS 50000000u /* 50 ms */

/*
 * Tick 1 computes until half a period past the next deadline; tick 2
 * records how late it was and how much of that the loop calls its own.
 */
static void
on_shared_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct tick_log *t = arg;

	t->k += 1 + missed;
	t->late[t->n] = loop_tick_late_ns(l);
	t->busy[t->n] = loop_tick_busy_late_ns(l);
	if (++t->n == 2) {
		loop_quit(l);
		return;
	}
	while (now < t->start_ns + (t->k + 1) * SHARE_PERIOD_NS + SHARE_PERIOD_NS / 2)
		now = mono_now_ns();
}

/*
 * A loop whose work ran past a deadline while it shared its CPU with a
 * process that computes: about half of that stretch it waited for the CPU,
 * which is the scheduler's lateness, not its own (the preempted loop among
 * 600 runnable workers: bench/results.md, target-cost).  Both are pinned to one CPU so
 * that they share it on any machine; more load only adds to the wait.
 */
static void
test_preempted_work(void)
{
	char err[ST_ERRLEN];
	struct loop *l;
	struct tick_log t;
	cpu_set_t was, one;
	pid_t hog;
	int fd = self_sched_open(), cpu;

	if (fd < 0) {
		skip("the kernel keeps no schedstats (/proc/thread-self/schedstat)",
		     "a loop preempted in its work does not count the wait as its own");
		return;
	}
	close(fd);
	if (sched_getaffinity(0, sizeof(was), &was) != 0)
		return (void)ok(0, "sched_getaffinity");
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &was); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		return (void)ok(0, "sched_setaffinity to CPU %d", cpu);
	if ((hog = fork()) == 0) {
		for (;;)
			;
	}
	l = loop_new(err, sizeof(err));
	memset(&t, 0, sizeof(t));
	t.start_ns = mono_now_ns();
	loop_set_tick(l, SHARE_PERIOD_NS, on_shared_tick, &t);
	loop_run(l, err, sizeof(err));
	loop_free(l);
	if (hog > 0) {
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	(void)sched_setaffinity(0, sizeof(was), &was);
	ok(hog > 0 && t.late[1] >= SHARE_PERIOD_NS / 2,
	   "work past a deadline makes the next tick late (%.1f ms)", t.late[1] / 1e6);
	ok(t.busy[1] <= t.late[1] / 2,
	   "a loop preempted in its work does not count the wait as its own (%.1f ms of %.1f ms "
	   "late)",
	   t.busy[1] / 1e6, t.late[1] / 1e6);
}
#endif

struct fd_log {
	int reads;
	char got[16];
};

static void
on_readable(struct loop *l, int fd, short revents, void *arg)
{
	struct fd_log *f = arg;
	ssize_t n = read(fd, f->got, sizeof(f->got) - 1);

	if (n > 0)
		f->got[n] = '\0';
	f->reads++;
	loop_del_fd(l, fd);
	loop_quit(l);
}

static void
test_fd(void)
{
	char err[ST_ERRLEN];
	struct loop *l = loop_new(err, sizeof(err));
	struct fd_log f;
	int p[2];

	memset(&f, 0, sizeof(f));
	if (pipe(p) != 0)
		return;
	loop_add_fd(l, p[0], POLLIN, on_readable, &f);
	(void)!write(p[1], "ping", 4);
	loop_run(l, err, sizeof(err));
	is_int(f.reads, 1, "readable fd callback ran once");
	is_str(f.got, "ping", "callback read the data");
	close(p[0]);
	close(p[1]);
	loop_free(l);
}

static void
on_signal(struct loop *l, int signo, void *arg)
{
	*(int *)arg = signo;
	loop_quit(l);
}

static void
test_signal(void)
{
	char err[ST_ERRLEN];
	struct loop *l = loop_new(err, sizeof(err));
	int got = 0;

	loop_catch_signal(l, SIGUSR1, on_signal, &got);
	raise(SIGUSR1);
	loop_run(l, err, sizeof(err));
	is_int(got, SIGUSR1, "SIGUSR1 reaches its callback through the self-pipe");
	loop_free(l);
}

struct guard_log {
	uint64_t spin_ns; /* CPU time each tick works */
	int ticks, fired;
	uint64_t used;
	bool drop; /* the guard drops the real-time policy, as the sweep's does */
};

static void
on_guard(struct loop *l, uint64_t used_ns, void *arg)
{
	struct guard_log *g = arg;

	(void)l;
	g->fired++;
	g->used = used_ns;
	if (g->drop)
		(void)pgroup_realtime_drop();
}

/* A tick that works spin_ns of its thread's CPU time (not wall time: load cannot change it). */
static void
on_guard_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct guard_log *g = arg;
	uint64_t start = self_cpu_ns();

	(void)now;
	(void)missed;
	while (self_cpu_ns() - start < g->spin_ns)
		;
	if (++g->ticks == 3)
		loop_quit(l);
}

/* Three ticks of spin_ns each under a guard of bound_ns. */
static void
run_guarded(struct guard_log *g, uint64_t spin_ns, uint64_t bound_ns, bool drop)
{
	char err[ST_ERRLEN];
	struct loop *l = loop_new(err, sizeof(err));

	memset(g, 0, sizeof(*g));
	g->spin_ns = spin_ns;
	g->drop = drop;
	loop_set_tick(l, PERIOD_NS, on_guard_tick, g);
	loop_set_guard(l, bound_ns, on_guard, g);
	is_int(loop_run(l, err, sizeof(err)), 0, "a guarded loop runs until quit");
	loop_free(l);
}

static void
test_guard(void)
{
	struct guard_log g;

	if (self_cpu_ns() == 0) {
		skip("no thread CPU clock here", "the guard measures a wake's CPU time");
		return;
	}
	run_guarded(&g, 0, 1000000000u, false);
	is_int(g.fired, 0, "ticks far under the guard's bound (1 s of CPU) leave it quiet");
	/* An injected long tick: 30 ms of CPU against a bound of 10 ms, on any load. */
	run_guarded(&g, 30000000u, 10000000u, false);
	is_int(g.fired, 1, "a tick over the guard's bound trips it once; it is off after");
	ok(g.used >= 30000000u, "the guard is told the wake's CPU time (%.1f ms)", g.used / 1e6);
}

#ifdef __linux__
/* What policy a child of pgroup_fork starts at: its exit status, 0 for the ordinary one. */
static int
child_policy(void)
{
	char err[ST_ERRLEN];
	int st = -1;
	pid_t pid = pgroup_fork(err, sizeof(err));

	if (pid == 0)
		_exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
	if (pid < 0 || pgroup_reap(pid, true, true, &st) != 1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The real-time monitor: FIFO itself, never its children, and dropped by a tripped guard. */
static void
test_realtime(void)
{
	struct guard_log g;

	if (pgroup_realtime(1, 0) != 0) {
		diag("SCHED_FIFO refused here: %s", strerror(errno));
		skip("this machine grants no SCHED_FIFO", "the real-time monitor");
		return;
	}
	/* The flag that keeps it from children is part of the answer. */
	is_int(sched_getscheduler(0) & ~SCHED_RESET_ON_FORK, SCHED_FIFO,
	       "the monitor's thread runs at SCHED_FIFO");
	ok(pgroup_is_realtime(), "pgroup knows it");
	is_int(child_policy(), 0, "a child of pgroup_fork starts at the ordinary policy");
	run_guarded(&g, 30000000u, 10000000u, true);
	is_int(g.fired, 1, "a real-time tick over the bound trips the guard");
	is_int(sched_getscheduler(0), SCHED_OTHER,
	       "the tripped guard leaves the thread SCHED_OTHER");
	ok(!pgroup_is_realtime(), "and pgroup knows it");
}

/* Linux's own guard: a real-time thread that never blocks is dropped by SIGXCPU at its limit. */
static void
test_realtime_limit(void)
{
	struct rlimit before, after;
	uint64_t start, used = 0;
	int pol = SCHED_FIFO;

	if (getrlimit(RLIMIT_RTTIME, &before) != 0 || pgroup_realtime(1, 50000000u) != 0) {
		skip("this machine grants no SCHED_FIFO", "the kernel's limit on a real-time wake");
		return;
	}
	start = self_cpu_ns();
	/* No blocking call in here; 2 s of CPU ends it if the kernel never does. */
	while (pol == SCHED_FIFO && used < 2000000000u) {
		used = self_cpu_ns() - start;
		pol = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
	}
	is_int(pol, SCHED_OTHER, "RLIMIT_RTTIME drops a real-time thread that never blocks");
	ok(used >= 50000000u, "  not before its limit of 50 ms of CPU (%.1f ms)", used / 1e6);
	is_int(pgroup_realtime_drop(), 0, "pgroup drops it after the kernel did");
	is_int(getrlimit(RLIMIT_RTTIME, &after), 0, "RLIMIT_RTTIME reads");
	ok(after.rlim_cur == before.rlim_cur, "  and is back as it was");
}
#endif

int
main(void)
{
	test_ticks();
#ifdef __linux__
	test_preempted_work();
#endif
	test_fd();
	test_signal();
	test_guard();
#ifdef __linux__
	test_realtime();
	test_realtime_limit();
#endif
	return done_testing();
}

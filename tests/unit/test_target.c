/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --target and the wait sampler: the book of a target's processes (they
 * appear, exit, and their pids are reused), the target's figures, a
 * thread's time split into the profile, the specs, and, live on this
 * process's own threads, the Linux reader and the rotating sampler.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scaletop/contention.h"
#include "scaletop/futex.h"
#include "scaletop/procbook.h"
#include "scaletop/platform.h"
#include "scaletop/thread_wait.h"
#include "../../src/engine/target.h"
#include "../../src/engine/wait_sampler.h"
#include "../tap.h"

#define S UINT64_C(1000000000)

static struct task_counters
tc(uint64_t cpu_ms, uint64_t vcsw, uint64_t delay_ms, int threads)
{
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.cpu_ns = cpu_ms * 1000000u;
	c.user_ns = c.cpu_ns * 3 / 4;
	c.sys_ns = c.cpu_ns - c.user_ns;
	c.vol_csw = vcsw;
	c.run_delay_ns = delay_ms * 1000000u;
	c.nthreads = threads;
	c.have = TASK_HAVE_CSW | TASK_HAVE_CPU | TASK_HAVE_RUN_DELAY | TASK_HAVE_CPU_EXACT;
	return c;
}

static void
pass(struct procbook *b, uint64_t now, int n, const pid_t *pid, const uint64_t *start,
     const struct task_counters *c)
{
	int i;

	procbook_pass_begin(b);
	for (i = 0; i < n; i++)
		procbook_see(b, pid[i], start[i], &c[i]);
	procbook_pass_end(b, now);
}

static void
test_book(void)
{
	struct procbook b;
	struct task_counters d, c[3];
	pid_t pid[3];
	uint64_t st[3];
	int procs;

	procbook_init(&b);
	procbook_reset(&b, 1000 * S, 10 * S);
	/* edge: 10 (1000 ms CPU) and 11, both started before the window */
	pid[0] = 10, st[0] = 900 * S, c[0] = tc(1000, 50, 100, 2);
	pid[1] = 11, st[1] = 950 * S, c[1] = tc(500, 10, 0, 1);
	pass(&b, 10 * S, 2, pid, st, c);
	/* a second later: 10 ran 300 ms more; 11 exited; 12 started inside the window */
	c[0] = tc(1300, 80, 150, 2);
	pid[1] = 12, st[1] = 1000 * S + 1, c[1] = tc(200, 5, 20, 4);
	pass(&b, 11 * S, 2, pid, st, c);
	/* 11 is seen no more; 12's pid... stays; 10's pid is reused by a new process */
	pid[0] = 10, st[0] = 1000 * S + 5, c[0] = tc(40, 1, 0, 1);
	c[1] = tc(300, 9, 30, 4);
	pass(&b, 12 * S, 2, pid, st, c);
	procbook_sum(&b, &d, &procs);
	is_int(procs, 4, "book: four processes (10, 11, 12, and 10's reuse)");
	/* 10: 300, 11: 0 (exited with its last counters), 12: 300 from 0, new 10: 40 from 0 */
	is_u64(d.cpu_ns, 640u * 1000000u, "book: CPU from first sight, from 0 when born inside");
	is_u64(d.vol_csw, 30 + 0 + 9 + 1, "book: switches likewise");
	is_u64(d.run_delay_ns, (50u + 30u) * 1000000u, "book: run delay likewise");
	is_int(d.nthreads, 6, "book: the most threads alive at one pass");
	is_double(b.thread_s, 6.0 + 5.0, 1e-9, "book: thread-seconds over the passes");
	ok(d.have & TASK_HAVE_RUN_DELAY, "book: every process had the run delay");
	/* the same pid and start time, missed by one pass, is the same process: not twice */
	procbook_reset(&b, 1000 * S, 10 * S);
	pid[0] = 20, st[0] = 1000 * S + 9, c[0] = tc(100, 1, 0, 1);
	pass(&b, 10 * S, 1, pid, st, c);
	pass(&b, 11 * S, 0, pid, st, c);
	c[0] = tc(150, 2, 0, 1);
	pass(&b, 12 * S, 1, pid, st, c);
	procbook_sum(&b, &d, &procs);
	is_int(procs, 1, "book: a process missed by a pass is revived, not added");
	is_u64(d.cpu_ns, 150u * 1000000u, "book: ... counted once, from 0 (born inside)");
	/* without start times, counters that go back mean a new process */
	procbook_reset(&b, 0, 10 * S);
	pid[0] = 30, st[0] = 0, c[0] = tc(500, 9, 0, 1);
	pass(&b, 10 * S, 1, pid, st, c);
	c[0] = tc(20, 1, 0, 1);
	pass(&b, 11 * S, 1, pid, st, c);
	procbook_sum(&b, &d, &procs);
	is_int(procs, 2, "book: no start times: counters going back are a reused pid");
	is_u64(d.cpu_ns, 0, "book: ... each counted from its first sight");
	procbook_free(&b);
}

static void
test_figures(void)
{
	struct target_figures tg;
	struct target_edges e;

	memset(&e, 0, sizeof(e));
	e.seconds = 2;
	e.ops = 4000;
	e.d = tc(3000, 8000, 500, 10);
	e.thread_s = 20;
	e.procs = 3;
	e.ncpu = 4;
	e.workload_cpu_s = 1;
	target_figures_compute(&tg, &e);
	ok(tg.present, "figures: present");
	is_double(tg.cpu_used, 1.5, 1e-9, "figures: CPUs used: 3 s over 2 s");
	is_double(tg.user_cpu, 1.125, 1e-9, "figures: user share in the ticks' ratio");
	is_double(tg.sys_cpu, 0.375, 1e-9, "figures: sys likewise");
	is_double(tg.machine_pct, 37.5, 1e-9, "figures: 1.5 of 4 CPUs is 37.5% of the machine");
	is_double(tg.vcsw_kop, 2000, 1e-9, "figures: 8000 switches per 4 kops");
	is_double(tg.run_delay_pct, 2.5, 1e-9, "figures: 0.5 s delay over 20 thread-seconds");
	is_double(tg.ops_per_cpu_s, 1000, 1e-9, "figures: 4000 ops over 3 + 1 CPU-seconds");
	is_int(tg.threads, 10, "figures: threads");
	ok(!(tg.have & TG_HAVE_PSI), "figures: no PSI without a cgroup");
	e.ops = 0; /* a tool that printed only its summary: no operation counted in the window */
	target_figures_compute(&tg, &e);
	ok((tg.have & TG_HAVE_CPU) && !(tg.have & (TG_HAVE_CSW | TG_HAVE_OPS_CPU)),
	   "figures: no ops counted: CPU measured, nothing per operation (not 0)");
	e.ops = 4000;
	e.cgroup_only = e.have_cgroup = true;
	e.cg0.have = e.cg1.have = CGROUP_HAVE_CPU | CGROUP_HAVE_PSI;
	e.cg0.usage_us = 1000000, e.cg1.usage_us = 3000000;
	e.cg1.user_us = 1000000, e.cg1.system_us = 1000000;
	e.cg0.psi_some_us = 0, e.cg1.psi_some_us = 500000;
	e.workload_cpu_s = -1;
	target_figures_compute(&tg, &e);
	is_double(tg.cpu_used, 1.0, 1e-9, "figures: a group's CPU from its cpu.stat");
	is_double(tg.sys_cpu, 0.5, 1e-9, "figures: ... split by its user/system");
	is_double(tg.psi_some_pct, 25, 1e-9, "figures: 0.5 s of pressure over 2 s");
	ok(!(tg.have & TG_HAVE_OPS_CPU), "figures: no ops per CPU-second without the workload's");
}

static struct thread_sample
ts(enum thread_state s, const char *ch, uint64_t cpu_ms, uint64_t delay_ms, bool times)
{
	struct thread_sample t;

	memset(&t, 0, sizeof(t));
	t.pid = 1, t.tid = 2, t.state = s;
	snprintf(t.channel, sizeof(t.channel), "%s", ch);
	t.cpu_ns = cpu_ms * 1000000u, t.run_delay_ns = delay_ms * 1000000u;
	t.have = times ? THREAD_HAVE_TIMES : 0;
	return t;
}

static void
test_split(void)
{
	struct wait_tally t;
	struct thread_mark m;
	struct thread_sample s;

	wait_tally_init(&t);
	memset(&m, 0, sizeof(m));
	s = ts(THREAD_RUNNABLE, "", 1000, 1000, true);
	thread_mark_seed(&m, &s, 10 * S);
	is_double(wait_tally_total(&t, WAIT_TARGET), 0, 0, "split: a first reading adds nothing");
	/* one second later: 250 ms more on a CPU, 750 ms more waiting for one */
	s = ts(THREAD_RUNNABLE, "", 1250, 1750, true);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 0, 11 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_RUNNING, NULL), 0.25, 1e-9,
		  "split: R is running in the on-CPU time's share of the span");
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_RUNNABLE, NULL), 0.75, 1e-9,
		  "split: ... and runnable in the run delay's");
	/* a sleeper: the span goes to its channel; a reading without times keeps the mark's */
	s = ts(THREAD_SLEEPING, "futex_wait_queue", 0, 0, false);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 0, 13 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_SLEEPING, "futex_wait_queue"), 2, 1e-9,
		  "split: two seconds in futex_wait_queue");
	ok(m.have_times && m.cpu_ns == 1250u * 1000000u, "split: the mark keeps its last times");
	s = ts(THREAD_DISK, "io_schedule", 0, 0, false);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 12 * S + S / 2, 14 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_UNINTERRUPTIBLE, "io_schedule"), 1, 1e-9,
		  "split: D is uninterruptible, by channel");
	s = ts(THREAD_STOPPED, "", 0, 0, false);
	thread_wait_add(&t, WAIT_WORKLOAD, &m, &s, 14 * S + S / 2, 15 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_WORKLOAD, WS_OTHER, NULL), 0.5, 1e-9,
		  "split: time before from_ns (the window) is not counted");
	s = ts(THREAD_RUNNABLE, "", 0, 0, false);
	thread_wait_add(&t, WAIT_WORKLOAD, &m, &s, 0, 16 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_WORKLOAD, WS_RUNNING, THREAD_WAIT_UNSPLIT), 1, 1e-9,
		  "split: R without schedstat is shown unsplit");
	wait_tally_free(&t);
}

/* Times at both readings split any state: a backend runs and sleeps many times between two. */
static void
test_split_timed(void)
{
	struct wait_tally t;
	struct thread_mark m, m2;
	struct thread_sample s;

	wait_tally_init(&t);
	memset(&m, 0, sizeof(m));
	s = ts(THREAD_SLEEPING, "do_epoll_wait", 1000, 500, true);
	thread_mark_seed(&m, &s, 10 * S);
	/* one second later, asleep again: it ran 300 ms and waited 100 ms for a CPU */
	s = ts(THREAD_SLEEPING, "do_epoll_wait", 1300, 600, true);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 10 * S, 11 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_RUNNING, NULL), 0.3, 1e-9,
		  "timed: a sleeper that ran in between is running for its CPU time");
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_RUNNABLE, NULL), 0.1, 1e-9,
		  "timed: ... runnable for its run delay");
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_SLEEPING, "do_epoll_wait"), 0.6, 1e-9,
		  "timed: ... and asleep where it is now for the rest");
	/* runnable now: the rest of the second it slept where it was last seen asleep */
	s = ts(THREAD_RUNNABLE, "", 1800, 700, true);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 10 * S, 12 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_SLEEPING, "do_epoll_wait"), 1.0, 1e-9,
		  "timed: a woken thread's sleep is put where it was last seen blocked");
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_SLEEPING, ""), 0, 1e-9,
		  "timed: ... not in plain sleeping");
	/* times that went backwards (another thread reused the tid) fall back to the state */
	s = ts(THREAD_DISK, "io_schedule", 100, 100, true);
	thread_wait_add(&t, WAIT_TARGET, &m, &s, 10 * S, 13 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_TARGET, WS_UNINTERRUPTIBLE, "io_schedule"), 1, 1e-9,
		  "timed: times that went backwards are not used");
	/* a thread never seen blocked: its unaccounted time is plain sleeping */
	memset(&m2, 0, sizeof(m2));
	s = ts(THREAD_RUNNABLE, "", 1000, 100, true);
	thread_mark_seed(&m2, &s, 20 * S);
	s = ts(THREAD_RUNNABLE, "", 1200, 200, true);
	thread_wait_add(&t, WAIT_PROBE, &m2, &s, 20 * S, 21 * S);
	is_double(wait_share_of(t.e, t.n, WAIT_PROBE, WS_SLEEPING, ""), 0.7, 1e-9,
		  "timed: never seen blocked, the rest is plain sleeping");
	/* a CPU time beyond the span (a clock step) is capped at the span */
	s = ts(THREAD_RUNNABLE, "", 5000, 100, true);
	thread_wait_add(&t, WAIT_WORKLOAD, &m, &s, 10 * S, 14 * S);
	is_double(wait_tally_total(&t, WAIT_WORKLOAD), 1, 1e-9,
		  "timed: never more thread-time than the span");
	wait_tally_free(&t);
}

static void
test_specs(void)
{
	struct target_spec sp;
	char err[256];

	is_int(target_spec_parse("pid:42", &sp, err, sizeof(err)), 0, "spec: pid:42");
	ok(sp.kind == TARGET_PID && sp.pid == 42, "spec: ... is pid 42");
	is_int(target_spec_parse("comm:postgres", &sp, err, sizeof(err)), 0, "spec: comm:postgres");
	is_str(sp.arg, "postgres", "spec: ... the name");
	is_int(target_spec_parse("pid:-1", &sp, err, sizeof(err)), -1, "spec: pid:-1 refused");
	ok(strstr(err, "'pid:-1'") != NULL && strstr(err, "pid:N") != NULL,
	   "spec: the message names the value and what to write");
	is_int(target_spec_parse("postgres", &sp, err, sizeof(err)), -1, "spec: no kind refused");
	ok(strstr(err, "comm:NAME") != NULL, "spec: ... says the kinds");
	is_int(target_spec_parse("comm:a/b", &sp, err, sizeof(err)), -1,
	       "spec: comm with / refused");
	is_int(target_spec_parse("cgroup:", &sp, err, sizeof(err)), -1,
	       "spec: empty cgroup refused");
	is_int(target_spec_parse("cgroup:/nonexistent-st", &sp, err, sizeof(err)), -1,
	       "spec: a missing cgroup refused");
}

/* --- live, on this process's threads ------------------------------------------ */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static volatile int quit;

static void *
sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!quit)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

struct seen {
	int n, sleeping, futex;
};

static void
on_thread(const struct thread_sample *t, void *arg)
{
	struct seen *s = arg;

	s->n++;
	s->sleeping += t->state == THREAD_SLEEPING;
	s->futex += strstr(t->channel, "futex") != NULL;
}

/* The kept reader of one of the six sleepers: files kept, what cannot have changed not read. */
static void
test_handle(pid_t self, struct thread_handle *h)
{
	struct thread_sample t;
	pid_t *tids;
	size_t n;

	ok(proc_thread_list(self, &tids, &n) == 0 && n == 7 && tids[0] == self,
	   "handle: seven tids listed, the main one first");
	thread_handle_init(h, self, n == 7 ? tids[1] : self);
	is_int(thread_handle_read(h, &t), 1, "handle: a sleeper read");
	ok(t.state == THREAD_SLEEPING && strstr(t.channel, "futex") != NULL && t.nthreads == 7,
	   "handle: asleep in a futex, one of 7 threads (%d, %s, %d)", (int)t.state, t.channel,
	   t.nthreads);
	ok(h->fd[0] >= 0 && h->fd[1] >= 0 && h->fd[2] >= 0, "handle: its three files kept open");
	is_int(thread_handle_read(h, &t), 1, "handle: read again");
	ok(t.state == THREAD_SLEEPING && strstr(t.channel, "futex") != NULL && t.nthreads == 0,
	   "handle: it has not run: state and channel kept, stat not read again (%d)", t.nthreads);
	free(tids);
}

/*
 * A thread led through the states the kept reader tells apart: waiting on a
 * condition variable (a futex), woken and waiting there again, blocked in a
 * pipe's read, spinning.  flip_step is the state asked for; flip_at, the
 * one it has reached; flip_wakes, the wakes of its wait.
 */
static pthread_mutex_t flip_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flip_cond = PTHREAD_COND_INITIALIZER;
static volatile int flip_step, flip_at, flip_wakes, flip_reads;
static volatile pid_t flip_tid;
static int flip_pipe[2];

static void *
flipper(void *arg)
{
	char c;

	(void)arg;
	pthread_mutex_lock(&flip_lock);
	flip_tid = (pid_t)syscall(SYS_gettid);
	while (flip_step < 2) {
		pthread_cond_wait(&flip_cond, &flip_lock);
		flip_wakes++;
	}
	pthread_mutex_unlock(&flip_lock);
	flip_at = 2;
	while (flip_step == 2) {
		if (read(flip_pipe[0], &c, 1) != 1)
			return NULL;
		flip_reads++;
	}
	flip_at = 3;
	while (flip_step == 3)
		;
	flip_at = 4;
	while (flip_step == 4 && read(flip_pipe[0], &c, 1) == 1)
		;
	return NULL;
}

/*
 * Until the flipper waits on its condition again after `wakes` wakes: it
 * holds the lock from its wake until it waits, so holding it here with that
 * count means it is back in its wait (then 20 ms more, for its futex call).
 */
static void
flip_waiting(int wakes)
{
	int i, n = -1;

	for (i = 0; i < 500 && n != wakes; i++) {
		if (flip_tid != 0) {
			pthread_mutex_lock(&flip_lock);
			n = flip_wakes;
			pthread_mutex_unlock(&flip_lock);
		}
		if (n != wakes)
			sleep_ms(10);
	}
	sleep_ms(20);
}

/* Asks for step k (a wake of the wait, for k < 2). */
static void
flip_to(int k)
{
	pthread_mutex_lock(&flip_lock);
	flip_step = k;
	pthread_cond_broadcast(&flip_cond);
	pthread_mutex_unlock(&flip_lock);
}

/* Until the flipper has reached step k, then ms more. */
static void
flip_reached(int k, int ms)
{
	int i;

	for (i = 0; i < 500 && flip_at != k; i++)
		sleep_ms(10);
	sleep_ms(ms);
}

/*
 * A thread blocked or runnable at its last reading that ran since has its
 * channel read first; in the same channel, in the one it was last read
 * blocked in, or with a trusted "0" (runnable), its state is known and stat
 * is not read (nthreads 0 says so); in a channel it was not read in
 * before, stat is read.
 */
/* The handle's kept file i swapped for /dev/null, which reads empty. */
static void
swap_null(struct thread_handle *h, int i)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || h->fd[i] < 0) {
		ok(0, "swap: file %d of the handle kept (%d), /dev/null opened (%s)", i, h->fd[i],
		   strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	dup2(fd, h->fd[i]);
	close(fd);
}

static void
test_channel_first(pid_t self)
{
	struct syscall_line line;
	struct thread_handle h;
	struct thread_sample t;
	pthread_t th;
	int r, i;

	if (pipe(flip_pipe) != 0) {
		ok(0, "channel first: a pipe: %s", strerror(errno));
		return;
	}
	pthread_create(&th, NULL, flipper, NULL);
	flip_waiting(0);
	thread_handle_init(&h, self, flip_tid);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && t.state == THREAD_SLEEPING && strstr(t.channel, "futex") != NULL &&
		   t.nthreads > 0,
	   "channel first: waiting on a futex, stat read (%d, %s, %d)", (int)t.state, t.channel,
	   t.nthreads);
	ok(h.have_call && strstr(h.call_chan, "futex") != NULL,
	   "call first: the futex call it waits in is learnt (%d, '%s')", h.have_call, h.call_chan);
	flip_to(1);
	flip_waiting(1);
	/* its stat and wchan now read empty: read, the reading would fail */
	swap_null(&h, 1);
	swap_null(&h, 2);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && t.state == THREAD_SLEEPING && strstr(t.channel, "futex") != NULL &&
		   t.nthreads == 0,
	   "channel first: woken, back on the futex: its state kept, stat not read (%d, %s, %d)",
	   (int)t.state, t.channel, t.nthreads);
	ok(r == 1 && strcmp(t.channel, h.call_chan) == 0,
	   "call first: ... told by its syscall file alone, wchan not read either ('%s')",
	   t.channel);
	swap_null(&h, 3);
	ok(thread_handle_syscall(&h, &line) == 0 && line.futex != FUTEX_KIND_NONE,
	   "call first: the census gets the line the reading read, without a read");
	ok(thread_handle_syscall(&h, &line) != 0,
	   "call first: ... once (the next asks the file, which now reads empty)");
	thread_handle_close(&h); /* the empty files go; the next reading opens the real ones */
	flip_to(2);
	flip_reached(2, 100);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && t.state == THREAD_SLEEPING && t.channel[0] != '\0' &&
		   strstr(t.channel, "futex") == NULL && t.nthreads > 0,
	   "channel first: blocked in a pipe's read, another channel: stat read (%d, %s, %d)",
	   (int)t.state, t.channel, t.nthreads);
	if (write(flip_pipe[1], "x", 1) != 1)
		ok(0, "channel first: the pipe's write: %s", strerror(errno));
	for (i = 0; i < 500 && flip_reads < 1; i++)
		sleep_ms(10);
	sleep_ms(50);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && t.state == THREAD_SLEEPING && strstr(t.channel, "(read)") != NULL &&
		   t.nthreads == 0 && flip_reads == 1,
	   "channel first: a byte read, back in the pipe's read (its call beside): stat not read "
	   "(%s, %d)",
	   t.channel, t.nthreads);
	flip_step = 3;
	if (write(flip_pipe[1], "x", 1) != 1)
		ok(0, "channel first: the pipe's write: %s", strerror(errno));
	flip_reached(3, 20);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && (t.state == THREAD_RUNNING || t.state == THREAD_RUNNABLE) &&
		   t.channel[0] == '\0' && t.nthreads == 0,
	   "channel first: spinning after its wait: a trusted 0, runnable, stat not read (%d, "
	   "'%s', %d)",
	   (int)t.state, t.channel, t.nthreads);
	sleep_ms(20);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && (t.state == THREAD_RUNNING || t.state == THREAD_RUNNABLE) &&
		   t.channel[0] == '\0' && t.nthreads == 0 && h.wchan_named,
	   "channel first: spinning still: its wchan's 0 says so, stat not read (%d, '%s', %d)",
	   (int)t.state, t.channel, t.nthreads);
	flip_step = 4;
	flip_reached(4, 50);
	r = thread_handle_read(&h, &t);
	ok(r == 1 && t.state == THREAD_SLEEPING && strstr(t.channel, "(read)") != NULL &&
		   t.nthreads == 0,
	   "channel first: runnable, then back in the pipe's read it was read blocked in: "
	   "remembered, stat not read (%d, '%s', %d)",
	   (int)t.state, t.channel, t.nthreads);
	flip_step = 5;
	if (write(flip_pipe[1], "x", 1) != 1)
		ok(0, "channel first: the pipe's last write: %s", strerror(errno));
	pthread_join(th, NULL);
	thread_handle_close(&h);
	close(flip_pipe[0]);
	close(flip_pipe[1]);
}

/*
 * A warm-up that marked two of six threads, then a window whose first tick
 * reads two: the two are the marked ones, whose readings count (a plain
 * order hits both 1 time in 15; five tries).
 */
static void
test_window_marked_first(pid_t self)
{
	struct wait_sampler w;
	struct wait_tally t;
	bool marked[6];
	int try, i, good = 0, counted = 0;
	unsigned round;

	for (try = 0; try < 5; try++) {
		wait_sampler_init(&w);
		wait_tally_init(&t);
		w.max_threads = 2;
		wait_sampler_set_pids(&w, WAIT_TARGET, &self, 1, true);
		wait_sampler_tick(&w, &t, mono_now_ns()); /* the warm-up: two marked */
		for (i = 0; i < 6 && (size_t)i < w.fam[1].nth; i++)
			marked[i] = w.fam[1].th[i].seeded;
		sleep_ms(5);
		wait_sampler_window(&w, true, mono_now_ns());
		round = w.fam[1].round;
		sleep_ms(5);
		wait_sampler_tick(&w, &t, mono_now_ns());
		for (i = 0, good += w.fam[1].nth == 6; i < (int)w.fam[1].nth && i < 6; i++) {
			if (w.fam[1].th[i].round == round && !marked[i])
				good = -100; /* a first reading in the window's first tick */
		}
		counted += wait_tally_total(&t, WAIT_TARGET) > 0;
		wait_tally_free(&t);
		wait_sampler_free(&w);
	}
	is_int(good, 5,
	       "sampler: the window's first tick reads the warm-up's marked threads first");
	is_int(counted, 5, "sampler: ... so its readings count");
}

static void
test_live(void)
{
	pthread_t th[6];
	struct wait_sampler w;
	struct wait_tally t;
	struct thread_handle h, none;
	struct thread_sample ts;
	struct seen s = { 0, 0, 0 };
	pid_t self = getpid(), next = 0, *tree;
	size_t ntree;
	int i, n;

	for (i = 0; i < 6; i++)
		pthread_create(&th[i], NULL, sleeper, NULL);
	sleep_ms(100);
	is_int(thread_samples_read(self, on_thread, &s), 0, "live: this process's threads read");
	is_int(s.n, 7, "live: seven threads (main and six)");
	ok(s.sleeping >= 6 && s.futex >= 6, "live: six asleep in a futex (got %d, %d)", s.sleeping,
	   s.futex);
	memset(&s, 0, sizeof(s));
	is_int(thread_samples_read_from(self, 0, 3, on_thread, &s, &next), 0,
	       "live: three at most");
	ok(s.n == 3 && next > 0, "live: three read, and where to go on");
	memset(&s, 0, sizeof(s));
	thread_samples_read_from(self, next, 100, on_thread, &s, &next);
	ok(s.n == 4 && next == 0, "live: the other four, then the end");
	errno = 0;
	is_int(thread_samples_read(999999999, on_thread, &s), -1, "live: no such process");
	is_int(errno, ESRCH, "live: ... ESRCH");
	ok(proc_tree(self, &tree, &ntree) == 0 && ntree >= 1 && tree[0] == self,
	   "live: a process's tree holds it");
	free(tree);
	test_handle(self, &h);
	test_channel_first(self);
	thread_handle_init(&none, self, 999999999);
	is_int(thread_handle_read(&none, &ts), 0, "handle: a tid not there is gone");
	/* the sampler, two threads a tick: every thread read in rotation, its time counted */
	wait_sampler_init(&w);
	wait_tally_init(&t);
	w.max_threads = 2;
	wait_sampler_set_pids(&w, WAIT_TARGET, &self, 1, true);
	wait_sampler_window(&w, true, 0);
	for (i = 0; i < 8; i++) {
		wait_sampler_tick(&w, &t, mono_now_ns());
		sleep_ms(20);
	}
	is_int((long long)w.fam[1].nth, 6, "sampler: six threads marked (the main one skipped)");
	ok(w.reads <= 2 * 8, "sampler: at most its budget a tick (%llu reads)",
	   (unsigned long long)w.reads);
	ok(wait_share_of(t.e, t.n, WAIT_TARGET, WS_SLEEPING, NULL) > 0, "sampler: sleep counted");
	ok(wait_tally_total(&t, WAIT_WORKLOAD) == 0, "sampler: nothing for the empty family");
	for (i = 0, n = 0; i < (int)w.fam[1].nth; i++)
		n += w.fam[1].th[i].seeded;
	is_int(n, 6, "sampler: 16 reads of 6 threads in rounds: every one read");
	wait_tally_free(&t);
	wait_sampler_free(&w);
	test_window_marked_first(self);
	pthread_mutex_lock(&lock);
	quit = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	is_int(thread_handle_read(&h, &ts), 0, "handle: an exited thread's kept files: gone");
	ok(h.fd[0] == -1 && h.fd[1] == -1 && h.fd[2] == -1, "handle: ... and closed");
}

int
main(void)
{
	test_book();
	test_figures();
	test_split();
	test_split_timed();
	test_specs();
	test_live();
	return done_testing();
}

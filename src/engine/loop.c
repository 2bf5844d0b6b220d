/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The single event loop.  The tick uses the kernel's absolute timers where
 * they exist (timerfd on Linux, kqueue on the BSDs) and otherwise a poll
 * timeout computed from the next absolute deadline; either way deadlines are
 * start + k * period, never "now + period".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_TIMERFD_H
#include <sys/timerfd.h>
#elif defined(HAVE_SYS_EVENT_H)
#include <sys/types.h>
#include <sys/event.h>
#endif

/*
 * Which clock ticks: timerfd, a kqueue timer in nanoseconds (FreeBSD), or
 * the poll-deadline fallback (DragonFly, whose EVFILT_TIMER counts whole
 * milliseconds and rearms from each expiry, so its ticks would drift;
 * docs/architecture.md).  LOOP_POLL_ONLY builds the fallback alone, so that
 * tests/unit/test_loop_poll checks it on every OS.
 */
#if defined(HAVE_SYS_TIMERFD_H) && !defined(LOOP_POLL_ONLY)
#define LOOP_TIMERFD 1
#elif defined(HAVE_SYS_EVENT_H) && defined(NOTE_NSECONDS) && !defined(LOOP_POLL_ONLY)
#define LOOP_KQUEUE 1
#endif

#include "scaletop/error.h"
#include "scaletop/loop.h"
#include "scaletop/grow.h"
#include "scaletop/platform.h"

#define LOOP_MAX_SIGNALS 8

struct loop_fd {
	int fd;
	short events;
	loop_fd_cb cb;
	void *arg;
};

struct loop_sig {
	int signo;
	loop_signal_cb cb;
	void *arg;
};

struct loop {
	struct loop_fd *fds;
	int nfds, capfds;
	struct pollfd *pfds;
	int cappfds;
	bool quit;

	uint64_t period_ns, next_ns; /* next_ns: the next deadline, either way */
	uint64_t late_ns;            /* how late the tick now running (or the last) fired */
	uint64_t busy_late_ns;       /* the part of late_ns the loop's own work caused */
	uint64_t idle_ns, woke_ns;   /* when the loop last went into poll, and came back */
	int rd_fd;                   /* self_sched_open's: -1 none, -2 not yet */
	uint64_t woke_rd;            /* the loop thread's run delay when it came back from poll */
	uint64_t work_rd;            /* and over the stretch of work that ran past a deadline */
	int timer_fd;                /* timerfd or kqueue, -1 when using the fallback */
	loop_tick_cb tick_cb;
	void *tick_arg;
	uint64_t guard_ns; /* loop_set_guard's bound on one wake's CPU time; 0: none */
	uint64_t woke_cpu; /* the thread's CPU time when it came back from poll */
	loop_guard_cb guard_cb;
	void *guard_arg;

	int sig_pipe[2];
	struct loop_sig sigs[LOOP_MAX_SIGNALS];
	int nsigs;
};

/* Handlers only write a byte; there is one monitor loop per process. */
static volatile sig_atomic_t loop_sig_fd = -1;

static void
loop_on_signal(int signo)
{
	int saved = errno;
	unsigned char b = (unsigned char)signo;

	if (loop_sig_fd >= 0)
		(void)!write(loop_sig_fd, &b, 1);
	errno = saved;
}

static int
set_cloexec_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

struct loop *
loop_new(char *err, size_t errlen)
{
	struct loop *l = calloc(1, sizeof(*l));

	if (l == NULL) {
		st_error(err, errlen, "event loop: out of memory");
		return NULL;
	}
	l->timer_fd = -1;
	l->rd_fd = -2;
	if (pipe(l->sig_pipe) != 0 || set_cloexec_nonblock(l->sig_pipe[0]) != 0 ||
	    set_cloexec_nonblock(l->sig_pipe[1]) != 0) {
		st_error(err, errlen, "event loop: cannot create the signal pipe: %s",
			 strerror(errno));
		free(l);
		return NULL;
	}
	loop_sig_fd = l->sig_pipe[1];
	return l;
}

void
loop_free(struct loop *l)
{
	int i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nsigs; i++)
		signal(l->sigs[i].signo, SIG_DFL);
	loop_sig_fd = -1;
	close(l->sig_pipe[0]);
	close(l->sig_pipe[1]);
	if (l->timer_fd >= 0)
		close(l->timer_fd);
	if (l->rd_fd >= 0)
		close(l->rd_fd);
	free(l->fds);
	free(l->pfds);
	free(l);
}

int
loop_add_fd(struct loop *l, int fd, short events, loop_fd_cb cb, void *arg)
{
	int i;

	for (i = 0; i < l->nfds; i++) {
		if (l->fds[i].fd == fd) {
			l->fds[i] = (struct loop_fd){ fd, events, cb, arg };
			return 0;
		}
	}
	if (grow_array_int(&l->fds, &l->capfds, l->nfds + 1, sizeof(*l->fds), 8) != 0)
		return -1;
	l->fds[l->nfds++] = (struct loop_fd){ fd, events, cb, arg };
	return 0;
}

void
loop_del_fd(struct loop *l, int fd)
{
	int i;

	for (i = 0; i < l->nfds; i++) {
		if (l->fds[i].fd == fd) {
			l->fds[i] = l->fds[--l->nfds];
			return;
		}
	}
}

/* Arms the kernel timer, if this OS has one we use; -1 means "use the fallback". */
static int
loop_arm_kernel_timer(struct loop *l)
{
#if defined(LOOP_TIMERFD)
	struct itimerspec its;

	if (l->timer_fd < 0)
		l->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (l->timer_fd < 0)
		return -1;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(l->next_ns / 1000000000u);
	its.it_value.tv_nsec = (long)(l->next_ns % 1000000000u);
	its.it_interval.tv_sec = (time_t)(l->period_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(l->period_ns % 1000000000u);
	return timerfd_settime(l->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
#elif defined(LOOP_KQUEUE)
	struct kevent kev;

	if (l->timer_fd < 0)
		l->timer_fd = kqueue();
	if (l->timer_fd < 0)
		return -1;
	/* A periodic kqueue timer is rescheduled from its deadline, not from when it is read. */
	EV_SET(&kev, 1, EVFILT_TIMER, EV_ADD | EV_ENABLE, NOTE_NSECONDS, (int64_t)l->period_ns,
	       NULL);
	return kevent(l->timer_fd, &kev, 1, NULL, 0, NULL);
#else
	return -1;
#endif
}

int
loop_set_tick(struct loop *l, uint64_t period_ns, loop_tick_cb cb, void *arg)
{
	l->period_ns = period_ns;
	l->tick_cb = cb;
	l->tick_arg = arg;
	if (l->timer_fd >= 0) {
		close(l->timer_fd);
		l->timer_fd = -1;
	}
	if (period_ns == 0)
		return 0;
	l->next_ns = mono_now_ns() + period_ns;
	l->late_ns = 0;
	if (loop_arm_kernel_timer(l) != 0 && l->timer_fd >= 0) {
		close(l->timer_fd);
		l->timer_fd = -1;
	}
	return 0;
}

int
loop_catch_signal(struct loop *l, int signo, loop_signal_cb cb, void *arg)
{
	struct sigaction sa;

	if (l->nsigs == LOOP_MAX_SIGNALS)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = loop_on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, NULL) != 0)
		return -1;
	l->sigs[l->nsigs++] = (struct loop_sig){ signo, cb, arg };
	return 0;
}

void
loop_quit(struct loop *l)
{
	l->quit = true;
}

/* How many kernel-timer deadlines passed since the last read (0 if none). */
static uint64_t
loop_read_kernel_timer(struct loop *l)
{
#if defined(LOOP_TIMERFD)
	uint64_t n = 0;

	if (read(l->timer_fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return 0;
	return n;
#elif defined(LOOP_KQUEUE)
	struct kevent kev;
	struct timespec zero = { 0, 0 };

	if (kevent(l->timer_fd, NULL, 0, &kev, 1, &zero) != 1)
		return 0;
	return (uint64_t)kev.data;
#else
	return 0;
#endif
}

/* The tick of deadline (the first of the expirations that passed), late_ns from it. */
static void
loop_fire_tick(struct loop *l, uint64_t expirations, uint64_t deadline)
{
	uint64_t now = mono_now_ns(), from, waited;

	if (expirations == 0)
		return;
	l->late_ns = now > deadline ? now - deadline : 0;
	/*
	 * Asleep in poll at the deadline, the loop was woken late by the
	 * scheduler (a CPU taken by runnable workers); still at work past it,
	 * it made the tick late itself, and that is what sampling must not do.
	 */
	from = l->idle_ns > deadline ? l->idle_ns : deadline;
	waited = l->woke_ns > from ? l->woke_ns - from : 0;
	l->busy_late_ns = l->late_ns > waited ? l->late_ns - waited : 0;
	/*
	 * At work past the deadline, the loop may have been preempted too:
	 * among hundreds of runnable workers a task that has used its slice
	 * waits a whole turn of the run queue.  Had it had a CPU whenever it
	 * wanted one, its work would have ended work_rd sooner, so only what
	 * still runs past the deadline is its own.  Not its CPU time: a read
	 * that blocks holds the tick up as surely as one that computes.
	 */
	if (l->idle_ns > deadline)
		l->busy_late_ns -=
			l->work_rd < l->idle_ns - deadline ? l->work_rd : l->idle_ns - deadline;
	if (l->tick_cb != NULL)
		l->tick_cb(l, now, expirations - 1, l->tick_arg);
}

/* The kernel timer's expirations: the deadlines they stand for pass. */
static void
loop_kernel_tick(struct loop *l)
{
	uint64_t n = loop_read_kernel_timer(l), deadline = l->next_ns;

	l->next_ns += n * l->period_ns;
	loop_fire_tick(l, n, deadline);
}

/* The loop thread's run delay over the stretch of work ending now, if it ran past a deadline. */
static uint64_t
loop_work_delay(struct loop *l)
{
	uint64_t rd;

	if (l->rd_fd < 0 || l->period_ns == 0 || l->idle_ns <= l->next_ns)
		return 0;
	if (self_run_delay_read(l->rd_fd, &rd) != 0 || rd < l->woke_rd)
		return 0;
	return rd - l->woke_rd;
}

uint64_t
loop_tick_late_ns(const struct loop *l)
{
	return l->late_ns;
}

uint64_t
loop_tick_busy_late_ns(const struct loop *l)
{
	return l->busy_late_ns;
}

void
loop_set_guard(struct loop *l, uint64_t cpu_ns, loop_guard_cb cb, void *arg)
{
	l->guard_ns = cb != NULL ? cpu_ns : 0;
	l->guard_cb = cb;
	l->guard_arg = arg;
	l->woke_cpu = self_cpu_ns(); /* set from a callback: its wake counts from here */
}

/* After a wake's work: over the guard's bound, its callback runs and the guard is off. */
static void
loop_check_guard(struct loop *l)
{
	loop_guard_cb cb = l->guard_cb;
	uint64_t used;

	if (l->guard_ns == 0)
		return;
	used = self_cpu_ns() - l->woke_cpu;
	if (used <= l->guard_ns)
		return;
	l->guard_ns = 0;
	l->guard_cb = NULL;
	cb(l, used, l->guard_arg);
}

/* The fallback: deadlines advanced by whole periods, skipping (and counting) missed ones. */
static void
loop_check_deadline(struct loop *l)
{
	uint64_t now = mono_now_ns(), n, deadline = l->next_ns;

	if (l->period_ns == 0 || l->timer_fd >= 0 || now < l->next_ns)
		return;
	n = (now - l->next_ns) / l->period_ns + 1;
	l->next_ns += n * l->period_ns;
	loop_fire_tick(l, n, deadline);
}

static int
loop_poll_timeout(const struct loop *l)
{
	uint64_t now;

	if (l->period_ns == 0 || l->timer_fd >= 0)
		return -1;
	now = mono_now_ns();
	if (now >= l->next_ns)
		return 0;
	/* Round up so we never wake just before the deadline and spin. */
	return (int)((l->next_ns - now + 999999) / 1000000);
}

static void
loop_drain_signals(struct loop *l)
{
	unsigned char buf[64];
	ssize_t n, i;
	int j;

	while ((n = read(l->sig_pipe[0], buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			for (j = 0; j < l->nsigs; j++) {
				if (l->sigs[j].signo == buf[i])
					l->sigs[j].cb(l, buf[i], l->sigs[j].arg);
			}
		}
	}
}

static int
loop_build_pollfds(struct loop *l)
{
	int n = l->nfds + 2, i;

	if (n > l->cappfds) {
		struct pollfd *p = realloc(l->pfds, (size_t)n * sizeof(*p));

		if (p == NULL)
			return -1;
		l->pfds = p;
		l->cappfds = n;
	}
	l->pfds[0] = (struct pollfd){ .fd = l->sig_pipe[0], .events = POLLIN };
	l->pfds[1] = (struct pollfd){ .fd = l->timer_fd, .events = POLLIN };
	for (i = 0; i < l->nfds; i++)
		l->pfds[i + 2] = (struct pollfd){ .fd = l->fds[i].fd, .events = l->fds[i].events };
	return n;
}

/* Runs the callbacks for one poll result; fds may be removed by callbacks, so look each up. */
static void
loop_dispatch(struct loop *l, int n)
{
	int i, j;

	if (l->pfds[0].revents & POLLIN)
		loop_drain_signals(l);
	if (l->pfds[1].fd >= 0 && (l->pfds[1].revents & POLLIN))
		loop_kernel_tick(l);
	loop_check_deadline(l);
	for (i = 2; i < n && !l->quit; i++) {
		if (l->pfds[i].revents == 0)
			continue;
		for (j = 0; j < l->nfds; j++) {
			if (l->fds[j].fd == l->pfds[i].fd) {
				l->fds[j].cb(l, l->fds[j].fd, l->pfds[i].revents, l->fds[j].arg);
				break;
			}
		}
	}
}

int
loop_run(struct loop *l, char *err, size_t errlen)
{
	if (l->rd_fd == -2)
		l->rd_fd = self_sched_open(); /* here: the thread that runs the loop */
	if (l->rd_fd < 0 || self_run_delay_read(l->rd_fd, &l->woke_rd) != 0)
		l->woke_rd = UINT64_MAX;
	while (!l->quit) {
		int n = loop_build_pollfds(l);

		if (n < 0)
			return st_error(err, errlen, "event loop: out of memory");
		l->idle_ns = mono_now_ns();
		l->work_rd = loop_work_delay(l);
		if (poll(l->pfds, (nfds_t)n, loop_poll_timeout(l)) < 0) {
			if (errno == EINTR)
				continue;
			return st_error(err, errlen, "event loop: poll failed: %s",
					strerror(errno));
		}
		l->woke_ns = mono_now_ns();
		if (l->rd_fd >= 0 && l->period_ns > 0 &&
		    self_run_delay_read(l->rd_fd, &l->woke_rd) != 0)
			l->woke_rd = UINT64_MAX; /* no stretch measured from it */
		if (l->guard_ns > 0)
			l->woke_cpu = self_cpu_ns();
		loop_dispatch(l, n);
		loop_check_guard(l);
	}
	return 0;
}

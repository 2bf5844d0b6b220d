/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A thread's time between two readings, by state and channel, into a wait
 * tally (thread_wait.h).  Pure.
 */
#include <stdio.h>

#include "scaletop/thread_wait.h"

void
thread_mark_seed(struct thread_mark *m, const struct thread_sample *t_now, uint64_t now_ns)
{
	m->tid = t_now->tid;
	m->at_ns = now_ns;
	if (t_now->state == THREAD_SLEEPING || t_now->state == THREAD_DISK ||
	    t_now->state == THREAD_LOCK) {
		m->blocked = t_now->state;
		snprintf(m->channel, sizeof(m->channel), "%s", t_now->channel);
		m->have_blocked = true;
	}
	if (t_now->have & THREAD_HAVE_TIMES) {
		m->cpu_ns = t_now->cpu_ns;
		m->run_delay_ns = t_now->run_delay_ns;
		m->have_times = true;
	}
}

/* What a state other than running or runnable is, in the profile's terms. */
static enum wait_state
thread_wait_state(enum thread_state s, const char **channel)
{
	switch (s) {
	case THREAD_SLEEPING:
	case THREAD_LOCK: /* a kernel lock: the channel is its name */
		return WS_SLEEPING;
	case THREAD_DISK:
		return WS_UNINTERRUPTIBLE;
	case THREAD_STOPPED:
		*channel = "stopped";
		return WS_OTHER;
	case THREAD_ZOMBIE:
		*channel = "exited";
		return WS_OTHER;
	case THREAD_IDLE:
		*channel = "idle";
		return WS_OTHER;
	default:
		*channel = "";
		return WS_OTHER;
	}
}

/*
 * A runnable thread's dt seconds: on a CPU and waiting for one in the ratio
 * of the times' growth since the mark, or over the thread's life when the
 * mark has none.
 */
static int
thread_wait_runnable(struct wait_tally *t, enum wait_family f, const struct thread_mark *m,
		     const struct thread_sample *s, double dt)
{
	uint64_t c = s->cpu_ns, d = s->run_delay_ns;
	double run;

	if (!(s->have & THREAD_HAVE_TIMES))
		return wait_tally_add(t, f, WS_RUNNING, THREAD_WAIT_UNSPLIT, dt);
	if (m->have_times && c >= m->cpu_ns && d >= m->run_delay_ns &&
	    (c - m->cpu_ns) + (d - m->run_delay_ns) > 0) {
		c -= m->cpu_ns;
		d -= m->run_delay_ns;
	}
	run = c + d > 0 ? dt * (double)c / (double)(c + d) : dt;
	if (run > 0 && wait_tally_add(t, f, WS_RUNNING, NULL, run) != 0)
		return -1;
	if (dt - run > 0 && wait_tally_add(t, f, WS_RUNNABLE, NULL, dt - run) != 0)
		return -1;
	return 0;
}

/*
 * dt seconds of a thread whose times grew by run and wait since the mark:
 * on a CPU for run, waiting for one for wait, and the rest blocked where it
 * is now; when it is runnable now, where it was last seen blocked (a woken
 * waiter is runnable for a moment after each sleep), else plain sleeping.
 */
static int
thread_wait_timed(struct wait_tally *t, enum wait_family f, const struct thread_mark *m,
		  const struct thread_sample *s, double dt, double run, double wait,
		  double *blocked)
{
	const char *channel = s->channel;
	enum wait_state ws = WS_SLEEPING;

	if (run > dt)
		run = dt;
	if (wait > dt - run)
		wait = dt - run;
	if (s->state != THREAD_RUNNING && s->state != THREAD_RUNNABLE)
		ws = thread_wait_state(s->state, &channel);
	else if (m->have_blocked) {
		channel = m->channel;
		ws = thread_wait_state(m->blocked, &channel);
	} else
		channel = "";
	if (run > 0 && wait_tally_add(t, f, WS_RUNNING, NULL, run) != 0)
		return -1;
	if (wait > 0 && wait_tally_add(t, f, WS_RUNNABLE, NULL, wait) != 0)
		return -1;
	if (ws == WS_SLEEPING || ws == WS_UNINTERRUPTIBLE)
		*blocked = dt - run - wait > 0 ? dt - run - wait : 0;
	if (dt - run - wait > 0 && wait_tally_add(t, f, ws, channel, dt - run - wait) != 0)
		return -1;
	return 0;
}

/* Whether both readings have times, and they only grew. */
static bool
thread_times_grew(const struct thread_mark *m, const struct thread_sample *s)
{
	return m->have_times && (s->have & THREAD_HAVE_TIMES) && s->cpu_ns >= m->cpu_ns &&
	       s->run_delay_ns >= m->run_delay_ns;
}

int
thread_wait_add(struct wait_tally *t, enum wait_family f, struct thread_mark *m,
		const struct thread_sample *t_now, uint64_t from_ns, uint64_t now_ns)
{
	double blocked;

	return thread_wait_account(t, f, m, t_now, from_ns, now_ns, &blocked);
}

int
thread_wait_account(struct wait_tally *t, enum wait_family f, struct thread_mark *m,
		    const struct thread_sample *t_now, uint64_t from_ns, uint64_t now_ns,
		    double *blocked)
{
	uint64_t start = m->at_ns > from_ns ? m->at_ns : from_ns;
	const char *channel = t_now->channel;
	double dt = now_ns > start ? (double)(now_ns - start) / 1e9 : 0;
	enum wait_state ws;
	int r = 0;

	*blocked = 0;
	if (dt > 0 && thread_times_grew(m, t_now) && m->at_ns >= from_ns)
		r = thread_wait_timed(t, f, m, t_now, dt, (double)(t_now->cpu_ns - m->cpu_ns) / 1e9,
				      (double)(t_now->run_delay_ns - m->run_delay_ns) / 1e9,
				      blocked);
	else if (dt > 0) {
		if (t_now->state == THREAD_RUNNING)
			r = wait_tally_add(t, f, WS_RUNNING, NULL, dt);
		else if (t_now->state == THREAD_RUNNABLE)
			r = thread_wait_runnable(t, f, m, t_now, dt);
		else {
			ws = thread_wait_state(t_now->state, &channel);
			if (ws == WS_SLEEPING || ws == WS_UNINTERRUPTIBLE)
				*blocked = dt;
			r = wait_tally_add(t, f, ws, channel, dt);
		}
	}
	thread_mark_seed(m, t_now, now_ns);
	return r;
}

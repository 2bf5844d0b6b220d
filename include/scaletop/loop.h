/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's single event loop: file descriptors, one periodic tick on
 * absolute CLOCK_MONOTONIC deadlines, and signals delivered through a
 * self-pipe so handlers never run application code.  Single-threaded; every
 * callback runs from loop_run().
 */
#ifndef SCALETOP_LOOP_H
#define SCALETOP_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct loop;

/* fd callback: revents as from poll(2). */
typedef void (*loop_fd_cb)(struct loop *l, int fd, short revents, void *arg);
/* tick callback: now is CLOCK_MONOTONIC ns; missed counts deadlines skipped (overrun). */
typedef void (*loop_tick_cb)(struct loop *l, uint64_t now_ns, uint64_t missed, void *arg);
typedef void (*loop_signal_cb)(struct loop *l, int signo, void *arg);
/* guard callback: used_ns is the CPU time the loop's thread took in one wake. */
typedef void (*loop_guard_cb)(struct loop *l, uint64_t used_ns, void *arg);

/* Creates the loop and its signal self-pipe.  NULL with a message on failure. */
struct loop *loop_new(char *err, size_t errlen);
void loop_free(struct loop *l);

/* Watches fd for events (POLLIN...).  One callback per fd; re-adding replaces it. */
int loop_add_fd(struct loop *l, int fd, short events, loop_fd_cb cb, void *arg);
void loop_del_fd(struct loop *l, int fd);

/*
 * Starts (or restarts) the periodic tick: deadlines at start + k * period,
 * so a late tick does not shift the ones after it.  period_ns 0 stops it.
 */
int loop_set_tick(struct loop *l, uint64_t period_ns, loop_tick_cb cb, void *arg);

/*
 * How late the tick now running fired (or the last one, outside a tick):
 * from its deadline (the first one missed, when some were) to the call.
 */
uint64_t loop_tick_late_ns(const struct loop *l);
/*
 * The part of that lateness the loop caused itself: the time it was still
 * at work (a tick's sampling, a frame, a key) past the deadline, less the
 * time it waited for a CPU over that work (where the OS says: Linux's
 * schedstat).  The rest is the scheduler's: the loop slept in poll and was
 * woken late, or was preempted in the middle of its work.
 */
uint64_t loop_tick_busy_late_ns(const struct loop *l);

/*
 * A bound on the loop's own work: once one wake of the loop (a tick, a
 * frame, a key, everything run between two polls) takes more than cpu_ns
 * of its thread's CPU time (self_cpu_ns), cb runs, once, and the guard is
 * off.  A monitor at a real-time priority drops it there, so that work
 * gone long cannot hold a CPU from the machine.  cpu_ns 0 takes it off.
 */
void loop_set_guard(struct loop *l, uint64_t cpu_ns, loop_guard_cb cb, void *arg);

/* Routes signo through the self-pipe to cb.  SA_RESTART is not used: poll wakes. */
int loop_catch_signal(struct loop *l, int signo, loop_signal_cb cb, void *arg);

/* Runs until loop_quit().  Returns 0, or -1 with a message if poll fails. */
int loop_run(struct loop *l, char *err, size_t errlen);
void loop_quit(struct loop *l);

#endif

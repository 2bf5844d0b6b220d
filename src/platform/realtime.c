/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The monitor's thread at a real-time priority, so that a tick fires on time
 * among hundreds of runnable workers (docs/design-notes.md).
 */
#ifdef __linux__
#define _GNU_SOURCE /* SCHED_RESET_ON_FORK */
#endif
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "scaletop/platform.h"

#if defined(__linux__) && defined(SCHED_RESET_ON_FORK)
/*
 * One file for every OS, since the call is POSIX's but for one flag: Linux
 * sets the calling thread's policy (pid 0 there is the thread) with
 * SCHED_RESET_ON_FORK, so no process or thread it creates inherits it; the
 * BSDs set the thread's by pthread_setschedparam, and a child drops it.
 * Linux also guards it itself: RLIMIT_RTTIME sends SIGXCPU once the thread
 * has run limit_ns at the real-time policy without blocking, and the handler
 * drops the policy there, in the middle of the work gone long.
 */

static int
realtime_set(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, policy == SCHED_FIFO ? policy | SCHED_RESET_ON_FORK : policy,
				  &sp);
}
#elif defined(_POSIX_THREAD_PRIORITY_SCHEDULING) && _POSIX_THREAD_PRIORITY_SCHEDULING >= 0
static int
realtime_set(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	int rc = pthread_setschedparam(pthread_self(), policy, &sp);

	if (rc == 0)
		return 0;
	errno = rc;
	return -1;
}
#else
static int
realtime_set(int policy, int prio)
{
	(void)policy;
	(void)prio;
	errno = ENOSYS;
	return -1;
}
#endif

#if defined(__linux__) && defined(RLIMIT_RTTIME)
static struct rlimit realtime_saved;
static bool realtime_limited;

/* SIGXCPU: the thread ran its limit without blocking; the policy goes now (a plain syscall). */
static void
realtime_on_xcpu(int sig)
{
	int saved = errno;

	(void)sig;
	(void)realtime_set(SCHED_OTHER, 0);
	errno = saved;
}

static void
realtime_limit(uint64_t limit_ns)
{
	struct rlimit rl;
	struct sigaction sa;

	if (limit_ns == 0 || realtime_limited || getrlimit(RLIMIT_RTTIME, &realtime_saved) != 0)
		return;
	rl.rlim_cur = (rlim_t)(limit_ns / 1000);
	rl.rlim_max = realtime_saved.rlim_max;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
		return; /* the hard limit is tighter: the kernel guards it already */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = realtime_on_xcpu;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXCPU, &sa, NULL) == 0 && setrlimit(RLIMIT_RTTIME, &rl) == 0)
		realtime_limited = true;
}

/* The limit and SIGXCPU as they were, so nothing started later inherits them. */
static void
realtime_unlimit(void)
{
	struct sigaction sa;

	if (!realtime_limited)
		return;
	(void)setrlimit(RLIMIT_RTTIME, &realtime_saved);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGXCPU, &sa, NULL);
	realtime_limited = false;
}
#else
static void
realtime_limit(uint64_t limit_ns)
{
	(void)limit_ns;
}

static void
realtime_unlimit(void)
{
}
#endif

int
self_realtime(int prio, uint64_t limit_ns)
{
	if (realtime_set(SCHED_FIFO, prio) != 0)
		return -1;
	realtime_limit(limit_ns);
	return 0;
}

int
self_realtime_drop(void)
{
	int rc = realtime_set(SCHED_OTHER, 0);

	realtime_unlimit();
	return rc;
}

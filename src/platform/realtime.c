/*
 * The monitor's thread at a real-time priority, so that a tick fires on time
 * among hundreds of runnable workers (docs/design-notes.md).  One file for
 * every OS, since the call is POSIX's but for one flag: Linux sets the
 * calling thread's policy (pid 0 there is the thread) with
 * SCHED_RESET_ON_FORK, so no process or thread it creates inherits it; the
 * BSDs set the thread's by pthread_setschedparam, and a child drops it.
 */
#ifdef __linux__
#define _GNU_SOURCE /* SCHED_RESET_ON_FORK */
#endif
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "scaletop/platform.h"

#if defined(__linux__) && defined(SCHED_RESET_ON_FORK)
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

int
self_realtime(int prio)
{
	return realtime_set(SCHED_FIFO, prio);
}

int
self_realtime_drop(void)
{
	return realtime_set(SCHED_OTHER, 0);
}

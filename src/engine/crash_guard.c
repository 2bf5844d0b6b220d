/* SPDX-License-Identifier: BSD-2-Clause */
/* The crash handlers: kill every workload group before the monitor dies of its signal. */
#include <signal.h>
#include <stddef.h>

#include "scaletop/crash_guard.h"
#include "scaletop/pgroup.h"

void (*crash_guard_hook)(void);

static void
crash_guard_on_signal(int signo)
{
	pgroup_kill_all(SIGKILL);
	if (crash_guard_hook != NULL)
		crash_guard_hook();
	signal(signo, SIG_DFL);
	raise(signo);
}

void
crash_guard_install(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	size_t i;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], crash_guard_on_signal);
	/* A closed stdout (| head) is an error on write, not a silent death mid-cleanup. */
	signal(SIGPIPE, SIG_IGN);
}

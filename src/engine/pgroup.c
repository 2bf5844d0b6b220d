/*
 * The registry of live process groups, and the fork that creates them.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"

/* sig_atomic_t, not pid_t: the signal path reads these while the loop may write them. */
static volatile sig_atomic_t pgroup_ids[PGROUP_MAX];
static volatile sig_atomic_t pgroup_owner;
static int pgroup_hooked;

/*
 * Dispositions a child must not inherit: the monitor's handlers write to its
 * signal pipe, so a child keeping them would survive a kill of its group and
 * wake the monitor instead; an ignored SIGPIPE or SIGCHLD would change how an
 * external command or the step's own reaping behaves.
 */
static const int pgroup_reset_sigs[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
	SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGURG, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifdef SIGWINCH
	SIGWINCH,
#endif
};

static void
pgroup_atexit(void)
{
	pgroup_kill_all(SIGKILL);
	if (pgroup_owner == getpid())
		(void)pgroup_kill_descendants();
}

int
pgroup_add(pid_t pgid)
{
	pid_t self = getpid();

	if (pgroup_owner != self) {
		/* First use, or a forked child starting its own list: the inherited one is not ours. */
		for (int i = 0; i < PGROUP_MAX; i++)
			pgroup_ids[i] = 0;
		pgroup_owner = self;
	}
	if (!pgroup_hooked) {
		if (atexit(pgroup_atexit) != 0)
			return -1;
		pgroup_hooked = 1;
	}
	for (int i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == 0) {
			pgroup_ids[i] = pgid;
			pgroup_note_started(pgid);
			return 0;
		}
	}
	return -1;
}

void
pgroup_remove(pid_t pgid)
{
	if (pgroup_owner != getpid())
		return;
	for (int i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == pgid)
			pgroup_ids[i] = 0;
	}
}

bool
pgroup_is_live(pid_t pgid)
{
	if (pgroup_owner != getpid() || pgid <= 1)
		return false;
	for (int i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == pgid)
			return true;
	}
	return false;
}

void
pgroup_kill_all(int sig)
{
	int saved = errno;

	if (pgroup_owner != 0 && pgroup_owner == getpid()) {
		for (int i = 0; i < PGROUP_MAX; i++) {
			pid_t g = (pid_t)pgroup_ids[i];

			if (g > 1)
				(void)kill(-g, sig);
		}
	}
	errno = saved;
}

int
pgroup_child_link(pid_t parent)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(pgroup_reset_sigs) / sizeof(pgroup_reset_sigs[0]); i++)
		(void)sigaction(pgroup_reset_sigs[i], &sa, NULL);
	/* Only now unblock: a signal already pending must meet the default action. */
	sigemptyset(&none);
	(void)pthread_sigmask(SIG_SETMASK, &none, NULL);
	(void)proc_parent_death_signal(SIGKILL); /* where the kernel can; getppid() below too */
	/* The parent may have died before the link was made; then nobody would kill us. */
	if (getppid() != parent)
		return -1;
	return 0;
}

pid_t
pgroup_fork(char *err, size_t errlen)
{
	sigset_t all, old;
	pid_t parent = getpid(), pid;
	int saved;

	/*
	 * Signals stay blocked until the child is registered, so no exit path
	 * can run between fork and pgroup_add and miss the new group.
	 */
	sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0) {
		(void)setpgid(0, 0);
		if (pgroup_child_link(parent) == -1)
			_exit(127);
		return 0;
	}
	if (pid == -1) {
		saved = errno;
		(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
		return st_error(err, errlen,
				"cannot start a process: fork: %s; lower the worker count or "
				"raise the process limit (ulimit -u)",
				strerror(saved));
	}
	/* Both sides set the group, so neither has to wait for the other. */
	(void)setpgid(pid, pid);
	if (pgroup_add(pid) == -1) {
		(void)kill(-pid, SIGKILL);
		(void)kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
		return st_error(err, errlen,
				"cannot start a process: more than %d process groups are live; "
				"this is a scaletop bug, please report it",
				PGROUP_MAX);
	}
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid;
}

int
pgroup_reap(pid_t pid, bool sweep, bool block, int *status)
{
	siginfo_t si;
	int st;

	/* Peek first (WNOWAIT): the zombie keeps its pid, and so its group id, reserved. */
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) == 0)
			break;
		if (errno != EINTR) {
			pgroup_remove(pid);
			return -1;
		}
	}
	if (si.si_pid == 0)
		return 0;
	if (sweep)
		(void)kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR) {
			pgroup_remove(pid);
			return -1;
		}
	}
	pgroup_remove(pid);
	if (status != NULL)
		*status = st;
	return 1;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The registry of live process groups, the fork that creates them, and what
 * a step leaves behind outside them.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"
#include "orphan_plan.h"

/*
 * Killing a group misses a command that daemonises (setsid, then fork): its
 * child sits in a group and session of its own, and once its parent exits it
 * is adopted by init, beyond any kill the monitor could make.  So while a
 * step runs the monitor is its orphans' reaper (proc_reaper: Linux's child
 * subreaper, procctl's PROC_REAP_ACQUIRE on the BSDs): they are re-parented
 * to it, stay in its process tree, and are found (orphan_plan) and killed at
 * the step's end.  Both halves live here because each needs the other: the
 * registry tells the orphan walk which groups are the monitor's own, and the
 * exit path that kills the groups also kills what escaped them.
 */

/* sig_atomic_t, not pid_t: the signal path reads these while the loop may write them. */
static volatile sig_atomic_t pgroup_ids[PGROUP_MAX];
static volatile sig_atomic_t pgroup_owner;
static int pgroup_hooked;
/* The nice value the monitor started with, when pgroup_raise_monitor lowered it. */
static int pgroup_base_nice;
static bool pgroup_raised;
/* pgroup_realtime took effect: a child drops it where the OS does not (the BSDs). */
static bool pgroup_rt;

/* Long enough for SIGKILLed processes to exit; bounded so a D-state one cannot hang us. */
#define ORPHAN_WAIT_NS 2000000000ull

static bool orphan_adopting;
static pid_t
	orphan_owner; /* the adopting process: a forked child inherits the flag, not the role */
/* Groups started while adopting: their members dying late are not leftovers. */
static pid_t orphan_groups[PGROUP_MAX];
static int orphan_ngroups;
static int orphan_table_works = -1; /* unknown until first asked */

/* Side groups (pgroup_set_side) not yet reaped, and what the reaped ones used. */
static pid_t side_ids[PGROUP_MAX];
static uint64_t side_used[4];

/*
 * Dispositions a child must not inherit: the monitor's handlers write to its
 * signal pipe, so a child keeping them would survive a kill of its group and
 * wake the monitor instead; an ignored SIGPIPE or SIGCHLD would change how an
 * external command or the step's own reaping behaves.
 */
static const int pgroup_reset_sigs[] = {
	SIGHUP,   SIGINT,  SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1,   SIGUSR2,
	SIGTSTP,  SIGTTIN, SIGTTOU, SIGCONT, SIGURG,  SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifdef SIGWINCH
	SIGWINCH,
#endif
};

/* Called by pgroup_add: while adopting, remembers the step's own groups. */
static void
orphan_note_started(pid_t pgid)
{
	if (orphan_adopting && orphan_owner == getpid() && orphan_ngroups < PGROUP_MAX)
		orphan_groups[orphan_ngroups++] = pgid;
}

/*
 * At exit, once a group was added (in this process or the one it was forked
 * from, as atexit's registration was inherited): a destructor, not atexit,
 * whose wrapper comes from libc_nonshared.a and lands after everything else
 * in the text, a 64 kB window of pages the monitor would map for one call
 * (the code there is what it never runs, Makefile.am).
 */
__attribute__((destructor)) static void
pgroup_atexit(void)
{
	if (!pgroup_hooked)
		return;
	pgroup_kill_all(SIGKILL);
	if (pgroup_owner == getpid())
		(void)pgroup_kill_descendants();
}

int
pgroup_add(pid_t pgid)
{
	pid_t self = getpid();
	int i;

	if (pgroup_owner != self) {
		/* First use, or a forked child starting its own list: the inherited one is not
		 * ours. */
		for (i = 0; i < PGROUP_MAX; i++)
			pgroup_ids[i] = 0;
		pgroup_owner = self;
	}
	pgroup_hooked = 1;
	for (i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == 0) {
			pgroup_ids[i] = pgid;
			orphan_note_started(pgid);
			return 0;
		}
	}
	return -1;
}

void
pgroup_remove(pid_t pgid)
{
	int i;

	if (pgroup_owner != getpid())
		return;
	for (i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == pgid)
			pgroup_ids[i] = 0;
	}
}

void
pgroup_set_side(pid_t pgid)
{
	int i;

	for (i = 0; i < PGROUP_MAX; i++) {
		if (side_ids[i] == 0) {
			side_ids[i] = pgid;
			return;
		}
	}
}

void
pgroup_side_usage(uint64_t out[4])
{
	memcpy(out, side_used, sizeof(side_used));
}

static uint64_t
tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* A reaped leader: if it led a side group, what it used is counted apart. */
static void
side_reaped(pid_t pid, const struct rusage *ru)
{
	int i;

	for (i = 0; i < PGROUP_MAX; i++) {
		if (side_ids[i] == pid) {
			side_ids[i] = 0;
			side_used[0] += tv_ns(ru->ru_utime);
			side_used[1] += tv_ns(ru->ru_stime);
			side_used[2] += (uint64_t)ru->ru_nvcsw;
			side_used[3] += (uint64_t)ru->ru_nivcsw;
			return;
		}
	}
}

bool
pgroup_is_live(pid_t pgid)
{
	int i;

	if (pgroup_owner != getpid() || pgid <= 1)
		return false;
	for (i = 0; i < PGROUP_MAX; i++) {
		if (pgroup_ids[i] == pgid)
			return true;
	}
	return false;
}

void
pgroup_kill_all(int sig)
{
	int saved = errno, i;

	if (pgroup_owner != 0 && pgroup_owner == getpid()) {
		for (i = 0; i < PGROUP_MAX; i++) {
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
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(pgroup_reset_sigs) / sizeof(pgroup_reset_sigs[0]); i++)
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

int
pgroup_raise_monitor(int by)
{
	int cur;

	if (pgroup_raised)
		return 0;
	errno = 0;
	cur = getpriority(PRIO_PROCESS, 0);
	if (cur == -1 && errno != 0)
		return -1;
	if (setpriority(PRIO_PROCESS, 0, cur - by) != 0)
		return -1; /* EACCES or EPERM without CAP_SYS_NICE: the monitor stays as it is */
	pgroup_base_nice = cur;
	pgroup_raised = true;
	return 0;
}

int
pgroup_realtime(int prio, uint64_t limit_ns)
{
	if (self_realtime(prio, limit_ns) != 0)
		return -1; /* EPERM without CAP_SYS_NICE: the nice boost alone */
	pgroup_rt = true;
	return 0;
}

int
pgroup_realtime_drop(void)
{
	if (!pgroup_rt)
		return 0;
	if (self_realtime_drop() != 0)
		return -1;
	pgroup_rt = false;
	return 0;
}

bool
pgroup_is_realtime(void)
{
	return pgroup_rt;
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
		/* What the monitor measures runs at the priority the user gave it. */
		if (pgroup_raised)
			(void)setpriority(PRIO_PROCESS, 0, pgroup_base_nice);
		if (pgroup_rt)
			(void)pgroup_realtime_drop();
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
	struct rusage ru;
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
	while (wait4(pid, &st, 0, &ru) == -1) {
		if (errno != EINTR) {
			pgroup_remove(pid);
			return -1;
		}
	}
	side_reaped(pid, &ru);
	pgroup_remove(pid);
	if (status != NULL)
		*status = st;
	return 1;
}

/* --- what a step leaves behind ------------------------------------------ */

void
pgroup_adopt_orphans(void)
{
	struct proc_link *t;
	size_t n;

	if (orphan_adopting && orphan_owner == getpid())
		return;
	/* Adopting is only safe where the orphans can be found again to be reaped. */
	if (orphan_table_works == -1) {
		orphan_table_works = proc_table_read(&t, &n) == 0;
		if (orphan_table_works)
			free(t);
	}
	if (!orphan_table_works)
		return;
	/* Without a reaper (an old kernel) the walk still finds what has not been orphaned yet. */
	(void)proc_reaper(true);
	orphan_adopting = true;
	orphan_owner = getpid();
	orphan_ngroups = 0;
}

/* Whether pgid is one the monitor started, live or ended, during this step. */
static bool
orphan_group_known(pid_t pgid)
{
	int i;

	if (pgroup_is_live(pgid))
		return true;
	for (i = 0; i < orphan_ngroups; i++) {
		if (orphan_groups[i] == pgid)
			return true;
	}
	return false;
}

/*
 * The pids already counted as left behind.  A killed process can still look
 * alive on the next pass (SIGKILL is pending until it is scheduled), so it is
 * counted once, not once per pass.
 */
struct orphan_counted {
	pid_t *pid;
	size_t n, cap;
	int total;
};

static void
orphan_count(struct orphan_counted *c, pid_t pid)
{
	pid_t *grown;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (c->pid[i] == pid)
			return;
	}
	c->total++;
	if (c->n == c->cap) {
		/* Out of memory only risks counting a pid twice, never missing one. */
		if ((grown = realloc(c->pid, (c->cap ? 2 * c->cap : 16) * sizeof(*grown))) == NULL)
			return;
		c->pid = grown;
		c->cap = c->cap ? 2 * c->cap : 16;
	}
	c->pid[c->n++] = pid;
}

static bool
orphan_live(pid_t pgid, void *arg)
{
	(void)arg;
	return pgroup_is_live(pgid);
}

static bool
orphan_known(pid_t pgid, void *arg)
{
	(void)arg;
	return orphan_group_known(pgid);
}

/*
 * One pass: SIGKILL to every live descendant and its group, and a reap of
 * every child that is no registered group's leader (orphan_plan chooses).
 * The number still to wait for; *killed collects the kills outside the
 * registered groups.
 */
static int
orphan_pass(pid_t self, struct orphan_counted *killed)
{
	const struct orphan_view v = {
		.self = self,
		.own_pgrp = getpgrp(),
		.live = orphan_live,
		.known = orphan_known,
	};
	struct orphan_action *act;
	struct proc_link *t;
	size_t n, k, i;
	int left = 0;

	if (proc_table_read(&t, &n) != 0)
		return 0;
	if ((act = malloc((n > 0 ? n : 1) * sizeof(*act))) == NULL) {
		free(t);
		return 0;
	}
	k = orphan_plan(t, n, &v, act);
	free(t);
	for (i = 0; i < k; i++) {
		if (act[i].what & ORPHAN_KILL_GROUP)
			(void)kill(-act[i].pid, SIGKILL);
		if (act[i].what & ORPHAN_KILL)
			(void)kill(act[i].pid, SIGKILL);
		if (act[i].what & ORPHAN_COUNT)
			orphan_count(killed, act[i].pid);
		if ((act[i].what & ORPHAN_REAP) && waitpid(act[i].pid, NULL, WNOHANG) == act[i].pid)
			continue;
		left++;
	}
	free(act);
	return left;
}

int
pgroup_kill_descendants(void)
{
	uint64_t deadline = mono_now_ns() + ORPHAN_WAIT_NS;
	struct timespec nap = { 0, 1000000 };
	struct orphan_counted killed = { 0 };
	pid_t self = getpid();
	int saved = errno;

	if (!orphan_adopting || orphan_owner != self)
		return 0;
	/* Repeat: a killed parent hands its children to us only as it exits. */
	while (orphan_pass(self, &killed) > 0 && mono_now_ns() < deadline)
		nanosleep(&nap, NULL);
	(void)proc_reaper(false);
	orphan_adopting = false;
	free(killed.pid);
	errno = saved;
	return killed.total;
}

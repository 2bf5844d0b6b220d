/*
 * What a step leaves behind outside its process group.  Killing the group
 * misses a command that daemonises (setsid, then fork): its child sits in a
 * group and session of its own, and once its parent exits it is adopted by
 * init, beyond any kill the monitor could make.  So while a step runs the
 * monitor is its orphans' reaper (proc_reaper: Linux's child subreaper,
 * procctl's PROC_REAP_ACQUIRE on the BSDs): they are re-parented to it, stay
 * in its process tree, and are found (orphan_plan) and killed at the step's
 * end.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/orphan_plan.h"
#include "scaletop/pgroup.h"
#include "scaletop/platform.h"

/* Long enough for SIGKILLed processes to exit; bounded so a D-state one cannot hang us. */
#define ORPHAN_WAIT_NS 2000000000ull

static bool orphan_adopting;
static pid_t orphan_owner; /* the adopting process: a forked child inherits the flag, not the role */
/* Groups started while adopting: their members dying late are not leftovers. */
static pid_t orphan_groups[PGROUP_MAX];
static int orphan_ngroups;
static int orphan_table_works = -1; /* unknown until first asked */

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

void
pgroup_note_started(pid_t pgid)
{
	if (orphan_adopting && orphan_owner == getpid() && orphan_ngroups < PGROUP_MAX)
		orphan_groups[orphan_ngroups++] = pgid;
}

/* Whether pgid is one the monitor started, live or ended, during this step. */
static bool
orphan_group_known(pid_t pgid)
{
	if (pgroup_is_live(pgid))
		return true;
	for (int i = 0; i < orphan_ngroups; i++) {
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

	for (size_t i = 0; i < c->n; i++) {
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
		.self = self, .own_pgrp = getpgrp(), .live = orphan_live, .known = orphan_known,
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
	struct timespec nap = {0, 1000000};
	struct orphan_counted killed = {0};
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

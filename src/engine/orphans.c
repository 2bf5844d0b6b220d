/*
 * What a step leaves behind outside its process group.  Killing the group
 * misses a command that daemonises (setsid, then fork): its child sits in a
 * group and session of its own, and once its parent exits it is adopted by
 * init, beyond any kill the monitor could make.  So while a step runs the
 * monitor is a child subreaper: orphans of the step are re-parented to it,
 * stay in its process tree, and are found and killed at the step's end.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "scaletop/pgroup.h"
#include "scaletop/platform.h"

/* Long enough for SIGKILLed processes to exit; bounded so a D-state one cannot hang us. */
#define ORPHAN_WAIT_NS 2000000000ull
/* Deeper than any real process tree; bounds the walk should the table hold a cycle. */
#define ORPHAN_MAX_DEPTH 4096

static bool orphan_adopting;
static pid_t orphan_owner; /* the adopting process: a forked child inherits the flag, not the role */
/* Groups started while adopting: their members dying late are not leftovers. */
static pid_t orphan_groups[PGROUP_MAX];
static int orphan_ngroups;
static int orphan_table_works = -1; /* unknown until first asked */

static void
orphan_subreaper(bool on)
{
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
	(void)prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0);
#else
	(void)on;
#endif
}

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
	orphan_subreaper(true);
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

static int
orphan_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct proc_link *)a)->pid, y = ((const struct proc_link *)b)->pid;

	return (x > y) - (x < y);
}

static const struct proc_link *
orphan_find(const struct proc_link *t, size_t n, pid_t pid)
{
	struct proc_link key = {.pid = pid};

	return bsearch(&key, t, n, sizeof(*t), orphan_cmp);
}

/* Whether p descends from self (and is not self). */
static bool
orphan_descends(const struct proc_link *t, size_t n, const struct proc_link *p, pid_t self)
{
	for (int depth = 0; p != NULL && depth < ORPHAN_MAX_DEPTH; depth++) {
		if (p->ppid == self)
			return true;
		if (p->ppid <= 1 || p->ppid == p->pid)
			return false;
		p = orphan_find(t, n, p->ppid);
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

/*
 * One pass: SIGKILL to every live descendant and its group, and a reap of
 * every child that is no registered group's leader (those are their owners'
 * to reap, for their exit status).  The number still to wait for; *killed
 * collects the kills outside the registered groups.
 */
static int
orphan_pass(pid_t self, struct orphan_counted *killed)
{
	struct proc_link *t;
	size_t n, i;
	int left = 0;

	if (proc_table_read(&t, &n) != 0)
		return 0;
	qsort(t, n, sizeof(*t), orphan_cmp);
	for (i = 0; i < n; i++) {
		const struct proc_link *p = &t[i];

		if (!orphan_descends(t, n, p, self) || (p->zombie && pgroup_is_live(p->pid)))
			continue;
		if (!p->zombie) {
			if (p->pgid == p->pid && p->pgid != getpgrp())
				(void)kill(-p->pid, SIGKILL);
			(void)kill(p->pid, SIGKILL);
			/* Only what escaped the step's own groups counts as left behind. */
			if (!orphan_group_known(p->pgid))
				orphan_count(killed, p->pid);
		}
		if (p->ppid == self && !pgroup_is_live(p->pid) &&
		    waitpid(p->pid, NULL, WNOHANG) == p->pid)
			continue;
		left++;
	}
	free(t);
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
	orphan_subreaper(false);
	orphan_adopting = false;
	free(killed.pid);
	errno = saved;
	return killed.total;
}

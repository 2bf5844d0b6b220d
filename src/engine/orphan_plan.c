/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Choosing what a step left behind from a process table: every descendant
 * of the monitor, found by walking parent links (a daemon that setsid()s and
 * forks is still one, since the monitor is its reaper), and what to do with
 * it.  See orphan_plan.h.
 */
#include <stdlib.h>

#include "orphan_plan.h"

static int
orphan_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct proc_link *)a)->pid, y = ((const struct proc_link *)b)->pid;

	return (x > y) - (x < y);
}

static const struct proc_link *
orphan_find(const struct proc_link *t, size_t n, pid_t pid)
{
	struct proc_link key = { .pid = pid };

	return bsearch(&key, t, n, sizeof(*t), orphan_cmp);
}

/* Whether p descends from self (and is not self). */
static bool
orphan_descends(const struct proc_link *t, size_t n, const struct proc_link *p, pid_t self)
{
	int depth;

	for (depth = 0; p != NULL && depth < ORPHAN_MAX_DEPTH; depth++) {
		if (p->ppid == self)
			return true;
		if (p->ppid <= 1 || p->ppid == p->pid)
			return false;
		p = orphan_find(t, n, p->ppid);
	}
	return false;
}

static unsigned
orphan_what(const struct proc_link *p, const struct orphan_view *v)
{
	unsigned what = 0;

	if (!p->zombie) {
		if (p->pgid == p->pid && p->pgid != v->own_pgrp)
			what |= ORPHAN_KILL_GROUP;
		what |= ORPHAN_KILL;
		/* Only what escaped the step's own groups counts as left behind. */
		if (!v->known(p->pgid, v->arg))
			what |= ORPHAN_COUNT;
	}
	/* A registered group's leader is its owner's to reap, for its exit status. */
	if (p->ppid == v->self && !v->live(p->pid, v->arg))
		what |= ORPHAN_REAP;
	return what;
}

size_t
orphan_plan(struct proc_link *t, size_t n, const struct orphan_view *v, struct orphan_action *out)
{
	size_t i, k = 0;

	if (n == 0)
		return 0; /* qsort and bsearch want a table, even an empty one */
	qsort(t, n, sizeof(*t), orphan_cmp);
	for (i = 0; i < n; i++) {
		const struct proc_link *p = &t[i];

		if (!orphan_descends(t, n, p, v->self) || (p->zombie && v->live(p->pid, v->arg)))
			continue;
		out[k].pid = p->pid;
		out[k].what = orphan_what(p, v);
		k++;
	}
	return k;
}

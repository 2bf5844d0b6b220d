/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which locks the window's blocked threads waited on (the lock census,
 * census.h): one census a family, fed by the wait sampler, named at the
 * window's end and kept in the step (st->ulocks).  Off with --no-locks.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/census.h"
#include "scaletop/decode_proc.h"
#include "scaletop/symbols.h"
#include "lock_census.h"
#include "shm_key.h"
#include "step_ctx.h"

/*
 * Which locks the window's blocked threads waited on (the lock census,
 * census.h): one census a family, fed by the wait sampler while the window
 * is open (wait_census.c, which notes each waiter's process to the step
 * context's symboliser when first met), then sorted, named by that
 * symboliser (the on-CPU paths' own, made here when --no-hot left none),
 * its idle locks (a condition variable's waiters: lock_census.h) put after
 * the contended, and kept in the step, each family's first STEP_ULOCKS
 * (st->ulocks).  Off with --no-locks.
 */

/* A thread state as a word of the step's JSON (the owner's). */
static const char *
census_state_word(int state)
{
	switch (state) {
	case THREAD_RUNNING:
		return "running";
	case THREAD_RUNNABLE:
		return "runnable"; /* Linux's R: on a CPU or waiting for one */
	case THREAD_SLEEPING:
		return "sleeping";
	case THREAD_DISK:
		return "disk";
	case THREAD_LOCK:
		return "lock";
	case THREAD_STOPPED:
		return "stopped";
	case THREAD_ZOMBIE:
		return "exited";
	default:
		return "other";
	}
}

void
step_ctx_census_begin(struct step_ctx *c)
{
	int f;

	if (!c->s->set.no_locks && c->sym == NULL)
		c->sym = sym_new();
	c->ws.sym = c->s->set.no_locks ? NULL : c->sym;
	shm_keys_free(c->shm); /* the last step's processes may be gone, their pids reused */
	c->shm = c->s->set.no_locks ? NULL : shm_keys_new();
	c->ws.shm = c->shm;
	for (f = 0; f < 2; f++) {
		c->ws.census[f] = NULL;
		if (c->s->set.no_locks)
			continue;
		if (c->census[f] == NULL && (c->census[f] = census_new()) == NULL)
			continue; /* no memory: no census, the sampler reads on */
		census_reset(c->census[f]);
		c->ws.census[f] = c->census[f];
		c->ws.census_seen[f] = c->ws.census_stride[f] = 0;
	}
	c->ws.census_reads = c->ws.census_ns = c->ws.census_worst = c->ws.census_mark = 0;
}

/* Lock i of census k as the step keeps it. */
static void
census_keep(struct census *k, size_t i, enum wait_family f, struct step_ulock *u)
{
	const struct census_lock *l = census_lock(k, i);

	memset(u, 0, sizeof(*u));
	u->family = f;
	u->pid = l->pid;
	if (proc_comm(l->pid, u->comm, sizeof(u->comm)) != 0)
		snprintf(u->comm, sizeof(u->comm), "%s",
			 l->comm); /* gone: as read while it waited */
	if (l->name[0] != '\0')
		snprintf(u->name, sizeof(u->name), "%s", l->name);
	else
		snprintf(u->name, sizeof(u->name), "0x%llx", (unsigned long long)l->addr);
	snprintf(u->how, sizeof(u->how), "%s", l->how != NULL ? l->how : "");
	snprintf(u->kind, sizeof(u->kind), "%s", futex_kind_name(l->kind));
	u->share = census_share(k, i);
	u->max_waiters = l->max_waiters;
	u->threads = (unsigned)l->ntids;
	u->shared = l->shared != 0;
	u->processes = l->shared ? (unsigned)l->npids : 1;
	u->readings = l->readings;
	snprintf(u->mapping, sizeof(u->mapping), "%s", l->mapping);
	u->idle = l->idle != 0;
	if (l->owner_reads > 0) {
		u->owner = l->owner;
		u->owner_pid = l->owner_pid;
		if (l->run_tid == l->owner)
			snprintf(u->owner_state, sizeof(u->owner_state), "%s",
				 census_state_word(l->run_state));
	} else {
		snprintf(u->owner_why, sizeof(u->owner_why), "%s",
			 l->owner_why[0] != '\0' ? l->owner_why
						 : "not read while it was waited on");
	}
}

void
step_ctx_census_end(struct step_ctx *c, struct step *st)
{
	struct step_locks *ul = &st->ulocks;
	struct census *k;
	size_t i;
	int f;

	memset(ul, 0, sizeof(*ul));
	c->ws.sym = NULL;
	c->ws.shm = NULL;
	for (f = 0; f < 2; f++) {
		if ((k = c->ws.census[f]) == NULL)
			continue;
		c->ws.census[f] = NULL;
		ul->present = true;
		ul->blocked_s[f == 0 ? WAIT_WORKLOAD : WAIT_TARGET] = census_blocked(k);
		census_sort(k);
		if (census_count(k) == 0)
			continue;
		if (c->sym == NULL)
			c->sym = sym_new();
		if (c->sym != NULL) {
			(void)census_name(k, c->sym);
			(void)census_name_callers(k, c->sym);
			census_sort(k); /* the idle ones after the contended */
		}
		for (i = 0; i < census_count(k) && i < STEP_ULOCKS; i++)
			census_keep(k, i, f == 0 ? WAIT_WORKLOAD : WAIT_TARGET, &ul->lock[ul->n++]);
	}
	ul->syscall_reads = (int64_t)c->ws.census_reads;
	ul->cost_ms = (double)c->ws.census_worst / 1e6;
}

void
step_ctx_census_free(struct step_ctx *c)
{
	int f;

	c->ws.sym = NULL;
	c->ws.shm = NULL;
	shm_keys_free(c->shm);
	c->shm = NULL;
	for (f = 0; f < 2; f++) {
		c->ws.census[f] = NULL;
		census_free(c->census[f]);
		c->census[f] = NULL;
	}
}

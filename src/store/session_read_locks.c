/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back a step's "locks" (session_json_locks.c): each family's
 * blocked time, the census's cost and its top locks (owner_why, mapping
 * and idle may be missing: older files, read as "", "" and false).  Absent in files from
 * before the lock census and in steps it did not run for (--no-locks).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "session_read.h"

/*
 * Checked as the views use it: known families and kinds, names that fit, at
 * most STEP_ULOCKS locks a family, a family's shares summing to at most 1.
 */

/* How far shares may sum past 1 (hand-edited files round them). */
#define READ_LOCKS_SUM_TOL 1e-3

static const char *const ulock_kinds[] = { "mutex", "bitset", "pi", "futex2" };

static int
read_ulock_family(struct field_ctx *c, const json_t *v, const char *p, enum wait_family *f)
{
	int i;

	if (field_enum(c, v, p, "family", wait_family_names, WAIT_NFAMILIES, &i) != 0)
		return -1;
	if (i != WAIT_WORKLOAD && i != WAIT_TARGET)
		return field_fail(c, p,
				  "family '%s' has no threads to wait; expected workload or target",
				  wait_family_names[i]);
	*f = (enum wait_family)i;
	return 0;
}

static int
read_ulock_counts(struct field_ctx *c, const json_t *v, const char *p, struct step_ulock *u)
{
	long long w, t, r, pid, owner;

	if (field_int(c, v, p, "pid", 1, INT32_MAX, 0, 0, &pid) != 0 ||
	    field_int(c, v, p, "max_waiters", 0, UINT32_MAX, 0, 0, &w) != 0 ||
	    field_int(c, v, p, "threads", 0, UINT32_MAX, 0, 0, &t) != 0 ||
	    field_int(c, v, p, "readings", 0, INT64_MAX, 0, 0, &r) != 0 ||
	    field_int(c, v, p, "owner", 1, INT32_MAX, F_NULL, 0, &owner) != 0)
		return -1;
	u->pid = (pid_t)pid;
	u->max_waiters = (unsigned)w;
	u->threads = (unsigned)t;
	u->readings = (unsigned long)r;
	u->owner = (pid_t)owner;
	return 0;
}

/* Members older files lack: why no owner, the mapping of a lock named by its call site, idleness.
 */
static int
read_ulock_extra(struct field_ctx *c, const json_t *v, const char *p, struct step_ulock *u)
{
	if (json_object_get(v, "owner_why") != NULL &&
	    field_str(c, v, p, "owner_why", F_NULL, u->owner_why, sizeof(u->owner_why)) != 0)
		return -1;
	if (json_object_get(v, "mapping") != NULL &&
	    field_str(c, v, p, "mapping", F_NULL, u->mapping, sizeof(u->mapping)) != 0)
		return -1;
	if (json_object_get(v, "idle") != NULL && field_bool(c, v, p, "idle", &u->idle) != 0)
		return -1;
	return 0;
}

static int
read_ulock(struct field_ctx *c, const json_t *v, const char *p, struct step_ulock *u)
{
	int kind;

	memset(u, 0, sizeof(*u));
	if (field_type(c, v, p, F_OBJ) != 0 || read_ulock_family(c, v, p, &u->family) != 0 ||
	    field_str(c, v, p, "comm", F_NULL, u->comm, sizeof(u->comm)) != 0 ||
	    field_str(c, v, p, "name", 0, u->name, sizeof(u->name)) != 0 ||
	    field_str(c, v, p, "how", F_NULL, u->how, sizeof(u->how)) != 0 ||
	    field_enum(c, v, p, "kind", ulock_kinds, 4, &kind) != 0 ||
	    field_num(c, v, p, "share", 0, 1, 0, &u->share) != 0 ||
	    read_ulock_counts(c, v, p, u) != 0 ||
	    field_str(c, v, p, "owner_state", F_NULL, u->owner_state, sizeof(u->owner_state)) !=
		    0 ||
	    read_ulock_extra(c, v, p, u) != 0)
		return -1;
	snprintf(u->kind, sizeof(u->kind), "%s", ulock_kinds[kind]);
	if (u->name[0] == '\0')
		return field_fail(c, p,
				  "the lock has an empty name; expected its symbol or address");
	return 0;
}

/* At most STEP_ULOCKS locks a family, their shares summing to at most 1. */
static int
read_ulock_sums(struct field_ctx *c, const char *P, const struct step_locks *l)
{
	double sum[WAIT_NFAMILIES] = { 0 };
	int n[WAIT_NFAMILIES] = { 0 }, i;

	for (i = 0; i < l->n; i++) {
		sum[l->lock[i].family] += l->lock[i].share;
		n[l->lock[i].family]++;
	}
	for (i = 0; i < WAIT_NFAMILIES; i++) {
		if (n[i] > STEP_ULOCKS)
			return field_fail(c, P, "%d locks of the %s family; expected at most %d",
					  n[i], wait_family_names[i], STEP_ULOCKS);
		if (sum[i] > 1 + READ_LOCKS_SUM_TOL)
			return field_fail(c, P,
					  "the %s family's locks sum to %g; expected at most 1",
					  wait_family_names[i], sum[i]);
	}
	return 0;
}

static int
read_blocked(struct field_ctx *c, const json_t *lk, const char *P, struct step_locks *l)
{
	json_t *b = field_get(c, lk, P, "blocked_s", F_OBJ);
	enum wait_family f;
	char Q[128];
	double v;

	if (b == NULL)
		return -1;
	field_path(Q, sizeof(Q), P, "blocked_s");
	for (f = WAIT_WORKLOAD; f <= WAIT_TARGET; f++) {
		if (field_num(c, b, Q, wait_family_names[f], 0, INFINITY, F_NULL, &v) != 0)
			return -1;
		l->blocked_s[f] = isnan(v) ? 0 : v;
	}
	return 0;
}

int
session_read_locks(struct field_ctx *c, const json_t *step, const char *spath, struct step_locks *l)
{
	json_t *lk = json_object_get(step, "locks"), *top, *v;
	long long reads;
	char P[96], Q[128], q[144];
	size_t i;

	memset(l, 0, sizeof(*l));
	if (lk == NULL || json_is_null(lk))
		return 0;
	field_path(P, sizeof(P), spath, "locks");
	if (field_type(c, lk, P, F_OBJ) != 0 || read_blocked(c, lk, P, l) != 0 ||
	    field_int(c, lk, P, "syscall_reads", 0, INT64_MAX, 0, 0, &reads) != 0 ||
	    field_num(c, lk, P, "cost_ms", 0, INFINITY, F_NULL, &l->cost_ms) != 0 ||
	    (top = field_get(c, lk, P, "top", F_ARR)) == NULL)
		return -1;
	l->syscall_reads = reads;
	if (isnan(l->cost_ms))
		l->cost_ms = 0;
	field_path(Q, sizeof(Q), P, "top");
	if (field_count(c, top, Q, 0, 2 * STEP_ULOCKS, "locks") != 0)
		return -1;
	json_array_foreach(top, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (read_ulock(c, v, q, &l->lock[i]) != 0)
			return -1;
		l->n = (int)i + 1;
	}
	if (read_ulock_sums(c, Q, l) != 0)
		return -1;
	l->present = true;
	return 0;
}

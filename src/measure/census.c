/* SPDX-License-Identifier: BSD-2-Clause */
/* The lock census of each family (step_census.c), as a collector: window, JSON "locks", table. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/field_read.h"
#include "scaletop/format.h"
#include "scaletop/measures.h"
#include "../engine/step_ctx.h"

static void
census_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_census_begin(c);
}

static void
census_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_census_end(c, st);
}

/* --- its section of a step: "locks" (st->ulocks; st->locks is the kernel's) -- */

/*
 * Each family's top locks with their name (a call site's, then the mapping
 * it lies in), kind, share of the family's blocked time, waiters, holder (or
 * why none was verified) and whether they are idle waits rather than
 * contention.  A step no census ran for has
 * no "locks" at all.
 */

/* A string as JSON can hold it: a symbol or a comm may be in any encoding. */
static json_t *
text_json(const char *s, size_t cap)
{
	char buf[STEP_ULOCK_NAME];

	snprintf(buf, sizeof(buf) < cap ? sizeof(buf) : cap, "%s", s);
	utf8_scrub(buf);
	return json_string(buf);
}

static json_t *
num_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A shared lock's processes, and a known holder's process: 0, or -1 when out of memory. */
static int
ulock_shared_json(json_t *o, const struct step_ulock *u)
{
	if (json_object_set_new(o, "owner_pid",
				u->owner > 0 && u->owner_pid > 0 ? json_integer(u->owner_pid)
								 : json_null()) != 0 ||
	    json_object_set_new(o, "shared", json_boolean(u->shared)) != 0)
		return -1;
	return json_object_set_new(o, "processes",
				   json_integer(u->processes > 0 ? u->processes : 1));
}

static json_t *
ulock_json(const struct step_ulock *u)
{
	json_t *o;

	if (u->family != WAIT_WORKLOAD && u->family != WAIT_TARGET)
		return NULL;
	o = json_pack("{s:s, s:i, s:o, s:o, s:o, s:s, s:o, s:I, s:I, s:I}", "family",
		      wait_family_names[u->family], "pid", (int)u->pid, "comm",
		      u->comm[0] != '\0' ? text_json(u->comm, sizeof(u->comm)) : json_null(),
		      "name", text_json(u->name, sizeof(u->name)), "how",
		      u->how[0] != '\0' ? json_string(u->how) : json_null(), "kind", u->kind,
		      "share", num_json(u->share), "max_waiters", (json_int_t)u->max_waiters,
		      "threads", (json_int_t)u->threads, "readings", (json_int_t)u->readings);
	if (o == NULL)
		return NULL;
	if (json_object_set_new(o, "owner", u->owner > 0 ? json_integer(u->owner) : json_null()) !=
		    0 ||
	    json_object_set_new(o, "owner_state",
				u->owner_state[0] != '\0' ? json_string(u->owner_state)
							  : json_null()) != 0 ||
	    json_object_set_new(o, "owner_why",
				u->owner <= 0 && u->owner_why[0] != '\0'
					? text_json(u->owner_why, sizeof(u->owner_why))
					: json_null()) != 0 ||
	    json_object_set_new(o, "mapping",
				u->mapping[0] != '\0' ? text_json(u->mapping, sizeof(u->mapping))
						      : json_null()) != 0 ||
	    json_object_set_new(o, "idle", json_boolean(u->idle)) != 0 ||
	    ulock_shared_json(o, u) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
census_write(const struct step *st, const struct step_slot *slot)
{
	const struct step_locks *l = &st->ulocks;
	json_t *top;
	int i;

	(void)slot;
	if (!l->present || (top = json_array()) == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (json_array_append_new(top, ulock_json(&l->lock[i])) != 0) {
			json_decref(top);
			return NULL;
		}
	return json_pack("{s:{s:o, s:o}, s:I, s:o, s:o}", "blocked_s", "workload",
			 num_json(l->blocked_s[WAIT_WORKLOAD]), "target",
			 num_json(l->blocked_s[WAIT_TARGET]), "syscall_reads",
			 (json_int_t)(l->syscall_reads > 0 ? l->syscall_reads : 0), "cost_ms",
			 num_json(l->cost_ms), "top", top);
}

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

/* Members older files lack: a shared lock's processes, and its holder's. */
static int
read_ulock_shared(struct field_ctx *c, const json_t *v, const char *p, struct step_ulock *u)
{
	long long n = 1, owner_pid = 0;

	if (json_object_get(v, "shared") != NULL && field_bool(c, v, p, "shared", &u->shared) != 0)
		return -1;
	if (json_object_get(v, "processes") != NULL &&
	    field_int(c, v, p, "processes", 1, UINT32_MAX, 0, 0, &n) != 0)
		return -1;
	if (json_object_get(v, "owner_pid") != NULL &&
	    field_int(c, v, p, "owner_pid", 1, INT32_MAX, F_NULL, 0, &owner_pid) != 0)
		return -1;
	if (!u->shared && n > 1)
		return field_fail(c, p,
				  "%lld processes wait on a lock not shared; expected 1, "
				  "or \"shared\": true",
				  n);
	u->processes = (unsigned)n;
	u->owner_pid = (pid_t)owner_pid;
	return 0;
}

/* Members older files lack: why no owner, the mapping of a lock named by its call site, idleness.
 */
static int
read_ulock_extra(struct field_ctx *c, const json_t *v, const char *p, struct step_ulock *u)
{
	if (read_ulock_shared(c, v, p, u) != 0)
		return -1;
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

/* Absent in files from before the census and in steps it did not run for (--no-locks). */
static int
census_read(struct field_ctx *c, const json_t *lk, const char *P, struct step *st,
	    struct step_slot *slot)
{
	struct step_locks *l = &st->ulocks;
	char Q[160], q[176];
	json_t *top, *v;
	long long reads;
	size_t i;

	(void)slot;
	memset(l, 0, sizeof(*l));
	if (lk == NULL || json_is_null(lk))
		return 0;
	if (field_type(c, lk, P, F_OBJ) != 0 || read_blocked(c, lk, P, l) != 0 ||
	    field_int(c, lk, P, "syscall_reads", 0, INT64_MAX, 0, 0, &reads) != 0 ||
	    field_num(c, lk, P, "cost_ms", 0, INFINITY, F_NULL, &l->cost_ms) != 0 ||
	    (top = field_array_at(c, lk, P, "top", 0, 2 * STEP_ULOCKS, "locks", Q, sizeof(Q))) ==
		    NULL)
		return -1;
	l->syscall_reads = reads;
	if (isnan(l->cost_ms))
		l->cost_ms = 0;
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

/* --- its lines in the table ------------------------------------------------ */

/*
 * The results table's "locks:" section, after the hot paths: per step and
 * family, the top locks its blocked threads waited on (the lock census,
 * st->ulocks), each with its share of the
 * family's blocked time, its name and process, its kind, the most waiters
 * at once, the distinct threads, where a lock named by its call site lies,
 * and its holder where one was verified, else why not; then the family's
 * idle waits (lock_census.h), apart, marked "idle wait".
 */

/* Locks shown per step and family. */
#define TABLE_LOCKS_SHOWN 3

/*
 * "     8 target    41.0% lock_sys+64 (mariadbd) mutex, 7 waiters at once, 12 threads, held by
 * 4711 running"; an idle wait says "idle wait: " before its name, a shared lock its processes
 * ("in 4 processes (shared)") and its holder's, a lock named by its call site where it lies,
 * and a lock with no verified holder why.
 */
static void
locks_line(FILE *f, const struct step *st, const struct step_ulock *u, bool first)
{
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[u->family]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[u->family]);
	fprintf(f, " %5.1f%% %s%s", 100.0 * u->share, u->idle ? "idle wait: " : "", u->name);
	if (u->comm[0] != '\0')
		fprintf(f, " (%s)", u->comm);
	fprintf(f, " %s, %u waiter%s at once, %u thread%s", u->kind, u->max_waiters,
		u->max_waiters == 1 ? "" : "s", u->threads, u->threads == 1 ? "" : "s");
	if (ulock_across_processes(u))
		fprintf(f, " in %u process%s (shared)", u->processes,
			u->processes == 1 ? "" : "es");
	if (u->mapping[0] != '\0')
		fprintf(f, ", at %s", u->mapping);
	if (u->owner > 0 && ulock_across_processes(u))
		fprintf(f, ", held by %d of process %d%s%s", (int)u->owner, (int)u->owner_pid,
			u->owner_state[0] ? " " : "", u->owner_state);
	else if (u->owner > 0)
		fprintf(f, ", held by %d%s%s", (int)u->owner, u->owner_state[0] ? " " : "",
			u->owner_state);
	else if (!u->idle)
		fprintf(f, ", owner unknown%s%s", u->owner_why[0] ? ": " : "", u->owner_why);
	fputc('\n', f);
}

/* Family fam's locks of step i, the contended (idle false) or the idle: at most shown of them. */
static void
locks_of(FILE *f, const struct step *st, enum wait_family fam, bool idle, bool *first)
{
	const struct step_locks *l = &st->ulocks;
	int j, shown;

	for (j = shown = 0; j < l->n && shown < TABLE_LOCKS_SHOWN; j++) {
		if (l->lock[j].family != fam || l->lock[j].idle != idle)
			continue;
		locks_line(f, st, &l->lock[j], *first);
		*first = false;
		shown++;
	}
}

static void
census_table(FILE *f, const struct session *s, int slot)
{
	enum wait_family fam;
	bool any = false, first;
	int i;

	(void)slot;
	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].ulocks.present && s->steps[i].ulocks.n > 0;
	if (!any)
		return;
	fprintf(f,
		"locks: the top %d futexes each family's blocked threads waited on, by share of "
		"its blocked time; then its idle waits (workers waiting for work on a condition "
		"variable: not contention)\n",
		TABLE_LOCKS_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		first = true;
		for (fam = WAIT_WORKLOAD; s->steps[i].ulocks.present && fam <= WAIT_TARGET; fam++) {
			locks_of(f, &s->steps[i], fam, false, &first);
			locks_of(f, &s->steps[i], fam, true, &first);
		}
	}
}

const struct collector census_collector = {
	.key = "locks",
	.begin = census_begin,
	.end = census_end,
	.write = census_write,
	.read = census_read,
	.table = census_table,
};

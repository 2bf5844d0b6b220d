/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's "locks" (the lock census) in the session's JSON: the top locks
 * saved and read back equal from a snapshot and from a stream, a step
 * without it loading as one no census ran for (older files), each bad value
 * refused with its path, and the table's "locks:" lines.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/measures.h"
#include "scaletop/snapshot.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"
#include "json_steps.h"

/* The census collector's lines in the table ("locks:"). */
static void
census_table_of(FILE *f, const struct session *s)
{
	int i;

	for (i = 0; i < ncollectors && strcmp(collectors[i]->key, "locks") != 0; i++)
		;
	if (i < ncollectors)
		collectors[i]->table(f, s, i);
}

static char tmpdir[] = "/tmp/test_locks_json.XXXXXX";

static void
add_lock(struct step_locks *l, enum wait_family f, const char *name, const char *kind, double share,
	 unsigned waiters, pid_t owner, const char *state)
{
	struct step_ulock *u = &l->lock[l->n++];

	memset(u, 0, sizeof(*u));
	u->family = f;
	u->pid = f == WAIT_TARGET ? 900 : 100;
	snprintf(u->comm, sizeof(u->comm), "%s", f == WAIT_TARGET ? "mariadbd" : "scaletop");
	snprintf(u->name, sizeof(u->name), "%s", name);
	snprintf(u->how, sizeof(u->how), "symbol");
	snprintf(u->kind, sizeof(u->kind), "%s", kind);
	u->share = share;
	u->max_waiters = waiters;
	u->threads = waiters + 5;
	u->readings = 40;
	u->owner = owner;
	u->owner_pid = owner > 0 ? u->pid : 0;
	u->processes = 1;
	snprintf(u->owner_state, sizeof(u->owner_state), "%s", state);
}

static void
make_session(struct session *s)
{
	static const int n[] = { 1, 8 };
	struct step_locks *l;

	json_steps_session(s, "mutex", n, 2);
	l = &s->steps[1].ulocks;
	l->present = true;
	l->blocked_s[WAIT_WORKLOAD] = 3.5;
	l->blocked_s[WAIT_TARGET] = 12.25;
	l->syscall_reads = 640;
	l->cost_ms = 0.375;
	add_lock(l, WAIT_WORKLOAD, "big_lock", "mutex", 0.5, 7, 4711, "runnable");
	add_lock(l, WAIT_TARGET, "lock_sys+64", "mutex", 0.41, 41, 4712, "");
	l->lock[1].shared = true; /* in shared memory: three processes wait, a fourth holds it */
	l->lock[1].processes = 3;
	l->lock[1].owner_pid = 4800;
	add_lock(l, WAIT_TARGET, "trx_commit+0x1d (heap)", "bitset", 0.25, 3, 0, "");
	snprintf(l->lock[2].mapping, sizeof(l->lock[2].mapping), "[heap]+0x40");
	snprintf(l->lock[2].owner_why, sizeof(l->lock[2].owner_why), "not a mutex");
	snprintf(l->lock[2].how, sizeof(l->lock[2].how), "stack scan");
	l->lock[2].shared = true; /* in shared memory, one process waits: its process goes unsaid */
	add_lock(l, WAIT_TARGET, "wait_for_tasks (heap)", "bitset", 0.2, 9, 0, "");
	snprintf(l->lock[3].mapping, sizeof(l->lock[3].mapping), "[heap]+0x24df28");
	snprintf(l->lock[3].owner_why, sizeof(l->lock[3].owner_why), "not a mutex");
	l->lock[3].idle = true;
}

static int
same_lock(const struct step_ulock *a, const struct step_ulock *b)
{
	return a->family == b->family && a->pid == b->pid && strcmp(a->comm, b->comm) == 0 &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->how, b->how) == 0 &&
	       strcmp(a->kind, b->kind) == 0 && fabs(a->share - b->share) < 1e-12 &&
	       a->max_waiters == b->max_waiters && a->threads == b->threads &&
	       a->readings == b->readings && a->owner == b->owner &&
	       strcmp(a->owner_state, b->owner_state) == 0 &&
	       strcmp(a->owner_why, b->owner_why) == 0 && strcmp(a->mapping, b->mapping) == 0 &&
	       a->idle == b->idle && a->shared == b->shared && a->processes == b->processes &&
	       a->owner_pid == b->owner_pid;
}

static int
same_locks(const struct step_locks *a, const struct step_locks *b)
{
	int i;

	if (a->present != b->present || a->n != b->n || a->syscall_reads != b->syscall_reads ||
	    fabs(a->cost_ms - b->cost_ms) > 1e-12)
		return 0;
	for (i = 0; i < WAIT_NFAMILIES; i++)
		if (fabs(a->blocked_s[i] - b->blocked_s[i]) > 1e-12)
			return 0;
	for (i = 0; i < a->n; i++)
		if (!same_lock(&a->lock[i], &b->lock[i]))
			return 0;
	return 1;
}

static void
test_round_trips(void)
{
	struct snapshot snap;
	struct session s;
	struct stream_reader *r;
	const struct session *got;

	make_session(&s);
	if (json_steps_round_trip(&s, tmpdir, &snap, &r) == 0) {
		ok(!snap.s.steps[0].ulocks.present, "a step without a census has no locks");
		ok(same_locks(&snap.s.steps[1].ulocks, &s.steps[1].ulocks),
		   "the census's locks come back");
		snapshot_free(&snap);
		got = stream_reader_session(r);
		ok(same_locks(&got->steps[1].ulocks, &s.steps[1].ulocks),
		   "the stream's step has the same locks");
		stream_reader_free(r);
	}
	session_free(&s);
}

static void
refused(const char *path, json_t *v, const char *want)
{
	json_steps_refused(make_session, path, v, want);
}

static void
test_refusals(void)
{
	char err[ST_ERRLEN];
	struct session s;

	refused("steps.1.locks.top.0.family", json_string("probe"), "steps[1].locks.top[0]");
	refused("steps.1.locks.top.0.kind", json_string("spin"), "kind");
	refused("steps.1.locks.top.0.share", json_real(1.5), "share");
	refused("steps.1.locks.top.2.share", json_real(0.9), "locks sum to");
	refused("steps.1.locks.top.0.name", json_string(""), "empty name");
	refused("steps.1.locks.top.0.owner", json_integer(0), "owner");
	refused("steps.1.locks.top.0.max_waiters", json_integer(-1), "max_waiters");
	refused("steps.1.locks.top.3.idle", json_string("yes"), "idle");
	refused("steps.1.locks.top.2.owner_why", json_integer(3), "owner_why");
	refused("steps.1.locks.top.2.mapping", json_integer(3), "mapping");
	refused("steps.1.locks.top.0.processes", json_integer(3),
		"3 processes wait on a lock not shared");
	refused("steps.1.locks.top.1.processes", json_integer(0), "processes");
	refused("steps.1.locks.top.1.shared", json_integer(1), "shared");
	refused("steps.1.locks.top.1.owner_pid", json_integer(-4), "owner_pid");
	refused("steps.1.locks.blocked_s", NULL, "blocked_s");
	refused("steps.1.locks.top", json_integer(3), "steps[1].locks.top");
	refused("steps.1.locks", json_integer(3), "steps[1].locks");
	make_session(&s);
	snapshot_error(&s, "steps.1.locks", json_null(), err, sizeof(err));
	is_str(err, "", "a null locks is a step no census ran for");
	snapshot_error(&s, "steps.1.locks.top.0.owner", json_null(), err, sizeof(err));
	is_str(err, "", "a lock with no owner known loads");
	snapshot_error(&s, "steps.1.locks.top.3.idle", NULL, err, sizeof(err));
	is_str(err, "", "a lock without idle (an older file) loads");
	snapshot_error(&s, "steps.1.locks.top.2.owner_why", NULL, err, sizeof(err));
	is_str(err, "", "a lock without owner_why (an older file) loads");
	snapshot_error(&s, "steps.1.locks.top.2.mapping", NULL, err, sizeof(err));
	is_str(err, "", "a lock without mapping (an older file) loads");
	snapshot_error(&s, "steps.1.locks.top.0.shared", NULL, err, sizeof(err));
	is_str(err, "", "a lock without shared (an older file) loads");
	snapshot_error(&s, "steps.1.locks.top.0.processes", NULL, err, sizeof(err));
	is_str(err, "", "a lock without processes (an older file) loads");
	session_free(&s);
}

/* The table's lines: a family's top locks under its step, the holder where known. */
static void
test_table(void)
{
	struct session s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	make_session(&s);
	f = open_memstream(&buf, &len);
	census_table_of(f, &s);
	fclose(f);
	ok(strstr(buf, "     8 workload  50.0% big_lock (scaletop) mutex, 7 waiters at once, 12 "
		       "threads, held by 4711 runnable\n") != NULL,
	   "the workload's lock, its holder and the holder's state");
	ok(strstr(buf,
		  "       target    41.0% lock_sys+64 (mariadbd) mutex, 41 waiters at once, "
		  "46 threads in 3 processes (shared), held by 4712 of process 4800\n") != NULL,
	   "the target's shared lock: its processes, its holder's, whose state was not read");
	ok(strstr(buf, "       target    25.0% trx_commit+0x1d (heap) (mariadbd) bitset, 3 waiters "
		       "at once, 8 threads, at [heap]+0x40, owner unknown: not a mutex\n") != NULL,
	   "a lock named by its call site: where it lies, and why no holder; shared by one "
	   "process, no processes said");
	ok(strstr(buf, "       target    20.0% idle wait: wait_for_tasks (heap) (mariadbd) bitset, "
		       "9 waiters at once, 14 threads, at [heap]+0x24df28\n") != NULL,
	   "an idle wait: marked idle, no owner's reason");
	ok(strstr(buf, "lock_sys+64") < strstr(buf, "trx_commit") &&
		   strstr(buf, "trx_commit") < strstr(buf, "wait_for_tasks"),
	   "the idle wait after the family's contended locks");
	diag("%s", buf);
	free(buf);
	s.steps[1].ulocks.n = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	census_table_of(f, &s);
	fclose(f);
	is_str(buf, "", "no lock, no section");
	free(buf);
	session_free(&s);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return ok(0, "mkdtemp"), done_testing();
	test_round_trips();
	test_refusals();
	test_table();
	remove_tree(tmpdir);
	return done_testing();
}

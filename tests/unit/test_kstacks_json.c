/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's "kstacks" (the blocked threads' kernel stacks) in the session's
 * JSON: saved and read back equal from a snapshot and from a stream, a step
 * without it loading as one none were tried for (older files), each bad
 * value refused with its path, and the table's "kernel stacks:" lines.
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

static char tmpdir[] = "/tmp/test_kstacks_json.XXXXXX";

static void
add_stack(struct step_kstacks *k, enum wait_family f, const char *stack, double share,
	  unsigned long readings)
{
	struct step_kstack *e = &k->top[k->n++];

	memset(e, 0, sizeof(*e));
	e->family = f;
	snprintf(e->stack, sizeof(e->stack), "%s", stack);
	e->share = share;
	e->readings = readings;
}

static void
make_session(struct session *s)
{
	static const int n[] = { 1, 8, 16 };
	struct step_kstacks *k;

	json_steps_session(s, "mutex", n, 3);
	k = &s->steps[1].kstacks;
	k->present = true;
	k->reads = 36;
	k->failed = 2;
	k->read_us = 26.75;
	add_stack(k, WAIT_WORKLOAD, "futex_do_wait;__futex_wait;futex_wait;do_futex", 0.75, 27);
	add_stack(k, WAIT_WORKLOAD, "anon_pipe_read;vfs_read;ksys_read;do_syscall_64", 0.25, 9);
	add_stack(k, WAIT_TARGET, "do_epoll_wait;__x64_sys_epoll_wait;do_syscall_64", 1.0, 4);
	/* a step whose stacks the OS refused */
	k = &s->steps[2].kstacks;
	k->present = true;
	k->failed = 1;
	k->read_us = 3.5;
	snprintf(k->unreadable, sizeof(k->unreadable), "Permission denied");
}

static int
same_kstacks(const struct step_kstacks *a, const struct step_kstacks *b)
{
	int i;

	if (a->present != b->present || a->n != b->n || a->reads != b->reads ||
	    a->failed != b->failed || fabs(a->read_us - b->read_us) > 1e-12 ||
	    strcmp(a->unreadable, b->unreadable) != 0)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->top[i].family != b->top[i].family ||
		    strcmp(a->top[i].stack, b->top[i].stack) != 0 ||
		    fabs(a->top[i].share - b->top[i].share) > 1e-12 ||
		    a->top[i].readings != b->top[i].readings)
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
		ok(!snap.s.steps[0].kstacks.present, "a step none were tried for has no kstacks");
		is_double(snap.s.steps[0].kstacks.read_us, -1, 0, "and no read cost");
		ok(same_kstacks(&snap.s.steps[1].kstacks, &s.steps[1].kstacks),
		   "the stacks come back");
		ok(same_kstacks(&snap.s.steps[2].kstacks, &s.steps[2].kstacks),
		   "a refused step's reason comes back");
		snapshot_free(&snap);
		got = stream_reader_session(r);
		ok(same_kstacks(&got->steps[1].kstacks, &s.steps[1].kstacks) &&
			   same_kstacks(&got->steps[2].kstacks, &s.steps[2].kstacks),
		   "the stream's steps have the same stacks");
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

	refused("steps.1.kstacks.top.0.family", json_string("probe"), "steps[1].kstacks.top[0]");
	refused("steps.1.kstacks.top.0.share", json_real(1.5), "share");
	refused("steps.1.kstacks.top.1.share", json_real(0.5), "stacks sum to");
	refused("steps.1.kstacks.top.0.stack", json_string(""), "stack is empty");
	refused("steps.1.kstacks.top.0.readings", json_integer(0), "readings");
	refused("steps.1.kstacks.reads", json_integer(-1), "reads");
	refused("steps.1.kstacks.read_us", json_string("fast"), "read_us");
	refused("steps.1.kstacks.failed", NULL, "failed");
	refused("steps.1.kstacks.top", json_integer(3), "steps[1].kstacks.top");
	refused("steps.1.kstacks", json_integer(3), "steps[1].kstacks");
	make_session(&s);
	snapshot_error(&s, "steps.1.kstacks", json_null(), err, sizeof(err));
	is_str(err, "", "a null kstacks is a step none were tried for");
	snapshot_error(&s, "steps.1.kstacks", NULL, err, sizeof(err));
	is_str(err, "", "a step without kstacks (an older file) loads");
	snapshot_error(&s, "steps.1.kstacks.read_us", json_null(), err, sizeof(err));
	is_str(err, "", "a null read_us loads");
	session_free(&s);
}

/* The kernel stacks collector's lines in the table. */
static char *
table_of(const struct session *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	for (i = 0; i < ncollectors && strcmp(collectors[i]->key, "kstacks") != 0; i++)
		;
	if (i < ncollectors)
		collectors[i]->table(f, s, i);
	fclose(f);
	return buf;
}

/* The table's lines: each family's top stacks under its step, and why some were not read. */
static void
test_table(void)
{
	struct session s;
	char *buf;

	make_session(&s);
	buf = table_of(&s);
	ok(strncmp(buf, "kernel stacks: the top 3", 24) == 0, "the section's heading");
	ok(strstr(buf, "     8 workload  75.0% futex_do_wait;__futex_wait;futex_wait;do_futex (27 "
		       "read)\n") != NULL,
	   "the workload's top stack under its N");
	ok(strstr(buf, "       workload  25.0% anon_pipe_read;") != NULL, "its second");
	ok(strstr(buf, "       target   100.0% do_epoll_wait;") != NULL, "the target's");
	ok(strstr(buf, "some families' were not read (Permission denied)") != NULL,
	   "and why a step's were not read");
	diag("%s", buf);
	free(buf);
	s.steps[1].kstacks.n = 0;
	buf = table_of(&s);
	is_str(buf, "kernel stacks: none read (Permission denied)\n", "none read: why, once");
	free(buf);
	s.steps[2].kstacks.present = false;
	buf = table_of(&s);
	is_str(buf, "", "no stack, no reason: no section");
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

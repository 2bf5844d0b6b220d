/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back a step's "others" (session_json_others.c): who else was on
 * the CPUs.  Absent or null in files from before it and where it was not
 * measured: known is false.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "session_read.h"

/*
 * Checked as the views use it: CPUs that are not negative, at most
 * STEP_OTHERS_TOP commands, largest first, each with a name, at least one
 * process and at most STEP_OTHER_PIDS pids, no more than its processes.
 */

/* More CPUs than any machine has: a number past it is not a measurement. */
#define READ_OTHERS_MAX_CPUS 1e6

static int
read_other_pids(struct field_ctx *c, const json_t *v, const char *p, struct step_other *o)
{
	json_t *pids, *e;
	char q[192];
	long long pid;
	size_t i;

	if ((pids = field_get(c, v, p, "pids", F_ARR)) == NULL)
		return -1;
	field_path(q, sizeof(q), p, "pids");
	if (json_array_size(pids) > STEP_OTHER_PIDS || (int)json_array_size(pids) > o->procs)
		return field_fail(c, q, "%zu pids; expected at most %d and no more than procs (%d)",
				  json_array_size(pids), STEP_OTHER_PIDS, o->procs);
	json_array_foreach(pids, i, e)
	{
		if (!json_is_integer(e) || (pid = json_integer_value(e)) < 1 || pid > INT_MAX)
			return field_fail(c, q, "pid %zu is not a process id; expected 1 to %d",
					  i + 1, INT_MAX);
		o->pid[i] = (pid_t)pid;
		o->npid = (int)i + 1;
	}
	return 0;
}

static int
read_other(struct field_ctx *c, const json_t *v, const char *p, struct step_other *o)
{
	long long procs;

	memset(o, 0, sizeof(*o));
	if (field_type(c, v, p, F_OBJ) != 0 ||
	    field_str(c, v, p, "comm", 0, o->comm, sizeof(o->comm)) != 0 ||
	    field_int(c, v, p, "procs", 1, INT_MAX, 0, 0, &procs) != 0 ||
	    field_num(c, v, p, "cpus", 0, READ_OTHERS_MAX_CPUS, 0, &o->cpus) != 0)
		return -1;
	o->procs = (int)procs;
	if (o->comm[0] == '\0')
		return field_fail(c, p, "comm is empty; expected the command name");
	return read_other_pids(c, v, p, o);
}

int
session_read_others(struct field_ctx *c, const json_t *step, const char *spath,
		    struct step_others *o)
{
	json_t *j = json_object_get(step, "others"), *top, *v;
	char P[96], Q[128], q[144];
	size_t i;

	memset(o, 0, sizeof(*o));
	if (j == NULL || json_is_null(j))
		return 0;
	field_path(P, sizeof(P), spath, "others");
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_num(c, j, P, "cpus", 0, READ_OTHERS_MAX_CPUS, 0, &o->cpus) != 0 ||
	    field_num(c, j, P, "named_cpus", 0, READ_OTHERS_MAX_CPUS, 0, &o->named_cpus) != 0 ||
	    (top = field_get(c, j, P, "top", F_ARR)) == NULL)
		return -1;
	field_path(Q, sizeof(Q), P, "top");
	if (field_count(c, top, Q, 0, STEP_OTHERS_TOP, "commands") != 0)
		return -1;
	json_array_foreach(top, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (read_other(c, v, q, &o->top[i]) != 0)
			return -1;
		if (i > 0 && o->top[i].cpus > o->top[i - 1].cpus)
			return field_fail(c, q,
					  "cpus %g is more than the one before; expected "
					  "the busiest command first",
					  o->top[i].cpus);
		o->ntop = (int)i + 1;
	}
	o->known = true;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* Who else was on the CPUs over the window (step_others.c), as a collector: window, JSON, table. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/field_read.h"
#include "scaletop/format.h"
#include "scaletop/measures.h"
#include "scaletop/others.h"
#include "../engine/step_ctx.h"

static void
others_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_others_begin(c, now);
}

static void
others_tick(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_others_tick(c, now);
}

/* Without CPU counters across the window the others' CPUs are not known. */
static void
others_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_others_end(c, st, now, c->close.counted);
}

/* --- its section of a step: "others" -------------------------------------- */

static json_t *
others_num(double v)
{
	return isfinite(v) && v >= 0 ? json_real(v) : json_real(0);
}

static json_t *
other_json(const struct step_other *o)
{
	json_t *pids = json_array();
	char comm[sizeof(o->comm)];
	int i;

	if (pids == NULL)
		return NULL;
	for (i = 0; i < o->npid && i < STEP_OTHER_PIDS; i++)
		if (json_array_append_new(pids, json_integer(o->pid[i])) != 0) {
			json_decref(pids);
			return NULL;
		}
	snprintf(comm, sizeof(comm), "%s", o->comm);
	utf8_scrub(comm);
	return json_pack("{s:s, s:i, s:o, s:o}", "comm", comm, "procs", o->procs, "pids", pids,
			 "cpus", others_num(o->cpus));
}

/* Nothing for a step it was not measured for. */
static json_t *
others_write(const struct step *st, const struct step_slot *slot)
{
	const struct step_others *o = &st->others;
	json_t *top;
	int i;

	(void)slot;
	if (!o->known || (top = json_array()) == NULL)
		return NULL;
	for (i = 0; i < o->ntop && i < STEP_OTHERS_TOP; i++)
		if (json_array_append_new(top, other_json(&o->top[i])) != 0) {
			json_decref(top);
			return NULL;
		}
	return json_pack("{s:o, s:o, s:o}", "cpus", others_num(o->cpus), "named_cpus",
			 others_num(o->named_cpus), "top", top);
}

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

/* Absent or null in files from before it and where it was not measured: known is false. */
static int
others_read(struct field_ctx *c, const json_t *j, const char *P, struct step *st,
	    struct step_slot *slot)
{
	struct step_others *o = &st->others;
	json_t *top, *v;
	char Q[160], q[176];
	size_t i;

	(void)slot;
	memset(o, 0, sizeof(*o));
	if (j == NULL || json_is_null(j))
		return 0;
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_num(c, j, P, "cpus", 0, READ_OTHERS_MAX_CPUS, 0, &o->cpus) != 0 ||
	    field_num(c, j, P, "named_cpus", 0, READ_OTHERS_MAX_CPUS, 0, &o->named_cpus) != 0 ||
	    (top = field_array_at(c, j, P, "top", 0, STEP_OTHERS_TOP, "commands", Q, sizeof(Q))) ==
		    NULL)
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

/* --- its lines in the table ------------------------------------------------ */

/*
 * "  N=1    1.42 CPUs: cc1 x3 0.90, make 0.20 (names cover 77%)": N= keeps the
 * line apart from the step rows, a number and a rate.
 */
static void
others_line(FILE *f, const struct step *st)
{
	const struct step_others *o = &st->others;
	char names[160];

	others_names_text(o, STEP_OTHERS_TOP, names, sizeof(names));
	fprintf(f, "  N=%-4d %.2f CPUs", st->n, o->cpus);
	if (names[0] != '\0')
		fprintf(f, ": %s", names);
	if (o->cpus >= 0.005)
		fprintf(f, " (names cover %.0f%%)",
			100.0 * (o->named_cpus < o->cpus ? o->named_cpus / o->cpus : 1));
	fputc('\n', f);
}

/* The results table's "others:" section, when any step measured them. */
static void
others_table(FILE *f, const struct session *s, int slot)
{
	int i;
	bool any = false;

	(void)slot;
	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].others.known;
	if (!any)
		return;
	fprintf(f, "others: the CPUs other processes used over each window, and the busiest by "
		   "name (from scans about a second apart)\n");
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].others.known)
			others_line(f, &s->steps[i]);
	}
}

const struct collector others_collector = {
	.key = "others",
	.begin = others_begin,
	.tick = others_tick,
	.end = others_end,
	.write = others_write,
	.read = others_read,
	.table = others_table,
};

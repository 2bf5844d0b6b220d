/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who else was on the CPUs as JSON: a step's "others" (struct step_others):
 * the exact CPUs they used, how much of that the named processes cover,
 * and the busiest commands with their pids.  session_json.c puts it in the
 * step; session_read_others.c reads it back.  A step it was not measured
 * for has no "others".
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "scaletop/session.h"
#include "snapshot_priv.h"

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
	snapshot_utf8_scrub(comm);
	return json_pack("{s:s, s:i, s:o, s:o}", "comm", comm, "procs", o->procs, "pids", pids,
			 "cpus", others_num(o->cpus));
}

json_t *
session_json_others(const struct step_others *o)
{
	json_t *top = json_array();
	int i;

	if (top == NULL)
		return NULL;
	for (i = 0; i < o->ntop && i < STEP_OTHERS_TOP; i++)
		if (json_array_append_new(top, other_json(&o->top[i])) != 0) {
			json_decref(top);
			return NULL;
		}
	return json_pack("{s:o, s:o, s:o}", "cpus", others_num(o->cpus), "named_cpus",
			 others_num(o->named_cpus), "top", top);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back a step's "kstacks" (session_json_kstacks.c): the reads,
 * their cost, why none could be read, and each family's top stacks.
 * Absent in files from before the histogram and in steps it did not run
 * for (--no-locks).  The whole stacks, in milliseconds of blocked time,
 * are session_read_stacks.c's.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "session_read.h"

/*
 * Checked as the views use it: known families, stacks that fit and are not
 * empty, at most STEP_KSTACKS a family, a family's shares summing to at most
 * 1.
 */

/* How far shares may sum past 1 (hand-edited files round them). */
#define READ_KSTACKS_SUM_TOL 1e-3

static int
read_kstack(struct field_ctx *c, const json_t *v, const char *p, struct step_kstack *k)
{
	long long r;
	int i;

	memset(k, 0, sizeof(*k));
	if (field_type(c, v, p, F_OBJ) != 0 ||
	    field_enum(c, v, p, "family", wait_family_names, WAIT_NFAMILIES, &i) != 0)
		return -1;
	if (i != WAIT_WORKLOAD && i != WAIT_TARGET)
		return field_fail(
			c, p, "family '%s' has no threads to block; expected workload or target",
			wait_family_names[i]);
	k->family = (enum wait_family)i;
	if (field_str(c, v, p, "stack", 0, k->stack, sizeof(k->stack)) != 0 ||
	    field_num(c, v, p, "share", 0, 1, 0, &k->share) != 0 ||
	    field_int(c, v, p, "readings", 1, INT64_MAX, 0, 0, &r) != 0)
		return -1;
	k->readings = (unsigned long)r;
	if (k->stack[0] == '\0')
		return field_fail(c, p, "the stack is empty; expected its frames joined by ';'");
	return 0;
}

/* At most STEP_KSTACKS stacks a family, their shares summing to at most 1. */
static int
read_kstack_sums(struct field_ctx *c, const char *P, const struct step_kstacks *k)
{
	double sum[WAIT_NFAMILIES] = { 0 };
	int n[WAIT_NFAMILIES] = { 0 }, i;

	for (i = 0; i < k->n; i++) {
		sum[k->top[i].family] += k->top[i].share;
		n[k->top[i].family]++;
	}
	for (i = 0; i < WAIT_NFAMILIES; i++) {
		if (n[i] > STEP_KSTACKS)
			return field_fail(c, P, "%d stacks of the %s family; expected at most %d",
					  n[i], wait_family_names[i], STEP_KSTACKS);
		if (sum[i] > 1 + READ_KSTACKS_SUM_TOL)
			return field_fail(c, P,
					  "the %s family's stacks sum to %g; expected at most 1",
					  wait_family_names[i], sum[i]);
	}
	return 0;
}

int
session_read_kstacks(struct field_ctx *c, const json_t *step, const char *spath,
		     struct step_kstacks *k)
{
	json_t *ks = json_object_get(step, "kstacks"), *top, *v;
	uint64_t ms[WAIT_NFAMILIES];
	long long reads, failed;
	char P[96], Q[128], q[144];
	size_t i;

	memset(k, 0, sizeof(*k));
	k->read_us = -1;
	if (ks == NULL || json_is_null(ks))
		return 0;
	field_path(P, sizeof(P), spath, "kstacks");
	if (field_type(c, ks, P, F_OBJ) != 0 ||
	    field_int(c, ks, P, "reads", 0, INT64_MAX, 0, 0, &reads) != 0 ||
	    field_int(c, ks, P, "failed", 0, INT64_MAX, 0, 0, &failed) != 0 ||
	    field_num(c, ks, P, "read_us", 0, INFINITY, F_NULL, &k->read_us) != 0 ||
	    field_str(c, ks, P, "unreadable", F_NULL, k->unreadable, sizeof(k->unreadable)) != 0 ||
	    (top = field_get(c, ks, P, "top", F_ARR)) == NULL)
		return -1;
	k->reads = reads;
	k->failed = failed;
	if (isnan(k->read_us))
		k->read_us = -1;
	field_path(Q, sizeof(Q), P, "top");
	if (field_count(c, top, Q, 0, 2 * STEP_KSTACKS, "stacks") != 0)
		return -1;
	json_array_foreach(top, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (read_kstack(c, v, q, &k->top[i]) != 0)
			return -1;
		k->n = (int)i + 1;
	}
	if (read_kstack_sums(c, Q, k) != 0 || session_read_stacks(c, ks, P, &k->stacks, ms) != 0)
		return -1;
	k->present = true;
	return 0;
}

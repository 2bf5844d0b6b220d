/* SPDX-License-Identifier: BSD-2-Clause */
/* The blocked threads' kernel stacks (step_kstacks.c), as a collector: window, JSON, table. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/field_read.h"
#include "scaletop/format.h"
#include "scaletop/measures.h"
#include "scaletop/stacks_json.h"
#include "../engine/step_ctx.h"

static void
kstacks_begin(struct step_ctx *c, void *state, uint64_t now)
{
	step_ctx_kstacks_begin(c);
}

static void
kstacks_end(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot, uint64_t now)
{
	step_ctx_kstacks_end(c, st, now);
}

/* --- its section of a step: "kstacks" ------------------------------------- */

/*
 * The blocked threads' kernel stacks as JSON: a step's "kstacks" (the
 * histogram of kstacks.h, kept in st->kstacks): each family's top stacks
 * by their first frames, with their share of the family's blocked time
 * whose stack was read and the reads each rests on; how many stacks were
 * read and refused, a read's mean cost, why none could be read, and the
 * whole stacks in milliseconds of blocked time (stacks_write.c).  Its
 * own object rather than part of "locks": those are futex words, these any
 * blocked thread's path in the kernel.
 */

static json_t *
kstack_json(const struct step_kstack *k)
{
	char buf[STEP_KSTACK_LEN];

	if (k->family != WAIT_WORKLOAD && k->family != WAIT_TARGET)
		return NULL;
	snprintf(buf, sizeof(buf), "%s", k->stack);
	utf8_scrub(buf);
	return json_pack("{s:s, s:s, s:o, s:I}", "family", wait_family_names[k->family], "stack",
			 buf, "share", isfinite(k->share) ? json_real(k->share) : json_null(),
			 "readings", (json_int_t)k->readings);
}

/* Nothing for a step none were tried for (--no-locks). */
static json_t *
kstacks_write(const struct step *st, const struct step_slot *slot)
{
	const struct step_kstacks *k = &st->kstacks;
	char why[sizeof(k->unreadable)];
	json_t *top, *o;
	int i;

	(void)slot;
	if (!k->present || (top = json_array()) == NULL)
		return NULL;
	for (i = 0; i < k->n; i++)
		if (json_array_append_new(top, kstack_json(&k->top[i])) != 0) {
			json_decref(top);
			return NULL;
		}
	snprintf(why, sizeof(why), "%s", k->unreadable);
	utf8_scrub(why);
	o = json_pack("{s:I, s:I, s:o, s:o, s:o}", "reads",
		      (json_int_t)(k->reads > 0 ? k->reads : 0), "failed",
		      (json_int_t)(k->failed > 0 ? k->failed : 0), "read_us",
		      k->read_us >= 0 && isfinite(k->read_us) ? json_real(k->read_us) : json_null(),
		      "unreadable", why[0] != '\0' ? json_string(why) : json_null(), "top", top);
	if (o != NULL && k->stacks != NULL &&
	    json_object_set_new(o, "stacks", stacks_write(k->stacks)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

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

/* Absent in files from before the histogram and in steps it did not run for (--no-locks). */
static int
kstacks_read(struct field_ctx *c, const json_t *ks, const char *P, struct step *st,
	     struct step_slot *slot)
{
	struct step_kstacks *k = &st->kstacks;
	uint64_t ms[WAIT_NFAMILIES];
	long long reads, failed;
	char Q[160], q[176];
	json_t *top, *v;
	size_t i;

	(void)slot;
	memset(k, 0, sizeof(*k));
	k->read_us = -1;
	if (ks == NULL || json_is_null(ks))
		return 0;
	if (field_type(c, ks, P, F_OBJ) != 0 ||
	    field_int(c, ks, P, "reads", 0, INT64_MAX, 0, 0, &reads) != 0 ||
	    field_int(c, ks, P, "failed", 0, INT64_MAX, 0, 0, &failed) != 0 ||
	    field_num(c, ks, P, "read_us", 0, INFINITY, F_NULL, &k->read_us) != 0 ||
	    field_str(c, ks, P, "unreadable", F_NULL, k->unreadable, sizeof(k->unreadable)) != 0 ||
	    (top = field_array_at(c, ks, P, "top", 0, 2 * STEP_KSTACKS, "stacks", Q, sizeof(Q))) ==
		    NULL)
		return -1;
	k->reads = reads;
	k->failed = failed;
	if (isnan(k->read_us))
		k->read_us = -1;
	json_array_foreach(top, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (read_kstack(c, v, q, &k->top[i]) != 0)
			return -1;
		k->n = (int)i + 1;
	}
	if (read_kstack_sums(c, Q, k) != 0 || stacks_read(c, ks, P, &k->stacks, ms) != 0)
		return -1;
	k->present = true;
	return 0;
}

/* --- its lines in the table ------------------------------------------------ */

/* Stacks shown per step and family. */
#define TABLE_KSTACKS_SHOWN 3

/* "     8 workload  71.2% futex_do_wait;__futex_wait;futex_wait;do_futex (38 read)" */
static void
kstacks_line(FILE *f, const struct step *st, const struct step_kstack *k, bool first)
{
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[k->family]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[k->family]);
	fprintf(f, " %5.1f%% %s (%lu read)\n", 100.0 * k->share, k->stack, k->readings);
}

/*
 * The results table's "kernel stacks:" section: per step and family, the
 * top stacks its blocked threads waited in; or, where none could be read,
 * why, once.
 */
static void
kstacks_table(FILE *f, const struct session *s, int slot)
{
	const struct step_kstacks *k;
	const char *why = NULL;
	enum wait_family fam;
	bool any = false, first;
	int i, j, shown;

	(void)slot;
	for (i = 0; i < s->nsteps; i++) {
		k = &s->steps[i].kstacks;
		any = any || (k->present && k->n > 0);
		if (k->present && k->unreadable[0] != '\0' && why == NULL)
			why = k->unreadable;
	}
	if (!any) {
		if (why != NULL)
			fprintf(f, "kernel stacks: none read (%s)\n", why);
		return;
	}
	fprintf(f,
		"kernel stacks: the top %d of each family's blocked threads (their first frames), "
		"by share of the blocked time whose stack was read\n",
		TABLE_KSTACKS_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		k = &s->steps[i].kstacks;
		first = true;
		for (fam = WAIT_WORKLOAD; k->present && fam <= WAIT_TARGET; fam++) {
			for (j = shown = 0; j < k->n && shown < TABLE_KSTACKS_SHOWN; j++) {
				if (k->top[j].family != fam)
					continue;
				kstacks_line(f, &s->steps[i], &k->top[j], first);
				first = false;
				shown++;
			}
		}
	}
	if (why != NULL)
		fprintf(f, "kernel stacks: some families' were not read (%s)\n", why);
}

const struct collector kstacks_collector = {
	.key = "kstacks",
	.begin = kstacks_begin,
	.end = kstacks_end,
	.write = kstacks_write,
	.read = kstacks_read,
	.table = kstacks_table,
};

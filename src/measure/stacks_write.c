/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's whole stacks as JSON (hotstacks.h), the "stacks" of its "hot"
 * (on-CPU samples) and of its "kstacks" (milliseconds of blocked time), for
 * `export --folded`.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/format.h"
#include "scaletop/hotstacks.h"
#include "scaletop/session.h"
#include "scaletop/stacks_json.h"

/*
 * Each frame's name is written once, in "names"; a stack is an array [count,
 * kernel_frames, name index, ...], root first, so a step of 2,000 stacks
 * costs tens of kB rather than hundreds; only the names the written stacks
 * use are written, and a family's stacks stop at a budget of bytes, the rest
 * counted in "other" (a stream's step is one line, which its reader takes up
 * to 1 MB). stacks_read.c reads it back.
 */

/* The families that have stacks: the probe's labels have none. */
static const enum wait_family stack_families[] = { WAIT_WORKLOAD, WAIT_TARGET };

/*
 * The bytes a family's stacks may take in the JSON, its new names
 * included: a stream's step is one line, which a reader takes up to 1 MB
 * (STREAM_MAX_LINE), and a step has two "stacks" of two families each.
 * The smallest stacks past it are counted in "other", as past the cap.
 */
#define STACKS_JSON_BUDGET (160 * 1024)

/* What is written: the stacks kept, the names they use renumbered in order of first use. */
struct stacks_out {
	const struct hot_stacks *s;
	int *map;   /* a name's index in the JSON, -1: not used */
	int *order; /* the JSON's names, as indices into s->name */
	int nused;
	bool *dropped; /* a stack past the budget */
	uint64_t other[WAIT_NFAMILIES];
};

/* A stack's bytes: its numbers, and its names not yet written. */
static size_t
stack_cost(const struct stacks_out *o, const struct hot_stack *k)
{
	size_t cost = 24 + 8 * (size_t)k->nframes;
	uint32_t i;

	for (i = 0; i < k->nframes; i++)
		if (o->map[o->s->frame[k->at + i]] < 0)
			cost += strlen(o->s->name[o->s->frame[k->at + i]]) + 4;
	return cost;
}

static void
stacks_choose(struct stacks_out *o)
{
	const struct hot_stacks *s = o->s;
	size_t used[WAIT_NFAMILIES] = { 0 }, cost;
	const struct hot_stack *k;
	uint32_t j, x;
	int i;

	for (i = 0; i < WAIT_NFAMILIES; i++)
		o->other[i] = s->other[i];
	for (i = 0; i < s->nstacks; i++) {
		k = &s->stack[i];
		cost = stack_cost(o, k);
		if (used[k->family] + cost > STACKS_JSON_BUDGET) {
			o->dropped[i] = true;
			o->other[k->family] += k->count;
			continue;
		}
		used[k->family] += cost;
		for (j = 0; j < k->nframes; j++) {
			x = s->frame[k->at + j];
			if (o->map[x] < 0) {
				o->map[x] = o->nused;
				o->order[o->nused++] = (int)x;
			}
		}
	}
}

static json_t *
names_json(const struct stacks_out *o)
{
	char buf[HOT_STACK_NAME_LEN];
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < o->nused; i++) {
		snprintf(buf, sizeof(buf), "%s", o->s->name[o->order[i]]);
		utf8_scrub(buf);
		if (json_array_append_new(a, json_string(buf)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
stack_json(const struct stacks_out *o, const struct hot_stack *k)
{
	json_t *a = json_array();
	uint32_t i;

	if (a == NULL || json_array_append_new(a, json_integer((json_int_t)k->count)) != 0 ||
	    json_array_append_new(a, json_integer((json_int_t)k->nkernel)) != 0)
		goto fail;
	for (i = 0; i < k->nframes; i++)
		if (json_array_append_new(a, json_integer(o->map[o->s->frame[k->at + i]])) != 0)
			goto fail;
	return a;
fail:
	json_decref(a);
	return NULL;
}

/* Family f's stacks, in the set's order (most count first). */
static json_t *
family_json(const struct stacks_out *o, enum wait_family f)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < o->s->nstacks; i++)
		if (o->s->stack[i].family == f && !o->dropped[i] &&
		    json_array_append_new(a, stack_json(o, &o->s->stack[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
stacks_json(const struct stacks_out *o)
{
	json_t *j = json_object(), *other = json_object();
	size_t i;
	enum wait_family f;

	if (j == NULL || other == NULL || json_object_set_new(j, "names", names_json(o)) != 0)
		goto fail;
	for (i = 0; i < sizeof(stack_families) / sizeof(stack_families[0]); i++) {
		f = stack_families[i];
		if (json_object_set_new(j, wait_family_names[f], family_json(o, f)) != 0 ||
		    json_object_set_new(other, wait_family_names[f],
					json_integer((json_int_t)o->other[f])) != 0)
			goto fail;
	}
	if (json_object_set_new(j, "other", other) != 0) {
		other = NULL;
		goto fail;
	}
	return j;
fail:
	json_decref(other);
	json_decref(j);
	return NULL;
}

json_t *
stacks_write(const struct hot_stacks *s)
{
	struct stacks_out o = { s, NULL, NULL, 0, NULL, { 0 } };
	json_t *j = NULL;
	int i;

	o.map = malloc((size_t)(s->nnames + 1) * sizeof(*o.map));
	o.order = malloc((size_t)(s->nnames + 1) * sizeof(*o.order));
	o.dropped = calloc((size_t)s->nstacks + 1, sizeof(*o.dropped));
	if (o.map != NULL && o.order != NULL && o.dropped != NULL) {
		for (i = 0; i < s->nnames; i++)
			o.map[i] = -1;
		stacks_choose(&o);
		j = stacks_json(&o);
	}
	free(o.map);
	free(o.order);
	free(o.dropped);
	return j;
}

/*
 * A step's whole stacks as JSON (hotstacks.h), the "stacks" of its "hot"
 * (on-CPU samples) and of its "kstacks" (milliseconds of blocked time), for
 * `export --folded`.  Each frame's name is written once, in "names"; a
 * stack is an array [count, kernel_frames, name index, ...], root first, so
 * a step of 2,000 stacks costs tens of kB rather than hundreds.
 * session_read_stacks.c reads it back.
 */
#include <jansson.h>
#include <stdio.h>

#include "scaletop/hotstacks.h"
#include "scaletop/session.h"
#include "snapshot_priv.h"

/* The families that have stacks: the probe's labels have none. */
static const enum wait_family stack_families[] = { WAIT_WORKLOAD, WAIT_TARGET };

static json_t *
names_json(const struct hot_stacks *s)
{
	char buf[HOT_STACK_NAME_LEN];
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < s->nnames; i++) {
		snprintf(buf, sizeof(buf), "%s", s->name[i]);
		snapshot_utf8_scrub(buf);
		if (json_array_append_new(a, json_string(buf)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
stack_json(const struct hot_stacks *s, const struct hot_stack *k)
{
	json_t *a = json_array();
	uint32_t i;

	if (a == NULL || json_array_append_new(a, json_integer((json_int_t)k->count)) != 0 ||
	    json_array_append_new(a, json_integer((json_int_t)k->nkernel)) != 0)
		goto fail;
	for (i = 0; i < k->nframes; i++)
		if (json_array_append_new(a, json_integer((json_int_t)s->frame[k->at + i])) != 0)
			goto fail;
	return a;
fail:
	json_decref(a);
	return NULL;
}

/* Family f's stacks, in the set's order (most count first). */
static json_t *
family_json(const struct hot_stacks *s, enum wait_family f)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < s->nstacks; i++)
		if (s->stack[i].family == f &&
		    json_array_append_new(a, stack_json(s, &s->stack[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *
session_json_stacks(const struct hot_stacks *s)
{
	json_t *o = json_object(), *other = json_object();
	size_t i;
	enum wait_family f;

	if (o == NULL || other == NULL || json_object_set_new(o, "names", names_json(s)) != 0)
		goto fail;
	for (i = 0; i < sizeof(stack_families) / sizeof(stack_families[0]); i++) {
		f = stack_families[i];
		if (json_object_set_new(o, wait_family_names[f], family_json(s, f)) != 0 ||
		    json_object_set_new(other, wait_family_names[f],
					json_integer((json_int_t)s->other[f])) != 0)
			goto fail;
	}
	if (json_object_set_new(o, "other", other) != 0) {
		other = NULL;
		goto fail;
	}
	return o;
fail:
	json_decref(other);
	json_decref(o);
	return NULL;
}

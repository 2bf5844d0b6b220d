/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The blocked threads' kernel stacks as JSON: a step's "kstacks" (the
 * histogram of kstacks.h, kept in st->kstacks).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "scaletop/format.h"
#include "scaletop/session.h"
#include "snapshot_priv.h"

/*
 * The blocked threads' kernel stacks as JSON: a step's "kstacks" (the
 * histogram of kstacks.h, kept in st->kstacks): each family's top stacks
 * by their first frames, with their share of the family's blocked time
 * whose stack was read and the reads each rests on; how many stacks were
 * read and refused, a read's mean cost, why none could be read, and the
 * whole stacks in milliseconds of blocked time (session_json_stacks.c).  Its
 * own object rather than part of "locks": those are futex words, these any
 * blocked thread's path in the kernel.  session_json.c puts it in the
 * step; session_read_kstacks.c reads it back.  A step none were tried for
 * (--no-locks) has no "kstacks".
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

json_t *
session_json_kstacks(const struct step_kstacks *k)
{
	json_t *top = json_array(), *o;
	char why[sizeof(k->unreadable)];
	int i;

	if (top == NULL)
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
	    json_object_set_new(o, "stacks", session_json_stacks(k->stacks)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

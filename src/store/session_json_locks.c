/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which locks the blocked threads waited on, as JSON: a step's "locks"
 * (the lock census, census.h; kept in st->ulocks, since st->locks is the
 * kernel's lock_stat, written as "kernel_locks").
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "scaletop/format.h"
#include "scaletop/session.h"
#include "snapshot_priv.h"

/*
 * Each family's top locks with their name (a call site's, then the mapping
 * it lies in), kind, share of the family's blocked time, waiters, holder (or
 * why none was verified) and whether they are idle waits rather than
 * contention. session_json.c puts it in the step; session_read_locks.c reads
 * it back.  A step no census ran for has no "locks" at all.
 */

/* A string as JSON can hold it: a symbol or a comm may be in any encoding. */
static json_t *
text_json(const char *s, size_t cap)
{
	char buf[STEP_ULOCK_NAME];

	snprintf(buf, sizeof(buf) < cap ? sizeof(buf) : cap, "%s", s);
	utf8_scrub(buf);
	return json_string(buf);
}

static json_t *
num_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
ulock_json(const struct step_ulock *u)
{
	json_t *o;

	if (u->family != WAIT_WORKLOAD && u->family != WAIT_TARGET)
		return NULL;
	o = json_pack("{s:s, s:i, s:o, s:o, s:o, s:s, s:o, s:I, s:I, s:I}", "family",
		      wait_family_names[u->family], "pid", (int)u->pid, "comm",
		      u->comm[0] != '\0' ? text_json(u->comm, sizeof(u->comm)) : json_null(),
		      "name", text_json(u->name, sizeof(u->name)), "how",
		      u->how[0] != '\0' ? json_string(u->how) : json_null(), "kind", u->kind,
		      "share", num_json(u->share), "max_waiters", (json_int_t)u->max_waiters,
		      "threads", (json_int_t)u->threads, "readings", (json_int_t)u->readings);
	if (o == NULL)
		return NULL;
	if (json_object_set_new(o, "owner", u->owner > 0 ? json_integer(u->owner) : json_null()) !=
		    0 ||
	    json_object_set_new(o, "owner_state",
				u->owner_state[0] != '\0' ? json_string(u->owner_state)
							  : json_null()) != 0 ||
	    json_object_set_new(o, "owner_why",
				u->owner <= 0 && u->owner_why[0] != '\0'
					? text_json(u->owner_why, sizeof(u->owner_why))
					: json_null()) != 0 ||
	    json_object_set_new(o, "mapping",
				u->mapping[0] != '\0' ? text_json(u->mapping, sizeof(u->mapping))
						      : json_null()) != 0 ||
	    json_object_set_new(o, "idle", json_boolean(u->idle)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
session_json_locks(const struct step_locks *l)
{
	json_t *top = json_array();
	int i;

	if (top == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (json_array_append_new(top, ulock_json(&l->lock[i])) != 0) {
			json_decref(top);
			return NULL;
		}
	return json_pack("{s:{s:o, s:o}, s:I, s:o, s:o}", "blocked_s", "workload",
			 num_json(l->blocked_s[WAIT_WORKLOAD]), "target",
			 num_json(l->blocked_s[WAIT_TARGET]), "syscall_reads",
			 (json_int_t)(l->syscall_reads > 0 ? l->syscall_reads : 0), "cost_ms",
			 num_json(l->cost_ms), "top", top);
}

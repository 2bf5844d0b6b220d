/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the CPUs went, as JSON: a step's "hot" (hotpaths.h), the on-CPU
 * samples of the workload's and the target's threads by call path and by
 * function (its own samples), the share that spun in a lock, kernel or
 * user, by the caller that names it, and its whole stacks
 * (stacks_write.c).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/stacks_json.h"
#include "scaletop/format.h"
#include "scaletop/session.h"
#include "snapshot_priv.h"

/*
 * session_json.c puts it in the step; session_read_hot.c reads it back.  A
 * step that was not sampled has no "hot" at all.
 */

/* The sampled families: the probe's labels have no call chains. */
static bool
hot_family(enum wait_family f)
{
	return f == WAIT_WORKLOAD || f == WAIT_TARGET;
}

/* A frame's name as JSON can hold it: a symbol may be in any encoding. */
static json_t *
name_json(const char *name)
{
	char buf[HOT_NAME_LEN];

	snprintf(buf, sizeof(buf), "%s", name);
	utf8_scrub(buf);
	return json_string(buf);
}

static json_t *
share_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
path_json(const struct hot_path *p)
{
	json_t *frames = json_array();
	int i;

	if (frames == NULL || !hot_family(p->family))
		goto fail;
	for (i = 0; i < p->nframes; i++)
		if (json_array_append_new(frames, name_json(p->frame[i])) != 0)
			goto fail;
	return json_pack("{s:s, s:o, s:i, s:o, s:I}", "family", wait_family_names[p->family],
			 "frames", frames, "kernel_frames", p->nkernel, "share",
			 share_json(p->share), "samples", (json_int_t)p->samples);
fail:
	json_decref(frames);
	return NULL;
}

static json_t *
spin_json(const struct hot_spin *s)
{
	if (!hot_family(s->family))
		return NULL;
	return json_pack("{s:s, s:o, s:o, s:b, s:o, s:I}", "family", wait_family_names[s->family],
			 "spin", name_json(s->spin), "caller",
			 s->caller[0] != '\0' ? name_json(s->caller) : json_null(), "user", s->user,
			 "share", share_json(s->share), "samples", (json_int_t)s->samples);
}

static json_t *
self_json(const struct hot_self *e)
{
	if (!hot_family(e->family))
		return NULL;
	return json_pack("{s:s, s:o, s:b, s:o, s:I}", "family", wait_family_names[e->family],
			 "function", name_json(e->func), "kernel", e->kernel, "share",
			 share_json(e->share), "samples", (json_int_t)e->samples);
}

enum by_what { BY_SAMPLES, BY_SPIN, BY_USER_SPIN };

static json_t *
family_json(const struct step_hot *h, enum wait_family f, enum by_what what)
{
	if (what == BY_SAMPLES)
		return json_integer((json_int_t)h->samples[f]);
	if (h->samples[f] == 0)
		return json_null();
	return share_json(what == BY_SPIN ? h->spin_share[f] : h->user_spin_share[f]);
}

/* {"workload": x, "target": y} of the sampled families: samples, or a share. */
static json_t *
by_family(const struct step_hot *h, enum by_what what)
{
	json_t *o = json_object();
	enum wait_family f;

	for (f = WAIT_WORKLOAD; o != NULL && f < WAIT_NFAMILIES; f++) {
		if (!hot_family(f))
			continue;
		if (json_object_set_new(o, wait_family_names[f], family_json(h, f, what)) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

json_t *
session_json_hot(const struct step_hot *h)
{
	json_t *paths = json_array(), *spins = json_array(), *selfs = json_array(), *o;
	int i;

	if (paths == NULL || spins == NULL || selfs == NULL)
		goto fail;
	for (i = 0; i < h->npaths; i++)
		if (json_array_append_new(paths, path_json(&h->paths[i])) != 0)
			goto fail;
	for (i = 0; i < h->nspins; i++)
		if (json_array_append_new(spins, spin_json(&h->spins[i])) != 0)
			goto fail;
	for (i = 0; i < h->nselfs; i++)
		if (json_array_append_new(selfs, self_json(&h->selfs[i])) != 0)
			goto fail;
	o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "samples", by_family(h, BY_SAMPLES),
		      "spin_share", by_family(h, BY_SPIN), "user_spin_share",
		      by_family(h, BY_USER_SPIN), "paths", paths, "self", selfs, "spin", spins);
	if (o != NULL && h->stacks != NULL &&
	    json_object_set_new(o, "stacks", stacks_write(h->stacks)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
fail:
	json_decref(paths);
	json_decref(spins);
	json_decref(selfs);
	return NULL;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back a step's "hot" (session_json_hot.c): the samples of each
 * sampled family, its lock-spin shares, the paths, the functions' own
 * samples and the spinning callers, and the whole stacks
 * (stacks_read.c), whose counts must add up to the samples.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/stacks_json.h"
#include "session_read.h"

/*
 * Absent in files from before on-CPU sampling, and in steps it did not run
 * for; the user-spin share, the functions and a spin's "user" are absent in
 * files from before they were kept (read as none: the spin they hold was the
 * kernel's).  Checked as the views use it: known families, names that fit, a
 * family's path (and function) shares summing to at most 1, its user spin
 * within its spin.
 */

/* Most paths or spinning callers a step may hold: far more than the engine keeps. */
#define READ_MAX_HOT 256
/* How far shares may sum past 1 (hand-edited files round them). */
#define READ_HOT_SUM_TOL 1e-3

static int
read_family(struct field_ctx *c, const json_t *v, const char *p, enum wait_family *f)
{
	int i;

	if (field_enum(c, v, p, "family", wait_family_names, WAIT_NFAMILIES, &i) != 0)
		return -1;
	if (i != WAIT_WORKLOAD && i != WAIT_TARGET)
		return field_fail(c, p,
				  "family '%s' has no call chains; expected workload or target",
				  wait_family_names[i]);
	*f = (enum wait_family)i;
	return 0;
}

static int
read_frames(struct field_ctx *c, const json_t *v, const char *p, struct hot_path *hp)
{
	char P[160], q[176];
	json_t *arr = field_array_at(c, v, p, "frames", 0, HOT_FRAMES, "frames", P, sizeof(P)), *e;
	long long k;
	size_t i;

	if (arr == NULL)
		return -1;
	json_array_foreach(arr, i, e)
	{
		field_index(q, sizeof(q), P, i);
		if (field_str_of(c, e, q, 0, hp->frame[i], sizeof(hp->frame[i])) != 0)
			return -1;
	}
	hp->nframes = (int)json_array_size(arr);
	if (field_int(c, v, p, "kernel_frames", 0, hp->nframes, 0, 0, &k) != 0)
		return -1;
	hp->nkernel = (int)k;
	return 0;
}

static int
read_count(struct field_ctx *c, const json_t *v, const char *p, const char *key, uint64_t *out)
{
	long long n;

	if (field_int(c, v, p, key, 0, INT64_MAX, 0, 0, &n) != 0)
		return -1;
	*out = (uint64_t)n;
	return 0;
}

static int
read_path(struct field_ctx *c, const json_t *v, const char *p, struct hot_path *hp)
{
	if (field_type(c, v, p, F_OBJ) != 0 || read_family(c, v, p, &hp->family) != 0 ||
	    read_frames(c, v, p, hp) != 0 || field_num(c, v, p, "share", 0, 1, 0, &hp->share) != 0)
		return -1;
	return read_count(c, v, p, "samples", &hp->samples);
}

/* An optional boolean: absent is false. */
static int
read_flag(struct field_ctx *c, const json_t *v, const char *p, const char *key, bool *out)
{
	*out = false;
	return json_object_get(v, key) == NULL ? 0 : field_bool(c, v, p, key, out);
}

static int
read_spin(struct field_ctx *c, const json_t *v, const char *p, struct hot_spin *s)
{
	if (field_type(c, v, p, F_OBJ) != 0 || read_family(c, v, p, &s->family) != 0 ||
	    field_str(c, v, p, "spin", 0, s->spin, sizeof(s->spin)) != 0 ||
	    field_str(c, v, p, "caller", F_NULL, s->caller, sizeof(s->caller)) != 0 ||
	    read_flag(c, v, p, "user", &s->user) != 0 ||
	    field_num(c, v, p, "share", 0, 1, 0, &s->share) != 0)
		return -1;
	return read_count(c, v, p, "samples", &s->samples);
}

static int
read_self(struct field_ctx *c, const json_t *v, const char *p, struct hot_self *e)
{
	if (field_type(c, v, p, F_OBJ) != 0 || read_family(c, v, p, &e->family) != 0 ||
	    field_str(c, v, p, "function", 0, e->func, sizeof(e->func)) != 0 ||
	    read_flag(c, v, p, "kernel", &e->kernel) != 0 ||
	    field_num(c, v, p, "share", 0, 1, 0, &e->share) != 0)
		return -1;
	return read_count(c, v, p, "samples", &e->samples);
}

/*
 * An array of up to READ_MAX_HOT elements of size sz at key, each read by
 * one; with optional, an absent key is an empty list.
 */
static int
read_list(struct field_ctx *c, const json_t *hot, const char *P, const char *key, bool optional,
	  size_t sz, int (*one)(struct field_ctx *, const json_t *, const char *, void *),
	  void **out, int *n)
{
	json_t *arr, *v;
	char Q[128], q[144];
	size_t i;

	if (optional && json_object_get(hot, key) == NULL)
		return 0;
	if ((arr = field_array(c, hot, P, key, 0, READ_MAX_HOT, "entries")) == NULL)
		return -1;
	field_path(Q, sizeof(Q), P, key);
	if (json_array_size(arr) == 0)
		return 0;
	if ((*out = calloc(json_array_size(arr), sz)) == NULL)
		return field_fail(c, Q, "out of memory");
	json_array_foreach(arr, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (one(c, v, q, (char *)*out + i * sz) != 0)
			return -1;
		*n = (int)i + 1;
	}
	return 0;
}

static int
one_path(struct field_ctx *c, const json_t *v, const char *p, void *out)
{
	return read_path(c, v, p, out);
}

static int
one_spin(struct field_ctx *c, const json_t *v, const char *p, void *out)
{
	return read_spin(c, v, p, out);
}

static int
one_self(struct field_ctx *c, const json_t *v, const char *p, void *out)
{
	return read_self(c, v, p, out);
}

/* "user_spin_share" (optional): each family's, at most its spin_share. */
static int
read_user_spin(struct field_ctx *c, const json_t *hot, const char *P, struct step_hot *h)
{
	json_t *us = json_object_get(hot, "user_spin_share");
	enum wait_family f;
	char Q[128];
	double v;

	if (us == NULL)
		return 0;
	field_path(Q, sizeof(Q), P, "user_spin_share");
	if (field_type(c, us, Q, F_OBJ) != 0)
		return -1;
	for (f = WAIT_WORKLOAD; f <= WAIT_TARGET; f++) {
		if (field_num(c, us, Q, wait_family_names[f], 0, 1, F_NULL, &v) != 0)
			return -1;
		h->user_spin_share[f] = isnan(v) ? 0 : v;
		if (h->user_spin_share[f] > h->spin_share[f] + READ_HOT_SUM_TOL)
			return field_fail(
				c, Q, "the %s family's user spin %g is more than its spin %g",
				wait_family_names[f], h->user_spin_share[f], h->spin_share[f]);
	}
	return 0;
}

/* "samples" and "spin_share": an object with a member per sampled family. */
static int
read_families(struct field_ctx *c, const json_t *hot, const char *P, struct step_hot *h)
{
	json_t *sm = field_get(c, hot, P, "samples", F_OBJ),
	       *sp = field_get(c, hot, P, "spin_share", F_OBJ);
	enum wait_family f;
	char Q[128];
	double v;

	if (sm == NULL || sp == NULL)
		return -1;
	for (f = WAIT_WORKLOAD; f <= WAIT_TARGET; f++) {
		field_path(Q, sizeof(Q), P, "samples");
		if (read_count(c, sm, Q, wait_family_names[f], &h->samples[f]) != 0)
			return -1;
		field_path(Q, sizeof(Q), P, "spin_share");
		if (field_num(c, sp, Q, wait_family_names[f], 0, 1, F_NULL, &v) != 0)
			return -1;
		h->spin_share[f] = isnan(v) ? 0 : v;
	}
	return 0;
}

/* Each family's paths, and its functions, share at most 1 of its samples. */
static int
read_sums(struct field_ctx *c, const char *P, const struct step_hot *h)
{
	double sum[WAIT_NFAMILIES] = { 0 }, self[WAIT_NFAMILIES] = { 0 };
	int i;

	for (i = 0; i < h->npaths; i++)
		sum[h->paths[i].family] += h->paths[i].share;
	for (i = 0; i < h->nselfs; i++)
		self[h->selfs[i].family] += h->selfs[i].share;
	for (i = 0; i < WAIT_NFAMILIES; i++) {
		if (sum[i] > 1 + READ_HOT_SUM_TOL)
			return field_fail(c, P,
					  "the %s family's paths sum to %g; expected at most 1",
					  wait_family_names[i], sum[i]);
		if (self[i] > 1 + READ_HOT_SUM_TOL)
			return field_fail(c, P,
					  "the %s family's functions sum to %g; expected at most 1",
					  wait_family_names[i], self[i]);
	}
	return 0;
}

/* The whole stacks, if any: each family's counts add up to its samples. */
static int
read_stacks_sum(struct field_ctx *c, const json_t *hot, const char *P, struct step_hot *h)
{
	uint64_t total[WAIT_NFAMILIES];
	char Q[128];
	int f;

	if (stacks_read(c, hot, P, &h->stacks, total) != 0)
		return -1;
	field_path(Q, sizeof(Q), P, "stacks");
	for (f = WAIT_WORKLOAD; h->stacks != NULL && f <= WAIT_TARGET; f++)
		if (total[f] != h->samples[f])
			return field_fail(c, Q,
					  "the %s family's stacks count %llu samples and the step "
					  "%llu; expected the same",
					  wait_family_names[f], (unsigned long long)total[f],
					  (unsigned long long)h->samples[f]);
	return 0;
}

int
session_read_hot(struct field_ctx *c, const json_t *step, const char *spath, struct step_hot *h)
{
	json_t *hot = json_object_get(step, "hot");
	char P[96];

	memset(h, 0, sizeof(*h));
	if (hot == NULL || json_is_null(hot))
		return 0;
	field_path(P, sizeof(P), spath, "hot");
	if (field_type(c, hot, P, F_OBJ) != 0 || read_families(c, hot, P, h) != 0 ||
	    read_user_spin(c, hot, P, h) != 0 ||
	    read_list(c, hot, P, "paths", false, sizeof(*h->paths), one_path, (void **)&h->paths,
		      &h->npaths) != 0 ||
	    read_list(c, hot, P, "self", true, sizeof(*h->selfs), one_self, (void **)&h->selfs,
		      &h->nselfs) != 0 ||
	    read_list(c, hot, P, "spin", false, sizeof(*h->spins), one_spin, (void **)&h->spins,
		      &h->nspins) != 0 ||
	    read_sums(c, P, h) != 0 || read_stacks_sum(c, hot, P, h) != 0)
		return -1;
	h->present = true;
	return 0;
}

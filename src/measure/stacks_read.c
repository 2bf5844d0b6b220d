/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back a "stacks" object (stacks_write.c), of a step's
 * "hot" or "kstacks".  Absent in files from before flame graphs.  Checked
 * as the export uses it: names that fit, at most HOT_STACKS_MAX stacks a
 * family, each of at most HOT_STACK_DEPTH frames whose indices name a
 * frame, kernel frames no more than the frames, and counts whose sum fits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/hotstacks.h"
#include "scaletop/stacks_json.h"

/* Most names a "stacks" may hold: every frame of every stack of both families. */
#define READ_MAX_NAMES (2 * HOT_STACKS_MAX * HOT_STACK_DEPTH)

static const enum wait_family read_families[] = { WAIT_WORKLOAD, WAIT_TARGET };

/* "names" into s; map[i] is the file's name i's index in s (equal names are kept once). */
static int
read_names(struct field_ctx *c, const json_t *o, const char *P, struct hot_stacks *s,
	   uint32_t **map, size_t *nmap)
{
	char Q[160], q[176], buf[HOT_STACK_NAME_LEN];
	json_t *arr = field_array_at(c, o, P, "names", 0, READ_MAX_NAMES, "names", Q, sizeof(Q));
	json_t *v;
	size_t i;
	int k;

	if (arr == NULL)
		return -1;
	*nmap = json_array_size(arr);
	if (*nmap > 0 && (*map = malloc(*nmap * sizeof(**map))) == NULL)
		return field_fail(c, Q, "out of memory");
	json_array_foreach(arr, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (field_str_of(c, v, q, 0, buf, sizeof(buf)) != 0)
			return -1;
		if ((k = hot_stacks_name_index(s, buf)) < 0)
			return field_fail(c, q, "out of memory");
		(*map)[i] = (uint32_t)k;
	}
	return 0;
}

/* An element of an array of integers, from min to max. */
static int
read_int_at(struct field_ctx *c, const json_t *a, size_t i, const char *p, long long min,
	    long long max, long long *out)
{
	char q[224];

	field_index(q, sizeof(q), p, i);
	if (field_type(c, json_array_get(a, i), q, F_INT) != 0)
		return -1;
	*out = json_integer_value(json_array_get(a, i));
	if (*out < min || *out > max)
		return field_fail(c, q,
				  "%lld is out of range; expected an integer from %lld to %lld",
				  *out, min, max);
	return 0;
}

/* One stack [count, kernel_frames, index...] of family f; *count its count. */
static int
read_stack(struct field_ctx *c, const json_t *a, const char *p, enum wait_family f,
	   const uint32_t *map, size_t nmap, struct hot_stacks *s, uint64_t *count)
{
	uint32_t idx[HOT_STACK_DEPTH];
	long long n, k, x;
	size_t i, len;

	if (field_type(c, a, p, F_ARR) != 0)
		return -1;
	len = json_array_size(a);
	if (len < 2 || len > 2 + HOT_STACK_DEPTH)
		return field_fail(c, p,
				  "%zu elements; expected [count, kernel_frames, frame...] with at "
				  "most %d frames",
				  len, HOT_STACK_DEPTH);
	if (read_int_at(c, a, 0, p, 0, INT64_MAX, &n) != 0 ||
	    read_int_at(c, a, 1, p, 0, (long long)len - 2, &k) != 0)
		return -1;
	for (i = 2; i < len; i++) {
		if (read_int_at(c, a, i, p, 0, (long long)nmap - 1, &x) != 0)
			return -1;
		idx[i - 2] = map[x];
	}
	if (hot_stacks_add(s, f, idx, (int)(len - 2), (int)k, (uint64_t)n) != 0)
		return field_fail(c, p, "out of memory");
	*count = (uint64_t)n;
	return 0;
}

/* Family f's stacks and its "other"; *sum their counts. */
static int
read_family(struct field_ctx *c, const json_t *o, const char *P, enum wait_family f,
	    const uint32_t *map, size_t nmap, struct hot_stacks *s, uint64_t *sum)
{
	char Q[160], q[176];
	json_t *arr = field_array_at(c, o, P, wait_family_names[f], 0, HOT_STACKS_MAX, "stacks", Q,
				     sizeof(Q));
	json_t *other, *v;
	uint64_t n = 0;
	long long x;
	size_t i;

	if (arr == NULL || (other = field_get(c, o, P, "other", F_OBJ)) == NULL)
		return -1;
	*sum = 0;
	json_array_foreach(arr, i, v)
	{
		field_index(q, sizeof(q), Q, i);
		if (read_stack(c, v, q, f, map, nmap, s, &n) != 0)
			return -1;
		if (n > INT64_MAX - *sum)
			return field_fail(c, q, "the counts' sum passes %lld",
					  (long long)INT64_MAX);
		*sum += n;
	}
	field_path(Q, sizeof(Q), P, "other");
	if (field_int(c, other, Q, wait_family_names[f], 0, INT64_MAX - (long long)*sum, 0, 0,
		      &x) != 0)
		return -1;
	s->other[f] = (uint64_t)x;
	*sum += (uint64_t)x;
	return 0;
}

int
stacks_read(struct field_ctx *c, const json_t *parent, const char *P, struct hot_stacks **out,
	    uint64_t total[WAIT_NFAMILIES])
{
	json_t *o = json_object_get(parent, "stacks");
	struct hot_stacks *s;
	uint32_t *map = NULL;
	size_t nmap = 0, i;
	char Q[128];
	int rc = -1;

	*out = NULL;
	memset(total, 0, WAIT_NFAMILIES * sizeof(total[0]));
	if (o == NULL || json_is_null(o))
		return 0;
	field_path(Q, sizeof(Q), P, "stacks");
	if (field_type(c, o, Q, F_OBJ) != 0)
		return -1;
	if ((s = hot_stacks_new()) == NULL)
		return field_fail(c, Q, "out of memory");
	if (read_names(c, o, Q, s, &map, &nmap) != 0)
		goto done;
	for (i = 0; i < sizeof(read_families) / sizeof(read_families[0]); i++)
		if (read_family(c, o, Q, read_families[i], map, nmap, s,
				&total[read_families[i]]) != 0)
			goto done;
	hot_stacks_finish(s, 0);
	*out = s;
	s = NULL;
	rc = 0;
done:
	free(map);
	hot_stacks_free(s);
	return rc;
}

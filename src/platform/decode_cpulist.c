/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's CPU list format ("0-3,5,7-8\n", as in
 * /sys/devices/system/cpu/online) and the set it decodes into.  Pure and
 * portable; see decode_linux.h.
 */
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_linux.h"
#include "scaletop/grow.h"
#include "decode_line.h"

void
cpu_list_init(struct cpu_list *l)
{
	memset(l, 0, sizeof(*l));
}

void
cpu_list_free(struct cpu_list *l)
{
	free(l->id);
	cpu_list_init(l);
}

int
cpu_list_has(const struct cpu_list *l, int id)
{
	int lo = 0, hi = l->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (l->id[mid] == id)
			return 1;
		if (l->id[mid] < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

static int
cpu_list_push(struct cpu_list *l, int id)
{
	if (grow_array_int(&l->id, &l->cap, l->n + 1, sizeof(*l->id), 64) != 0)
		return decode_fail(ENOMEM);
	l->id[l->n++] = id;
	return 0;
}

static int
cpulist_id(const char **p, const char *end, int *id)
{
	uint64_t v;

	if (digits_u64(p, end, &v) != 0)
		return -1;
	if (v > DECODE_CPU_ID_MAX)
		return decode_fail(ERANGE);
	*id = (int)v;
	return 0;
}

/* One "a" or "a-b" item, which must start above the previous one's end. */
static int
cpulist_item(const char **p, const char *end, struct cpu_list *l)
{
	int first, last, id;

	if (cpulist_id(p, end, &first) != 0)
		return -1;
	last = first;
	if (*p < end && **p == '-') {
		(*p)++;
		if (cpulist_id(p, end, &last) != 0)
			return -1;
	}
	if (last < first || (l->n > 0 && first <= l->id[l->n - 1]))
		return decode_fail(EINVAL);
	for (id = first; id <= last; id++) {
		if (cpu_list_push(l, id) != 0)
			return -1;
	}
	return 0;
}

int
cpulist_decode(const char *buf, size_t len, struct cpu_list *l)
{
	const char *p = buf, *end;

	l->n = 0;
	if (len == 0)
		return 0;
	if (buf[len - 1] != '\n')
		return decode_fail(EINVAL);
	end = buf + len - 1;
	while (p < end) {
		if (cpulist_item(&p, end, l) != 0)
			return -1;
		if (p < end && *p++ != ',')
			return decode_fail(EINVAL);
		if (p == end && p[-1] == ',')
			return decode_fail(EINVAL);
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of a cgroup v2 group's files (--target cgroup:PATH): the pids in
 * cgroup.procs and the CPU counters of cpu.stat.  Its cpu.pressure has
 * /proc/pressure/cpu's format (psi_decode).  Pure and portable; see
 * decode_linux.h.
 */
#include <limits.h>
#include <stdlib.h>

#include "scaletop/decode_linux.h"
#include "scaletop/grow.h"
#include "decode_line.h"

static int
pid_list_push(pid_t **v, size_t *n, size_t *cap, pid_t pid)
{
	if (grow_array(v, cap, *n + 1, sizeof(**v), 64) != 0)
		return decode_fail(ENOMEM);
	(*v)[(*n)++] = pid;
	return 0;
}

int
pid_list_decode(const char *buf, size_t len, pid_t **out, size_t *n)
{
	const char *pos = buf, *end = buf + len;
	size_t cap = 0;
	struct line l;
	uint64_t v;
	int r;

	*out = NULL;
	*n = 0;
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_u64(&l, &v) != 0 || !line_at_end(&l))
			break;
		if (v == 0 || v > INT_MAX) {
			r = decode_fail(ERANGE);
			break;
		}
		if (pid_list_push(out, n, &cap, (pid_t)v) != 0)
			break;
	}
	if (r == 0)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

int
cgroup_cpustat_decode(const char *buf, size_t len, struct cgroup_cpu *c)
{
	const char *pos = buf, *end = buf + len, *key;
	unsigned found = 0;
	struct line l;
	size_t klen;
	uint64_t v;
	int r;

	c->have &= ~(unsigned)CGROUP_HAVE_CPU;
	c->usage_us = c->user_us = c->system_us = 0;
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_key(&l, &key, &klen) != 0 || line_u64(&l, &v) != 0 || !line_at_end(&l))
			return -1;
		if (key_is(key, klen, "usage_usec")) {
			c->usage_us = v;
			found |= 1;
		} else if (key_is(key, klen, "user_usec")) {
			c->user_us = v;
			found |= 2;
		} else if (key_is(key, klen, "system_usec")) {
			c->system_us = v;
			found |= 4;
		}
	}
	if (r < 0 || found != 7)
		return decode_fail(EINVAL);
	c->have |= CGROUP_HAVE_CPU;
	return 0;
}

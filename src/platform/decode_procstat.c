/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoder of /proc/stat: per-CPU ticks and the system-wide counters,
 * and the offline CPUs added from the sysfs lists.  Pure and portable; see
 * decode_linux.h.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_linux.h"
#include "decode_line.h"

/* /proc/stat's columns, in the kernel's order, mapped to our states. */
static const enum cpu_state procstat_columns[] = {
	CPU_USER, CPU_NICE, CPU_SYS, CPU_IDLE, CPU_IOWAIT, CPU_IRQ, CPU_SOFTIRQ, CPU_STEAL,
};
#define PROCSTAT_NCOLUMNS (sizeof(procstat_columns) / sizeof(procstat_columns[0]))
/* Every kernel since 2.4 prints at least user, nice, system and idle. */
#define PROCSTAT_MIN_COLUMNS 4

/*
 * "cpuN" gives 0 and N; "cpu" (the aggregate) gives 0 and -1; a key that is
 * not a cpu line gives -2; "cpu" with a bad or huge number gives -1.
 */
static int
procstat_cpu_id(const char *key, size_t klen, int *id)
{
	const char *p = key + 3, *end = key + klen;
	uint64_t n;

	if (klen < 3 || memcmp(key, "cpu", 3) != 0)
		return -2;
	if (klen == 3) {
		*id = -1;
		return 0;
	}
	if (!is_digit(*p))
		return -2;
	if (digits_u64(&p, end, &n) != 0)
		return -1;
	if (p != end)
		return decode_fail(EINVAL);
	if (n > DECODE_CPU_ID_MAX)
		return decode_fail(ERANGE);
	*id = (int)n;
	return 0;
}

/* The tick columns of one cpu line; columns the kernel lacks stay 0. */
static int
procstat_ticks(struct line *l, uint64_t tick[CPU_NSTATES])
{
	size_t col = 0;
	uint64_t v;

	memset(tick, 0, CPU_NSTATES * sizeof(tick[0]));
	while (!line_at_end(l)) {
		if (line_u64(l, &v) != 0)
			return -1;
		/* guest and guest_nice (and anything newer) are already in user/nice */
		if (col < PROCSTAT_NCOLUMNS)
			tick[procstat_columns[col]] = v;
		col++;
	}
	if (col < PROCSTAT_MIN_COLUMNS)
		return decode_fail(EINVAL);
	return 0;
}

static int
procstat_push_cpu(struct raw_sample *s, int id, const uint64_t tick[CPU_NSTATES])
{
	struct cpu_ticks *c;

	if (s->ncpu == s->cap && raw_sample_reserve(s, s->cap > 0 ? s->cap * 2 : 16) != 0)
		return -1;
	c = &s->cpu[s->ncpu++];
	c->id = id;
	c->flags = 0;
	memcpy(c->tick, tick, sizeof(c->tick));
	return 0;
}

static int
cpu_ticks_cmp(const void *a, const void *b)
{
	const struct cpu_ticks *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The kernel prints CPUs in order; sort only if it did not, and refuse duplicates. */
static int
procstat_sort_cpus(struct raw_sample *s)
{
	int i;

	for (i = 1; i < s->ncpu; i++) {
		if (s->cpu[i - 1].id >= s->cpu[i].id)
			break;
	}
	if (i == s->ncpu)
		return 0;
	qsort(s->cpu, (size_t)s->ncpu, sizeof(s->cpu[0]), cpu_ticks_cmp);
	for (i = 1; i < s->ncpu; i++) {
		if (s->cpu[i - 1].id == s->cpu[i].id)
			return decode_fail(EINVAL);
	}
	return 0;
}

/* A line holding one counter and nothing else. */
static int
procstat_counter(struct line *l, struct sys_sample *sys, enum sys_counter which)
{
	if (line_u64(l, &sys->count[which]) != 0)
		return -1;
	if (!line_at_end(l))
		return decode_fail(EINVAL);
	sys->have |= 1u << which;
	return 0;
}

/*
 * intr and softirq: the total, then one column per source.  The columns can
 * run to thousands on big machines and are not needed, so they are skipped
 * unread.
 */
static int
procstat_total(struct line *l, struct sys_sample *sys, enum sys_counter which)
{
	if (line_u64(l, &sys->count[which]) != 0)
		return -1;
	sys->have |= 1u << which;
	return 0;
}

static int
procstat_u32(struct line *l, uint32_t *out)
{
	uint64_t v;

	if (line_u64(l, &v) != 0)
		return -1;
	if (!line_at_end(l))
		return decode_fail(EINVAL);
	if (v > UINT32_MAX)
		return decode_fail(ERANGE);
	*out = (uint32_t)v;
	return 0;
}

/* Everything after the cpu lines; unknown keys (btime, page, swap ...) are skipped. */
static int
procstat_sys_line(struct line *l, const char *key, size_t klen, struct sys_sample *sys,
		  unsigned *runq)
{
	if (key_is(key, klen, "ctxt"))
		return procstat_counter(l, sys, SYS_CTXSW);
	if (key_is(key, klen, "processes"))
		return procstat_counter(l, sys, SYS_FORK);
	if (key_is(key, klen, "intr"))
		return procstat_total(l, sys, SYS_INTR);
	if (key_is(key, klen, "softirq"))
		return procstat_total(l, sys, SYS_SOFTIRQ);
	if (key_is(key, klen, "procs_running")) {
		*runq |= 1;
		return procstat_u32(l, &sys->running);
	}
	if (key_is(key, klen, "procs_blocked")) {
		*runq |= 2;
		return procstat_u32(l, &sys->blocked);
	}
	return 0;
}

static int
procstat_line(struct line *l, struct raw_sample *s, bool first, unsigned *runq)
{
	uint64_t tick[CPU_NSTATES];
	const char *key;
	size_t klen;
	int id, r;

	if (line_key(l, &key, &klen) != 0)
		return -1;
	r = procstat_cpu_id(key, klen, &id);
	if (r == -1)
		return -1;
	/* The kernel always starts with the aggregate line: anything else is not /proc/stat. */
	if (first != (r == 0 && id == -1))
		return decode_fail(EINVAL);
	if (r == -2)
		return procstat_sys_line(l, key, klen, &s->sys, runq);
	if (procstat_ticks(l, tick) != 0)
		return -1;
	if (id == -1)
		return 0;
	return procstat_push_cpu(s, id, tick);
}

int
procstat_decode(const char *buf, size_t len, struct raw_sample *s)
{
	const char *pos = buf, *end = buf + len;
	struct line l;
	unsigned runq = 0;
	bool first = true;
	int r;

	s->ncpu = 0;
	memset(&s->sys, 0, sizeof(s->sys));
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (procstat_line(&l, s, first, &runq) != 0)
			return -1;
		first = false;
	}
	if (r < 0)
		return -1;
	if (s->ncpu == 0)
		return decode_fail(EINVAL);
	if (runq == 3)
		s->sys.flags |= SYS_HAVE_RUNQ;
	return procstat_sort_cpus(s);
}

int
procstat_add_offline(struct raw_sample *s, const struct cpu_list *present,
		     const struct cpu_list *online)
{
	struct cpu_ticks *c;
	int i, n = s->ncpu, add = 0;

	for (i = 0; i < present->n; i++) {
		if (!cpu_list_has(online, present->id[i]) &&
		    raw_sample_find(s, present->id[i]) == NULL)
			add++;
	}
	if (add == 0)
		return 0;
	if (raw_sample_reserve(s, n + add) != 0)
		return -1;
	for (i = 0; i < present->n; i++) {
		/* s->ncpu stays n until the end, so the search sees only /proc/stat's CPUs */
		if (cpu_list_has(online, present->id[i]) || raw_sample_find(s, present->id[i]))
			continue;
		c = &s->cpu[n++];
		memset(c, 0, sizeof(*c));
		c->id = present->id[i];
		c->flags = CPU_RAW_OFFLINE;
	}
	s->ncpu = n;
	qsort(s->cpu, (size_t)s->ncpu, sizeof(s->cpu[0]), cpu_ticks_cmp);
	return 0;
}

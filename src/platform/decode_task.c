/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders for one Linux thread's /proc/PID/task/TID/{status,stat,schedstat},
 * and the sum of a process's threads.
 * Pure and portable; see decode_linux.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "scaletop/decode_linux.h"

/* stat fields 14 (utime) and 15 (stime), counted as tokens after the comm's ')'. */
/* Fields between the group (5) and utime (14). */
#define TASK_STAT_SKIP (14 - 6)

static int
task_fail(int e)
{
	errno = e;
	return -1;
}

static bool
task_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
task_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Digits at *pp into *v, overflow checked; none at all is malformed. */
static int
task_u64(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (p == end || !task_is_digit(*p))
		return task_fail(EINVAL);
	while (p < end && task_is_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return task_fail(ERANGE);
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*v = n;
	return 0;
}

/* --- status ------------------------------------------------------------- */

/* "Key:<blanks>number" to the end of the line. */
static int
status_value(const char *p, const char *end, uint64_t *v)
{
	while (p < end && task_is_blank(*p))
		p++;
	if (task_u64(&p, end, v) != 0)
		return -1;
	while (p < end && task_is_blank(*p))
		p++;
	return p == end ? 0 : task_fail(EINVAL);
}

static bool
status_key_is(const char *key, size_t klen, const char *want)
{
	return strlen(want) == klen && memcmp(key, want, klen) == 0;
}

int
task_status_decode(const char *buf, size_t len, struct task_status *st)
{
	const char *pos = buf, *end = buf + len, *nl, *colon;
	unsigned found = 0;
	size_t klen;

	memset(st, 0, sizeof(*st));
	/* every kernel's status starts with the name: anything else is not a status file */
	if (len < 5 || memcmp(buf, "Name:", 5) != 0)
		return task_fail(EINVAL);
	while (pos < end) {
		nl = memchr(pos, '\n', (size_t)(end - pos));
		if (nl == NULL)
			return task_fail(EINVAL);
		colon = memchr(pos, ':', (size_t)(nl - pos));
		if (colon == NULL)
			return task_fail(EINVAL);
		klen = (size_t)(colon - pos);
		if (status_key_is(pos, klen, "voluntary_ctxt_switches")) {
			if (status_value(colon + 1, nl, &st->vol_csw) != 0)
				return -1;
			found |= 1;
		} else if (status_key_is(pos, klen, "nonvoluntary_ctxt_switches")) {
			if (status_value(colon + 1, nl, &st->invol_csw) != 0)
				return -1;
			found |= 2;
		}
		pos = nl + 1;
	}
	return found == 3 ? 0 : task_fail(ENOENT);
}

/* --- stat --------------------------------------------------------------- */

/* The last ')' in [p, end): the comm before it may itself hold ')'. */
static const char *
stat_comm_end(const char *p, const char *end)
{
	const char *q = end;

	while (q > p) {
		q--;
		if (*q == ')')
			return q;
	}
	return NULL;
}

/* Skips one space-separated field (numbers may be negative, e.g. tty_nr -1). */
static int
stat_skip_field(const char **pp, const char *end)
{
	const char *p = *pp;

	if (p == end || *p != ' ')
		return task_fail(EINVAL);
	p++;
	if (p == end || *p == ' ')
		return task_fail(EINVAL);
	while (p < end && *p != ' ')
		p++;
	*pp = p;
	return 0;
}

static int
stat_field_u64(const char **pp, const char *end, uint64_t *v)
{
	if (*pp == end || **pp != ' ')
		return task_fail(EINVAL);
	(*pp)++;
	if (task_u64(pp, end, v) != 0)
		return -1;
	if (*pp < end && **pp != ' ')
		return task_fail(EINVAL);
	return 0;
}

int
task_stat_decode(const char *buf, size_t len, struct task_stat *st)
{
	const char *p = buf, *end, *close;
	uint64_t pid;
	int i;

	memset(st, 0, sizeof(*st));
	if (len == 0 || buf[len - 1] != '\n')
		return task_fail(EINVAL);
	end = buf + len - 1;
	if (task_u64(&p, end, &pid) != 0)
		return -1;
	if (end - p < 2 || p[0] != ' ' || p[1] != '(')
		return task_fail(EINVAL);
	close = stat_comm_end(p + 2, end);
	if (close == NULL)
		return task_fail(EINVAL);
	p = close + 1;
	if (end - p < 2 || p[0] != ' ' || p[1] == ' ')
		return task_fail(EINVAL);
	st->state = p[1];
	p += 2;
	if (p < end && *p != ' ')
		return task_fail(EINVAL);
	if (stat_field_u64(&p, end, &st->ppid) != 0 || stat_field_u64(&p, end, &st->pgid) != 0)
		return -1;
	for (i = 0; i < TASK_STAT_SKIP; i++) {
		if (stat_skip_field(&p, end) != 0)
			return -1;
	}
	if (stat_field_u64(&p, end, &st->utime_ticks) != 0 ||
	    stat_field_u64(&p, end, &st->stime_ticks) != 0)
		return -1;
	return 0;
}

/* A process's CPU line: task_stat's fields and thread_stat's start, with the comm between. */
int
proc_cpu_stat_decode(const char *buf, size_t len, long hz, struct proc_cpu *out)
{
	struct task_stat ts;
	struct thread_stat th;
	const char *open, *close;
	size_t clen;
	uint64_t pid;
	const char *p = buf;

	memset(out, 0, sizeof(*out));
	if (hz <= 0 || task_stat_decode(buf, len, &ts) != 0 ||
	    thread_stat_decode(buf, len, &th) != 0)
		return task_fail(EINVAL);
	if (task_u64(&p, buf + len, &pid) != 0 || pid > INT32_MAX)
		return task_fail(EINVAL);
	open = p + 2; /* task_stat_decode saw " (" here */
	close = stat_comm_end(open, buf + len - 1);
	clen = (size_t)(close - open);
	if (clen >= sizeof(out->comm))
		clen = sizeof(out->comm) - 1;
	memcpy(out->comm, open, clen);
	out->comm[clen] = '\0';
	out->pid = (pid_t)pid;
	out->ppid = (pid_t)ts.ppid;
	out->start = th.start_ticks;
	out->cpu_ns = (ts.utime_ticks + ts.stime_ticks) * (1000000000u / (uint64_t)hz);
	return 0;
}

/* --- schedstat ------------------------------------------------------------ */

int
task_schedstat_decode(const char *buf, size_t len, struct task_schedstat *st)
{
	const char *p = buf, *end;
	uint64_t *field[] = { &st->cpu_ns, &st->run_delay_ns, &st->timeslices };
	size_t i;

	memset(st, 0, sizeof(*st));
	if (len == 0 || buf[len - 1] != '\n')
		return task_fail(EINVAL);
	end = buf + len - 1;
	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		if (i > 0 && (p == end || *p++ != ' '))
			return task_fail(EINVAL);
		if (task_u64(&p, end, field[i]) != 0)
			return -1;
	}
	return p == end ? 0 : task_fail(EINVAL);
}

/* --- a process's threads, summed ----------------------------------------- */

void
task_sum_init(struct task_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->have = TASK_HAVE_CSW | TASK_HAVE_CPU | TASK_HAVE_RUN_DELAY;
}

void
task_sum_add(struct task_sum *sum, const struct task_one *t)
{
	sum->c.vol_csw += t->status.vol_csw;
	sum->c.invol_csw += t->status.invol_csw;
	sum->c.run_delay_ns += t->sched.run_delay_ns;
	sum->c.cpu_ns += t->sched.cpu_ns;
	sum->utime += t->stat.utime_ticks;
	sum->stime += t->stat.stime_ticks;
	/* a counter is valid only if every thread in the sum had it */
	sum->have &= t->have;
	sum->c.nthreads++;
}

/* Clock ticks to nanoseconds without overflowing for any realistic count. */
static uint64_t
ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	return ticks / hz * 1000000000u + ticks % hz * 1000000000u / hz;
}

void
task_sum_finish(const struct task_sum *sum, long hz, struct task_counters *out)
{
	unsigned have = sum->have;

	*out = sum->c;
	if (hz <= 0)
		hz = 100;
	out->user_ns = ticks_to_ns(sum->utime, (uint64_t)hz);
	out->sys_ns = ticks_to_ns(sum->stime, (uint64_t)hz);
	/* a kernel without schedstats prints "0 0 0" for every thread, even ones that ran */
	if (sum->c.cpu_ns == 0)
		have &= ~(unsigned)TASK_HAVE_RUN_DELAY;
	/* schedstat's first field is the thread's sum_exec_runtime, to the nanosecond */
	if (have & TASK_HAVE_RUN_DELAY)
		have |= TASK_HAVE_CPU_EXACT;
	else
		out->run_delay_ns = out->cpu_ns = 0;
	if (!(have & TASK_HAVE_CSW))
		out->vol_csw = out->invol_csw = 0;
	out->have = have;
}

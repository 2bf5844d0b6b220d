/*
 * Decoders for the system-wide Linux files: /proc/stat, the CPU list format of
 * /sys/devices/system/cpu/{online,present}, /proc/pressure/cpu and the model
 * line of /proc/cpuinfo.  Pure and portable; see decode_linux.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_linux.h"

/* One line of text, without its '\n'; p advances as it is scanned. */
struct line {
	const char *p;
	const char *end;
};

/* /proc/stat's columns, in the kernel's order, mapped to our states. */
static const enum cpu_state procstat_columns[] = {
        CPU_USER, CPU_NICE, CPU_SYS, CPU_IDLE, CPU_IOWAIT, CPU_IRQ, CPU_SOFTIRQ, CPU_STEAL,
};
#define PROCSTAT_NCOLUMNS (sizeof(procstat_columns) / sizeof(procstat_columns[0]))
/* Every kernel since 2.4 prints at least user, nice, system and idle. */
#define PROCSTAT_MIN_COLUMNS 4

static int
decode_fail(int e)
{
	errno = e;
	return -1;
}

/*
 * The next line of [*pos, end).  1 and the line, 0 at the end of the text,
 * or -1 when the last line has no '\n': the kernel ends every line, so the
 * text was cut short and its last number may be incomplete.
 */
static int
line_next(const char **pos, const char *end, struct line *l)
{
	const char *nl;

	if (*pos >= end)
		return 0;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	if (nl == NULL)
		return decode_fail(EINVAL);
	l->p = *pos;
	l->end = nl;
	*pos = nl + 1;
	return 1;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void
line_skip_blanks(struct line *l)
{
	while (l->p < l->end && is_blank(*l->p))
		l->p++;
}

static bool
line_at_end(struct line *l)
{
	line_skip_blanks(l);
	return l->p == l->end;
}

/* Digits into *v, with overflow checked; -1 if there are none. */
static int
digits_u64(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (p == end || !is_digit(*p))
		return decode_fail(EINVAL);
	while (p < end && is_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return decode_fail(ERANGE);
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*v = n;
	return 0;
}

/* The next blank-separated field as an unsigned number; "12ab" is malformed. */
static int
line_u64(struct line *l, uint64_t *v)
{
	line_skip_blanks(l);
	if (digits_u64(&l->p, l->end, v) != 0)
		return -1;
	if (l->p < l->end && !is_blank(*l->p))
		return decode_fail(EINVAL);
	return 0;
}

/*
 * The key that starts a /proc/stat or PSI line: printable ASCII up to a blank
 * ("disk_io:" on 2.4 kernels included).  A control byte, a non-ASCII byte or
 * a blank at the start means the text is not what we think.
 */
static int
line_key(struct line *l, const char **key, size_t *klen)
{
	const char *p = l->p;

	while (p<l->end && * p> ' ' && *p < 0x7f)
		p++;
	if (p == l->p || (p < l->end && !is_blank(*p)))
		return decode_fail(EINVAL);
	*key = l->p;
	*klen = (size_t)(p - l->p);
	l->p = p;
	return 0;
}

static bool
key_is(const char *key, size_t klen, const char *want)
{
	return strlen(want) == klen && memcmp(key, want, klen) == 0;
}

/* --- /proc/stat ---------------------------------------------------------- */

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

/* --- CPU lists ------------------------------------------------------------ */

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
	int *p;
	int ncap;

	if (l->n == l->cap) {
		ncap = l->cap > 0 ? l->cap * 2 : 64;
		p = realloc(l->id, (size_t)ncap * sizeof(*p));
		if (p == NULL)
			return decode_fail(ENOMEM);
		l->id = p;
		l->cap = ncap;
	}
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

/* --- /proc/pressure/cpu ---------------------------------------------------- */

/* "name=value" tokens; only total= (microseconds) is kept, the averages are checked. */
static int
psi_line(struct line *l, uint64_t *total)
{
	const char *name;
	size_t nlen;
	bool found = false;

	while (!line_at_end(l)) {
		name = l->p;
		while (l->p < l->end && *l->p != '=' && !is_blank(*l->p))
			l->p++;
		nlen = (size_t)(l->p - name);
		if (l->p == l->end || *l->p != '=' || nlen == 0)
			return decode_fail(EINVAL);
		l->p++;
		if (key_is(name, nlen, "total")) {
			if (line_u64(l, total) != 0)
				return -1;
			found = true;
			continue;
		}
		if (l->p == l->end || is_blank(*l->p))
			return decode_fail(EINVAL);
		while (l->p < l->end && (is_digit(*l->p) || *l->p == '.'))
			l->p++;
		if (l->p < l->end && !is_blank(*l->p))
			return decode_fail(EINVAL);
	}
	return found ? 0 : decode_fail(EINVAL);
}

int
psi_decode(const char *buf, size_t len, struct sys_sample *sys)
{
	const char *pos = buf, *end = buf + len, *key;
	size_t klen;
	struct line l;
	unsigned flags = 0;
	uint64_t some = 0, full = 0;
	int r;

	sys->flags &= ~(unsigned)(SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL);
	sys->psi_some_us = sys->psi_full_us = 0;
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_key(&l, &key, &klen) != 0)
			return -1;
		if (key_is(key, klen, "some")) {
			if (psi_line(&l, &some) != 0)
				return -1;
			flags |= SYS_HAVE_PSI_SOME;
		} else if (key_is(key, klen, "full")) {
			if (psi_line(&l, &full) != 0)
				return -1;
			flags |= SYS_HAVE_PSI_FULL;
		} else
			return decode_fail(EINVAL);
	}
	if (r < 0 || !(flags & SYS_HAVE_PSI_SOME))
		return decode_fail(EINVAL);
	sys->flags |= flags;
	sys->psi_some_us = some;
	sys->psi_full_us = full;
	return 0;
}

/* --- /proc/cpuinfo -------------------------------------------------------- */

/* In order of preference; see decode_linux.h for which system prints which. */
static const char *const cpuinfo_keys[] = {
        "model name", "Hardware", "cpu model", "cpu", "uarch", "Processor",
};
#define CPUINFO_NKEYS (sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]))

struct cpuinfo_value {
	const char *p;
	size_t len;
};

/* Splits "key<blanks>: value" with both sides trimmed; -1 if there is no ':'. */
static int
cpuinfo_split(struct line *l, struct cpuinfo_value *key, struct cpuinfo_value *val)
{
	const char *colon = memchr(l->p, ':', (size_t)(l->end - l->p));
	const char *k = colon;

	if (colon == NULL)
		return -1;
	while (k > l->p && is_blank(k[-1]))
		k--;
	key->p = l->p;
	key->len = (size_t)(k - l->p);
	l->p = colon + 1;
	line_skip_blanks(l);
	val->p = l->p;
	k = l->end;
	while (k > l->p && is_blank(k[-1]))
		k--;
	val->len = (size_t)(k - l->p);
	return 0;
}

/*
 * Copies a value for display: runs of blanks become one space (x86 pads model
 * names), and control bytes become '?' so no escape sequence reaches a terminal.
 */
static void
cpuinfo_copy(char *out, size_t outlen, const struct cpuinfo_value *v)
{
	size_t i, o = 0;

	for (i = 0; i < v->len && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)v->p[i];

		if (is_blank((char)c)) {
			if (o > 0 && out[o - 1] == ' ')
				continue;
			c = ' ';
		} else if (c < 0x20 || c == 0x7f)
			c = '?';
		out[o++] = (char)c;
	}
	out[o] = '\0';
}

int
cpuinfo_model(const char *buf, size_t len, char *out, size_t outlen)
{
	const char *pos = buf, *end = buf + len;
	struct cpuinfo_value key, val, best = {NULL, 0}, impl = {NULL, 0}, part = {NULL, 0};
	size_t i, rank = CPUINFO_NKEYS;
	struct line l;
	char ibuf[32], pbuf[32];

	if (outlen == 0)
		return decode_fail(EINVAL);
	out[0] = '\0';
	/* a last line without '\n' ends the scan: it may be cut short */
	while (rank > 0 && line_next(&pos, end, &l) == 1) {
		if (cpuinfo_split(&l, &key, &val) != 0 || val.len == 0)
			continue;
		for (i = 0; i < rank; i++) {
			if (key_is(key.p, key.len, cpuinfo_keys[i])) {
				best = val;
				rank = i;
				break;
			}
		}
		if (impl.p == NULL && key_is(key.p, key.len, "CPU implementer"))
			impl = val;
		if (part.p == NULL && key_is(key.p, key.len, "CPU part"))
			part = val;
	}
	if (best.p != NULL) {
		cpuinfo_copy(out, outlen, &best);
		return 0;
	}
	if (impl.p == NULL || part.p == NULL)
		return decode_fail(ENOENT);
	cpuinfo_copy(ibuf, sizeof(ibuf), &impl);
	cpuinfo_copy(pbuf, sizeof(pbuf), &part);
	snprintf(out, outlen, "CPU implementer %s part %s", ibuf, pbuf);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Linux decoders over recorded and hand-written fixtures.  Every decoder
 * is handed an exact-size heap copy with no NUL after it, so a read past len
 * is caught by the sanitizer build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_linux.h"
#include "../tap.h"

/* A string literal and its length, NULs inside included. */
#define LIT(s) (s), (sizeof(s) - 1)

static int
decode_stat_text(const char *text, size_t len, struct raw_sample *s)
{
	char *p = exact_copy(text, len);
	int r = procstat_decode(p, len, s);

	free(p);
	return r;
}

static int
decode_stat_str(const char *text, struct raw_sample *s)
{
	return decode_stat_text(text, strlen(text), s);
}

static int
decode_stat_fixture(const char *name, struct raw_sample *s)
{
	size_t len;
	char *text = fixture_read(name, &len);
	int r = decode_stat_text(text, len, s);

	free(text);
	return r;
}

static int
decode_list_str(const char *text, struct cpu_list *l)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = cpulist_decode(p, len, l);

	free(p);
	return r;
}

static int
decode_list_fixture(const char *name, struct cpu_list *l)
{
	char *text = fixture_read(name, NULL);
	int r = decode_list_str(text, l);

	free(text);
	return r;
}

static void
is_ticks(const struct cpu_ticks *c, int id, const uint64_t want[CPU_NSTATES], const char *what)
{
	char name[128];
	int i;

	if (!ok(c != NULL, "%s: cpu%d present", what, id))
		return;
	is_int(c->id, id, "  id");
	for (i = 0; i < CPU_NSTATES; i++) {
		snprintf(name, sizeof(name), "  %s cpu%d %s", what, id, cpu_state_names[i]);
		is_u64(c->tick[i], want[i], name);
	}
}

/* --- /proc/stat recorded on this machine --------------------------------- */

static void
test_host_pair(void)
{
	/* usr nice sys irq soft iowait steal idle, i.e. enum cpu_state order */
	static const uint64_t a0[CPU_NSTATES] = { 1789, 0, 864, 0, 7, 25, 2, 42854 };
	static const uint64_t a1[CPU_NSTATES] = { 2800, 0, 1318, 0, 36, 645, 6, 40696 };
	static const uint64_t b0[CPU_NSTATES] = { 1882, 0, 870, 0, 7, 25, 2, 42854 };
	static const uint64_t b1[CPU_NSTATES] = { 2893, 0, 1324, 0, 37, 645, 6, 40696 };
	const unsigned all = 1u << SYS_CTXSW | 1u << SYS_INTR | 1u << SYS_SOFTIRQ | 1u << SYS_FORK;
	struct raw_sample a, b;
	int i, s, backwards = 0;

	raw_sample_init(&a);
	raw_sample_init(&b);
	a.mono_ns = 42;
	is_int(decode_stat_fixture("linux/procstat_host_a", &a), 0, "host a: decodes");
	is_int(decode_stat_fixture("linux/procstat_host_b", &b), 0, "host b: decodes");
	is_u64(a.mono_ns, 42, "host a: mono_ns left to the caller");
	is_int(a.ncpu, 2, "host a: 2 CPUs, aggregate line not kept");
	is_int(b.ncpu, 2, "host b: 2 CPUs");
	is_ticks(raw_sample_find(&a, 0), 0, a0, "host a");
	is_ticks(raw_sample_find(&a, 1), 1, a1, "host a");
	is_ticks(raw_sample_find(&b, 0), 0, b0, "host b");
	is_ticks(raw_sample_find(&b, 1), 1, b1, "host b");
	is_int(a.cpu[0].flags | a.cpu[1].flags, 0, "host a: no CPU flagged");
	is_u64(a.sys.count[SYS_CTXSW], 9351932, "host a: ctxt");
	is_u64(a.sys.count[SYS_INTR], 150431, "host a: intr total only");
	is_u64(a.sys.count[SYS_SOFTIRQ], 109970, "host a: softirq total only");
	is_u64(a.sys.count[SYS_FORK], 9645, "host a: processes");
	is_u64(a.sys.count[SYS_SYSCALL], 0, "host a: no syscall counter on Linux");
	is_int(a.sys.have, all, "host a: have ctxsw, intr, softirq, fork; not syscall");
	is_int(a.sys.flags, SYS_HAVE_RUNQ, "host a: run queue, no PSI from /proc/stat");
	is_int(a.sys.running, 4, "host a: procs_running");
	is_int(a.sys.blocked, 0, "host a: procs_blocked");
	is_u64(b.sys.count[SYS_CTXSW], 9355758, "host b: ctxt");
	is_u64(b.sys.count[SYS_INTR], 152667, "host b: intr");
	is_u64(b.sys.count[SYS_FORK], 9770, "host b: processes");
	for (i = 0; i < a.ncpu; i++) {
		for (s = 0; s < CPU_NSTATES; s++)
			backwards += b.cpu[i].tick[s] < a.cpu[i].tick[s];
	}
	is_int(backwards, 0, "host pair: no tick went backwards in a real second");
	raw_sample_free(&a);
	raw_sample_free(&b);
}

/*
 * Every prefix of a real file: only one cut at a line end after the first
 * per-CPU line decodes; anything else, mid-number included, is refused.
 */
static void
test_host_truncated(void)
{
	struct raw_sample s;
	size_t len, cut, first_cpu_end, wrong = 0;
	char *text = fixture_read("linux/procstat_host_a", &len);
	int r, want;

	raw_sample_init(&s);
	first_cpu_end = (size_t)(strstr(text, "cpu0 ") - text);
	first_cpu_end += (size_t)(strchr(text + first_cpu_end, '\n') - (text + first_cpu_end)) + 1;
	for (cut = 0; cut <= len; cut++) {
		r = decode_stat_text(text, cut, &s);
		want = cut >= first_cpu_end && text[cut - 1] == '\n' ? 0 : -1;
		if (r != want) {
			if (wrong++ == 0)
				diag("cut at %zu: got %d, want %d", cut, r, want);
		}
	}
	is_int((long long)wrong, 0, "host a: every truncation refused unless at a line end");
	cut = (size_t)(strstr(text, "ctxt 9351932") - text) + 8;
	errno = 0;
	is_int(decode_stat_text(text, cut, &s), -1, "cut mid-number in ctxt: refused");
	is_int(errno, EINVAL, "  errno EINVAL");
	is_int(decode_stat_text(text, len, &s), 0, "the whole file still decodes");
	free(text);
	raw_sample_free(&s);
}

/* --- hot-plug: 8 CPUs, cpu3 offlined -------------------------------------- */

static void
test_offline_pair(void)
{
	static const uint64_t a4[CPU_NSTATES] = { 104000, 54, 22000, 28, 312, 440, 8, 940000 };
	static const uint64_t b4[CPU_NSTATES] = { 122500, 54, 27500, 28, 412, 440, 8, 946000 };
	static const uint64_t zero[CPU_NSTATES] = { 0 };
	struct cpu_list present, online_a, online_b;
	struct raw_sample a, b;
	int i, sorted = 1;

	cpu_list_init(&present);
	cpu_list_init(&online_a);
	cpu_list_init(&online_b);
	raw_sample_init(&a);
	raw_sample_init(&b);
	is_int(decode_list_fixture("linux/present_8cpu", &present), 0, "8cpu: present decodes");
	is_int(decode_list_fixture("linux/online_8cpu_a", &online_a), 0, "8cpu: online a decodes");
	is_int(decode_list_fixture("linux/online_8cpu_b", &online_b), 0, "8cpu: online b decodes");
	is_int(online_b.n, 7, "8cpu: online b lists 7 CPUs");
	is_int(cpu_list_has(&online_b, 3), 0, "8cpu: cpu3 not online in b");

	is_int(decode_stat_fixture("linux/procstat_8cpu_a", &a), 0, "8cpu a: decodes");
	is_int(procstat_add_offline(&a, &present, &online_a), 0, "8cpu a: offline merge");
	is_int(a.ncpu, 8, "8cpu a: 8 CPUs");
	for (i = 0; i < a.ncpu; i++)
		ok(a.cpu[i].id == i && a.cpu[i].flags == 0, "8cpu a: entry %d is cpu%d, online", i,
		   i);
	is_ticks(raw_sample_find(&a, 4), 4, a4, "8cpu a");

	is_int(decode_stat_fixture("linux/procstat_8cpu_b", &b), 0, "8cpu b: decodes");
	is_int(b.ncpu, 7, "8cpu b: /proc/stat lists 7 CPUs");
	is_int(procstat_add_offline(&b, &present, &online_b), 0, "8cpu b: offline merge");
	is_int(b.ncpu, 8, "8cpu b: cpu3 back in the array");
	for (i = 0; i < b.ncpu; i++)
		sorted &= b.cpu[i].id == i;
	ok(sorted, "8cpu b: entries sorted by id 0..7");
	is_int(b.cpu[3].flags, CPU_RAW_OFFLINE, "8cpu b: cpu3 flagged offline");
	is_ticks(&b.cpu[3], 3, zero, "8cpu b offline");
	is_int(b.cpu[4].flags, 0, "8cpu b: cpu4 not flagged");
	is_ticks(raw_sample_find(&b, 4), 4, b4, "8cpu b");
	is_u64(a.cpu[5].tick[CPU_IOWAIT], 450, "8cpu a: cpu5 iowait");
	is_u64(b.cpu[5].tick[CPU_IOWAIT], 448, "8cpu b: cpu5 iowait went backwards, kept as read");
	is_int(b.sys.running, 5, "8cpu b: procs_running");
	is_u64(b.sys.count[SYS_CTXSW], 89876500, "8cpu b: ctxt");

	/* a second merge adds nothing: cpu3 is already there */
	is_int(procstat_add_offline(&b, &present, &online_b), 0, "8cpu b: merge again");
	is_int(b.ncpu, 8, "8cpu b: still 8 entries");
	raw_sample_free(&a);
	raw_sample_free(&b);
	cpu_list_free(&present);
	cpu_list_free(&online_a);
	cpu_list_free(&online_b);
}

/* The races between reading /proc/stat and the online list. */
static void
test_offline_races(void)
{
	struct cpu_list present, online;
	struct raw_sample s;

	cpu_list_init(&present);
	cpu_list_init(&online);
	raw_sample_init(&s);
	decode_list_str("0-3\n", &present);
	decode_list_str("0,3\n", &online);
	/* cpu1 went offline after /proc/stat was read; cpu3 came online after it */
	is_int(decode_stat_str("cpu  4 0 4 40\ncpu0 1 0 1 10\ncpu1 3 0 3 30\n", &s), 0,
	       "race: decodes");
	is_int(procstat_add_offline(&s, &present, &online), 0, "race: merge");
	is_int(s.ncpu, 3, "race: cpu0, cpu1, cpu2");
	is_int(s.cpu[1].id, 1, "race: cpu1 kept");
	is_int(s.cpu[1].flags, 0, "race: cpu1 keeps the ticks /proc/stat gave");
	is_u64(s.cpu[1].tick[CPU_IDLE], 30, "race: cpu1 idle");
	is_int(s.cpu[2].id, 2, "race: cpu2 added");
	is_int(s.cpu[2].flags, CPU_RAW_OFFLINE, "race: cpu2 offline");
	ok(raw_sample_find(&s, 3) == NULL,
	   "race: cpu3, online but not in /proc/stat, not invented");
	raw_sample_free(&s);
	cpu_list_free(&present);
	cpu_list_free(&online);
}

/* --- layouts --------------------------------------------------------------- */

static void
test_order_and_sparse(void)
{
	struct raw_sample s;

	raw_sample_init(&s);
	is_int(decode_stat_str("cpu  0 0 0 0\n"
			       "cpu7 7 0 0 70\n"
			       "cpu0 1 0 0 10\n"
			       "cpu12 12 0 0 120\n"
			       "ctxt 5\n",
			       &s),
	       0, "out of order, sparse ids: decodes");
	is_int(s.ncpu, 3, "sparse: 3 CPUs");
	is_int(s.cpu[0].id, 0, "sparse: sorted [0]");
	is_int(s.cpu[1].id, 7, "sparse: sorted [1] = cpu7");
	is_int(s.cpu[2].id, 12, "sparse: sorted [2] = cpu12");
	is_u64(raw_sample_find(&s, 7)->tick[CPU_IDLE], 70, "sparse: cpu7 keyed by id, not line");
	is_u64(raw_sample_find(&s, 12)->tick[CPU_USER], 12, "sparse: cpu12 user");
	is_int(s.sys.have, 1u << SYS_CTXSW, "sparse: only ctxt present");
	is_int(s.sys.flags, 0, "sparse: no run queue without procs_*");
	is_int(decode_stat_str("cpu  0 0 0 0\ncpu0 1 0 0 10\nprocs_running 2\n", &s), 0,
	       "procs_running without procs_blocked: decodes");
	is_int(s.sys.flags, 0, "half a run queue is no run queue");
	is_int(decode_stat_str("cpu  0 0 0 0 0 0 0 0 0 0 11 12\n"
			       "cpu0 1 2 3 4 5 6 7 8 9 10 11 12\n",
			       &s),
	       0, "12 columns (a future kernel): decodes");
	is_u64(s.cpu[0].tick[CPU_STEAL], 8, "12 columns: steal is column 8");
	is_u64(s.cpu[0].tick[CPU_USER], 1, "12 columns: guest not added to user");
	is_int(decode_stat_str("cpu  0 0 0 0\ncpu65535 1 2 3 4\n", &s), 0, "cpu65535: at the cap");
	is_int(s.cpu[0].id, 65535, "cpu65535: id");
	raw_sample_free(&s);
}

/* 1024 CPUs with realistic counter widths and a long intr line: ~150 KB. */
static char *
make_procstat_1024(size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int id, i;

	if (buf == NULL)
		abort();
	n += (size_t)snprintf(buf + n, cap - n, "cpu  1 2 3 4 5 6 7 8 0 0\n");
	for (id = 0; id < 1024; id++) {
		n += (size_t)snprintf(buf + n, cap - n, "cpu%d", id);
		for (i = 0; i < 10; i++)
			n += (size_t)snprintf(buf + n, cap - n, " %llu",
					      1000000000ull * (unsigned)(i + 1) +
						      (unsigned)id * 7919u);
		buf[n++] = '\n';
	}
	n += (size_t)snprintf(buf + n, cap - n, "intr 987654321987");
	for (i = 0; i < 16000; i++)
		n += (size_t)snprintf(buf + n, cap - n, " %d", i % 1000 == 0 ? 123456 : 0);
	n += (size_t)snprintf(buf + n, cap - n,
			      "\nctxt 55555555555\nbtime 1\nprocesses 777\n"
			      "procs_running 1024\nprocs_blocked 3\nsoftirq 31 1 2\n");
	*len = n;
	return buf;
}

static void
test_1024(void)
{
	static const enum cpu_state col[] = { CPU_USER,   CPU_NICE, CPU_SYS,     CPU_IDLE,
					      CPU_IOWAIT, CPU_IRQ,  CPU_SOFTIRQ, CPU_STEAL };
	struct raw_sample s;
	size_t len;
	char *text = make_procstat_1024(&len);
	int id, i, wrong = 0;

	raw_sample_init(&s);
	ok(len > 150000, "1024 CPUs: the text is %zu bytes", len);
	is_int(decode_stat_text(text, len, &s), 0, "1024 CPUs: decodes");
	is_int(s.ncpu, 1024, "1024 CPUs: all kept");
	for (id = 0; id < s.ncpu && id < 1024; id++) {
		wrong += s.cpu[id].id != id || s.cpu[id].flags != 0;
		for (i = 0; i < 8; i++)
			wrong += s.cpu[id].tick[col[i]] !=
				 1000000000ull * (unsigned)(i + 1) + (unsigned)id * 7919u;
	}
	is_int(wrong, 0, "1024 CPUs: every id and tick exact");
	is_u64(s.sys.count[SYS_INTR], 987654321987ull, "1024 CPUs: intr total from a long line");
	is_u64(s.sys.count[SYS_CTXSW], 55555555555ull, "1024 CPUs: ctxt after the long line");
	is_int(s.sys.running, 1024, "1024 CPUs: procs_running");
	/* the same sample decoded smaller: nothing left over from the big one */
	is_int(decode_stat_fixture("linux/procstat_host_a", &s), 0, "reuse: host decodes");
	is_int(s.ncpu, 2, "reuse: 2 CPUs");
	free(text);
	raw_sample_free(&s);
}

static void
test_old_kernels(void)
{
	static const uint64_t c1_269[CPU_NSTATES] = { 1123, 0, 849, 0, 18, 2614, 0, 11313845 };
	static const uint64_t c0_24[CPU_NSTATES] = { 640, 0, 631, 0, 0, 0, 0, 199459 };
	struct raw_sample s;

	raw_sample_init(&s);
	is_int(decode_stat_fixture("linux/procstat_linux_2.6.9", &s), 0, "2.6.9: decodes");
	is_int(s.ncpu, 2, "2.6.9: 2 CPUs");
	is_ticks(raw_sample_find(&s, 1), 1, c1_269, "2.6.9");
	is_int(s.sys.have, 1u << SYS_CTXSW | 1u << SYS_INTR | 1u << SYS_FORK,
	       "2.6.9: no softirq line, so no softirq counter");
	is_u64(s.sys.count[SYS_INTR], 114930548, "2.6.9: intr");
	is_int(s.sys.flags, SYS_HAVE_RUNQ, "2.6.9: run queue");
	is_int(s.sys.running, 1, "2.6.9: procs_running");

	is_int(decode_stat_fixture("linux/procstat_linux_2.4", &s), 0, "2.4: decodes");
	is_ticks(raw_sample_find(&s, 0), 0, c0_24, "2.4");
	is_int(s.sys.have, 1u << SYS_CTXSW | 1u << SYS_INTR | 1u << SYS_FORK,
	       "2.4: ctxt, intr, processes");
	is_u64(s.sys.count[SYS_FORK], 1263, "2.4: processes");
	is_int(s.sys.flags, 0, "2.4: no procs_running, so no run queue");
	raw_sample_free(&s);
}

/* --- malformed /proc/stat ------------------------------------------------- */

struct bad_case {
	const char *name;
	const char *text;
	int err;
};

static const struct bad_case bad_procstat[] = {
	{ "empty", "", EINVAL },
	{ "no newline at all", "cpu  1 2 3 4", EINVAL },
	{ "truncated mid-number", "cpu  1 2 3 4\ncpu0 1 2 3 4\nctxt 12", EINVAL },
	{ "aggregate only", "cpu  1 2 3 4\nctxt 1\n", EINVAL },
	{ "no aggregate line", "cpu0 1 2 3 4\n", EINVAL },
	{ "aggregate twice", "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu  1 2 3 4\n", EINVAL },
	{ "three columns", "cpu  1 2 3 4\ncpu0 1 2 3\n", EINVAL },
	{ "letters in a number", "cpu  1 2 3 4\ncpu0 1 2x 3 4\n", EINVAL },
	{ "negative tick", "cpu  1 2 3 4\ncpu0 1 -2 3 4\n", EINVAL },
	{ "tick overflows 64 bits", "cpu  1 2 3 4\ncpu0 1 18446744073709551616 3 4\n", ERANGE },
	{ "cpu id at cap + 1", "cpu  1 2 3 4\ncpu65536 1 2 3 4\n", ERANGE },
	{ "huge cpu id", "cpu  1 2 3 4\ncpu99999999999999999999999 1 2 3 4\n", ERANGE },
	{ "cpu id with letters", "cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu1x 1 2 3 4\n", EINVAL },
	{ "duplicate cpu", "cpu  1 2 3 4\ncpu1 1 2 3 4\ncpu0 1 2 3 4\ncpu1 1 2 3 4\n", EINVAL },
	{ "ctxt without a number", "cpu  1 2 3 4\ncpu0 1 2 3 4\nctxt\n", EINVAL },
	{ "ctxt with two", "cpu  1 2 3 4\ncpu0 1 2 3 4\nctxt 1 2\n", EINVAL },
	{ "procs_running > 32 bits", "cpu  1 2 3 4\ncpu0 1 2 3 4\nprocs_running 4294967296\n",
	  ERANGE },
	{ "empty line", "cpu  1 2 3 4\n\ncpu0 1 2 3 4\n", EINVAL },
	{ "leading blank", "cpu  1 2 3 4\n cpu0 1 2 3 4\n", EINVAL },
};

static void
test_procstat_malformed(void)
{
	struct raw_sample s;
	size_t i;

	raw_sample_init(&s);
	for (i = 0; i < sizeof(bad_procstat) / sizeof(bad_procstat[0]); i++) {
		const struct bad_case *c = &bad_procstat[i];

		errno = 0;
		is_int(decode_stat_str(c->text, &s), -1, c->name);
		is_int(errno, c->err, "  errno");
	}
	errno = 0;
	is_int(decode_stat_text(LIT("cpu  1 2 3 4\ncpu0 1 2\0 3 4\n"), &s), -1, "NUL inside");
	is_int(errno, EINVAL, "  errno");
	raw_sample_free(&s);
}

/* Deterministic noise: the same bytes on every run and OS. */
static void
fill_garbage(unsigned char *buf, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
}

static void
test_garbage(void)
{
	unsigned char *buf;
	struct raw_sample s;
	struct cpu_list l;
	struct sys_sample sys;
	struct task_status st;
	struct task_stat ts;
	struct task_schedstat ss;
	char model[64];
	uint32_t seed;
	int refused[7] = { 0 };
	const size_t len = 4096;

	raw_sample_init(&s);
	cpu_list_init(&l);
	buf = malloc(len);
	if (buf == NULL)
		abort();
	for (seed = 1; seed <= 16; seed++) {
		fill_garbage(buf, len, seed);
		buf[len - 1] = '\n'; /* even a proper last line does not help */
		refused[0] += procstat_decode((char *)buf, len, &s) == -1;
		refused[1] += cpulist_decode((char *)buf, len, &l) == -1;
		refused[2] += psi_decode((char *)buf, len, &sys) == -1;
		refused[3] += task_status_decode((char *)buf, len, &st) == -1;
		refused[4] += task_stat_decode((char *)buf, len, &ts) == -1;
		refused[5] += task_schedstat_decode((char *)buf, len, &ss) == -1;
		refused[6] += cpuinfo_model((char *)buf, len, model, sizeof(model)) == -1;
	}
	is_int(refused[0], 16, "garbage: /proc/stat refused");
	is_int(refused[1], 16, "garbage: CPU list refused");
	is_int(refused[2], 16, "garbage: PSI refused");
	is_int(refused[3], 16, "garbage: status refused");
	is_int(refused[4], 16, "garbage: stat refused");
	is_int(refused[5], 16, "garbage: schedstat refused");
	is_int(refused[6], 16, "garbage: cpuinfo has no model");
	free(buf);
	raw_sample_free(&s);
	cpu_list_free(&l);
}

/* --- CPU lists ------------------------------------------------------------- */

static void
test_cpulist(void)
{
	static const int want[] = { 0, 1, 2, 3, 5, 7, 8 };
	static const struct bad_case bad[] = {
		{ "cpulist: no newline", "0-1", EINVAL },
		{ "cpulist: cut short", "0-12", EINVAL },
		{ "cpulist: reversed range", "3-1\n", EINVAL },
		{ "cpulist: overlap", "0-3,2\n", EINVAL },
		{ "cpulist: descending", "5,1\n", EINVAL },
		{ "cpulist: repeated id", "0-2,2\n", EINVAL },
		{ "cpulist: empty item", "0,,1\n", EINVAL },
		{ "cpulist: trailing comma", "1,\n", EINVAL },
		{ "cpulist: open range", "0-\n", EINVAL },
		{ "cpulist: blank", " 0\n", EINVAL },
		{ "cpulist: two lines", "0\n1\n", EINVAL },
		{ "cpulist: id at cap + 1", "65536\n", ERANGE },
		{ "cpulist: huge range", "0-99999999999999999999\n", ERANGE },
	};
	struct cpu_list l;
	size_t i;
	int same = 1;

	cpu_list_init(&l);
	is_int(decode_list_str("0-3,5,7-8\n", &l), 0, "cpulist: 0-3,5,7-8");
	is_int(l.n, 7, "cpulist: 7 ids");
	for (i = 0; i < 7 && (int)i < l.n; i++)
		same &= l.id[i] == want[i];
	ok(same, "cpulist: ids 0 1 2 3 5 7 8");
	is_int(cpu_list_has(&l, 5), 1, "cpulist: has 5");
	is_int(cpu_list_has(&l, 6), 0, "cpulist: not 6");
	is_int(cpu_list_has(&l, 9), 0, "cpulist: not 9");
	is_int(decode_list_str("", &l), 0, "cpulist: empty text");
	is_int(l.n, 0, "cpulist: empty set");
	is_int(decode_list_str("\n", &l), 0, "cpulist: lone newline");
	is_int(l.n, 0, "cpulist: lone newline is the empty set");
	is_int(decode_list_str("0-65535\n", &l), 0, "cpulist: 0-65535");
	is_int(l.n, 65536, "cpulist: 65536 ids");
	is_int(l.id[65535], 65535, "cpulist: last id");
	is_int(decode_list_fixture("linux/online_host", &l), 0, "cpulist: this machine's online");
	is_int(l.n, 2, "cpulist: 2 online here");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		is_int(decode_list_str(bad[i].text, &l), -1, bad[i].name);
		is_int(errno, bad[i].err, "  errno");
	}
	cpu_list_free(&l);
}

/* --- PSI -------------------------------------------------------------------- */

static int
decode_psi_str(const char *text, struct sys_sample *sys)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = psi_decode(p, len, sys);

	free(p);
	return r;
}

static void
test_psi(void)
{
	struct sys_sample sys;
	char *text;

	memset(&sys, 0, sizeof(sys));
	sys.flags = SYS_HAVE_RUNQ;
	text = fixture_read("linux/psi_cpu_host", NULL);
	is_int(decode_psi_str(text, &sys), 0, "psi host: decodes");
	free(text);
	is_int(sys.flags, SYS_HAVE_RUNQ | SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL,
	       "psi host: some and full, run queue flag kept");
	is_u64(sys.psi_some_us, 9128762, "psi host: some total");
	is_u64(sys.psi_full_us, 0, "psi host: full total");

	text = fixture_read("linux/psi_cpu_some_only", NULL);
	is_int(decode_psi_str(text, &sys), 0, "psi before 5.13: decodes");
	free(text);
	is_int(sys.flags, SYS_HAVE_RUNQ | SYS_HAVE_PSI_SOME, "psi before 5.13: no full flag");
	is_u64(sys.psi_some_us, 120442911, "psi before 5.13: some total");
	is_u64(sys.psi_full_us, 0, "psi before 5.13: full total cleared");

	is_int(decode_psi_str("some avg10=1.00 avg60=0.00 avg300=0.00\n", &sys), -1,
	       "psi: no total refused");
	is_int(sys.flags & (SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL), 0,
	       "psi: a refused read leaves no PSI flag");
	is_int(decode_psi_str("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n", &sys), -1,
	       "psi: full without some refused");
	is_int(decode_psi_str("some avg10=0.00 avg60=0.00 avg300=0.00 total=12", &sys), -1,
	       "psi: truncated total refused");
	is_int(decode_psi_str("some avg10=0.00 avg60=0.00 avg300=0.00 total=-4\n", &sys), -1,
	       "psi: negative total refused");
	is_int(decode_psi_str("some avg10=x avg60=0.00 avg300=0.00 total=4\n", &sys), -1,
	       "psi: non-numeric average refused");
	is_int(decode_psi_str("", &sys), -1, "psi: empty refused");
}

/* --- cpuinfo ---------------------------------------------------------------- */

static int
model_of(const char *text, size_t len, char *out, size_t outlen)
{
	char *p = exact_copy(text, len);
	int r = cpuinfo_model(p, len, out, outlen);

	free(p);
	return r;
}

static void
is_model(const char *text, const char *want, const char *name)
{
	char out[256];

	strcpy(out, "unchanged");
	if (is_int(model_of(text, strlen(text), out, sizeof(out)), 0, name))
		is_str(out, want, "  model");
	else
		diag("  errno %d", errno);
}

static void
is_model_fixture(const char *fixture, const char *want, const char *name)
{
	char *text = fixture_read(fixture, NULL);

	is_model(text, want, name);
	free(text);
}

static void
test_cpuinfo(void)
{
	char out[16];

	is_model_fixture("linux/cpuinfo_x86", "Intel(R) Xeon(R) Processor", "cpuinfo: x86 here");
	is_model_fixture("linux/cpuinfo_arm64_rpi4", "BCM2835", "cpuinfo: Raspberry Pi arm64");
	is_model_fixture("linux/cpuinfo_arm64_server", "CPU implementer 0x41 part 0xd0c",
			 "cpuinfo: arm64 server");
	is_model("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu MHz\t\t: 2700.000\n"
		 "model name\t: Intel(R) Xeon(R) CPU           E5-2680 0 @ 2.70GHz  \n",
		 "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz",
		 "cpuinfo: padding folded, cpu MHz ignored");
	is_model("processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\nBogoMIPS\t: 38.40\n\n"
		 "Hardware\t: BCM2835\nRevision\t: a32082\n",
		 "ARMv7 Processor rev 4 (v7l)", "cpuinfo: 32-bit Pi, model name before Hardware");
	is_model("processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n"
		 "clock\t\t: 2166.000000MHz\nrevision\t: 2.2 (pvr 004e 1202)\n",
		 "POWER9 (raw), altivec supported", "cpuinfo: POWER");
	is_model("system type\t\t: MediaTek MT7621 ver:1 eco:3\nprocessor\t\t: 0\n"
		 "cpu model\t\t: MIPS 1004Kc V2.15\nBogoMIPS\t\t: 586.13\n",
		 "MIPS 1004Kc V2.15", "cpuinfo: MIPS");
	is_model("processor\t: 0\nhart\t\t: 1\nisa\t\t: rv64imafdc_zicntr\nmmu\t\t: sv39\n"
		 "uarch\t\t: sifive,u74-mc\n",
		 "sifive,u74-mc", "cpuinfo: RISC-V");
	is_model("Processor\t: ARMv7 Processor rev 10 (v7l)\nprocessor\t: 0\nBogoMIPS\t: 790.52\n",
		 "ARMv7 Processor rev 10 (v7l)", "cpuinfo: old ARM Processor line");
	is_model("Processor\t: old\nmodel name\t: new\n", "new", "cpuinfo: preference, not order");
	is_model("model name\t:\nHardware\t: Board X\n", "Board X", "cpuinfo: empty value skipped");
	is_model("model name\t: A\x1b[31mB\n", "A?[31mB", "cpuinfo: escape byte made harmless");
	errno = 0;
	is_int(model_of(LIT("model name\t: Intel Xe"), out, sizeof(out)), -1,
	       "cpuinfo: unterminated line not trusted");
	is_int(errno, ENOENT, "  errno ENOENT");
	is_str(out, "", "  out emptied");
	is_int(model_of(LIT(""), out, sizeof(out)), -1, "cpuinfo: empty");
	is_int(model_of(LIT("model name\t: 0123456789abcdefXYZ\n"), out, sizeof(out)), 0,
	       "cpuinfo: long model");
	is_str(out, "0123456789abcde", "cpuinfo: cut to the buffer");
	is_int(model_of(LIT("model name : x\n"), out, 0), -1, "cpuinfo: zero-size buffer");
}

/* --- per-thread files ------------------------------------------------------- */

static int
status_of(const char *text, size_t len, struct task_status *st)
{
	char *p = exact_copy(text, len);
	int r = task_status_decode(p, len, st);

	free(p);
	return r;
}

static int
stat_of(const char *text, size_t len, struct task_stat *st)
{
	char *p = exact_copy(text, len);
	int r = task_stat_decode(p, len, st);

	free(p);
	return r;
}

static int
sched_of(const char *text, struct task_schedstat *st)
{
	size_t len = strlen(text);
	char *p = exact_copy(text, len);
	int r = task_schedstat_decode(p, len, st);

	free(p);
	return r;
}

static void
test_task_status(void)
{
	struct task_status st;
	size_t len;
	char *text = fixture_read("linux/task_status", &len);

	is_int(status_of(text, len, &st), 0, "status: decodes");
	is_u64(st.vol_csw, 237, "status: voluntary");
	is_u64(st.invol_csw, 700, "status: nonvoluntary");
	errno = 0;
	is_int(status_of(text, len - 2, &st), -1, "status: cut in the last number");
	is_int(errno, EINVAL, "  errno EINVAL");
	free(text);
	errno = 0;
	is_int(status_of(LIT("Name:\tinit\nState:\tS (sleeping)\n"), &st), -1,
	       "status: old kernel without switch counts");
	is_int(errno, ENOENT, "  errno ENOENT: not provided, not garbage");
	errno = 0;
	is_int(status_of(LIT("Name:\tx\nvoluntary_ctxt_switches:\t12a\nnonvoluntary_ctxt_switches:"
			     "\t1\n"),
			 &st),
	       -1, "status: letters in a count");
	is_int(errno, EINVAL, "  errno EINVAL");
	errno = 0;
	is_int(status_of(LIT("Name:\tx\nvoluntary_ctxt_switches:\t5\n"), &st), -1,
	       "status: only one of the two counts");
	is_int(errno, ENOENT, "  errno ENOENT");
	errno = 0;
	is_int(status_of(LIT("State:\tS\n"), &st), -1, "status: not starting with Name");
	is_int(errno, EINVAL, "  errno EINVAL: garbage, not an old kernel");
	is_int(status_of(LIT(""), &st), -1, "status: empty");
}

static void
test_task_stat(void)
{
	static const char spaced[] = "4242 (a) (b c) x) R 1 4242 4242 0 -1 4194560 10 0 0 0 "
				     "12345 678 0 0 20 0 1 0 100 0 0\n";
	static const char newline[] = "7 (new\nline)) S 1 1 1 0 -1 0 0 0 0 0 9 8 0 0\n";
	struct task_stat st;
	size_t len;
	char *text = fixture_read("linux/task_stat_comm", &len);

	is_int(stat_of(text, len, &st), 0, "stat: recorded thread \"wrk) (2 x\"");
	is_u64(st.utime_ticks, 122, "stat: utime");
	is_u64(st.stime_ticks, 0, "stat: stime");
	is_int(st.state, 'R', "stat: state after a comm with ') ('");
	is_u64(st.ppid, 10033, "stat: parent");
	is_u64(st.pgid, 10025, "stat: process group");
	free(text);
	text = fixture_read("linux/task_stat_main", &len);
	is_int(stat_of(text, len, &st), 0, "stat: recorded thread \"my (prog) x\"");
	is_u64(st.utime_ticks, 0, "stat: utime of the idle main thread");
	free(text);
	is_int(stat_of(LIT(spaced), &st), 0, "stat: comm \"a) (b c) x\"");
	is_u64(st.utime_ticks, 12345, "stat: utime after a comm with ')'");
	is_u64(st.stime_ticks, 678, "stat: stime after a comm with ')'");
	is_u64(st.ppid, 1, "stat: parent after a comm with ')'");
	is_u64(st.pgid, 4242, "stat: group after a comm with ')'");
	is_int(stat_of(LIT(newline), &st), 0, "stat: comm with a newline");
	is_u64(st.utime_ticks, 9, "stat: utime");
	is_u64(st.stime_ticks, 8, "stat: stime");
	is_int(stat_of(LIT("1 (x) S 1 1 1 0 -1 0 0 0 0 0 5\n"), &st), -1, "stat: no stime");
	is_int(stat_of(LIT("1 (x S 1 1 1 0 -1 0 0 0 0 0 5 6\n"), &st), -1, "stat: no ')'");
	is_int(stat_of(LIT("1 x) S 1 1 1 0 -1 0 0 0 0 0 5 6\n"), &st), -1, "stat: no '('");
	is_int(stat_of(LIT("1 (x) S 1 1 1 0 -1 0 0 0 0 0 -5 6\n"), &st), -1,
	       "stat: negative utime");
	is_int(stat_of(LIT("1 (x) S 1 1 1 0 -1 0 0 0 0 0 5 6"), &st), -1, "stat: no newline");
	is_int(stat_of(LIT("1 (x) S 1 1 1 0 -1 0 0 0 0 0 5  6\n"), &st), -1, "stat: empty field");
	is_int(stat_of(LIT("1 (x) S 1  1 0 -1 0 0 0 0 0 5 6\n"), &st), -1,
	       "stat: empty field before utime");
	is_int(stat_of(LIT("1 (x) SS 1 1 1 0 -1 0 0 0 0 0 5 6\n"), &st), -1,
	       "stat: a state of two letters");
	is_int(stat_of(LIT("1 (x) S -1 1 1 0 -1 0 0 0 0 0 5 6\n"), &st), -1,
	       "stat: negative parent");
	is_int(stat_of(LIT("1 (x)  1 1 1 0 -1 0 0 0 0 0 5 6\n"), &st), -1, "stat: no state");
	is_int(stat_of(LIT("1 (x) Z\n"), &st), -1, "stat: a zombie cut after its state");
	is_int(stat_of(LIT(""), &st), -1, "stat: empty");
}

static void
test_task_schedstat(void)
{
	struct task_schedstat st;
	char *text = fixture_read("linux/task_schedstat", NULL);

	is_int(sched_of(text, &st), 0, "schedstat: decodes");
	is_u64(st.cpu_ns, 1227860162, "schedstat: cpu ns");
	is_u64(st.run_delay_ns, 48894473, "schedstat: run delay ns");
	is_u64(st.timeslices, 937, "schedstat: timeslices");
	free(text);
	is_int(sched_of("18446744073709551615 0 0\n", &st), 0, "schedstat: UINT64_MAX");
	is_u64(st.cpu_ns, UINT64_MAX, "schedstat: UINT64_MAX kept");
	errno = 0;
	is_int(sched_of("18446744073709551616 0 0\n", &st), -1, "schedstat: overflow");
	is_int(errno, ERANGE, "  errno ERANGE");
	is_int(sched_of("1 2\n", &st), -1, "schedstat: two fields");
	is_int(sched_of("1 2 3 4\n", &st), -1, "schedstat: four fields");
	is_int(sched_of("1 2 3", &st), -1, "schedstat: cut short");
	is_int(sched_of("a b c\n", &st), -1, "schedstat: letters");
	is_int(sched_of("", &st), -1, "schedstat: empty");
}

int
main(void)
{
	test_host_pair();
	test_host_truncated();
	test_offline_pair();
	test_offline_races();
	test_order_and_sparse();
	test_1024();
	test_old_kernels();
	test_procstat_malformed();
	test_garbage();
	test_cpulist();
	test_psi();
	test_cpuinfo();
	test_task_status();
	test_task_stat();
	test_task_schedstat();
	return done_testing();
}

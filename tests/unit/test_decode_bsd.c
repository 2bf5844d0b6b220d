/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BSD and libstatgrab decoders over fixtures (tests/fixtures/freebsd,
 * tests/fixtures/dragonfly), made-up structs, and one live libstatgrab read.
 * The BSD fixtures are synthetic, not recorded: there is no FreeBSD or
 * DragonFly machine here.  They are written to each kernel's documented
 * layout and magnitudes (each file's header says how).
 * Sample pairs go through sample_delta_compute, so the percentages a view
 * would print are checked too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <statgrab.h>

#include "scaletop/delta.h"
#include "../../src/platform/decode_bsd.h"
#include "../tap.h"

#define MAX_ROWS 64
#define NSTATE 5 /* columns in the cp_times and cputime fixtures */

/* 1.575 s: 200 ticks at FreeBSD's stathz of 127, the fixtures' interval. */
#define FREEBSD_T0 5000000000000ull
#define FREEBSD_T1 (FREEBSD_T0 + 1575000000ull)
#define DFLY_T0 7000000000000ull
#define DFLY_T1 (DFLY_T0 + 1000000000ull)

/* The numbers of every non-comment line: rows of NSTATE unsigned values. */
static int
fixture_rows(const char *rel, uint64_t rows[][NSTATE])
{
	char *text = fixture_read(rel, NULL), *line, *save = NULL, *p, *end;
	int n = 0, i;

	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (n == MAX_ROWS) {
			printf("Bail out! %s: more than %d rows\n", rel, MAX_ROWS);
			exit(1);
		}
		for (p = line, i = 0; i < NSTATE; i++, p = end) {
			errno = 0;
			rows[n][i] = strtoull(p, &end, 10);
			if (end == p || errno != 0) {
				printf("Bail out! %s: bad row %d\n", rel, n + 1);
				exit(1);
			}
		}
		n++;
	}
	free(text);
	return n;
}

/* A cp_times fixture as the kernel's buffer: native longs, slot after slot. */
static long *
cptimes_buffer(const char *rel, int extra_slots, size_t *len)
{
	uint64_t rows[MAX_ROWS][NSTATE];
	int n = fixture_rows(rel, rows), i, j;
	long *buf = calloc((size_t)(n + extra_slots) * NSTATE, sizeof(long));

	if (buf == NULL)
		abort();
	for (i = 0; i < n; i++)
		for (j = 0; j < NSTATE; j++)
			buf[i * NSTATE + j] = (long)rows[i][j];
	*len = (size_t)(n + extra_slots) * NSTATE * sizeof(long);
	return buf;
}

/* A cputime fixture as kern.cputime's bytes, the fields it does not list full of noise. */
static struct dfly_cputime *
cputime_buffer(const char *rel, size_t *len)
{
	uint64_t rows[MAX_ROWS][NSTATE];
	int n = fixture_rows(rel, rows), i;
	struct dfly_cputime *buf = calloc((size_t)n, sizeof(*buf));

	if (buf == NULL)
		abort();
	for (i = 0; i < n; i++) {
		buf[i].cp_user = rows[i][0];
		buf[i].cp_nice = rows[i][1];
		buf[i].cp_sys = rows[i][2];
		buf[i].cp_intr = rows[i][3];
		buf[i].cp_idle = rows[i][4];
		buf[i].cp_unused01 = 0xdeadbeefu;
		buf[i].cp_unused02 = UINT64_MAX;
		buf[i].cp_sample_pc = 0xffffffff80a1b2c3u;
		buf[i].cp_sample_sp = 0xfffffe00deadf000u;
		snprintf(buf[i].cp_msg, sizeof(buf[i].cp_msg), "vm_token");
	}
	*len = (size_t)n * sizeof(*buf);
	return buf;
}

/* A vmstats fixture folded into vm: "name bytes value" per line, in enum order. */
static void
vmstats_load(const char *rel, struct bsd_vmstats *vm)
{
	char *text = fixture_read(rel, NULL), *line, *save = NULL;
	char name[64];
	unsigned long long value;
	unsigned bytes;
	uint64_t v64;
	uint32_t v32;
	int i;

	bsd_vmstats_begin(vm);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %u %llu", name, &bytes, &value) != 3) {
			printf("Bail out! %s: bad line \"%s\"\n", rel, line);
			exit(1);
		}
		for (i = 0; i < BSD_V_NSTATS && strcmp(name, bsd_vmstat_names[i]) != 0; i++)
			;
		v64 = value;
		v32 = (uint32_t)value;
		if (i == BSD_V_NSTATS ||
		    bsd_vmstats_fold(vm, i, bytes == 4 ? (void *)&v32 : (void *)&v64, bytes) != 0) {
			printf("Bail out! %s: cannot fold \"%s\"\n", rel, line);
			exit(1);
		}
	}
	free(text);
}

static void
is_ticks(const struct raw_sample *s, int id, const uint64_t want[CPU_NSTATES], const char *what)
{
	const struct cpu_ticks *c = raw_sample_find(s, id);
	char name[128];
	int i;

	snprintf(name, sizeof(name), "%s: CPU %d present", what, id);
	if (!ok(c != NULL, "%s", name))
		return;
	for (i = 0; i < CPU_NSTATES; i++) {
		snprintf(name, sizeof(name), "%s: CPU %d %s", what, id, cpu_state_names[i]);
		is_u64(c->tick[i], want[i], name);
	}
}

static const struct cpu_usage *
usage_find(const struct sample_delta *d, int id)
{
	int i;

	for (i = 0; i < d->ncpu; i++)
		if (d->cpu[i].id == id)
			return &d->cpu[i];
	return NULL;
}

static void
is_pct(const struct cpu_usage *u, const double want[CPU_NSTATES], double busy, const char *what)
{
	char name[128];
	int i;

	if (!ok(u != NULL && (u->flags & CPU_USAGE_NO_DATA) == 0, "%s: has figures", what))
		return;
	for (i = 0; i < CPU_NSTATES; i++) {
		snprintf(name, sizeof(name), "%s %s%%", what, cpu_state_names[i]);
		is_double(u->pct[i], want[i], 1e-9, name);
	}
	snprintf(name, sizeof(name), "%s busy%%", what);
	is_double(u->busy, busy, 1e-9, name);
}

/* --- FreeBSD ------------------------------------------------------------ */

static void
test_cptimes_pair(void)
{
	/* From the fixtures, in our state order: usr nice sys irq soft iowait steal idle. */
	static const uint64_t a0[CPU_NSTATES] = { 356408379, 8800336, 268405983, 39601489,
						  0,         0,       0,         3726875287 };
	static const uint64_t a7[CPU_NSTATES] = { 52801744, 2200687, 39601420, 3961052,
						  0,        0,       0,        4301526729 };
	static const uint64_t b8[CPU_NSTATES] = { 92402540, 193604699, 48401427, 440059,
						  0,        0,         0,        4065243768 };
	static const double p0[CPU_NSTATES] = { 48, 0, 44, 3, 0, 0, 0, 5 };
	static const double p3[CPU_NSTATES] = { 47, 1, 48.5, 0, 0, 0, 0, 3.5 };
	static const double p7[CPU_NSTATES] = { 0, 0, 1.5, 0.5, 0, 0, 0, 98 };
	static const double p8[CPU_NSTATES] = { 6, 20, 3, 0, 0, 0, 0, 71 };
	static const double pall[CPU_NSTATES] = { 37.6875, 2.625, 34.9375, 0.625, 0, 0, 0, 24.125 };
	static const int ids[] = { 0, 1, 2, 3, 4, 6, 7, 8 };
	struct raw_sample a, b;
	struct sample_delta d;
	long *ba, *bb;
	size_t la, lb;
	int i, idok = 1;

	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	ba = cptimes_buffer("freebsd/cp_times_a", 0, &la);
	bb = cptimes_buffer("freebsd/cp_times_b", 0, &lb);
	is_int(cptimes_decode(ba, la, &a), 0, "cp_times a decodes");
	is_int(cptimes_decode(bb, lb, &b), 0, "cp_times b decodes");
	is_int(a.ncpu, 8, "cp_times a: 9 slots, 8 CPUs (slot 5 is a hole)");
	ok(raw_sample_find(&a, 5) == NULL, "cp_times a: the all-zero slot 5 is not a CPU");
	for (i = 0; i < a.ncpu && i < 8; i++)
		idok &= a.cpu[i].id == ids[i] && a.cpu[i].flags == 0;
	ok(idok && a.ncpu == 8, "cp_times a: ids are slot numbers 0-4,6-8, sorted, no flags");
	is_ticks(&a, 0, a0, "cp_times a");
	is_ticks(&a, 7, a7, "cp_times a (idle above 2^32)");
	is_ticks(&b, 8, b8, "cp_times b");

	a.mono_ns = FREEBSD_T0;
	b.mono_ns = FREEBSD_T1;
	if (is_int(sample_delta_compute(&d, &a, &b), 0, "cp_times pair: delta computes")) {
		is_double(d.seconds, 1.575, 1e-12, "cp_times pair: 1.575 s measured");
		is_int(d.ncpu, 8, "cp_times pair: 8 CPUs in the union");
		is_int(d.ncpu_with_data, 8, "cp_times pair: 8 CPUs with figures");
		is_pct(usage_find(&d, 0), p0, 95, "cp_times pair CPU 0");
		is_pct(usage_find(&d, 3), p3, 96.5, "cp_times pair CPU 3");
		is_pct(usage_find(&d, 7), p7, 2, "cp_times pair CPU 7");
		is_pct(usage_find(&d, 8), p8, 29, "cp_times pair CPU 8");
		is_pct(&d.all, pall, 75.875, "cp_times pair all");
	}
	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
	free(ba);
	free(bb);
}

/*
 * The kvm fallback fills every slot up to maxcpus, and a sample is reused
 * across reads: trailing holes must not become CPUs, and ncpu must shrink.
 */
static void
test_cptimes_padded_reuse(void)
{
	struct raw_sample s;
	size_t len, one_len;
	long *buf = cptimes_buffer("freebsd/cp_times_b", 7, &len);
	long one[2 * NSTATE] = { 0, 0, 0, 0, 0, 10, 0, 20, 1, 300 };

	raw_sample_init(&s);
	is_int(cptimes_decode(buf, len, &s), 0, "cp_times padded to 16 slots decodes");
	is_int(s.ncpu, 8, "cp_times padded: trailing zero slots are not CPUs");
	is_int(s.cpu[s.ncpu - 1].id, 8, "cp_times padded: highest id is 8");
	one_len = sizeof(one);
	is_int(cptimes_decode(one, one_len, &s), 0, "cp_times reuse: a 2-slot answer decodes");
	is_int(s.ncpu, 1, "cp_times reuse: ncpu shrinks to the one CPU present");
	is_int(s.cpu[0].id, 1, "cp_times reuse: CPU 1 after a hole at 0");
	is_u64(s.cpu[0].tick[CPU_IRQ], 1, "cp_times reuse: CP_INTR lands in irq");
	is_u64(s.cpu[0].tick[CPU_SOFTIRQ], 0, "cp_times reuse: softirq stays 0");
	is_u64(s.cpu[0].tick[CPU_IDLE], 300, "cp_times reuse: idle");
	raw_sample_free(&s);
	free(buf);
}

static void
test_cptimes_malformed(void)
{
	long buf[3 * NSTATE] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	long zero[2 * NSTATE] = { 0 };
	size_t huge = (size_t)(BSD_CPU_SLOTS_MAX + 1) * NSTATE * sizeof(long);
	void *big = calloc(1, huge);
	struct raw_sample s;

	raw_sample_init(&s);
	errno = 0;
	ok(cptimes_decode(buf, 0, &s) == -1 && errno == EINVAL, "cp_times: empty answer is EINVAL");
	errno = 0;
	ok(cptimes_decode(NULL, sizeof(buf), &s) == -1 && errno == EINVAL,
	   "cp_times: NULL buffer is EINVAL");
	errno = 0;
	ok(cptimes_decode(buf, sizeof(long) * NSTATE + 3, &s) == -1 && errno == EINVAL,
	   "cp_times: a length that is not whole longs is EINVAL");
	errno = 0;
	ok(cptimes_decode(buf, sizeof(long) * 7, &s) == -1 && errno == EINVAL,
	   "cp_times: 7 longs (not a multiple of CPUSTATES) is EINVAL");
	errno = 0;
	ok(cptimes_decode(buf, sizeof(long) * 4, &s) == -1 && errno == EINVAL,
	   "cp_times: fewer longs than one CPU is EINVAL");
	errno = 0;
	ok(cptimes_decode(zero, sizeof(zero), &s) == -1 && errno == EINVAL,
	   "cp_times: no CPU with ticks is EINVAL");
	errno = 0;
	ok(big != NULL && cptimes_decode(big, huge, &s) == -1 && errno == ERANGE,
	   "cp_times: more than %d slots is ERANGE", BSD_CPU_SLOTS_MAX);
	is_int(cptimes_decode(buf, sizeof(buf), &s), 0, "cp_times: decodes after failures");
	is_int(s.ncpu, 3, "cp_times: 3 CPUs after failures");
	raw_sample_free(&s);
	free(big);
}

static void
test_vmstats_freebsd(void)
{
	struct bsd_vmstats vm;
	struct raw_sample a, b;
	struct sample_delta d;
	long *ba, *bb;
	size_t la, lb;
	const unsigned all = (1u << SYS_CTXSW) | (1u << SYS_INTR) | (1u << SYS_SOFTIRQ) |
			     (1u << SYS_SYSCALL) | (1u << SYS_FORK);

	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	bsd_vmstats_init(&vm);
	vmstats_load("freebsd/vmstats_a", &vm);
	bsd_vmstats_to_sys(&vm, &a.sys);
	is_u64(a.sys.count[SYS_CTXSW], 91824763521ull, "vm.stats a: v_swtch -> ctxsw");
	is_u64(a.sys.count[SYS_INTR], 12873456112ull, "vm.stats a: v_intr -> intr");
	is_u64(a.sys.count[SYS_SOFTIRQ], 3418876520ull, "vm.stats a: v_soft -> softirq");
	is_u64(a.sys.count[SYS_SYSCALL], 412987665432ull, "vm.stats a: v_syscall -> syscall");
	is_u64(a.sys.count[SYS_FORK], 18876523ull + 2213876ull, "vm.stats a: forks+vforks+rforks");
	is_int(a.sys.have, all, "vm.stats a: all five counters present");
	vmstats_load("freebsd/vmstats_b", &vm);
	bsd_vmstats_to_sys(&vm, &b.sys);

	ba = cptimes_buffer("freebsd/cp_times_a", 0, &la);
	bb = cptimes_buffer("freebsd/cp_times_b", 0, &lb);
	cptimes_decode(ba, la, &a);
	cptimes_decode(bb, lb, &b);
	a.mono_ns = FREEBSD_T0;
	b.mono_ns = FREEBSD_T1;
	if (is_int(sample_delta_compute(&d, &a, &b), 0, "vm.stats pair: delta computes")) {
		is_int(d.have_rate, all, "vm.stats pair: every counter has a rate");
		is_double(d.rate[SYS_CTXSW], 1400000, 1e-6, "vm.stats pair: 1.4M switches/s");
		is_double(d.rate[SYS_INTR], 20000, 1e-6, "vm.stats pair: 20000 interrupts/s");
		is_double(d.rate[SYS_SOFTIRQ], 10000, 1e-6, "vm.stats pair: 10000 soft/s");
		is_double(d.rate[SYS_SYSCALL], 3900000, 1e-6, "vm.stats pair: 3.9M syscalls/s");
		is_double(d.rate[SYS_FORK], 3 / 1.575, 1e-9, "vm.stats pair: 3 forks in 1.575 s");
	}
	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
	free(ba);
	free(bb);
}

/* DragonFly answers 4 bytes; the wrap of v_swtch must not look like a reset. */
static void
test_vmstats_wrap(void)
{
	struct bsd_vmstats vm, fresh;
	struct sys_sample a, b, c;
	struct raw_sample ra, rb;
	struct sample_delta d;
	struct dfly_cputime *ba, *bb;
	size_t la, lb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	bsd_vmstats_init(&vm);
	vmstats_load("dragonfly/vmstats_a", &vm);
	bsd_vmstats_to_sys(&vm, &a);
	vmstats_load("dragonfly/vmstats_b", &vm);
	bsd_vmstats_to_sys(&vm, &b);
	is_u64(a.count[SYS_CTXSW], 4293967296ull, "4-byte v_swtch a taken as is");
	is_u64(b.count[SYS_CTXSW], 4293967296ull + 2500000ull,
	       "4-byte v_swtch b widened across the 2^32 wrap");
	is_u64(b.count[SYS_INTR] - a.count[SYS_INTR], 250000, "4-byte v_intr moves by 250000");
	is_u64(b.count[SYS_FORK], 500002ull + 1000ull + 12ull, "4-byte forks summed");

	/* Through the delta code, with the kern.cputime pair taken in the same rounds. */
	raw_sample_init(&ra);
	raw_sample_init(&rb);
	sample_delta_init(&d);
	ba = cputime_buffer("dragonfly/cputime_a", &la);
	bb = cputime_buffer("dragonfly/cputime_b", &lb);
	cputime_decode(ba, la, &ra);
	cputime_decode(bb, lb, &rb);
	ra.sys = a;
	rb.sys = b;
	ra.mono_ns = DFLY_T0;
	rb.mono_ns = DFLY_T1;
	if (is_int(sample_delta_compute(&d, &ra, &rb), 0, "4-byte pair: delta computes")) {
		ok(d.have_rate & (1u << SYS_CTXSW), "4-byte pair: the wrap leaves a switch rate");
		is_double(d.rate[SYS_CTXSW], 2500000, 1e-6, "4-byte pair: 2.5M switches/s");
		is_double(d.rate[SYS_SYSCALL], 4000000, 1e-6, "4-byte pair: 4M syscalls/s");
		is_double(d.rate[SYS_FORK], 2, 1e-9, "4-byte pair: 2 forks/s");
	}
	sample_delta_free(&d);
	raw_sample_free(&ra);
	raw_sample_free(&rb);
	free(ba);
	free(bb);

	/* Without the earlier read there is nothing to widen against. */
	bsd_vmstats_init(&fresh);
	vmstats_load("dragonfly/vmstats_b", &fresh);
	bsd_vmstats_to_sys(&fresh, &c);
	is_u64(c.count[SYS_CTXSW], 1500000, "4-byte v_swtch read first is the raw value");
}

static void
test_vmstats_partial(void)
{
	struct bsd_vmstats vm;
	struct sys_sample sys;
	uint64_t v = 42;
	uint16_t v16 = 7;
	unsigned char v16b[16] = { 0 };

	bsd_vmstats_init(&vm);
	bsd_vmstats_begin(&vm);
	bsd_vmstats_fold(&vm, BSD_V_SWTCH, &v, sizeof(v));
	bsd_vmstats_fold(&vm, BSD_V_VFORKS, &v, sizeof(v));
	memset(&sys, 0, sizeof(sys));
	bsd_vmstats_to_sys(&vm, &sys);
	is_int(sys.have, 1u << SYS_CTXSW, "vm.stats: only the counters read are present");
	is_u64(sys.count[SYS_FORK], 0, "vm.stats: no fork count without v_forks");

	bsd_vmstats_begin(&vm);
	memset(&sys, 0, sizeof(sys));
	bsd_vmstats_to_sys(&vm, &sys);
	is_int(sys.have, 0, "vm.stats: a new round forgets last round's counters");

	errno = 0;
	ok(bsd_vmstats_fold(&vm, BSD_V_INTR, &v16, sizeof(v16)) == -1 && errno == EINVAL,
	   "vm.stats: a 2-byte answer is EINVAL");
	errno = 0;
	ok(bsd_vmstats_fold(&vm, BSD_V_INTR, v16b, sizeof(v16b)) == -1 && errno == EINVAL,
	   "vm.stats: a 16-byte answer is EINVAL");
	errno = 0;
	ok(bsd_vmstats_fold(&vm, BSD_V_INTR, &v, 0) == -1 && errno == EINVAL,
	   "vm.stats: an empty answer is EINVAL");
	errno = 0;
	ok(bsd_vmstats_fold(&vm, -1, &v, sizeof(v)) == -1 && errno == EINVAL,
	   "vm.stats: index -1 is EINVAL");
	errno = 0;
	ok(bsd_vmstats_fold(&vm, BSD_V_NSTATS, &v, sizeof(v)) == -1 && errno == EINVAL,
	   "vm.stats: index past the end is EINVAL");
	errno = 0;
	ok(bsd_vmstats_fold(&vm, BSD_V_INTR, NULL, sizeof(v)) == -1 && errno == EINVAL,
	   "vm.stats: NULL answer is EINVAL");
	is_int(vm.have, 0, "vm.stats: failed folds mark nothing present");
}

static void
test_task(void)
{
	struct bsd_thread_usage t1 = { bsd_timeval_us(3, 250000), bsd_timeval_us(0, 999999), 120,
				       7 };
	struct bsd_thread_usage t2 = { bsd_timeval_us(1, 5), -4, -1, 3 };
	struct task_counters tc;

	is_int(bsd_timeval_us(3, 250000), 3250000, "timeval 3.25 s -> us");
	is_int(bsd_timeval_us(-1, -5), 0, "timeval: negative parts count as 0");
	is_int(bsd_timeval_us(INT64_MAX / 1000, 0), INT64_MAX, "timeval: overflow saturates");
	memset(&tc, 0, sizeof(tc));
	bsd_task_add(&tc, &t1);
	bsd_task_add(&tc, &t2);
	is_int(tc.nthreads, 2, "task: two threads summed");
	is_u64(tc.user_ns, 4250005000ull, "task: user time in ns");
	is_u64(tc.sys_ns, 999999000ull, "task: sys time in ns, negative thread counts 0");
	is_u64(tc.vol_csw, 120, "task: voluntary switches, negative counts 0");
	is_u64(tc.invol_csw, 10, "task: involuntary switches");
	is_int(tc.have, TASK_HAVE_CSW | TASK_HAVE_CPU, "task: no run delay on the BSDs");
}

/* --- DragonFly ---------------------------------------------------------- */

static void
test_cputime_pair(void)
{
	static const uint64_t a0[CPU_NSTATES] = {
		217727659385, 583705, 93312733257, 4147332224, 0, 0, 0, 721609836861
	};
	static const uint64_t b3[CPU_NSTATES] = { 31104087579, 51840684048, 20736608630,
						  3111070400,  0,           0,
						  0,           930007033301 };
	static const double p0[CPU_NSTATES] = { 61.2, 0, 30.1, 1.2, 0, 0, 0, 7.5 };
	static const double p1[CPU_NSTATES] = { 59.85, 0, 32.25, 0.1, 0, 0, 0, 7.8 };
	static const double p3[CPU_NSTATES] = { 2.5, 15, 4, 0.5, 0, 0, 0, 78 };
	static const double pall[CPU_NSTATES] = { 46.8875, 3.75, 23.7625, 0.45, 0, 0, 0, 25.15 };
	struct raw_sample a, b;
	struct sample_delta d;
	struct dfly_cputime *ba, *bb;
	size_t la, lb;
	int i, idok = 1;

	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	ba = cputime_buffer("dragonfly/cputime_a", &la);
	bb = cputime_buffer("dragonfly/cputime_b", &lb);
	is_int(cputime_decode(ba, la, &a), 0, "kern.cputime a decodes");
	is_int(cputime_decode(bb, lb, &b), 0, "kern.cputime b decodes");
	is_int(a.ncpu, 4, "kern.cputime a: 4 CPUs");
	for (i = 0; i < a.ncpu; i++)
		idok &= a.cpu[i].id == i && a.cpu[i].flags == 0;
	ok(idok, "kern.cputime a: ids 0-3 in order, none offline");
	is_ticks(&a, 0, a0, "kern.cputime a");
	is_ticks(&b, 3, b3, "kern.cputime b");

	a.mono_ns = DFLY_T0;
	b.mono_ns = DFLY_T1;
	if (is_int(sample_delta_compute(&d, &a, &b), 0, "kern.cputime pair: delta computes")) {
		is_int(d.ncpu_with_data, 4, "kern.cputime pair: 4 CPUs with figures");
		is_pct(usage_find(&d, 0), p0, 92.5, "kern.cputime pair CPU 0");
		is_pct(usage_find(&d, 1), p1, 92.2, "kern.cputime pair CPU 1");
		is_pct(usage_find(&d, 3), p3, 22, "kern.cputime pair CPU 3");
		is_pct(&d.all, pall, 74.85, "kern.cputime pair all");
	}
	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
	free(ba);
	free(bb);
}

static void
test_cputime_offline_malformed(void)
{
	struct dfly_cputime e[3];
	struct raw_sample s;
	unsigned char bytes[sizeof(e) + 1];

	memset(e, 0, sizeof(e));
	e[0].cp_user = 10;
	e[0].cp_idle = 90;
	e[2].cp_sys = 5;
	e[1].cp_sample_pc = 0xffffffff80000000u; /* not a state: CPU 1 is still all zero */
	raw_sample_init(&s);
	is_int(cputime_decode(e, sizeof(e), &s), 0, "kern.cputime with an idle-less CPU decodes");
	is_int(s.ncpu, 3, "kern.cputime: every listed CPU is kept");
	ok(s.ncpu == 3 && (s.cpu[1].flags & CPU_RAW_OFFLINE) && s.cpu[1].id == 1,
	   "kern.cputime: the all-zero CPU 1 is flagged offline");
	ok(s.ncpu == 3 && s.cpu[0].flags == 0 && s.cpu[2].flags == 0,
	   "kern.cputime: CPUs with time are not flagged");
	is_u64(s.cpu[2].tick[CPU_SYS], 5, "kern.cputime: cp_sys -> sys");

	/* An unaligned buffer must decode the same. */
	memcpy(bytes + 1, e, sizeof(e));
	is_int(cputime_decode(bytes + 1, sizeof(e), &s), 0,
	       "kern.cputime: unaligned buffer decodes");
	is_u64(s.cpu[0].tick[CPU_IDLE], 90, "kern.cputime: unaligned idle");

	errno = 0;
	ok(cputime_decode(e, 0, &s) == -1 && errno == EINVAL, "kern.cputime: empty is EINVAL");
	errno = 0;
	ok(cputime_decode(NULL, sizeof(e), &s) == -1 && errno == EINVAL,
	   "kern.cputime: NULL is EINVAL");
	errno = 0;
	ok(cputime_decode(e, sizeof(e[0]) - 1, &s) == -1 && errno == EINVAL,
	   "kern.cputime: short of one entry is EINVAL");
	errno = 0;
	ok(cputime_decode(e, sizeof(e[0]) + 8, &s) == -1 && errno == EINVAL,
	   "kern.cputime: a partial second entry is EINVAL");
	raw_sample_free(&s);
}

/* --- libstatgrab -------------------------------------------------------- */

static void
test_statgrab_synthetic(void)
{
	sg_cpu_stats netbsd, lnx, solaris, zero;
	struct raw_sample s;

	/* NetBSD: total counts CP_INTR, which libstatgrab does not name. */
	memset(&netbsd, 0, sizeof(netbsd));
	netbsd.user = 1000;
	netbsd.nice = 10;
	netbsd.kernel = 300;
	netbsd.idle = 5000;
	netbsd.total = 6400;
	netbsd.context_switches = 123456;
	netbsd.interrupts = 7890;
	netbsd.syscalls = 999999;
	raw_sample_init(&s);
	is_int(statgrab_decode(&netbsd, &s), 0, "statgrab NetBSD-like decodes");
	is_int(s.ncpu, 1, "statgrab: one aggregate CPU");
	is_int(s.cpu[0].id, STATGRAB_CPU_ID, "statgrab: aggregate CPU id is 0");
	is_u64(s.cpu[0].tick[CPU_USER], 1000, "statgrab: user");
	is_u64(s.cpu[0].tick[CPU_NICE], 10, "statgrab: nice");
	is_u64(s.cpu[0].tick[CPU_SYS], 390, "statgrab: kernel plus the 90 unnamed ticks of total");
	is_u64(s.cpu[0].tick[CPU_IDLE], 5000, "statgrab: idle");
	is_u64(s.cpu[0].tick[CPU_IRQ], 0, "statgrab: no irq state");
	is_u64(s.sys.count[SYS_CTXSW], 123456, "statgrab: context switches");
	is_u64(s.sys.count[SYS_SYSCALL], 999999, "statgrab: syscalls");
	is_int(s.sys.have, (1u << SYS_CTXSW) | (1u << SYS_INTR) | (1u << SYS_SYSCALL),
	       "statgrab: soft interrupts left at 0 are absent");

	/* Linux: total leaves iowait out, so it is smaller than the named sum. */
	memset(&lnx, 0, sizeof(lnx));
	lnx.user = 500;
	lnx.kernel = 200;
	lnx.idle = 1000;
	lnx.iowait = 40;
	lnx.total = 1700;
	s.sys.have = ~0u;
	is_int(statgrab_decode(&lnx, &s), 0, "statgrab Linux-like decodes");
	is_u64(s.cpu[0].tick[CPU_SYS], 200, "statgrab: nothing unnamed when total < named sum");
	is_u64(s.cpu[0].tick[CPU_IOWAIT], 40, "statgrab: iowait");
	is_int(s.sys.have, 0, "statgrab: sys is reset on every decode");

	/* Solaris: swap wait is a kind of I/O wait. */
	memset(&solaris, 0, sizeof(solaris));
	solaris.user = 70;
	solaris.kernel = 20;
	solaris.idle = 3;
	solaris.iowait = 5;
	solaris.swap = 2;
	solaris.total = 100;
	is_int(statgrab_decode(&solaris, &s), 0, "statgrab Solaris-like decodes");
	is_u64(s.cpu[0].tick[CPU_IOWAIT], 7, "statgrab: iowait plus swap wait");

	memset(&zero, 0, sizeof(zero));
	zero.context_switches = 5;
	errno = 0;
	ok(statgrab_decode(&zero, &s) == -1 && errno == EINVAL,
	   "statgrab: all CPU totals 0 is EINVAL");
	errno = 0;
	ok(statgrab_decode(NULL, &s) == -1 && errno == EINVAL, "statgrab: NULL is EINVAL");
	raw_sample_free(&s);
}

static void
test_statgrab_pair(void)
{
	sg_cpu_stats x, y;
	struct raw_sample a, b;
	struct sample_delta d;
	static const double want[CPU_NSTATES] = { 50, 5, 20, 0, 0, 5, 0, 20 };

	memset(&x, 0, sizeof(x));
	x.user = 10000;
	x.nice = 500;
	x.kernel = 4000;
	x.idle = 80000;
	x.iowait = 700;
	x.total = 95200;
	x.context_switches = 1000000;
	y = x;
	y.user += 100;
	y.nice += 10;
	y.kernel += 30;
	y.total += 200; /* 190 in named states, 10 the OS does not name: they count as sys */
	y.idle += 40;
	y.iowait += 10;
	y.context_switches += 5000;
	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	statgrab_decode(&x, &a);
	statgrab_decode(&y, &b);
	a.mono_ns = 1000000000;
	b.mono_ns = 1500000000;
	if (is_int(sample_delta_compute(&d, &a, &b), 0, "statgrab pair: delta computes")) {
		is_int(d.ncpu, 1, "statgrab pair: one CPU row");
		is_pct(usage_find(&d, STATGRAB_CPU_ID), want, 75, "statgrab pair CPU 0");
		is_pct(&d.all, want, 75, "statgrab pair all");
		is_double(d.rate[SYS_CTXSW], 10000, 1e-9, "statgrab pair: 10000 switches/s");
	}
	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
}

/* The first "cpu " line of /proc/stat: user and idle, to cross-check libstatgrab. */
static int
procstat_cpu(uint64_t *user, uint64_t *idle)
{
	unsigned long long u, n, sy, id;
	FILE *f = fopen("/proc/stat", "r");
	int rc;

	if (f == NULL)
		return -1;
	rc = fscanf(f, "cpu %llu %llu %llu %llu", &u, &n, &sy, &id) == 4 ? 0 : -1;
	fclose(f);
	if (rc == 0) {
		*user = u;
		*idle = id;
	}
	return rc;
}

static void
test_statgrab_live(void)
{
	sg_cpu_stats *st;
	struct raw_sample s;
	uint64_t user, idle, want_user, want_idle;
	size_t n = 0;
	sg_error e;

	e = sg_init(1);
	if (e != SG_ERROR_NONE && e != SG_ERROR_INITIALISATION) {
		skip("sg_init failed", "statgrab live read");
		return;
	}
	st = sg_get_cpu_stats_r(&n);
	if (!ok(st != NULL && n == 1, "statgrab live: sg_get_cpu_stats_r answers one entry")) {
		sg_shutdown();
		return;
	}
	raw_sample_init(&s);
	is_int(statgrab_decode(st, &s), 0, "statgrab live: decodes");
	is_u64(s.cpu[0].tick[CPU_USER], st->user, "statgrab live: user is libstatgrab's");
	is_u64(s.cpu[0].tick[CPU_IDLE], st->idle, "statgrab live: idle is libstatgrab's");
	ok(s.cpu[0].tick[CPU_IDLE] > 0, "statgrab live: some idle time since boot");
	ok(st->context_switches == 0 || (s.sys.have & (1u << SYS_CTXSW)),
	   "statgrab live: context switches present when libstatgrab has them");
	want_user = s.cpu[0].tick[CPU_USER];
	want_idle = s.cpu[0].tick[CPU_IDLE];
	if (procstat_cpu(&user, &idle) == 0) {
		/* Read just after: equal or a little ahead, never behind. */
		ok(user >= want_user && user - want_user < 1000,
		   "statgrab live: user matches /proc/stat (%llu vs %llu)",
		   (unsigned long long)want_user, (unsigned long long)user);
		ok(idle >= want_idle && idle - want_idle < 100000,
		   "statgrab live: idle matches /proc/stat (%llu vs %llu)",
		   (unsigned long long)want_idle, (unsigned long long)idle);
		ok(s.sys.have & (1u << SYS_CTXSW), "statgrab live: Linux has context switches");
		ok(!(s.sys.have & (1u << SYS_SYSCALL)),
		   "statgrab live: Linux has no syscall count");
	} else {
		skip("no /proc/stat", "statgrab live: cross-check with /proc/stat");
	}
	sg_free_cpu_stats(st);
	raw_sample_free(&s);
	sg_shutdown();
}

int
main(void)
{
	test_cptimes_pair();
	test_cptimes_padded_reuse();
	test_cptimes_malformed();
	test_vmstats_freebsd();
	test_vmstats_wrap();
	test_vmstats_partial();
	test_task();
	test_cputime_pair();
	test_cputime_offline_malformed();
	test_statgrab_synthetic();
	test_statgrab_pair();
	test_statgrab_live();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * decode_perf.c on synthetic perf records: samples with kernel and user
 * chains, the context markers, lost and other records, deep chains, and
 * buffers cut or malformed at every byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "scaletop/oncpu.h"

#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
#define CTX_GUEST ((uint64_t)-2048)

struct buf {
	unsigned char b[8192];
	size_t len;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

static void
header(struct buf *b, uint32_t type, uint16_t size)
{
	uint16_t misc = 0;

	put(b, &type, 4);
	put(b, &misc, 2);
	put(b, &size, 2);
}

static void
sample(struct buf *b, uint32_t pid, uint32_t tid, const uint64_t *ips, uint64_t nr)
{
	header(b, 9, (uint16_t)(8 + 8 + 8 + 8 * nr));
	put(b, &pid, 4);
	put(b, &tid, 4);
	put(b, &nr, 8);
	put(b, ips, 8 * nr);
}

struct got {
	struct oncpu_sample s[8];
	int n;
};

static void
collect(const struct oncpu_sample *s, void *arg)
{
	struct got *g = arg;

	if (g->n < 8)
		g->s[g->n] = *s;
	g->n++;
}

static void
test_chains(void)
{
	struct buf b = { .len = 0 };
	struct got g = { .n = 0 };
	struct perf_decode_stats st = { 0 };
	uint64_t both[] = { CTX_KERNEL,
			    0xffffffff81000010ull,
			    0xffffffff81000020ull,
			    CTX_USER,
			    0x401000,
			    0x401100,
			    0x401200 };
	uint64_t user[] = { CTX_USER, 0x7f0000001000ull };
	uint64_t guest[] = { CTX_GUEST, 0x1234, CTX_KERNEL, 0xffffffff81000030ull };
	uint64_t lost[2] = { 7, 42 };
	uint64_t nothing = 0;

	sample(&b, 100, 101, both, 7);
	header(&b, 2, 24);
	put(&b, lost, 16);
	header(&b, 3, 16); /* a COMM-like record, skipped by size */
	put(&b, &nothing, 8);
	sample(&b, 200, 202, user, 2);
	sample(&b, 300, 303, guest, 4);
	ok(perf_records_decode(b.b, b.len, collect, &g, &st) == 0,
	   "a buffer of five records decodes");
	is_int(g.n, 3, "three samples delivered");
	is_u64(st.samples, 3, "stats count three samples");
	is_u64(st.lost, 42, "the lost record's count is added");
	is_u64(st.skipped, 1, "the other record is skipped");
	is_int(g.s[0].pid, 100, "pid");
	is_int(g.s[0].tid, 101, "tid");
	is_int(g.s[0].nkernel, 2, "two kernel frames");
	is_int(g.s[0].nframes, 5, "and three user ones, markers dropped");
	is_u64(g.s[0].ip[0], 0xffffffff81000010ull, "the innermost kernel frame first");
	is_u64(g.s[0].ip[2], 0x401000, "the user frames after the kernel's");
	is_int(g.s[1].nkernel, 0, "a user-only chain has no kernel frame");
	is_int(g.s[1].nframes, 1, "and its one user frame");
	is_int(g.s[2].nframes, 1, "a guest frame is dropped, the kernel one kept");
	is_int(g.s[2].nkernel, 1, "as a kernel frame");
}

static void
test_deep(void)
{
	struct buf b = { .len = 0 };
	struct got g = { .n = 0 };
	struct perf_decode_stats st = { 0 };
	uint64_t ips[ONCPU_MAX_FRAMES + 11];
	int i;

	ips[0] = CTX_KERNEL;
	for (i = 1; i < ONCPU_MAX_FRAMES + 11; i++)
		ips[i] = 0xffffffff81000000ull + (uint64_t)i;
	sample(&b, 1, 1, ips, ONCPU_MAX_FRAMES + 11);
	ok(perf_records_decode(b.b, b.len, collect, &g, &st) == 0, "a deep chain decodes");
	is_int(g.s[0].nframes, ONCPU_MAX_FRAMES, "kept to ONCPU_MAX_FRAMES");
	ok(g.s[0].truncated, "and marked truncated");
	is_u64(g.s[0].ip[0], 0xffffffff81000001ull, "from the innermost frame");
}

/* Every cut of a valid buffer is refused or delivers only whole records. */
static void
test_cuts(void)
{
	struct buf b = { .len = 0 };
	struct perf_decode_stats st;
	struct got g;
	uint64_t ips[] = { CTX_KERNEL, 0xffffffff81000010ull, CTX_USER, 0x401000 };
	size_t cut, whole = 0, bad = 0, wrong = 0;
	unsigned char *p;
	int r;

	sample(&b, 5, 6, ips, 4);
	sample(&b, 7, 8, ips, 4);
	for (cut = 0; cut <= b.len; cut++) {
		p = (unsigned char *)exact_copy((const char *)b.b, cut);
		memset(&st, 0, sizeof st);
		g.n = 0;
		errno = 0;
		r = perf_records_decode(p, cut, collect, &g, &st);
		if (r == 0 && (cut == 0 || cut == b.len / 2 || cut == b.len))
			whole++;
		else if (r < 0 && errno == EINVAL && g.n == (cut >= b.len / 2 ? 1 : 0))
			bad++;
		else
			wrong++;
		free(p);
	}
	is_int((long long)whole, 3, "only the cuts at record edges decode");
	is_int((long long)wrong, 0, "every other cut is EINVAL after the whole records");
	ok(bad == b.len - 2, "%zu cuts refused", bad);
}

static void
test_malformed(void)
{
	struct buf b = { .len = 0 };
	struct perf_decode_stats st = { 0 };
	struct got g = { .n = 0 };
	uint64_t nr = 1000;
	uint32_t id = 1;

	header(&b, 9, 24); /* claims 1000 frames in a 24-byte record */
	put(&b, &id, 4);
	put(&b, &id, 4);
	put(&b, &nr, 8);
	errno = 0;
	ok(perf_records_decode(b.b, b.len, collect, &g, &st) < 0 && errno == EINVAL,
	   "a chain longer than its record is EINVAL");
	b.len = 0;
	header(&b, 9, 4); /* under its own header */
	put(&b, &nr, 4);
	ok(perf_records_decode(b.b, b.len, collect, &g, &st) < 0,
	   "a size under the header is EINVAL");
	b.len = 0;
	header(&b, 9, 12);
	put(&b, &nr, 8);
	ok(perf_records_decode(b.b, b.len, collect, &g, &st) < 0,
	   "a size that is not a multiple of 8 is EINVAL");
	is_int(g.n, 0, "no sample came out of them");
}

int
main(void)
{
	test_chains();
	test_deep();
	test_cuts();
	test_malformed();
	return done_testing();
}

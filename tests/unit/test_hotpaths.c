/*
 * hotpaths.c: tallying raw chains, naming them once, merging chains that
 * name the same path, lock spin and its caller, and the shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "scaletop/hotpaths.h"

/* A fake symbol table: address -> name; kernel addresses are >= K. */
#define K 0xffffffff81000000ull
static const struct {
	uint64_t ip;
	const char *name;
} syms[] = {
	{ K + 0x10, "native_queued_spin_lock_slowpath" },
	{ K + 0x11, "native_queued_spin_lock_slowpath" }, /* another pc in the same function */
	{ K + 0x20, "_raw_spin_lock" },
	{ K + 0x30, "alloc_fd" },
	{ K + 0x40, "do_sys_openat2" },
	{ K + 0x50, "__pv_queued_spin_lock_slowpath.part.0" },
	{ K + 0x60, "file_close_fd" },
	{ K + 0x70, "do_syscall_64" },
	{ 0x401000, "wl_mix" },
	{ 0x401100, "worker_main" },
};

static int
namer(void *arg, pid_t pid, uint64_t ip, bool kernel, char *out, size_t len)
{
	size_t i;

	(*(int *)arg)++;
	(void)pid;
	if (kernel != (ip >= K))
		return -1; /* a kernel address named as a user one, or the reverse */
	for (i = 0; i < sizeof syms / sizeof syms[0]; i++)
		if (syms[i].ip == ip) {
			snprintf(out, len, "%s", syms[i].name);
			return 0;
		}
	return -1;
}

static void
add(struct hot_tally *t, enum wait_family f, pid_t pid, int nkernel, int n, const uint64_t *ip,
    int times)
{
	int i;

	for (i = 0; i < times; i++)
		hot_tally_add(t, f, pid, ip, nkernel, n);
}

static void
test_spin_and_paths(void)
{
	struct hot_tally t;
	struct hot_path *p;
	struct hot_spin *s;
	double spun[WAIT_NFAMILIES], sum = 0;
	int np, ns, calls = 0, i;
	uint64_t open1[] = { K + 0x10, K + 0x20, K + 0x30, K + 0x40, K + 0x70 };
	uint64_t open2[] = { K + 0x11, K + 0x20, K + 0x30, K + 0x40, K + 0x70 };
	uint64_t close1[] = { K + 0x50, K + 0x20, K + 0x60, K + 0x70 };
	uint64_t user[] = { 0x401000, 0x401100 };
	uint64_t unknown[] = { 0x999000 };

	hot_tally_init(&t);
	add(&t, WAIT_WORKLOAD, 10, 5, 5, open1, 35);
	add(&t, WAIT_WORKLOAD, 10, 5, 5, open2, 10);
	add(&t, WAIT_WORKLOAD, 10, 4, 4, close1, 20);
	add(&t, WAIT_WORKLOAD, 10, 0, 2, user, 35);
	add(&t, WAIT_TARGET, 99, 0, 1, unknown, 5);
	is_int(t.nchains, 5, "five distinct raw chains tallied");
	is_u64(t.samples[WAIT_WORKLOAD], 100, "100 workload samples");
	ok(hot_tally_name(&t, namer, &calls, 10, &p, &np, &s, &ns, spun) == 0, "named");
	is_int(calls, 5 + 5 + 4 + 2 + 1, "each frame of each distinct chain named once");
	is_int(np, 4, "the two open chains that name alike merge: 3 workload paths + 1 target");
	is_str(p[0].frame[0], "native_queued_spin_lock_slowpath", "the largest path first");
	is_u64(p[0].samples, 45, "with the merged count");
	is_double(p[0].share, 0.45, 1e-9, "as 45% of the workload's samples");
	is_int(p[0].nkernel, 5, "its frames are kernel frames");
	is_str(p[1].frame[0], "wl_mix", "then the user path");
	for (i = 0; i < np; i++)
		if (p[i].family == WAIT_WORKLOAD)
			sum += p[i].share;
	is_double(sum, 1.0, 1e-9, "the workload's paths sum to 1 when all are kept");
	is_str(p[3].frame[0], "0x999000", "an address with no name prints as itself");
	is_int(p[3].family, WAIT_TARGET, "in its own family");
	is_int(ns, 2, "two spinning callers");
	is_str(s[0].caller, "alloc_fd", "the fd table's alloc_fd spun most");
	is_str(s[0].spin, "_raw_spin_lock", "in _raw_spin_lock, the lock's outermost spin frame");
	is_double(s[0].share, 0.45, 1e-9, "45%");
	is_str(s[1].caller, "file_close_fd", "and file_close_fd, past a .part.0 pv slow path");
	is_double(spun[WAIT_WORKLOAD], 0.65, 1e-9, "65% of the workload spun");
	is_double(spun[WAIT_TARGET], 0.0, 1e-9, "the target did not");
	free(p);
	free(s);

	ok(hot_tally_name(&t, namer, &calls, 1, &p, &np, &s, &ns, spun) == 0,
	   "named, one a family");
	is_int(np, 2, "one path a family");
	is_int(ns, 1, "one spin caller");
	is_double(spun[WAIT_WORKLOAD], 0.65, 1e-9, "the spin total still counts every caller");
	free(p);
	free(s);

	hot_tally_reset(&t);
	is_int(t.nchains, 0, "reset empties the tally");
	ok(hot_tally_name(&t, namer, &calls, 10, &p, &np, &s, &ns, spun) == 0 && p == NULL &&
		   np == 0 && s == NULL,
	   "an empty tally names nothing");
	hot_tally_free(&t);
}

static void
test_many_chains(void)
{
	struct hot_tally t;
	struct hot_path *p;
	struct hot_spin *s;
	double spun[WAIT_NFAMILIES];
	uint64_t ip[2];
	int np, ns, calls = 0, i;

	hot_tally_init(&t);
	for (i = 0; i < HOT_MAX_CHAINS + 100; i++) {
		ip[0] = 0x500000 + (uint64_t)i;
		ip[1] = 0x401100;
		hot_tally_add(&t, WAIT_WORKLOAD, 7, ip, 0, 2);
	}
	is_int(t.nchains, HOT_MAX_CHAINS, "the distinct chains stop at HOT_MAX_CHAINS");
	is_u64(t.other[WAIT_WORKLOAD], 100, "the rest count as other");
	ok(hot_tally_name(&t, namer, &calls, 5, &p, &np, &s, &ns, spun) == 0, "named");
	is_int(np, 5, "five kept");
	ok(p[0].share > 0 && p[0].share < 0.001, "each a small share of all the samples");
	free(p);
	free(s);
	hot_tally_free(&t);
}

static void
test_spin_names(void)
{
	ok(hot_frame_is_spin("_raw_spin_lock_irqsave"), "_raw_spin_lock_irqsave spins");
	ok(hot_frame_is_spin("osq_lock"), "osq_lock spins");
	ok(hot_frame_is_spin("native_queued_spin_lock_slowpath.part.0"),
	   "a .part.0 suffix is dropped");
	ok(hot_frame_is_spin("rwsem_optimistic_spin"), "an rwsem's optimistic spin");
	ok(!hot_frame_is_spin("alloc_fd"), "alloc_fd is a caller, not a spin");
	ok(!hot_frame_is_spin("_raw_spin_unlock"), "an unlock does not spin");
	ok(!hot_frame_is_spin("osq_lock_x"), "a longer name is another function");
}

/*
 * The chains' frames share one pool: a chain that is another's prefix, or
 * the same frames with another kernel split, is its own chain with its own
 * frames, past HOT_KEY_FRAMES only those are kept, and a reset tally reuses
 * the pool without mixing the old frames in.
 */
static void
test_frame_pool(void)
{
	struct hot_tally t;
	uint64_t ip[HOT_KEY_FRAMES + 4];
	int i, j, bad = 0;

	for (i = 0; i < HOT_KEY_FRAMES + 4; i++)
		ip[i] = K + 0x1000 + (uint64_t)i;
	hot_tally_init(&t);
	hot_tally_add(&t, WAIT_WORKLOAD, 5, ip, 3, 3);
	hot_tally_add(&t, WAIT_WORKLOAD, 5, ip, 1, 1);
	hot_tally_add(&t, WAIT_WORKLOAD, 5, ip, 2, 3);
	hot_tally_add(&t, WAIT_WORKLOAD, 5, ip, 3, HOT_KEY_FRAMES + 4);
	hot_tally_add(&t, WAIT_WORKLOAD, 5, ip, 1, 1);
	is_int(t.nchains, 4,
	       "a prefix, another kernel split and a longer chain are chains of their own");
	is_u64(t.nips, 3 + 1 + 3 + HOT_KEY_FRAMES,
	       "each chain's frames kept once, at most HOT_KEY_FRAMES");
	ok(hot_chain_nkernel(&t, 2) == 2 && hot_chain_ip(&t, 2, 2) == ip[2] &&
		   hot_chain_ip(&t, 3, HOT_KEY_FRAMES - 1) == ip[HOT_KEY_FRAMES - 1],
	   "a chain's frames are its own");
	hot_tally_reset(&t);
	for (i = 0; i < 300; i++) {
		ip[0] = 0x700000 + (uint64_t)i;
		hot_tally_add(&t, WAIT_TARGET, 9, ip, 0, 1 + i % 5);
	}
	for (i = 0; i < t.nchains; i++)
		for (j = 0; j < 1 + i % 5; j++)
			bad += hot_chain_ip(&t, i, j) != (j == 0 ? 0x700000 + (uint64_t)i : ip[j]);
	is_int(t.nchains, 300, "after a reset, 300 new chains");
	is_int(bad, 0, "each with its own frames, none of the old ones");
	hot_tally_free(&t);
}

int
main(void)
{
	test_spin_and_paths();
	test_many_chains();
	test_frame_pool();
	test_spin_names();
	return done_testing();
}

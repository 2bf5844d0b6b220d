/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hotpaths.c and hotspin.c: tallying raw chains, naming them once, a chain
 * ended by a frame in no code, merging chains that name the same path, the
 * functions' own samples, kernel and user lock spin and its caller, and
 * the shares.
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
	{ K + 0x80, "__x64_sys_sched_yield" },
	{ K + 0x90, "futex_wait" },
	{ 0x401000, "wl_mix" },
	{ 0x401100, "worker_main" },
	{ 0x401200, "pthread_spin_lock" },
	{ 0x401300, "lock_user" },
	{ 0x401400, "__sched_yield" },
	{ 0x401500, "yield_loop" },
	{ 0x401600, "lll_helper" },
	{ 0x401700, "___pthread_mutex_lock" },
	{ 0x401800, "mutex_work" },
	{ 0x401900, "perform_spin_delay" },
	{ 0x401a00, "s_lock" },
	{ 0x401b00, "LWLockAcquire" },
};

/* User addresses from here on lie in no executable mapping: the namer says -2. */
#define UNMAPPED 0xdead0000ull

static int
namer(void *arg, pid_t pid, uint64_t ip, bool kernel, char *out, size_t len)
{
	size_t i;

	(*(int *)arg)++;
	(void)pid;
	if (kernel != (ip >= K))
		return -1; /* a kernel address named as a user one, or the reverse */
	if (!kernel && ip >= UNMAPPED)
		return -2;
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
	struct hot_named nm;
	struct hot_path *p;
	struct hot_spin *s;
	double sum = 0;
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
	ok(hot_tally_name(&t, namer, &calls, 10, &nm) == 0, "named");
	p = nm.paths, np = nm.npaths, s = nm.spins, ns = nm.nspins;
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
	ok(!s[0].user && !s[1].user, "both in the kernel");
	is_double(nm.spin_share[WAIT_WORKLOAD], 0.65, 1e-9, "65% of the workload spun");
	is_double(nm.user_spin_share[WAIT_WORKLOAD], 0.0, 1e-9, "none of it in user space");
	is_double(nm.spin_share[WAIT_TARGET], 0.0, 1e-9, "the target did not");
	hot_named_free(&nm);

	ok(hot_tally_name(&t, namer, &calls, 1, &nm) == 0, "named, one a family");
	is_int(nm.npaths, 2, "one path a family");
	is_int(nm.nspins, 1, "one spin caller");
	is_int(nm.nselfs, 2, "one function a family");
	is_double(nm.spin_share[WAIT_WORKLOAD], 0.65, 1e-9,
		  "the spin total still counts every caller");
	hot_named_free(&nm);

	hot_tally_reset(&t);
	is_int(t.nchains, 0, "reset empties the tally");
	ok(hot_tally_name(&t, namer, &calls, 10, &nm) == 0 && nm.paths == NULL && nm.npaths == 0 &&
		   nm.spins == NULL && nm.selfs == NULL,
	   "an empty tally names nothing");
	hot_tally_free(&t);
}

static void
test_many_chains(void)
{
	struct hot_tally t;
	struct hot_named nm;
	uint64_t ip[2];
	int calls = 0, i;

	hot_tally_init(&t);
	for (i = 0; i < HOT_MAX_CHAINS + 100; i++) {
		ip[0] = 0x500000 + (uint64_t)i;
		ip[1] = 0x401100;
		hot_tally_add(&t, WAIT_WORKLOAD, 7, ip, 0, 2);
	}
	is_int(t.nchains, HOT_MAX_CHAINS, "the distinct chains stop at HOT_MAX_CHAINS");
	is_u64(t.other[WAIT_WORKLOAD], 100, "the rest count as other");
	ok(hot_tally_name(&t, namer, &calls, 5, &nm) == 0, "named");
	is_int(nm.npaths, 5, "five kept");
	ok(nm.paths[0].share > 0 && nm.paths[0].share < 0.001,
	   "each a small share of all the samples");
	hot_named_free(&nm);
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
	ok(!hot_frame_is_spin("pthread_spin_lock"), "a user spin is not the kernel's");

	ok(hot_frame_is_user_spin("pthread_spin_lock"), "pthread_spin_lock spins in user space");
	ok(hot_frame_is_user_spin("___pthread_mutex_lock"), "glibc's mutex on CPU");
	ok(hot_frame_is_user_spin("__GI___sched_yield"), "glibc's internal alias of sched_yield");
	ok(hot_frame_is_user_spin("spinlock_ticket_wait"), "the spinlock workload's ticket spin");
	ok(hot_frame_is_user_spin("spinlock_tas_wait.constprop.0"), "its tas spin, cloned");
	ok(hot_frame_is_user_spin("ut_delay(unsigned int)"), "InnoDB's ut_delay, demangled");
	ok(hot_frame_is_user_spin("_Z8ut_delayj"), "and mangled");
	ok(hot_frame_is_user_spin("s_lock") && hot_frame_is_user_spin("perform_spin_delay"),
	   "PostgreSQL's s_lock and perform_spin_delay");
	ok(!hot_frame_is_user_spin("s_lock_x"), "a longer name is another function");
	ok(!hot_frame_is_user_spin("pthread_spin_unlock"), "an unlock does not spin");
	ok(!hot_frame_is_user_spin("wl_mix"), "nor does work");
}

/*
 * Rule 1: a user "caller" in no executable mapping (-2) ends the chain, so
 * the samples of one leaf whose garbage callers differ are one path; the
 * leaf itself, which ran, is kept as its address; a kernel frame is never
 * dropped.
 */
static void
test_chain_end(void)
{
	struct hot_tally t;
	struct hot_named nm;
	int calls = 0;
	uint64_t junk1[] = { 0x401000, UNMAPPED + 0x1da40a, 0x401100 };
	uint64_t junk2[] = { 0x401000, UNMAPPED + 0x1943 };
	uint64_t good[] = { 0x401000, 0x401100 };
	uint64_t leaf[] = { UNMAPPED + 0x10, UNMAPPED + 0x20 };
	uint64_t kern[] = { K + 0x90, K + 0x70, UNMAPPED + 0x30, 0x401100 };

	hot_tally_init(&t);
	add(&t, WAIT_WORKLOAD, 3, 0, 3, junk1, 30);
	add(&t, WAIT_WORKLOAD, 3, 0, 2, junk2, 30);
	add(&t, WAIT_WORKLOAD, 3, 0, 2, good, 20);
	add(&t, WAIT_WORKLOAD, 3, 0, 2, leaf, 10);
	add(&t, WAIT_WORKLOAD, 3, 2, 4, kern, 10);
	ok(hot_tally_name(&t, namer, &calls, 10, &nm) == 0, "named");
	is_int(nm.npaths, 4, "two chains with garbage callers are one path");
	is_int(nm.paths[0].nframes, 1, "the leaf alone: no frame past the garbage");
	is_str(nm.paths[0].frame[0], "wl_mix", "wl_mix");
	is_double(nm.paths[0].share, 0.6, 1e-9, "60%, where each chain alone is 30%");
	is_int(nm.paths[1].nframes, 2, "a chain of good frames is whole");
	is_str(nm.paths[1].frame[1], "worker_main", "wl_mix < worker_main");
	/* the ties of 10 samples: the shorter path first */
	ok(nm.paths[2].nframes == 1 && strcmp(nm.paths[2].frame[0], "0xdead0010") == 0,
	   "a user leaf in no mapping is kept as its address, its garbage caller dropped");
	ok(nm.paths[3].nframes == 4 && nm.paths[3].nkernel == 2 &&
		   strcmp(nm.paths[3].frame[2], "0xdead0030") == 0,
	   "and under kernel frames, which are all kept");
	is_str(nm.selfs[0].func, "wl_mix", "wl_mix's own samples come first");
	is_double(nm.selfs[0].share, 0.8, 1e-9, "all 80% of them, whatever the callers");
	ok(!nm.selfs[0].kernel, "a user function");
	/* the ties of 10 samples: user functions first */
	ok(nm.nselfs == 3 && nm.selfs[2].kernel && strcmp(nm.selfs[2].func, "futex_wait") == 0 &&
		   nm.selfs[2].samples == 10,
	   "a kernel leaf is a kernel function's own sample");
	hot_named_free(&nm);
	hot_tally_free(&t);
}

/*
 * User spin (hotspin.c): a user leaf in the table, or one of the two frames
 * above it, spins, attributed to the first frame above the lock code; a
 * sample in the kernel spins in user space only for sched_yield; kernel
 * spin is counted apart.
 */
static void
test_user_spin(void)
{
	struct hot_tally t;
	struct hot_named nm;
	int calls = 0, i, found = 0;
	uint64_t spin[] = { 0x401200, 0x401300, 0x401100 };
	uint64_t yield[] = { K + 0x80, K + 0x70, 0x401400, 0x401500 };
	uint64_t mutex[] = { 0x401600, 0x401700, 0x401800 };
	uint64_t futex[] = { K + 0x90, K + 0x70, 0x401600, 0x401700, 0x401800 };
	uint64_t pg[] = { 0x401900, 0x401a00, 0x401b00 };
	uint64_t kspin[] = { K + 0x10, K + 0x20, K + 0x30, 0x401100 };
	uint64_t work[] = { 0x401000, 0x401100 };

	hot_tally_init(&t);
	add(&t, WAIT_WORKLOAD, 4, 0, 3, spin, 20);
	add(&t, WAIT_WORKLOAD, 4, 2, 4, yield, 10);
	add(&t, WAIT_WORKLOAD, 4, 0, 3, mutex, 10);
	add(&t, WAIT_WORKLOAD, 4, 2, 5, futex, 10);
	add(&t, WAIT_WORKLOAD, 4, 0, 3, pg, 10);
	add(&t, WAIT_WORKLOAD, 4, 3, 4, kspin, 15);
	add(&t, WAIT_WORKLOAD, 4, 0, 2, work, 25);
	ok(hot_tally_name(&t, namer, &calls, 10, &nm) == 0, "named");
	is_double(nm.spin_share[WAIT_WORKLOAD], 0.65, 1e-9,
		  "65% spun: 50% in user space, 15% in the kernel");
	is_double(nm.user_spin_share[WAIT_WORKLOAD], 0.50, 1e-9, "50% of it in user space");
	is_int(nm.nspins, 5, "five spinning callers: a futex wait does not spin");
	is_str(nm.spins[0].spin, "pthread_spin_lock", "pthread_spin_lock spun most");
	is_str(nm.spins[0].caller, "lock_user", "from lock_user, the frame above it");
	ok(nm.spins[0].user, "in user space");
	is_double(nm.spins[0].share, 0.20, 1e-9, "20%");
	ok(!nm.spins[1].user && strcmp(nm.spins[1].caller, "alloc_fd") == 0,
	   "then the kernel's spin, from alloc_fd, apart");
	for (i = 0; i < nm.nspins; i++) {
		const struct hot_spin *e = &nm.spins[i];

		found += e->user && strcmp(e->spin, "__sched_yield") == 0 &&
			 strcmp(e->caller, "yield_loop") == 0;
		found += e->user && strcmp(e->spin, "___pthread_mutex_lock") == 0 &&
			 strcmp(e->caller, "mutex_work") == 0;
		found += e->user && strcmp(e->spin, "s_lock") == 0 &&
			 strcmp(e->caller, "LWLockAcquire") == 0;
	}
	is_int(found, 3,
	       "a sched_yield syscall from yield_loop, a mutex past a helper frame from "
	       "mutex_work, and s_lock over perform_spin_delay from LWLockAcquire");
	hot_named_free(&nm);
	hot_tally_free(&t);
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
	struct hot_chain_view c2, c3;
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
	hot_chain_view(&t, 2, &c2);
	hot_chain_view(&t, 3, &c3);
	ok(c2.nkernel == 2 && c2.ip[2] == ip[2] &&
		   c3.ip[HOT_KEY_FRAMES - 1] == ip[HOT_KEY_FRAMES - 1],
	   "a chain's frames are its own");
	hot_tally_reset(&t);
	for (i = 0; i < 300; i++) {
		ip[0] = 0x700000 + (uint64_t)i;
		hot_tally_add(&t, WAIT_TARGET, 9, ip, 0, 1 + i % 5);
	}
	for (i = 0; i < t.nchains; i++) {
		hot_chain_view(&t, i, &c2);
		for (j = 0; j < 1 + i % 5; j++)
			bad += c2.ip[j] != (j == 0 ? 0x700000 + (uint64_t)i : ip[j]);
	}
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
	test_chain_end();
	test_user_spin();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hotstacks.c and kstack_tally_stacks: whole stacks root first, the namer's
 * -2 ending a stack and -1 leaving an address, chains that name alike
 * merged, the cap with its [other], and counts that add up to the samples
 * (on-CPU) or to the blocked time in milliseconds (off-CPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "scaletop/hotstacks.h"
#include "scaletop/kstacks.h"

#define K 0xffffffff81000000ull
#define NOMAP 0x7000 /* a user address in no executable mapping: the namer answers -2 */

static const struct {
	uint64_t ip;
	const char *name;
} syms[] = {
	{ K + 0x10, "futex_wait" },
	{ K + 0x20, "do_syscall_64" },
	{ 0x401000, "leaf" },
	{ 0x401001, "leaf" }, /* another pc in the same function */
	{ 0x402000, "caller" },
	{ 0x403000, "main" },
	{ 0x404000, "std::vector<int, std::allocator<int> >::push_back(int const&)" },
};

static int
namer(void *arg, pid_t pid, uint64_t ip, bool kernel, char *out, size_t len)
{
	size_t i;

	(*(int *)arg)++;
	(void)pid;
	if (!kernel && ip == NOMAP)
		return -2;
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (syms[i].ip == ip && kernel == (ip >= K)) {
			snprintf(out, len, "%s", syms[i].name);
			return 0;
		}
	return -1;
}

/* Stack i's frames joined by ';' into buf. */
static const char *
joined(const struct hot_stacks *s, int i, char *buf, size_t len)
{
	const struct hot_stack *k = &s->stack[i];
	size_t off = 0;
	uint32_t j;

	buf[0] = '\0';
	for (j = 0; j < k->nframes && off < len; j++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", j ? ";" : "",
					s->name[s->frame[k->at + j]]);
	return buf;
}

static void
add(struct hot_tally *t, enum wait_family f, pid_t pid, const uint64_t *ip, int nk, int n,
    int times)
{
	int i;

	for (i = 0; i < times; i++)
		hot_tally_add(t, f, pid, ip, nk, n);
}

static void
test_named(void)
{
	uint64_t a[] = { K + 0x10, K + 0x20, 0x401000, 0x402000, 0x403000 };
	uint64_t b[] = { K + 0x10, K + 0x20, 0x401001, 0x402000, 0x403000 }; /* names as a */
	uint64_t junk[] = { 0x401000, NOMAP, 0x403000 }; /* its caller in no mapping */
	uint64_t nouser[] = { NOMAP, 0x402000 };         /* the leaf itself in none */
	uint64_t unknown[] = { 0x999000, 0x403000 };
	uint64_t cxx[] = { 0x404000, 0x403000 };
	struct hot_tally t;
	struct hot_stacks *s;
	char buf[512];
	int calls = 0, i;
	bool seen_a = false, seen_junk = false, seen_nouser = false, seen_unknown = false;

	hot_tally_init(&t);
	add(&t, WAIT_WORKLOAD, 10, a, 2, 5, 30);
	add(&t, WAIT_WORKLOAD, 11, b, 2, 5, 20); /* another process, the same names */
	add(&t, WAIT_WORKLOAD, 10, junk, 0, 3, 7);
	add(&t, WAIT_WORKLOAD, 10, nouser, 0, 2, 4);
	add(&t, WAIT_WORKLOAD, 10, unknown, 0, 2, 3);
	add(&t, WAIT_TARGET, 20, cxx, 0, 2, 6);
	ok(hot_stacks_from_tally(&t, namer, &calls, HOT_STACKS_MAX, &s) == 0 && s != NULL,
	   "the tally's stacks");
	is_int(s->nstacks, 5,
	       "the two chains that name alike are one stack: 4 workload + 1 target");
	for (i = 0; i < s->nstacks; i++) {
		joined(s, i, buf, sizeof(buf));
		diag("%s %s %llu (kernel %u)", wait_family_names[s->stack[i].family], buf,
		     (unsigned long long)s->stack[i].count, s->stack[i].nkernel);
		if (strcmp(buf, "main;caller;leaf;do_syscall_64;futex_wait") == 0) {
			seen_a = true;
			is_u64(s->stack[i].count, 50,
			       "root first, kernel frames the leaf end, merged: 50");
			is_int((int)s->stack[i].nkernel, 2, "its last two frames are the kernel's");
			is_int(i, 0, "the largest stack first");
		} else if (strcmp(buf, "leaf") == 0) {
			seen_junk = true;
			is_u64(s->stack[i].count, 7,
			       "-2 ends the stack: the frame and its outer ones go");
		} else if (s->stack[i].nframes == 0) {
			seen_nouser = true;
			is_u64(s->stack[i].count, 4,
			       "a leaf in no mapping leaves an empty stack, counted");
		} else if (strcmp(buf, "main;0x999000") == 0) {
			seen_unknown = true;
		}
	}
	ok(seen_a, "the merged stack is there");
	ok(seen_junk, "the stack cut by -2 is there");
	ok(seen_nouser, "the empty one too");
	ok(seen_unknown, "-1 leaves the frame as its address");
	is_str(joined(s, s->nstacks - 1, buf, sizeof(buf)),
	       "main;std::vector<int, std::allocator<int> >::push_back(int const&)",
	       "the target's, a C++ name with its spaces, whole");
	is_u64(hot_stacks_total(s, WAIT_WORKLOAD), t.samples[WAIT_WORKLOAD],
	       "the workload's counts add up to its samples");
	is_u64(hot_stacks_total(s, WAIT_TARGET), t.samples[WAIT_TARGET], "the target's too");
	is_int(calls, 12, "each distinct (process, address) named once, a kernel one once for all");
	hot_stacks_free(s);
	hot_tally_free(&t);
}

/* More distinct stacks than the cap: the smallest go to other, the sum holds. */
static void
test_cap(void)
{
	struct hot_tally t;
	struct hot_stacks *s;
	uint64_t ip[2] = { 0, 0x403000 };
	int calls = 0, i;

	hot_tally_init(&t);
	for (i = 0; i < 50; i++) {
		ip[0] = 0x500000 + (uint64_t)i; /* each its own unnamed leaf */
		add(&t, WAIT_WORKLOAD, 7, ip, 0, 2, i + 1);
	}
	ok(hot_stacks_from_tally(&t, namer, &calls, 10, &s) == 0 && s != NULL, "capped at 10");
	is_int(s->nstacks, 10, "ten kept");
	is_u64(s->stack[0].count, 50, "the largest first");
	is_u64(s->stack[9].count, 41, "down to the tenth");
	is_u64(s->other[WAIT_WORKLOAD], 40 * 41 / 2, "the other forty in other");
	is_u64(hot_stacks_total(s, WAIT_WORKLOAD), t.samples[WAIT_WORKLOAD],
	       "kept and other add up to the samples");
	hot_stacks_free(s);

	/* the tally's own (other): chains past HOT_MAX_CHAINS */
	hot_tally_reset(&t);
	for (i = 0; i < HOT_MAX_CHAINS + 30; i++) {
		ip[0] = 0x600000 + (uint64_t)i;
		add(&t, WAIT_WORKLOAD, 7, ip, 0, 2, 1);
	}
	ok(hot_stacks_from_tally(&t, namer, &calls, HOT_STACKS_MAX, &s) == 0 && s != NULL,
	   "a tally past its own cap");
	is_int(s->nstacks, HOT_STACKS_MAX, "HOT_STACKS_MAX kept");
	is_u64(hot_stacks_total(s, WAIT_WORKLOAD), (uint64_t)HOT_MAX_CHAINS + 30,
	       "with the tally's other, the counts still add up");
	hot_stacks_free(s);

	hot_tally_reset(&t);
	ok(hot_stacks_from_tally(&t, namer, &calls, 10, &s) == 0 && s == NULL,
	   "an empty tally has no stacks");
	hot_tally_free(&t);
}

static void
test_build(void)
{
	struct hot_stacks *s = hot_stacks_new();
	const char *x[] = { "a", "b", "c" }, *y[] = { "a", "b" };
	uint32_t bad[] = { 99 };

	ok(s != NULL, "a set");
	ok(hot_stacks_add_names(s, WAIT_WORKLOAD, x, 3, 1, 5) == 0 &&
		   hot_stacks_add_names(s, WAIT_WORKLOAD, x, 3, 1, 2) == 0 &&
		   hot_stacks_add_names(s, WAIT_WORKLOAD, y, 2, 0, 1) == 0 &&
		   hot_stacks_add_names(s, WAIT_TARGET, x, 3, 1, 4) == 0,
	   "stacks added by name");
	is_int(s->nnames, 3, "each name kept once");
	is_int(s->nstacks, 3,
	       "equal stacks of a family merge; a prefix or another family does not");
	is_int(hot_stacks_add(s, WAIT_WORKLOAD, bad, 1, 0, 1), -1,
	       "an index past the names: refused");
	is_int(hot_stacks_add_names(s, WAIT_WORKLOAD, x, 2, 3, 1), -1,
	       "more kernel frames than frames: refused");
	hot_stacks_finish(s, 0);
	is_u64(s->stack[0].count, 7, "ordered: the workload's largest first");
	is_int(s->stack[2].family, WAIT_TARGET, "then the target's");
	hot_stacks_free(s);
}

static void
kstack_of(struct kstack *ks, const char *const *frames, int n)
{
	int i;

	memset(ks, 0, sizeof(*ks));
	ks->nframes = n;
	for (i = 0; i < n; i++)
		snprintf(ks->frame[i], sizeof(ks->frame[i]), "%s", frames[i]);
}

static void
test_offcpu(void)
{
	const char *fa[] = { "__schedule", "schedule", "futex_wait", "do_futex", "do_syscall_64" };
	const char *fb[] = { "__schedule", "schedule", "pipe_read", "vfs_read", "do_syscall_64" };
	struct kstack_tally *t = kstack_tally_new();
	struct hot_stacks *s;
	struct kstack a, b;
	char buf[512];
	int i;

	kstack_of(&a, fa, 5);
	kstack_of(&b, fb, 5);
	/* three ticks: of 3 blocked readings, 1 read of a (x3); of 1, b; then a again */
	for (i = 0; i < 3; i++)
		kstack_tally_blocked(t, WAIT_WORKLOAD);
	(void)kstack_tally_add(t, WAIT_WORKLOAD, &a, 0.0101);
	kstack_tally_tick(t, WAIT_WORKLOAD);
	kstack_tally_blocked(t, WAIT_WORKLOAD);
	(void)kstack_tally_add(t, WAIT_WORKLOAD, &b, 0.0203);
	kstack_tally_tick(t, WAIT_WORKLOAD);
	kstack_tally_blocked(t, WAIT_WORKLOAD);
	(void)kstack_tally_add(t, WAIT_WORKLOAD, &a, 0.0004);
	kstack_tally_tick(t, WAIT_WORKLOAD);
	ok(kstack_tally_stacks(t, &s) == 0 && s != NULL, "the blocked time's whole stacks");
	is_int(s->nstacks, 2, "two distinct stacks");
	is_str(joined(s, 0, buf, sizeof(buf)),
	       "do_syscall_64;do_futex;futex_wait;schedule;__schedule",
	       "every frame, root first, the switch's included");
	is_u64(s->stack[0].count, 31, "a: 3 x 10.1 ms + 0.4 ms, weighed and rounded");
	is_int((int)s->stack[0].nkernel, 5, "all kernel frames");
	is_u64(s->stack[1].count, 20, "b: 20.3 ms");
	is_u64(hot_stacks_total(s, WAIT_WORKLOAD), 51, "they add up to the blocked time, 51.0 ms");
	hot_stacks_free(s);
	kstack_tally_reset(t);
	ok(kstack_tally_stacks(t, &s) == 0 && s == NULL, "reset: none");
	kstack_tally_free(t);
}

int
main(void)
{
	test_named();
	test_cap();
	test_build();
	test_offcpu();
	return done_testing();
}

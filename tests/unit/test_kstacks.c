/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel-stack histogram (kstacks.c): keys from a stack's first frames
 * after the context switch's, and each tick's stacks weighed by its blocked
 * readings over those read, so the shares are of blocked time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/kstacks.h"
#include "../tap.h"

static struct kstack
stack_of(const char *const *names, int n)
{
	struct kstack k;
	int i;

	memset(&k, 0, sizeof(k));
	for (i = 0; i < n; i++)
		snprintf(k.frame[i], sizeof(k.frame[i]), "%s", names[i]);
	k.nframes = n;
	return k;
}

static const char *const futex[] = { "futex_do_wait", "__futex_wait",    "futex_wait",
				     "do_futex",      "__x64_sys_futex", "do_syscall_64" };
static const char *const pipe_rd[] = { "anon_pipe_read", "vfs_read", "ksys_read", "do_syscall_64" };
static const char *const umtx[] = { "mi_switch",    "sleepq_catch_signals", "sleepq_wait_sig",
				    "_sleep",       "umtxq_sleep",          "do_lock_umutex",
				    "amd64_syscall" };
static const char *const only_switch[] = { "mi_switch", "sleepq_switch" };

static void
test_keys(void)
{
	struct kstack k;
	char key[STEP_KSTACK_LEN];

	k = stack_of(futex, 6);
	kstack_key(&k, key, sizeof(key));
	is_str(key, "futex_do_wait;__futex_wait;futex_wait;do_futex", "the first 4 frames, by ';'");
	k = stack_of(umtx, 7);
	kstack_key(&k, key, sizeof(key));
	is_str(key, "sleepq_wait_sig;_sleep;umtxq_sleep;do_lock_umutex",
	       "FreeBSD's mi_switch and sleepq_catch_signals are skipped");
	k = stack_of(only_switch, 2);
	kstack_key(&k, key, sizeof(key));
	is_str(key, "mi_switch;sleepq_switch", "nothing but the switch: the switch");
	k = stack_of(futex, 2);
	kstack_key(&k, key, sizeof(key));
	is_str(key, "futex_do_wait;__futex_wait", "a short stack: all of it");
	k = stack_of(futex, 0);
	kstack_key(&k, key, sizeof(key));
	is_str(key, "", "no frames: empty");
	k = stack_of(futex, 6);
	kstack_key(&k, key, 12);
	is_str(key, "futex_do_wa", "a short buffer: cut, terminated");
}

static void
test_weights(void)
{
	struct kstack_tally *t = kstack_tally_new();
	struct kstack a = stack_of(futex, 6), b = stack_of(pipe_rd, 4), none = stack_of(futex, 0);
	struct step_kstack top[5];
	int i, n;

	ok(t != NULL, "a tally");
	/* tick 1: 10 blocked readings, 2 stacks read, one each of A and B */
	for (i = 0; i < 10; i++)
		kstack_tally_blocked(t, WAIT_WORKLOAD);
	is_int(kstack_tally_add(t, WAIT_WORKLOAD, &a, 0.25), 0, "tick 1: A added");
	is_int(kstack_tally_add(t, WAIT_WORKLOAD, &b, 0.25), 0, "tick 1: B added");
	errno = 0;
	is_int(kstack_tally_add(t, WAIT_WORKLOAD, &none, 0.25), -1, "no frames: refused");
	is_int(errno, EINVAL, "no frames: EINVAL");
	kstack_tally_tick(t, WAIT_WORKLOAD);
	/* tick 2: 4 blocked, all read, all A; the target's one reading, B */
	for (i = 0; i < 4; i++) {
		kstack_tally_blocked(t, WAIT_WORKLOAD);
		(void)kstack_tally_add(t, WAIT_WORKLOAD, &a, 0.25);
	}
	kstack_tally_blocked(t, WAIT_TARGET);
	(void)kstack_tally_add(t, WAIT_TARGET, &b, 1.0);
	kstack_tally_tick(t, WAIT_WORKLOAD);
	kstack_tally_tick(t, WAIT_TARGET);
	is_int((long long)kstack_tally_reads(t), 7, "7 stacks read");

	n = kstack_tally_top(t, WAIT_WORKLOAD, top, 5);
	is_int(n, 2, "the workload: two stacks");
	is_str(top[0].stack, "futex_do_wait;__futex_wait;futex_wait;do_futex", "A first");
	/* A: 0.25 * 10/2 + 4 * 0.25 = 2.25; B: 1.25; of 3.5 */
	is_double(top[0].share, 2.25 / 3.5, 1e-9, "A's share: weighed by 10 readings over 2 read");
	is_int((long long)top[0].readings, 5, "A rests on 5 stacks read");
	is_double(top[1].share, 1.25 / 3.5, 1e-9, "B's share");
	is_int(top[1].family, WAIT_WORKLOAD, "the workload's");
	n = kstack_tally_top(t, WAIT_TARGET, top, 5);
	is_int(n, 1, "the target: one stack, its own");
	is_double(top[0].share, 1.0, 1e-9, "the target's B: all of its time");
	is_int(kstack_tally_top(t, WAIT_WORKLOAD, top, 1), 1, "max 1: one");

	kstack_tally_reset(t);
	is_int(kstack_tally_top(t, WAIT_WORKLOAD, top, 5), 0, "reset: none");
	is_int((long long)kstack_tally_reads(t), 0, "reset: no reads");
	for (i = 0; i < KSTACK_TICK_MAX; i++)
		(void)kstack_tally_add(t, WAIT_WORKLOAD, &a, 1);
	errno = 0;
	is_int(kstack_tally_add(t, WAIT_WORKLOAD, &a, 1), -1, "a tick's room spent: refused");
	is_int(errno, ENOSPC, "a tick's room spent: ENOSPC");
	kstack_tally_tick(t, WAIT_WORKLOAD);
	is_int(kstack_tally_add(t, WAIT_WORKLOAD, &a, 1), 0, "the next tick has room again");
	kstack_tally_free(t);
}

int
main(void)
{
	test_keys();
	test_weights();
	return done_testing();
}

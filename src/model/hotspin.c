/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * User-space spin (hotpaths.h): a thread spinning on a lock in user space
 * is "running" to every wait channel, and its kernel stack is empty, so
 * only the name of its user leaf says it spins.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/hotpaths.h"

/*
 * The names are kept in one table, below; a sample whose user leaf (or one
 * of the two frames above it: a pause helper, a delay loop) is in it counts
 * as spin, attributed to the first frame above the lock code.
 *
 * To add a function: one line in user_spin[], its name as the symboliser
 * gives it (the symbol alone; a C++ name demangled, or its mangled prefix),
 * and a case in tests/unit/test_hotpaths.c.
 */

/* How many user frames from the leaf may sit inside the lock function: the leaf and two helpers. */
#define USER_SPIN_DEPTH 3

struct spin_fn {
	const char *name;
	bool prefix; /* a name that starts with it (a C++ name's arguments, a template's) */
};

static const struct spin_fn user_spin[] = {
	/* glibc's spinlocks */
	{ "pthread_spin_lock", false },
	{ "__pthread_spin_lock", false },
	{ "pthread_spin_trylock", false },
	{ "__pthread_spin_trylock", false },
	/*
	 * glibc's mutex on CPU: the adaptive mutex's spin, and the acquire's
	 * own work (its sleep is a futex wait, off CPU or in the kernel)
	 */
	{ "pthread_mutex_lock", false },
	{ "__pthread_mutex_lock", false },
	{ "___pthread_mutex_lock", false },
	{ "__pthread_mutex_lock_full", false },
	{ "__pthread_mutex_cond_lock", false },
	{ "pthread_mutex_trylock", false },
	{ "__pthread_mutex_trylock", false },
	{ "___pthread_mutex_trylock", false },
	/* a sched_yield loop: the libc stub (the kernel's side is in yield_syscall) */
	{ "sched_yield", false },
	{ "__sched_yield", false },
	/* the built-in workloads' spin loops (src/workload/spinlock.c) */
	{ "spinlock_tas_wait", false },
	{ "spinlock_ticket_wait", false },
	/* InnoDB / MariaDB: the spin delay, and the spinning locks that call it */
	{ "ut_delay", true },
	{ "_Z8ut_delay", true },
	{ "srw_mutex_impl<true>::wait_and_lock", true },
	{ "ssux_lock_impl<true>::", true },
	/* PostgreSQL's spinlocks */
	{ "s_lock", false },
	{ "perform_spin_delay", false },
	{ "spin_delay", false },
};

/* The kernel's side of sched_yield(2): a sample there yields, under a user frame. */
static const char *const yield_syscall[] = {
	"do_sched_yield",          "__x64_sys_sched_yield", "__ia32_sys_sched_yield",
	"__arm64_sys_sched_yield", "__do_sys_sched_yield",  "__se_sys_sched_yield",
};

/* The name's length without a compiler suffix (".part.0", ".cold") or a version ("@@GLIBC_2.34").
 */
static size_t
stem_len(const char *name)
{
	return strcspn(name, ".@");
}

/* glibc's internal alias, "__GI___sched_yield", reads as its public name. */
static const char *
stem(const char *name)
{
	return strncmp(name, "__GI_", 5) == 0 ? name + 5 : name;
}

bool
hot_frame_is_user_spin(const char *name)
{
	const char *s = stem(name);
	size_t len = stem_len(s), i, n;

	for (i = 0; i < sizeof(user_spin) / sizeof(user_spin[0]); i++) {
		n = strlen(user_spin[i].name);
		if (user_spin[i].prefix ? strncmp(s, user_spin[i].name, n) == 0
					: n == len && strncmp(s, user_spin[i].name, n) == 0)
			return true;
	}
	return false;
}

static bool
frame_is_yield_syscall(const char *name)
{
	size_t len = stem_len(name), i;

	for (i = 0; i < sizeof(yield_syscall) / sizeof(yield_syscall[0]); i++)
		if (strlen(yield_syscall[i]) == len && strncmp(name, yield_syscall[i], len) == 0)
			return true;
	return false;
}

/* The innermost lock frame of a sample in user mode, among the first user frames; -1 if none. */
static int
user_leaf_spin(const char (*name)[HOT_NAME_LEN], int n, int nkernel)
{
	int i;

	for (i = nkernel; i < n && i < nkernel + USER_SPIN_DEPTH; i++)
		if (hot_frame_is_user_spin(name[i]))
			return i;
	return -1;
}

/* A sample in the kernel for sched_yield: the user frame that called it, or -1. */
static int
kernel_yield(const char (*name)[HOT_NAME_LEN], int n, int nkernel)
{
	int i;

	if (nkernel >= n)
		return -1;
	for (i = 0; i < nkernel; i++)
		if (frame_is_yield_syscall(name[i]))
			return nkernel;
	return -1;
}

bool
hot_chain_user_spin(const char (*name)[HOT_NAME_LEN], int n, int nkernel, struct hot_spin *out)
{
	int m = nkernel == 0 ? user_leaf_spin(name, n, nkernel) : kernel_yield(name, n, nkernel);
	int j;

	if (m < 0)
		return false;
	if (!hot_frame_is_user_spin(name[m])) {
		/* sched_yield made with no libc stub (an inline syscall): the leaf is the caller */
		snprintf(out->spin, sizeof(out->spin), "sched_yield");
		snprintf(out->caller, sizeof(out->caller), "%s", name[m]);
		out->user = true;
		return true;
	}
	for (j = m + 1; j < n && hot_frame_is_user_spin(name[j]); j++)
		m = j;
	snprintf(out->spin, sizeof(out->spin), "%s", name[m]);
	snprintf(out->caller, sizeof(out->caller), "%s", j < n ? name[j] : "");
	out->user = true;
	return true;
}

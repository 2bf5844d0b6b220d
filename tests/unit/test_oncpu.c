/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The on-CPU sampler (linux_perf.c) over a thread of the test's own that
 * spins in a known function: its samples come with the thread's pid and
 * tid, and the innermost user frame is in that function.  Without the
 * permission (not root, no CAP_PERFMON) it skips, saying why.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../tap.h"
#include "scaletop/oncpu.h"

static atomic_int stop;
static atomic_int spinner_tid;

/* Spins where the samples can find it; noinline so its address is its code's. */
static __attribute__((noinline)) void
spin_here(void)
{
	volatile uint64_t x = 0;

	while (!atomic_load(&stop))
		x++;
}

static void *
spinner(void *arg)
{
	(void)arg;
	atomic_store(&spinner_tid, (int)syscall(SYS_gettid));
	spin_here();
	return NULL;
}

struct seen {
	pid_t pid, tid;
	int mine, in_fn, with_kernel_first;
};

static void
count(const struct oncpu_sample *s, void *arg)
{
	struct seen *v = arg;
	uintptr_t fn = (uintptr_t)spin_here;

	if (s->tid != v->tid)
		return;
	v->mine++;
	if (s->pid == v->pid && s->nframes > s->nkernel && s->ip[s->nkernel] >= fn &&
	    s->ip[s->nkernel] < fn + 256)
		v->in_fn++;
}

int
main(void)
{
	char why[256] = "";
	struct oncpu *o;
	struct perf_decode_stats st = { 0 };
	struct seen v = { 0 };
	pthread_t th;
	int tries;

	o = oncpu_open(499, why, sizeof why);
	if (!o) {
		if (errno == EACCES || errno == EPERM || errno == ENOENT || errno == ENOSYS)
			skip(why, "the on-CPU sampler opens");
		else
			ok(0, "oncpu_open: %s", why);
		return done_testing();
	}
	ok(oncpu_ncpus(o) >= 1, "an event on %d CPU(s)", oncpu_ncpus(o));
	if (pthread_create(&th, NULL, spinner, NULL) != 0)
		return ok(0, "pthread_create"), done_testing();
	while (!atomic_load(&spinner_tid))
		sleep_ms(1);
	v.pid = getpid();
	v.tid = atomic_load(&spinner_tid);
	ok(oncpu_enable(o, true) == 0, "enabled");
	/* Until 20 samples of the spinner, 200 tries of 50 ms at most: a busy machine only slows
	 * it. */
	for (tries = 0; tries < 200 && v.mine < 20; tries++) {
		sleep_ms(50);
		if (oncpu_drain(o, count, &v, &st) < 0)
			break;
	}
	diag("%d tries, %llu samples in all, %d of the spinner, %d in spin_here, %llu lost", tries,
	     (unsigned long long)st.samples, v.mine, v.in_fn, (unsigned long long)st.lost);
	ok(v.mine >= 20, "the spinning thread was sampled (%d)", v.mine);
	ok(v.in_fn * 10 >= v.mine * 9, "its innermost user frame is in spin_here (%d of %d)",
	   v.in_fn, v.mine);
	ok(oncpu_enable(o, false) == 0, "disabled");
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	oncpu_drain(o, count, &v, &st);
	v.mine = 0;
	sleep_ms(100);
	ok(oncpu_drain(o, count, &v, &st) == 0 && v.mine == 0, "nothing more once disabled");
	oncpu_close(o);
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program whose threads contend for two global mutexes, for
 * bench/why-accuracy.sh to measure with scaletop's lock census and with
 * bpftrace's futex timing at once: of THREADS threads, three in four take
 * lock_a and the rest lock_b (6 and 2 at 8), each holding its lock over a
 * 1 ms sleep and doing a little arithmetic outside it.  Sleeping with the
 * lock held keeps its waiters blocked in the futex whatever else runs on
 * the machine, so the two locks' parts of the wait (5 waiters to 1 at 8
 * threads) do not move with the CPUs' load.  The hold is long beside a
 * wake-up: a woken waiter is runnable, not blocked, until it returns from
 * futex(), which bpftrace counts as wait and the census does not, and
 * lock_b's one waiter is woken at every release.  The locks are plain
 * globals in .bss, so the binary's symbols name them.  Every 0.25 s it
 * prints "ops/s: RATE", and it exits after SECONDS.
 * Usage: twolocks THREADS SECONDS
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static atomic_long ops;
static atomic_int stop;
static volatile unsigned long sink;
/* Read at run time, so the compiler makes no copy of mix() for a constant. */
static volatile long think = 2000; /* rounds outside the lock: about 2 us */

__attribute__((noinline)) static unsigned long
mix(unsigned long x, long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static void *
worker(void *arg)
{
	struct timespec hold = { 0, 1000000 };
	pthread_mutex_t *lock = arg;
	unsigned long x = (unsigned long)(size_t)arg;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		pthread_mutex_lock(lock);
		nanosleep(&hold, NULL);
		pthread_mutex_unlock(lock);
		x = mix(x, think);
		atomic_fetch_add_explicit(&ops, 1, memory_order_relaxed);
	}
	sink = x;
	return NULL;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct timespec tick = { 0, 250000000 };
	long n, i, last = 0, cur;
	double secs, start, t, prev;
	pthread_t *t_id;

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) < 2 || n > 4096 ||
	    (secs = strtod(argv[2], NULL)) <= 0) {
		fprintf(stderr, "usage: twolocks THREADS(>=2) SECONDS\n");
		return 2;
	}
	t_id = calloc(n, sizeof(*t_id));
	for (i = 0; t_id && i < n; i++)
		if (pthread_create(&t_id[i], NULL, worker, i < n - n / 4 ? &lock_a : &lock_b) != 0)
			return 1;
	if (!t_id)
		return 1;
	start = prev = now();
	while (now() - start < secs) {
		nanosleep(&tick, NULL);
		t = now();
		cur = atomic_load(&ops);
		printf("ops/s: %.1f\n", (cur - last) / (t - prev));
		fflush(stdout);
		last = cur;
		prev = t;
	}
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(t_id[i], NULL);
	return 0;
}

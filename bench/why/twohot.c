/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A CPU program with a known profile, for bench/why-accuracy.sh to measure
 * with scaletop and perf at once: each of THREADS threads repeats one
 * operation, three units of heavy_work and one of light_work, so about 3/4
 * of its CPU time is in heavy_work and 1/4 in light_work.  The two do the
 * same arithmetic with different constants (so the compiler cannot merge
 * them) and cost the same a unit.  Every 0.25 s it prints "ops/s: RATE",
 * and it exits after SECONDS.  Usage: twohot THREADS SECONDS
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_long ops;
static atomic_int stop;
static volatile unsigned long sink;
/* Read at run time, so the compiler makes no copy of either function for a
 * constant count (heavy_work.constprop.0), which would rename it. */
static volatile long unit = 200000; /* rounds of one unit: about 0.2 ms */

__attribute__((noinline)) static unsigned long
heavy_work(unsigned long x, long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long
light_work(unsigned long x, long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x;
}

static void *
worker(void *arg)
{
	unsigned long x = (unsigned long)(size_t)arg;
	long u = unit;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		x = heavy_work(x, 3 * u);
		x = light_work(x, u);
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

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) < 1 || n > 4096 ||
	    (secs = strtod(argv[2], NULL)) <= 0) {
		fprintf(stderr, "usage: twohot THREADS SECONDS\n");
		return 2;
	}
	t_id = calloc(n, sizeof(*t_id));
	for (i = 0; t_id && i < n; i++)
		if (pthread_create(&t_id[i], NULL, worker, (void *)(size_t)(i + 1)) != 0)
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

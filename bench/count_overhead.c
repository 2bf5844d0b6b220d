/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What counting costs a worker: the cpu workload's own worker loop (the
 * library's wl_cpu.work, which publishes through wl_pace / wl_count /
 * slot_publish into a MAP_SHARED slot, exactly as under `scaletop run`)
 * against the same loop body with a local counter and no shared slot.
 *
 * usage: count_overhead ROUNDS THREADS SECONDS TRIALS
 *
 * Each trial runs, in turn (the order alternates from trial to trial):
 *   local    x = wl_mix(x, ROUNDS); ops++;  until stop (a relaxed load per op)
 *   counted  wl_cpu.work with work=ROUNDS: the shipping loop, paced publishes
 *   every-op wl_count() after every operation (what an unbatched workload
 *            would pay; for information, not judged)
 * with THREADS workers at once, each in its own 128-byte slot of one shared
 * mapping, and a reader thread that reads every slot every 0.25 s the way
 * the monitor does.  Each worker times itself around its loop, with
 * CLOCK_THREAD_CPUTIME_ID and CLOCK_MONOTONIC, so start-up and the stop
 * latency count against nobody.  Per trial and variant it prints ops per
 * CPU-second (the verdict: other load on the machine cannot move it) and
 * ops per wall-second; then the medians and the median of the per-trial
 * ratios counted/local and every-op/local.
 */
#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/slot.h"
#include "scaletop/workload.h"
#include "../src/workload/builtin.h"

#define MAX_THREADS 64
#define MAX_TRIALS 31
#define READ_PERIOD_NS 250000000L

enum variant { V_LOCAL, V_COUNTED, V_EVERY, V_COUNT };
static const char *const variant_names[V_COUNT] = { "local", "counted", "every-op" };

struct bench {
	enum variant v;
	long long rounds;
	int nthreads;
	struct wl_slot *slots;          /* MAP_SHARED, like the runner's */
	struct wl_args args;            /* cpu's, with work=ROUNDS */
	const struct workload *cpu;
	atomic_int go, stop, ready;
};

struct worker_result {
	uint64_t ops;
	double cpu_s, wall_s;
};

struct worker_arg {
	struct bench *b;
	int index;
	struct worker_result res;
};

/* Where results go so the compiler must compute them. */
static _Atomic uint64_t bench_sink;

static double
clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The same start line as the runner's (it naps; a spin would steal the other workers' CPU). */
static void
wait_go(struct bench *b)
{
	struct timespec nap = { 0, 100000 };

	atomic_fetch_add(&b->ready, 1);
	while (!atomic_load_explicit(&b->go, memory_order_acquire))
		nanosleep(&nap, NULL);
}

static uint64_t
splitmix(int index)
{
	uint64_t z = (uint64_t)(index + 1) * UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void *
worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct bench *b = wa->b;
	struct wl_worker w;
	struct slot_view view;
	double c0, t0;
	uint64_t x, ops = 0;

	memset(&w, 0, sizeof(w));
	w.index = wa->index;
	w.nworkers = b->nthreads;
	w.slot = &b->slots[wa->index];
	w.stop = &b->stop;
	w.args = &b->args;
	w.seed = x = splitmix(wa->index);
	wait_go(b);
	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	t0 = clock_s(CLOCK_MONOTONIC);
	switch (b->v) {
	case V_LOCAL:
		do {
			x = wl_mix(x, b->rounds);
			ops++;
		} while (!atomic_load_explicit(&b->stop, memory_order_relaxed));
		atomic_store_explicit(&bench_sink, x, memory_order_relaxed);
		break;
	case V_COUNTED:
		if (b->cpu->work(&w) != 0)
			abort();
		break;
	case V_EVERY:
		do {
			x = wl_mix(x, b->rounds);
			wl_count(&w, ++ops, 0, 0);
		} while (!wl_should_stop(&w));
		atomic_store_explicit(&bench_sink, x, memory_order_relaxed);
		break;
	default:
		abort();
	}
	wa->res.wall_s = clock_s(CLOCK_MONOTONIC) - t0;
	wa->res.cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	if (b->v != V_LOCAL) {
		/* What the monitor would see: the final published total. */
		if (!slot_read(w.slot, w.index, &view)) {
			fprintf(stderr, "count_overhead: slot %d gave no consistent read\n", w.index);
			abort();
		}
		ops = view.ops;
	}
	wa->res.ops = ops;
	return NULL;
}

/* The monitor's side: a consistent read of every slot, four times a second. */
static void *
reader(void *arg)
{
	int i;
	struct bench *b = arg;
	struct timespec nap = { 0, READ_PERIOD_NS };
	struct slot_view v;
	uint64_t sum = 0;

	while (!atomic_load_explicit(&b->stop, memory_order_acquire)) {
		nanosleep(&nap, NULL);
		if (b->v == V_LOCAL)
			continue; /* nothing to read, but the same wake-ups */
		for (i = 0; i < b->nthreads; i++)
			if (slot_read(&b->slots[i], i, &v))
				sum += v.ops;
	}
	atomic_store_explicit(&bench_sink, sum, memory_order_relaxed);
	return NULL;
}

/* One run of one variant; ops per CPU-second and per wall-second, summed over workers. */
static int
run_once(struct bench *b, enum variant v, double seconds, double *per_cpu, double *per_wall)
{
	struct worker_arg wa[MAX_THREADS];
	pthread_t th[MAX_THREADS], rd;
	struct timespec span;
	int i;

	b->v = v;
	atomic_store(&b->go, 0);
	atomic_store(&b->stop, 0);
	atomic_store(&b->ready, 0);
	for (i = 0; i < b->nthreads; i++) {
		slot_publish(&b->slots[i], i, 0, 0, 0);
		wa[i].b = b;
		wa[i].index = i;
		memset(&wa[i].res, 0, sizeof(wa[i].res));
		if ((errno = pthread_create(&th[i], NULL, worker, &wa[i])) != 0) {
			perror("count_overhead: pthread_create");
			return -1;
		}
	}
	if ((errno = pthread_create(&rd, NULL, reader, b)) != 0) {
		perror("count_overhead: pthread_create");
		return -1;
	}
	while (atomic_load(&b->ready) < b->nthreads) {
		struct timespec nap = { 0, 100000 };

		nanosleep(&nap, NULL);
	}
	atomic_store_explicit(&b->go, 1, memory_order_release);
	span.tv_sec = (time_t)seconds;
	span.tv_nsec = (long)((seconds - (double)span.tv_sec) * 1e9);
	while (nanosleep(&span, &span) == -1 && errno == EINTR)
		;
	atomic_store_explicit(&b->stop, 1, memory_order_release);
	*per_cpu = *per_wall = 0;
	for (i = 0; i < b->nthreads; i++) {
		pthread_join(th[i], NULL);
		if (wa[i].res.cpu_s <= 0 || wa[i].res.wall_s <= 0)
			return -1;
		*per_cpu += (double)wa[i].res.ops / wa[i].res.cpu_s;
		*per_wall += (double)wa[i].res.ops / wa[i].res.wall_s;
	}
	pthread_join(rd, NULL);
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(const double *v, int n)
{
	double s[MAX_TRIALS];

	memcpy(s, v, (size_t)n * sizeof(*v));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static long
arg_long(const char *what, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "count_overhead: %s '%s': give a whole number in %ld..%ld\n", what, s,
			lo, hi);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	static double cpu[V_COUNT][MAX_TRIALS], wall[V_COUNT][MAX_TRIALS];
	static double rcpu[V_COUNT][MAX_TRIALS], rwall[V_COUNT][MAX_TRIALS];
	static const enum variant order[2][V_COUNT] = {
		{ V_LOCAL, V_COUNTED, V_EVERY }, { V_EVERY, V_COUNTED, V_LOCAL },
	};
	struct bench b;
	char err[256], kv[64], *end;
	double seconds;
	int trials, t, k;

	if (argc != 5) {
		fprintf(stderr, "usage: count_overhead ROUNDS THREADS SECONDS TRIALS\n");
		return 2;
	}
	memset(&b, 0, sizeof(b));
	b.rounds = arg_long("ROUNDS", argv[1], 1, 100000000);
	b.nthreads = (int)arg_long("THREADS", argv[2], 1, MAX_THREADS);
	seconds = strtod(argv[3], &end);
	if (*end != '\0' || !(seconds >= 0.1 && seconds <= 60)) {
		fprintf(stderr, "count_overhead: SECONDS '%s': give a time in 0.1..60\n", argv[3]);
		return 2;
	}
	trials = (int)arg_long("TRIALS", argv[4], 1, MAX_TRIALS);
	if ((b.cpu = workload_find("cpu")) == NULL) {
		fprintf(stderr, "count_overhead: no cpu workload in this build\n");
		return 1;
	}
	wl_args_defaults(&b.args, b.cpu);
	snprintf(kv, sizeof(kv), "work=%lld", b.rounds);
	if (wl_args_set(&b.args, kv, err, sizeof(err)) != 0) {
		fprintf(stderr, "count_overhead: %s\n", err);
		return 2;
	}
	b.slots = mmap(NULL, (size_t)b.nthreads * sizeof(struct wl_slot), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANON, -1, 0);
	if (b.slots == MAP_FAILED) {
		perror("count_overhead: mmap");
		return 1;
	}

	printf("count_overhead: work=%lld rounds per op, %d thread(s), %.1f s per run, %d trials\n",
	       b.rounds, b.nthreads, seconds, trials);
	printf("%-5s %-8s %14s %14s %9s\n", "trial", "variant", "ops/CPU-s", "ops/wall-s",
	       "vs local");
	for (t = 0; t < trials; t++) {
		for (k = 0; k < V_COUNT; k++) {
			enum variant v = order[t % 2][k];

			if (run_once(&b, v, seconds, &cpu[v][t], &wall[v][t]) != 0) {
				fprintf(stderr, "count_overhead: run failed\n");
				return 1;
			}
		}
		for (k = 0; k < V_COUNT; k++) {
			rcpu[k][t] = cpu[k][t] / cpu[V_LOCAL][t];
			rwall[k][t] = wall[k][t] / wall[V_LOCAL][t];
			printf("%-5d %-8s %14.0f %14.0f %9.4f\n", t + 1, variant_names[k], cpu[k][t],
			       wall[k][t], rcpu[k][t]);
		}
	}
	printf("median over %d trials:\n", trials);
	for (k = 0; k < V_COUNT; k++)
		printf("  %-8s %14.0f ops/CPU-s %14.0f ops/wall-s\n", variant_names[k],
		       median(cpu[k], trials), median(wall[k], trials));
	printf("count_overhead: work=%lld threads=%d counted/local %.4f (per CPU-s), %.4f (per "
	       "wall-s); every-op/local %.4f (per CPU-s)\n",
	       b.rounds, b.nthreads, median(rcpu[V_COUNTED], trials),
	       median(rwall[V_COUNTED], trials), median(rcpu[V_EVERY], trials));
	munmap(b.slots, (size_t)b.nthreads * sizeof(struct wl_slot));
	return 0;
}

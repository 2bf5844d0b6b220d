/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What it costs to gather N workers at the start line and release them: the
 * library's start line (startline.h: workers block in poll() on a pipe the
 * gatherer closes) against the loop it replaced, kept here as it was in
 * runner.c (workers and gatherer nap 100 us and re-read a go flag).
 *
 * usage: start_line block|nap threads|processes N [CAP_S]
 *
 * One line of figures:
 *   start    from the first worker's creation until all N have arrived
 *   release  from the release until the last worker has seen it (each
 *            worker stamps CLOCK_MONOTONIC when it passes; the latest stamp)
 * The workers do nothing after the line but return, so the figures are the
 * line's alone.  A variant that has not created and gathered everyone
 * within CAP_S (default 20 s) is stopped and reported as "capped": the old
 * loop's herd can starve the creation of the rest for that long.
 */
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/platform.h"
#include "../src/engine/startline.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define MAX_WORKERS 4096
#define OLD_NAP_NS 100000L /* runner.c's RUNNER_START_NAP_NS before the start line */

struct shared {
	struct startline_state st;
	atomic_int stop;
	atomic_int nap_ready, nap_go; /* the old loop's counters */
	_Atomic uint64_t passed_ns[MAX_WORKERS];
};

static struct shared *sh;
static struct startline line;
static bool use_nap;

static void
nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* The old start line, as runner_work had it. */
static bool
nap_wait(void)
{
	atomic_fetch_add(&sh->nap_ready, 1);
	while (!atomic_load_explicit(&sh->nap_go, memory_order_acquire)) {
		if (atomic_load(&sh->stop))
			return false;
		nap(OLD_NAP_NS);
	}
	return true;
}

static void
worker(int i)
{
	bool go = use_nap ? nap_wait() : startline_wait(&line, &sh->stop);

	if (go)
		atomic_store(&sh->passed_ns[i], mono_now_ns());
}

static void *
worker_thread(void *arg)
{
	worker((int)(intptr_t)arg);
	return NULL;
}

static int
arrived(void)
{
	return use_nap ? atomic_load(&sh->nap_ready) : startline_ready(&line);
}

static void
release(void)
{
	if (use_nap) {
		atomic_store_explicit(&sh->nap_go, 1, memory_order_release);
		return;
	}
	startline_release(&line);
}

static int
usage(void)
{
	fprintf(stderr, "usage: start_line block|nap threads|processes N [CAP_S]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	int i;
	static pthread_t threads[MAX_WORKERS];
	static pid_t pids[MAX_WORKERS];
	bool procs;
	int n, started = 0, gathered_n;
	double cap_s;
	uint64_t t0, gathered = 0, go, last = 0, cap_ns;

	if (argc < 4 || (strcmp(argv[1], "block") != 0 && strcmp(argv[1], "nap") != 0) ||
	    (strcmp(argv[2], "threads") != 0 && strcmp(argv[2], "processes") != 0))
		return usage();
	use_nap = strcmp(argv[1], "nap") == 0;
	procs = strcmp(argv[2], "processes") == 0;
	n = atoi(argv[3]);
	cap_s = argc > 4 ? atof(argv[4]) : 20;
	if (n < 1 || n > MAX_WORKERS || cap_s <= 0)
		return usage();
	cap_ns = (uint64_t)(cap_s * 1e9);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || (startline_state_init(&sh->st), startline_open(&line, &sh->st)) != 0) {
		perror("start_line: set-up");
		return 1;
	}

	t0 = mono_now_ns();
	for (i = 0; i < n && mono_now_ns() - t0 < cap_ns; i++, started++) {
		if (!procs) {
			if (pthread_create(&threads[i], NULL, worker_thread, (void *)(intptr_t)i) != 0)
				break;
			continue;
		}
		if ((pids[i] = fork()) == 0) {
			startline_forked(&line);
			worker(i);
			_exit(0);
		}
		if (pids[i] == -1)
			break;
	}
	/* The gatherer naps as the step's child does: 100 us before, 1 ms now. */
	while (arrived() < started && mono_now_ns() - t0 < cap_ns)
		nap(use_nap ? OLD_NAP_NS : 1000000L);
	gathered_n = arrived();
	if (gathered_n == started && started == n)
		gathered = mono_now_ns();
	else
		atomic_store(&sh->stop, 1);
	go = mono_now_ns();
	release();
	for (i = 0; i < started; i++) {
		if (procs)
			waitpid(pids[i], NULL, 0);
		else
			pthread_join(threads[i], NULL);
	}
	for (i = 0; i < started; i++) {
		uint64_t p = atomic_load(&sh->passed_ns[i]);

		last = p > last ? p : last;
	}
	if (gathered == 0) {
		printf("start_line: %s %d %s: capped: %d started, %d of them arrived within %.1f s\n",
		       argv[1], n, argv[2], started, gathered_n, cap_s);
		return 0;
	}
	printf("start_line: %s %d %s: start %.4f s release %.4f s\n", argv[1], n, argv[2],
	       (double)(gathered - t0) / 1e9, last > go ? (double)(last - go) / 1e9 : 0.0);
	return 0;
}

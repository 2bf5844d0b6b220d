/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The start line on its own: waiters block until the release and all pass
 * it then; a close without release, or the stop flag, sends them back; a
 * worker process killed at the line holds nobody up.  Nothing asserts on
 * how long anything took.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/engine/startline.h"
#include "../tap.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define NT 16
#define NP 6

struct shared {
	struct startline_state st;
	atomic_int stop;
	atomic_int passed;   /* waiters that were released */
	atomic_int returned; /* waiters that came back, either way */
};

static struct shared *sh;
static struct startline line;

static void
nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *
waiter(void *arg)
{
	if (startline_wait(&line, &sh->stop))
		atomic_fetch_add(&sh->passed, 1);
	atomic_fetch_add(&sh->returned, 1);
	return arg;
}

static void
reset(void)
{
	startline_state_init(&sh->st);
	atomic_store(&sh->stop, 0);
	atomic_store(&sh->passed, 0);
	atomic_store(&sh->returned, 0);
	if (startline_open(&line, &sh->st) == -1) {
		diag("startline_open failed");
		exit(1);
	}
}

static void
gather(int n)
{
	int i;

	for (i = 0; i < 10000 && startline_ready(&line) < n; i++)
		nap_ms(1);
}

/* Threads wait, then the release or the close decides whether they pass. */
static void
test_threads(bool release)
{
	const char *how = release ? "release" : "close";
	pthread_t t[NT];
	int i;

	reset();
	for (i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	gather(NT);
	is_int(startline_ready(&line), NT, "every thread arrived");
	nap_ms(20);
	is_int(atomic_load(&sh->returned), 0, "nobody passes before the gate opens");
	ok(!startline_released(&sh->st) && startline_go_ns(&sh->st) == 0, "%s: not released yet",
	   how);
	if (release)
		startline_release(&line);
	else
		startline_close(&line);
	for (i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	is_int(atomic_load(&sh->passed), release ? NT : 0,
	       release ? "the release lets every thread pass" : "a close sends every thread back");
	ok(startline_released(&sh->st) == release && (startline_go_ns(&sh->st) != 0) == release,
	   "%s: released and go time agree", how);
	startline_close(&line); /* idempotent */
	close(line.rfd);
}

/* The stop flag, set before a worker arrives, sends it back without a wait. */
static void
test_stop_first(void)
{
	reset();
	atomic_store(&sh->stop, 1);
	ok(!startline_wait(&line, &sh->stop), "stop set first: the worker returns at once");
	startline_close(&line);
	close(line.rfd);
}

static pid_t
fork_waiter(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		startline_forked(&line);
		_exit(startline_wait(&line, &sh->stop) ? 0 : 3);
	}
	return pid;
}

/* Processes, one of which is killed at the line: the rest are still released. */
static void
test_processes(void)
{
	pid_t pid[NP];
	int st, passed = 0, i;

	reset();
	for (i = 0; i < NP; i++)
		pid[i] = fork_waiter();
	gather(NP);
	is_int(startline_ready(&line), NP, "every process arrived");
	kill(pid[0], SIGKILL);
	waitpid(pid[0], &st, 0);
	ok(WIFSIGNALED(st), "one waiter is killed at the line");
	startline_release(&line);
	for (i = 1; i < NP; i++)
		passed +=
			waitpid(pid[i], &st, 0) == pid[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	is_int(passed, NP - 1, "the other processes are all released");
	close(line.rfd);
}

int
main(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		diag("mmap failed");
		return 1;
	}
	test_threads(true);
	test_threads(false);
	test_stop_first();
	test_processes();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A process of many sleeping threads, for bench/target-cost.sh to watch
 * with --target pid:N: each thread waits on one condition variable that is
 * never signalled, so every one of them is asleep in a futex.  Usage:
 * sleepers [THREADS] (default 1000); prints its pid, runs until killed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *
sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;)
		pthread_cond_wait(&never, &lock);
	return NULL;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i;
	pthread_attr_t attr;
	pthread_t t;

	if (n < 1 || n > 100000) {
		fprintf(stderr, "sleepers: give a thread count of 1 to 100000\n");
		return 2;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, &attr, sleeper, NULL) != 0) {
			fprintf(stderr, "sleepers: thread %ld could not start\n", i);
			return 1;
		}
	}
	printf("%ld\n", (long)getpid());
	fflush(stdout);
	for (;;)
		pause();
}

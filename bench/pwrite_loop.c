/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The harness-free reference for bench/fidelity.sh: THREADS threads each
 * pwrite() BLOCK bytes at a uniform block of a uniform file of FILE..., with
 * nothing else in the loop but a counter of its own.  What it reaches is the
 * ceiling any harness measures the same writes against; a tool's distance
 * below it is that tool's own cost per write.
 *
 * usage: pwrite_loop THREADS BLOCK WARMUP_SECONDS SECONDS FILE...
 * prints: "writes/s: RATE" over the SECONDS after the warm-up.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64
#define MAX_FILES 1024

struct loop_thread {
	_Alignas(128) atomic_ullong writes; /* a line of its own: no false sharing */
	pthread_t tid;
	uint64_t rng;
	int error;
};

static struct loop_thread threads[MAX_THREADS];
static int fds[MAX_FILES], nfiles;
static size_t block;
static unsigned long long nblocks;
static atomic_int stop;

static uint64_t
loop_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *
loop_run(void *arg)
{
	size_t k;
	struct loop_thread *t = arg;
	unsigned char *buf = malloc(block);
	unsigned long long n = 0;

	if (buf == NULL) {
		t->error = ENOMEM;
		return NULL;
	}
	for (k = 0; k < block; k++)
		buf[k] = (unsigned char)loop_random(&t->rng);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		int fd = fds[loop_random(&t->rng) % (uint64_t)nfiles];
		off_t off = (off_t)(loop_random(&t->rng) % nblocks * block);

		if (pwrite(fd, buf, block, off) != (ssize_t)block) {
			t->error = errno ? errno : EIO;
			break;
		}
		atomic_store_explicit(&t->writes, ++n, memory_order_relaxed);
	}
	free(buf);
	return NULL;
}

static double
loop_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long
loop_total(int n)
{
	int i;
	unsigned long long sum = 0;

	for (i = 0; i < n; i++)
		sum += atomic_load_explicit(&threads[i].writes, memory_order_relaxed);
	return sum;
}

static void
loop_sleep(double seconds)
{
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Opens every file; the smallest sets the block range. 0, or 1 after a message. */
static int
loop_open(char **paths, int n)
{
	unsigned long long smallest = 0;
	struct stat st;

	for (nfiles = 0; nfiles < n; nfiles++) {
		if ((fds[nfiles] = open(paths[nfiles], O_WRONLY)) == -1 ||
		    fstat(fds[nfiles], &st) == -1) {
			fprintf(stderr, "pwrite_loop: %s: %s\n", paths[nfiles], strerror(errno));
			return 1;
		}
		if (nfiles == 0 || (unsigned long long)st.st_size < smallest)
			smallest = (unsigned long long)st.st_size;
	}
	if ((nblocks = smallest / block) == 0) {
		fprintf(stderr, "pwrite_loop: a file is smaller than one %zu-byte block\n", block);
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, i;
	double warmup = argc > 3 ? atof(argv[3]) : 0, secs = argc > 4 ? atof(argv[4]) : 0, t0, t1;
	unsigned long long w0, w1;

	block = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 0;
	if (argc < 6 || n < 1 || n > MAX_THREADS || block == 0 || warmup < 0 || secs <= 0 ||
	    argc - 5 > MAX_FILES) {
		fprintf(stderr, "usage: pwrite_loop THREADS(1-%d) BLOCK WARMUP_SECONDS SECONDS "
		        "FILE... (up to %d files)\n", MAX_THREADS, MAX_FILES);
		return 2;
	}
	if (loop_open(argv + 5, argc - 5) != 0)
		return 1;
	for (i = 0; i < n; i++) {
		threads[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
		if ((errno = pthread_create(&threads[i].tid, NULL, loop_run, &threads[i])) != 0) {
			perror("pwrite_loop: pthread_create");
			atomic_store(&stop, 1);
			while (i-- > 0)
				pthread_join(threads[i].tid, NULL);
			return 1;
		}
	}
	loop_sleep(warmup);
	w0 = loop_total(n), t0 = loop_now();
	loop_sleep(secs);
	w1 = loop_total(n), t1 = loop_now();
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++) {
		pthread_join(threads[i].tid, NULL);
		if (threads[i].error != 0) {
			fprintf(stderr, "pwrite_loop: thread %d: %s\n", i, strerror(threads[i].error));
			return 1;
		}
	}
	printf("writes/s: %.2f\n", (double)(w1 - w0) / (t1 - t0));
	return 0;
}

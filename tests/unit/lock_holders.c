/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The census's test subject (tests/unit/test_lock_census): threads that
 * wait on a global lock, so the census has something to find and name.
 *
 *   lock_holders mutex   8 threads contend for big_lock; the one that gets
 *                        it prints "holder TID" and sleeps inside it, so 7
 *                        wait in FUTEX_WAIT on &big_lock
 *   lock_holders cond    4 threads wait on big_cond (FUTEX_WAIT_BITSET)
 *   lock_holders sem     4 threads wait on big_sem (FUTEX_WAIT_BITSET)
 *   lock_holders heap    as mutex, on a mutex malloc'ed on the heap, which no
 *                        symbol names: heap_contend is where it is waited on
 *   lock_holders shared  as mutex, on a process-shared mutex in MAP_SHARED
 *                        memory: shared_contend is where it is waited on
 *   lock_holders waitv   4 threads wait on waitv_word with futex_waitv (futex2),
 *                        or "ready 0" where the kernel has no futex_waitv
 *
 * It prints "ready" once its threads are started, then the main thread
 * sleeps in pause() until killed.  Globals with external linkage, so
 * they are in .symtab under their own names; all are in .bss.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MUTEX_THREADS 8
#define WAIT_THREADS 4

pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t big_cond = PTHREAD_COND_INITIALIZER;
sem_t big_sem;
uint32_t waitv_word;

/* The kernel's struct futex_waitv (linux/futex.h), and its flags for a private u32. */
struct waitv_entry {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};
#define WAITV_U32_PRIVATE (0x02 | 128)
#define NR_FUTEX_WAITV 449 /* the same on x86_64 and the generic table */

static void
sleep_long(void)
{
	struct timespec ts = { 3600, 0 };

	for (;;)
		nanosleep(&ts, NULL);
}

static void *
contend(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&big_lock);
	printf("holder %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	sleep_long();
	return NULL;
}

/* Its own function, not inlined, so the waiters' stacks return into it. */
void *heap_contend(void *arg);
__attribute__((noinline)) void *
heap_contend(void *arg)
{
	pthread_mutex_lock(arg);
	printf("holder %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	sleep_long();
	return NULL;
}

/* The same for a process-shared mutex in MAP_SHARED memory. */
void *shared_contend(void *arg);
__attribute__((noinline)) void *
shared_contend(void *arg)
{
	pthread_mutex_lock(arg);
	printf("holder %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	sleep_long();
	return NULL;
}

/* A PTHREAD_PROCESS_SHARED mutex in a MAP_SHARED anonymous mapping; NULL on failure. */
static pthread_mutex_t *
shared_mutex(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m;

	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || pthread_mutexattr_init(&a) != 0 ||
	    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED) != 0 ||
	    pthread_mutex_init(m, &a) != 0)
		return NULL;
	return m;
}

static void *
cond_wait(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cond_lock);
	for (;;)
		pthread_cond_wait(&big_cond, &cond_lock);
	return NULL;
}

static void *
sem_waiter(void *arg)
{
	(void)arg;
	for (;;)
		sem_wait(&big_sem);
	return NULL;
}

/* Waits on waitv_word alone; returns where the kernel has no futex_waitv. */
static void *
waitv_waiter(void *arg)
{
	struct waitv_entry w = { 0, (uintptr_t)&waitv_word, WAITV_U32_PRIVATE, 0 };

	(void)arg;
	for (;;)
		if (syscall(NR_FUTEX_WAITV, &w, 1, 0, NULL, CLOCK_MONOTONIC) < 0 && errno == ENOSYS)
			return NULL;
	return NULL;
}

/* Whether this kernel has futex_waitv: a call with no futexes is EINVAL there. */
static int
waitv_supported(void)
{
	return !(syscall(NR_FUTEX_WAITV, NULL, 0, 0, NULL, CLOCK_MONOTONIC) < 0 && errno == ENOSYS);
}

int
main(int argc, char **argv)
{
	void *(*fn)(void *) = NULL, *fn_arg = NULL;
	pthread_mutex_t *heap_lock;
	pthread_t t;
	int i, n = WAIT_THREADS;

	if (argc == 2 && strcmp(argv[1], "mutex") == 0) {
		fn = contend;
		n = MUTEX_THREADS;
	} else if (argc == 2 && strcmp(argv[1], "cond") == 0) {
		fn = cond_wait;
	} else if (argc == 2 && strcmp(argv[1], "heap") == 0) {
		heap_lock = malloc(sizeof *heap_lock);
		if (heap_lock == NULL || pthread_mutex_init(heap_lock, NULL) != 0)
			return 1;
		fn = heap_contend;
		fn_arg = heap_lock;
		n = MUTEX_THREADS;
	} else if (argc == 2 && strcmp(argv[1], "shared") == 0) {
		if ((fn_arg = shared_mutex()) == NULL)
			return 1;
		fn = shared_contend;
		n = MUTEX_THREADS;
	} else if (argc == 2 && strcmp(argv[1], "waitv") == 0) {
		fn = waitv_waiter;
		if (!waitv_supported())
			n = 0;
	} else if (argc == 2 && strcmp(argv[1], "sem") == 0) {
		fn = sem_waiter;
		sem_init(&big_sem, 0, 0);
	} else {
		fprintf(stderr, "usage: lock_holders mutex|heap|shared|cond|sem|waitv\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t, NULL, fn, fn_arg) != 0) {
			perror("lock_holders: pthread_create");
			return 1;
		}
	printf("ready %d\n", n);
	fflush(stdout);
	for (;;)
		pause();
}

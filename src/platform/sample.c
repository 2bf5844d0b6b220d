/* SPDX-License-Identifier: BSD-2-Clause */
/* The raw sample container shared by every backend. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scaletop/platform.h"

const char *const cpu_state_names[CPU_NSTATES] = {
	"usr", "nice", "sys", "irq", "soft", "iowait", "steal", "idle",
};

const char *const sys_counter_names[SYS_NCOUNTERS] = {
	"ctxsw", "intr", "softirq", "syscall", "fork",
};

void
raw_sample_init(struct raw_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void
raw_sample_free(struct raw_sample *s)
{
	free(s->cpu);
	raw_sample_init(s);
}

int
raw_sample_reserve(struct raw_sample *s, int n)
{
	struct cpu_ticks *p;

	if (n <= s->cap)
		return 0;
	p = realloc(s->cpu, (size_t)n * sizeof(*p));
	if (p == NULL) {
		errno = ENOMEM;
		return -1;
	}
	s->cpu = p;
	s->cap = n;
	return 0;
}

int
raw_sample_copy(struct raw_sample *dst, const struct raw_sample *src)
{
	if (raw_sample_reserve(dst, src->ncpu) != 0)
		return -1;
	if (src->ncpu > 0)
		memcpy(dst->cpu, src->cpu, (size_t)src->ncpu * sizeof(*src->cpu));
	dst->ncpu = src->ncpu;
	dst->mono_ns = src->mono_ns;
	dst->sys = src->sys;
	return 0;
}

const struct cpu_ticks *
raw_sample_find(const struct raw_sample *s, int id)
{
	int lo = 0, hi = s->ncpu - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->cpu[mid].id == id)
			return &s->cpu[mid];
		if (s->cpu[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

uint64_t
mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t
self_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A handle of no open file: every backend opens its files on the first read. */
void
thread_handle_init(struct thread_handle *h, pid_t pid, pid_t tid)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->tid = tid;
	for (i = 0; i < THREAD_FILES; i++)
		h->fd[i] = -1;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * On-CPU sampling on Linux, OS calls only: one perf_event_open(2) cpu-clock
 * event per online CPU, for every task (pid -1), each with its own mmap'ed
 * ring that the monitor empties on its ticks.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scaletop/oncpu.h"

/*
 * One event a CPU rather than a thread: at 1024 threads a per-thread event
 * would be 1024 descriptors and rings, and threads made after the window
 * opened would be missed (an inherited per-task event cannot be mmap'ed).
 * The records are decoded by decode_perf.c.
 */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t map_len;
};

struct oncpu {
	struct ring *rings;
	int nrings;
	size_t data_len;        /* each ring's data area, a power of two */
	unsigned char *scratch; /* one ring's records, unwrapped */
};

static int
event_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Ring pages a CPU: 16 (64 KiB) hold over a second of 99 Hz samples with
 * deep chains, so a late tick loses none; a machine with hundreds of CPUs
 * gets fewer, since each is a locked mapping.
 */
static size_t
ring_pages(int ncpus)
{
	if (ncpus > 256)
		return 4;
	if (ncpus > 64)
		return 8;
	return 16;
}

static void
attr_fill(struct perf_event_attr *a, int hz)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = (uint64_t)hz;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	a->disabled = 1;
	a->exclude_hv = 1;
	a->exclude_guest = 1;
	/* An idle CPU's samples name no thread: with one worker on 2 CPUs they were half the ring.
	 */
	a->exclude_idle = 1;
	/* the frames kept, plus the context markers between them */
	a->sample_max_stack = ONCPU_MAX_FRAMES + 4;
}

static void
why_set(char *why, size_t whylen, int e)
{
	if (e == EACCES || e == EPERM)
		snprintf(why, whylen,
			 "on-CPU sampling needs root or CAP_PERFMON (or sysctl "
			 "kernel.perf_event_paranoid=-1): %s",
			 strerror(e));
	else if (e == ENOENT || e == ENOSYS || e == EOPNOTSUPP)
		snprintf(why, whylen, "this kernel has no cpu-clock perf events: %s", strerror(e));
	else
		snprintf(why, whylen, "perf_event_open: %s", strerror(e));
}

static int
ring_map(struct ring *r, size_t data_len)
{
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	r->map_len = (size_t)page + data_len;
	m = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (m == MAP_FAILED)
		return -1;
	r->meta = m;
	r->data = (unsigned char *)m + page;
	return 0;
}

static void
ring_unmap(struct ring *r)
{
	if (r->meta)
		munmap(r->meta, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
}

/* Opens and maps CPU cpu's event into r; 1 when the CPU is offline, 0, or -1 with errno. */
static int
ring_open(struct ring *r, int cpu, int hz, size_t data_len)
{
	struct perf_event_attr a;

	attr_fill(&a, hz);
	r->meta = NULL;
	r->fd = event_open(&a, cpu);
	if (r->fd < 0)
		return errno == ENODEV || errno == ENXIO ? 1 : -1;
	if (ring_map(r, data_len) < 0) {
		close(r->fd);
		r->fd = -1;
		return -1;
	}
	return 0;
}

struct oncpu *
oncpu_open(int hz, char *why, size_t whylen)
{
	struct oncpu *o;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, r, e;

	if (ncpu < 1)
		ncpu = 1;
	o = calloc(1, sizeof *o);
	if (!o || !(o->rings = calloc((size_t)ncpu, sizeof *o->rings)))
		goto fail;
	o->data_len = ring_pages((int)ncpu) * (size_t)sysconf(_SC_PAGESIZE);
	if (!(o->scratch = malloc(o->data_len)))
		goto fail;
	for (cpu = 0; cpu < ncpu; cpu++) {
		r = ring_open(&o->rings[o->nrings], cpu, hz, o->data_len);
		if (r < 0)
			goto fail;
		if (r == 0)
			o->nrings++;
	}
	if (o->nrings == 0) {
		errno = ENODEV;
		goto fail;
	}
	return o;
fail:
	e = errno;
	why_set(why, whylen, e);
	oncpu_close(o);
	errno = e;
	return NULL;
}

int
oncpu_enable(struct oncpu *o, bool on)
{
	int i;

	for (i = 0; i < o->nrings; i++)
		if (ioctl(o->rings[i].fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) <
		    0)
			return -1;
	return 0;
}

/* Copies ring r's records since its tail into o->scratch, in order; their length. */
static size_t
ring_take(struct oncpu *o, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	size_t len, at, first;

	len = (size_t)(head - tail);
	if (len > o->data_len) /* cannot happen unless the kernel overwrote: take none */
		len = 0;
	at = (size_t)(tail & (o->data_len - 1));
	first = o->data_len - at < len ? o->data_len - at : len;
	memcpy(o->scratch, r->data + at, first);
	memcpy(o->scratch + first, r->data, len - first);
	__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
	return len;
}

int
oncpu_drain(struct oncpu *o, oncpu_sample_cb cb, void *arg, struct perf_decode_stats *st)
{
	int i, r = 0;
	size_t len;

	for (i = 0; i < o->nrings; i++) {
		len = ring_take(o, &o->rings[i]);
		if (len && perf_records_decode(o->scratch, len, cb, arg, st) < 0)
			r = -1;
	}
	return r;
}

int
oncpu_ncpus(const struct oncpu *o)
{
	return o->nrings;
}

void
oncpu_close(struct oncpu *o)
{
	int i;

	if (!o)
		return;
	for (i = 0; i < o->nrings; i++)
		ring_unmap(&o->rings[i]);
	free(o->rings);
	free(o->scratch);
	free(o);
}

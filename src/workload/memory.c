/* SPDX-License-Identifier: BSD-2-Clause */
/* memory: memcpy bandwidth over a per-worker buffer larger than the caches. */
#include <sys/mman.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_SIZE };

static const struct wl_param memory_params[] = {
	{ "size", WP_SIZE, "64M", 8192, 16LL << 30, NULL,
	  "bytes of buffer per worker: half source, half destination" },
};

/* Copies go in chunks so a worker publishes and sees stop every few microseconds. */
#define MEMORY_CHUNK (64 * 1024)

static int
memory_work(struct wl_worker *w)
{
	size_t half = (size_t)w->args->v[P_SIZE].i / 2;
	size_t chunk = half < MEMORY_CHUNK ? half : MEMORY_CHUNK, off = 0;
	struct wl_pace pace;
	unsigned char *buf, *src, *dst;

	/* mmap rather than malloc: the compiler cannot prove the copies dead. */
	buf = mmap(NULL, 2 * half, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	if (buf == MAP_FAILED)
		return errno;
	src = buf;
	dst = buf + half;
	/*
	 * Fault every page in now, so the step measures copying, not page
	 * faults; piecewise, since a big buffer takes a while and stop may come.
	 */
	for (off = 0; off < half && !wl_should_stop(w); off += chunk) {
		size_t n = half - off < chunk ? half - off : chunk;

		memset(src + off, 0xa5, n);
		memset(dst + off, 0x5a, n);
	}
	off = 0;
	wl_pace_init(&pace);
	do {
		if (off + chunk > half)
			off = 0;
		memcpy(dst + off, src + off, chunk);
		wl_keep_mem(dst + off);
		off += chunk;
	} while (!wl_pace_add(&pace, w, chunk));
	wl_count(w, pace.ops, 0, 0);
	munmap(buf, 2 * half);
	return 0;
}

const struct workload wl_memory = {
	.name = "memory",
	.unit = "bytes",
	.summary = "memcpy bandwidth over a per-worker buffer: the memory-bandwidth ceiling",
	.help = "Each worker copies the first half of its own size= buffer into the second half, "
		"64 KiB at a time, round and round; throughput is bytes copied per second (each "
		"byte is read once and written once, so the memory bus moves at least twice that). "
		"With the default 64M per worker the buffer is far larger than the caches, so "
		"this measures DRAM bandwidth, and memory use is N times size=. A healthy system "
		"scales it for a few workers and then flattens at the machine's bandwidth ceiling, "
		"usually well before the CPU count; on NUMA machines the ceiling rises as workers "
		"spread over more memory controllers. A fall, rather than a plateau, beyond the "
		"ceiling points at cache thrashing or remote-memory traffic. Small sizes that fit "
		"in a core's cache should scale with cores instead.",
	.params = memory_params,
	.nparams = sizeof(memory_params) / sizeof(memory_params[0]),
	.work = memory_work,
};

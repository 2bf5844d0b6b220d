/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pagefault: map anonymous memory, touch every page, unmap, again and again.
 * Faults take the address-space lock for reading (or a per-VMA lock),
 * mmap and munmap take it for writing, and every page comes from the page
 * allocator zeroed, so threads of one process contend on all three.
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "scaletop/workload.h"
#include "builtin.h"

enum { P_SIZE };

static const struct wl_param pagefault_params[] = {
	{ "size", WP_SIZE, "1M", 4096, 1LL << 30, NULL,
	  "bytes mapped, touched and unmapped per cycle" },
};

/* Pages touched between pace checks: keeps publishes frequent even for size=1G. */
#define PAGEFAULT_GROUP 64

/* Touches pages [from, to) of the mapping: one write fault each. */
static void
pagefault_touch(volatile unsigned char *map, size_t page, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		map[i * page] = 1;
}

static int
pagefault_work(struct wl_worker *w)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = (size_t)w->args->v[P_SIZE].i, npages = (size + page - 1) / page, i, n;
	struct wl_pace pace;
	unsigned char *map;
	bool stop = false;

	wl_pace_init(&pace);
	while (!stop) {
		map = mmap(NULL, npages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1,
			   0);
		if (map == MAP_FAILED)
			return errno;
#ifdef MADV_NOHUGEPAGE
		/* Linux: a huge page would satisfy 512 touches with one fault and break the count.
		 */
		madvise(map, npages * page, MADV_NOHUGEPAGE);
#endif
		for (i = 0; i < npages && !stop; i += n) {
			n = npages - i < PAGEFAULT_GROUP ? npages - i : PAGEFAULT_GROUP;
			pagefault_touch(map, page, i, i + n);
			stop = wl_pace_add(&pace, w, n);
		}
		munmap(map, npages * page);
	}
	wl_count(w, pace.ops, 0, 0);
	return 0;
}

const struct workload wl_pagefault = {
	.name = "pagefault",
	.unit = "faults",
	.summary = "mmap, touch every page, munmap: the address-space lock and page allocator",
	.help = "Each worker maps size= bytes of anonymous memory, writes one byte to every page "
		"and unmaps it, over and over; one operation is one page fault (first touch of a "
		"page), so faults/s is also pages zeroed and freed per second. Faults take the "
		"process's address-space lock shared (or only a per-VMA lock on recent Linux) "
		"while mmap and munmap take it exclusive, and every page goes through the page "
		"allocator. A healthy kernel scales faults with cores while mappings are large "
		"(the default 1M is 256 faults per mmap on 4 KiB pages); smaller size= shifts the "
		"load to "
		"mmap/munmap and shows the exclusive lock as a flat or falling curve with much "
		"system time. In process mode each worker has its own address space, leaving "
		"only the page allocator shared.",
	.params = pagefault_params,
	.nparams = sizeof(pagefault_params) / sizeof(pagefault_params[0]),
	.work = pagefault_work,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the /proc/PID/maps decoder (decode_maps.c): any
 * bytes.  An accepted list ascends without overlap, every path is a
 * terminated string inside the pool, and each mapping finds itself by its
 * first and last byte; a refused one sets EINVAL, ERANGE or ENOMEM.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct map_list l = { 0 };
	const struct map_entry *e;
	size_t i;
	char *p = malloc(size ? size : 1);

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	errno = 0;
	if (maps_decode(p, size, &l) < 0) {
		if (errno != EINVAL && errno != ERANGE && errno != ENOMEM)
			abort();
	} else {
		for (i = 0; i < l.n; i++) {
			e = &l.e[i];
			if (e->start >= e->end || (i > 0 && e->start < l.e[i - 1].end))
				abort();
			if (e->path >= l.plen ||
			    strnlen(map_path(&l, e), l.plen - e->path) == l.plen - e->path)
				abort();
			if (maps_find(&l, e->start) != e || maps_find(&l, e->end - 1) != e)
				abort();
		}
	}
	map_list_free(&l);
	free(p);
	return 0;
}

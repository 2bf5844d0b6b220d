/* SPDX-License-Identifier: BSD-2-Clause */
/* The tick ring. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/series.h"

/*
 * The ring is calloc'd and its slots get their CPU row when first filled
 * (series_slot), so a long ring costs the pages its ticks have used: a
 * TUI's 4096 slots (160 kB and 32 kB of rows at 2 CPUs) were all touched
 * at start, where a minute's sweep fills 240.
 */
int
series_init(struct series *s, int ncpu, int cap)
{
	memset(s, 0, sizeof(*s));
	if (cap <= 0 || ncpu < 0) {
		errno = EINVAL;
		return -1;
	}
	s->ring = calloc((size_t)cap, sizeof(*s->ring));
	s->busy_store = ncpu > 0 ? malloc((size_t)cap * (size_t)ncpu * sizeof(float)) : NULL;
	if (s->ring == NULL || (ncpu > 0 && s->busy_store == NULL)) {
		series_free(s);
		errno = ENOMEM;
		return -1;
	}
	s->ncpu = ncpu;
	s->cap = cap;
	return 0;
}

struct tick *
series_slot(struct series *s, int64_t idx)
{
	size_t k = (size_t)(idx % s->cap);
	struct tick *slot = &s->ring[k];

	slot->busy = s->ncpu > 0 ? s->busy_store + k * (size_t)s->ncpu : NULL;
	return slot;
}

void
series_free(struct series *s)
{
	free(s->ring);
	free(s->busy_store);
	memset(s, 0, sizeof(*s));
}

void
series_add(struct series *s, const struct tick *t, const float *busy)
{
	struct tick *slot;
	float *keep;
	int i;

	if (s->cap == 0)
		return;
	slot = series_slot(s, s->count);
	keep = slot->busy;
	*slot = *t;
	slot->busy = keep;
	slot->owner = s->owner;
	for (i = 0; i < s->ncpu; i++)
		keep[i] = busy != NULL ? busy[i] : NAN;
	s->count++;
}

int
series_len(const struct series *s)
{
	return s->count < s->cap ? (int)s->count : s->cap;
}

const struct tick *
series_at(const struct series *s, int i)
{
	int64_t first = s->count - series_len(s);

	if (i < 0 || i >= series_len(s))
		return NULL;
	return &s->ring[(first + i) % s->cap];
}

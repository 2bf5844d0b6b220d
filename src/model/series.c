/* The tick ring. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/series.h"

int
series_init(struct series *s, int ncpu, int cap)
{
	int i;

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
	for (i = 0; i < cap; i++)
		s->ring[i].busy = ncpu > 0 ? s->busy_store + (size_t)i * (size_t)ncpu : NULL;
	return 0;
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
	slot = &s->ring[s->count % s->cap];
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

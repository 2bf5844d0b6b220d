/* SPDX-License-Identifier: BSD-2-Clause */
/* Growing an array by doubling, with the size's overflow refused. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"

int
grow_array(void *pp, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap > 0 ? *cap : (first > 0 ? first : 1);
	void *p, *np;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			goto nomem;
		ncap *= 2;
	}
	if (elem > 0 && ncap > SIZE_MAX / elem)
		goto nomem;
	/* pp is a T **: its pointer is read and written as bytes, so T may be any type. */
	memcpy(&p, pp, sizeof(p));
	if ((np = realloc(p, ncap * elem)) == NULL)
		goto nomem;
	memcpy(pp, &np, sizeof(np));
	*cap = ncap;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

int
grow_array_int(void *pp, int *cap, int need, size_t elem, int first)
{
	size_t c = *cap > 0 ? (size_t)*cap : 0;

	if (need <= *cap)
		return 0;
	if (grow_array(pp, &c, (size_t)need, elem, first > 0 ? (size_t)first : 1) != 0)
		return -1;
	if (c > INT_MAX) {
		/* Doubling passed what an int counts: the most an int holds is enough. */
		c = (size_t)need;
	}
	*cap = (int)c;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* Growing an array by doubling: the arithmetic and its overflow check in one place. */
#ifndef SCALETOP_GROW_H
#define SCALETOP_GROW_H

#include <stddef.h>

/*
 * Makes the array at *(T **)pp, of *cap items of elem bytes, hold at least
 * need: its capacity doubles from *cap (or from first, when 0) until need
 * fits.  0, or -1 with errno ENOMEM and the array and *cap untouched.
 */
int grow_array(void *pp, size_t *cap, size_t need, size_t elem, size_t first);

/* The same, for the arrays that count in int. */
int grow_array_int(void *pp, int *cap, int need, size_t elem, int first);

#endif

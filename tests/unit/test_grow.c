/* SPDX-License-Identifier: BSD-2-Clause */
/* The array growth helper (src/util/grow.c): doubling, contents kept, overflow refused. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "scaletop/grow.h"
#include "../tap.h"

static void
test_sizes(void)
{
	size_t cap = 0, i;
	long *a = NULL;
	int bad = 0;

	is_int(grow_array(&a, &cap, 1, sizeof(*a), 16), 0, "an empty array grows");
	is_int((long long)cap, 16, "to the first capacity");
	for (i = 0; i < 16; i++)
		a[i] = (long)i * 7;
	is_int(grow_array(&a, &cap, 16, sizeof(*a), 16), 0, "a need that fits");
	is_int((long long)cap, 16, "leaves the capacity as it was");
	is_int(grow_array(&a, &cap, 17, sizeof(*a), 16), 0, "one more");
	is_int((long long)cap, 32, "doubles it");
	is_int(grow_array(&a, &cap, 200, sizeof(*a), 16), 0, "a need far above");
	is_int((long long)cap, 256, "doubles until it fits");
	for (i = 0; i < 16; i++)
		bad += a[i] != (long)i * 7;
	is_int(bad, 0, "the items already there are kept");
	free(a);
}

static void
test_overflow(void)
{
	size_t cap = 4;
	char *a = malloc(4), *was = a;
	int cap_i = 4;

	errno = 0;
	is_int(grow_array(&a, &cap, SIZE_MAX / 2 + 2, 1, 4), -1, "a count past SIZE_MAX refused");
	ok(errno == ENOMEM && a == was && cap == 4, "ENOMEM, the array and its capacity untouched");
	is_int(grow_array(&a, &cap, SIZE_MAX / 8, 16, 4), -1, "a byte size past SIZE_MAX refused");
	ok(a == was && cap == 4, "untouched again");
	is_int(grow_array_int(&a, &cap_i, 9, 1, 4), 0, "the int form grows");
	is_int(cap_i, 16, "by doubling");
	is_int(grow_array_int(&a, &cap_i, 0, 1, 4), 0, "a need of 0 fits");
	free(a);
}

int
main(void)
{
	test_sizes();
	test_overflow();
	return done_testing();
}

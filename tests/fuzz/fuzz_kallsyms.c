/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the /proc/kallsyms decoder (decode_kallsyms.c) and
 * the symbol table's lookup (symtab.c): any bytes.  An accepted table is
 * sorted, hidden only when empty, and every symbol's own address finds a
 * symbol at that address; a refused one sets EINVAL, ERANGE or ENOMEM.
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
	struct symtab t = { 0 };
	const struct symbol *y;
	size_t i;
	int hidden = 0;
	char *p = malloc(size ? size : 1);

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	errno = 0;
	if (kallsyms_decode(p, size, &t, &hidden) < 0) {
		if (errno != EINVAL && errno != ERANGE && errno != ENOMEM)
			abort();
	} else {
		if (hidden && t.n != 0)
			abort();
		for (i = 0; i < t.n; i++) {
			if (i > 0 && t.sym[i].addr < t.sym[i - 1].addr)
				abort();
			y = symtab_find(&t, t.sym[i].addr);
			if (y == NULL || y->addr != t.sym[i].addr || y->name >= t.nlen)
				abort();
		}
	}
	symtab_free(&t);
	free(p);
	return 0;
}

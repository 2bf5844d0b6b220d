/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the syscall line decoder (decode_syscall.c) on
 * every arch's table, and the glibc mutex owner over the same bytes.  A
 * line comes from the kernel, but a kernel of another version may say
 * more: nothing may crash, an accepted line must be consistent (a futex
 * kind only on a call in progress, a name only from the table), and a
 * refused one sets EINVAL or ERANGE.
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
	static const enum syscall_arch arches[] = { SYSCALL_ARCH_X86_64, SYSCALL_ARCH_ARM64,
						    SYSCALL_ARCH_UNKNOWN };
	struct syscall_line s;
	pid_t owner;
	size_t i;
	char *p = malloc(size ? size : 1);

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	for (i = 0; i < sizeof arches / sizeof arches[0]; i++) {
		errno = 0;
		if (syscall_line_decode(p, size, arches[i], &s) < 0) {
			if (errno != EINVAL && errno != ERANGE)
				abort();
			continue;
		}
		if (s.state != SYSCALL_IN && (s.futex != FUTEX_KIND_NONE || s.name != NULL))
			abort();
		if (s.name != NULL && syscall_name(arches[i], s.nr) != s.name)
			abort();
		if (mutex_owner_decode(&s, data, size, &owner) == MUTEX_OWNER_KNOWN && owner <= 0)
			abort();
	}
	free(p);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The names of a workload's numbered files (fileio's file.N, fdtable's
 * fd.N) in its private directory.  Built by hand: a workload's cleanup may
 * run on the way out of a signal, and snprintf is not async-signal-safe.
 */
#include <string.h>

#include "builtin.h"

int
wl_file_path(char *buf, size_t len, const char *dir, const char *prefix, int i)
{
	char digits[16];
	size_t dl = strlen(dir), pl = strlen(prefix), n = 0;
	size_t k;

	do
		digits[n++] = (char)('0' + i % 10);
	while ((i /= 10) > 0 && n < sizeof(digits));
	if (dl + pl + n + 1 > len)
		return -1;
	memcpy(buf, dir, dl);
	memcpy(buf + dl, prefix, pl);
	for (k = 0; k < n; k++)
		buf[dl + pl + k] = digits[n - 1 - k];
	buf[dl + pl + n] = '\0';
	return 0;
}

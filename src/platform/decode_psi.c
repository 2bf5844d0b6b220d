/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoder of /proc/pressure/cpu, the kernel's CPU pressure stall
 * totals.  Pure and portable; see decode_linux.h.
 */
#include <stdbool.h>

#include "scaletop/decode_linux.h"
#include "decode_line.h"

/* "name=value" tokens; only total= (microseconds) is kept, the averages are checked. */
static int
psi_line(struct line *l, uint64_t *total)
{
	const char *name;
	size_t nlen;
	bool found = false;

	while (!line_at_end(l)) {
		name = l->p;
		while (l->p < l->end && *l->p != '=' && !is_blank(*l->p))
			l->p++;
		nlen = (size_t)(l->p - name);
		if (l->p == l->end || *l->p != '=' || nlen == 0)
			return decode_fail(EINVAL);
		l->p++;
		if (key_is(name, nlen, "total")) {
			if (line_u64(l, total) != 0)
				return -1;
			found = true;
			continue;
		}
		if (l->p == l->end || is_blank(*l->p))
			return decode_fail(EINVAL);
		while (l->p < l->end && (is_digit(*l->p) || *l->p == '.'))
			l->p++;
		if (l->p < l->end && !is_blank(*l->p))
			return decode_fail(EINVAL);
	}
	return found ? 0 : decode_fail(EINVAL);
}

int
psi_decode(const char *buf, size_t len, struct sys_sample *sys)
{
	const char *pos = buf, *end = buf + len, *key;
	size_t klen;
	struct line l;
	unsigned flags = 0;
	uint64_t some = 0, full = 0;
	int r;

	sys->flags &= ~(unsigned)(SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL);
	sys->psi_some_us = sys->psi_full_us = 0;
	while ((r = line_next(&pos, end, &l)) == 1) {
		if (line_key(&l, &key, &klen) != 0)
			return -1;
		if (key_is(key, klen, "some")) {
			if (psi_line(&l, &some) != 0)
				return -1;
			flags |= SYS_HAVE_PSI_SOME;
		} else if (key_is(key, klen, "full")) {
			if (psi_line(&l, &full) != 0)
				return -1;
			flags |= SYS_HAVE_PSI_FULL;
		} else
			return decode_fail(EINVAL);
	}
	if (r < 0 || !(flags & SYS_HAVE_PSI_SOME))
		return decode_fail(EINVAL);
	sys->flags |= flags;
	sys->psi_some_us = some;
	sys->psi_full_us = full;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DragonFly's kern.cputime (one struct kinfo_cputime per CPU, microseconds)
 * turned into a raw sample.  Pure code over a buffer, tested on every OS.
 */
#include <errno.h>
#include <string.h>

#include "decode_bsd.h"

/* One entry, copied out because the buffer has no promise of alignment. */
static void
cputime_entry(const unsigned char *p, struct cpu_ticks *c)
{
	struct dfly_cputime e;

	memcpy(&e, p, sizeof(e));
	c->tick[CPU_USER] = e.cp_user;
	c->tick[CPU_NICE] = e.cp_nice;
	c->tick[CPU_SYS] = e.cp_sys;
	c->tick[CPU_IRQ] = e.cp_intr;
	c->tick[CPU_IDLE] = e.cp_idle;
	if ((e.cp_user | e.cp_nice | e.cp_sys | e.cp_intr | e.cp_idle) == 0)
		c->flags |= CPU_RAW_OFFLINE;
}

int
cputime_decode(const void *buf, size_t len, struct raw_sample *s)
{
	const unsigned char *p = buf;
	size_t n, i;

	if (buf == NULL || len == 0 || len % sizeof(struct dfly_cputime) != 0) {
		errno = EINVAL;
		return -1;
	}
	n = len / sizeof(struct dfly_cputime);
	if (n > BSD_CPU_SLOTS_MAX) {
		errno = ERANGE;
		return -1;
	}
	if (raw_sample_reserve(s, (int)n) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct cpu_ticks *c = &s->cpu[i];

		memset(c, 0, sizeof(*c));
		c->id = (int)i;
		cputime_entry(p + i * sizeof(struct dfly_cputime), c);
	}
	s->ncpu = (int)n;
	return 0;
}

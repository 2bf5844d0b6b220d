/* SPDX-License-Identifier: BSD-2-Clause */
/* The BSD samplers' open and close, around each OS's per-CPU source (sampler_bsd.h). */
#include <stdlib.h>

#include "sampler_bsd.h"
#include "scaletop/error.h"
#include "scaletop/platform.h"

struct sampler *
sampler_open(char *err, size_t errlen)
{
	struct sampler *s;

	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		st_error(err, errlen, "sampler: out of memory");
		return NULL;
	}
	if (bsd_cpu_open(s, err, errlen) != 0) {
		sampler_close(s);
		return NULL;
	}
	bsd_vm_open(&s->vm);
	return s;
}

const char *
sampler_note(const struct sampler *s)
{
	(void)s;
	return NULL;
}

void
sampler_close(struct sampler *s)
{
	if (s == NULL)
		return;
	bsd_cpu_close(s);
	free(s->times);
	free(s);
}

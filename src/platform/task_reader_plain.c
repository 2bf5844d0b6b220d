/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The task reader where the backend keeps nothing between readings (the
 * BSDs, whose one sysctl or kvm call a process already reads every thread,
 * and the generic backend): a reading is task_counters_read's.
 */
#include <stdlib.h>

#include "scaletop/platform.h"

struct task_reader {
	int unused;
};

struct task_reader *
task_reader_new(void)
{
	return calloc(1, sizeof(struct task_reader));
}

int
task_reader_read(struct task_reader *r, pid_t pid, struct task_counters *out, char *err,
		 size_t errlen)
{
	(void)r;
	return task_counters_read(pid, out, err, errlen);
}

void
task_reader_free(struct task_reader *r)
{
	free(r);
}

/* The built-in workloads, in the order `scaletop list` shows them. */
#include <stddef.h>
#include <string.h>

#include "scaletop/workload.h"
#include "builtin.h"

/* Simplest first: ideal scaling, then memory, locks, and the kernel paths. */
const struct workload *const workloads[] = {
        &wl_cpu,     &wl_memory,   &wl_mutex,    &wl_spinlock,  &wl_fileio,
        &wl_fdshare, &wl_fdtable,  &wl_unixsock, &wl_pagefault, NULL,
};

const struct workload *
workload_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (int i = 0; workloads[i] != NULL; i++) {
		if (strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	}
	return NULL;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-in workloads, in the order `scaletop list` shows them. */
#include <stddef.h>
#include <string.h>

#include "scaletop/workload.h"

/*
 * The list below is the one place a workload is named: a new one is its
 * own file (src/workload/NAME.c, defining `const struct workload wl_NAME`)
 * plus one line here, and its file in local.mk beside this one.  The list
 * declares each wl_NAME and fills the table, so nothing else needs editing.
 */

/* Simplest first: ideal scaling, then memory, locks, and the kernel paths. */
#define WL_BUILTINS(X) \
	X(cpu)         \
	X(memory)      \
	X(mutex)       \
	X(spinlock)    \
	X(fileio)      \
	X(fdshare)     \
	X(fdtable)     \
	X(unixsock)    \
	X(pagefault)

#define WL_DECLARE(name) extern const struct workload wl_##name;
#define WL_ENTRY(name) &wl_##name,

WL_BUILTINS(WL_DECLARE)

const struct workload *const workloads[] = { WL_BUILTINS(WL_ENTRY) NULL };

const struct workload *
workload_find(const char *name)
{
	int i;

	if (name == NULL)
		return NULL;
	for (i = 0; workloads[i] != NULL; i++) {
		if (strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	}
	return NULL;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * C++ (and other Itanium-ABI) symbol names demangled for the symboliser,
 * as perf report shows them: `ns::cls::method`, without the parameter
 * list, so a hot path's frame or a lock's caller fits its line.
 */
#ifndef SCALETOP_DEMANGLE_H
#define SCALETOP_DEMANGLE_H

#include <stddef.h>

/*
 * The demangling is libiberty's (cplus_demangle), linked statically when
 * configure finds it; without it (the BSD builds) names stay mangled and
 * demangle_missing says why.  Each name is demangled once and kept.
 */

/* Mangled names (pointers into a symbol table, stable) and what they demangle to. */
struct demangle_cache {
	const char **key;
	char **val; /* NULL: it does not demangle, the name stands */
	size_t n, cap;
};

/*
 * name demangled, kept in c until demangle_cache_free; name itself when it
 * is not mangled, does not demangle, or there is no demangler.  *missing
 * is set to 1 when a mangled name was left so for want of a demangler.
 */
const char *demangle_cached(struct demangle_cache *c, const char *name, int *missing);
void demangle_cache_free(struct demangle_cache *c);
/* NULL when names are demangled, else why not (one line). */
const char *demangle_missing(void);

#endif

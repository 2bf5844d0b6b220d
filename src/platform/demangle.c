/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * C++ names demangled for the symboliser (demangle.h): a hash of the
 * mangled names met, each demangled once by libiberty's cplus_demangle
 * when the build has it.  libiberty is linked statically (Debian ships it
 * as libiberty.a alone): only its demangler comes in, where libstdc++'s
 * __cxa_demangle would map all of libstdc++ into every run of the monitor.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>

/* DMGL_NO_OPTS: no parameter list, as perf report prints a C++ frame. */
static char *
demangle_one(const char *name)
{
	return cplus_demangle(name, DMGL_NO_OPTS);
}

const char *
demangle_missing(void)
{
	return NULL;
}
#else
static char *
demangle_one(const char *name)
{
	(void)name;
	return NULL;
}

const char *
demangle_missing(void)
{
	return "C++ names left mangled: built without a demangler (libiberty)";
}
#endif

/* An Itanium-ABI mangled name: _Z, and a few more underscores for some. */
static int
is_mangled(const char *name)
{
	return name[0] == '_' && name[1] == 'Z';
}

static size_t
slot_of(const struct demangle_cache *c, const char *key)
{
	size_t h = (size_t)((uintptr_t)key >> 3) * 0x9e3779b97f4a7c15ull;
	size_t i = h & (c->cap - 1);

	while (c->key[i] != NULL && c->key[i] != key)
		i = (i + 1) & (c->cap - 1);
	return i;
}

/* Doubles the table (or makes it); -1 when there is no memory. */
static int
demangle_grow(struct demangle_cache *c)
{
	struct demangle_cache n = { NULL, NULL, 0, c->cap ? c->cap * 2 : 64 };
	size_t i, j;

	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = calloc(n.cap, sizeof(*n.val));
	if (n.key == NULL || n.val == NULL) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (i = 0; i < c->cap; i++) {
		if (c->key[i] == NULL)
			continue;
		j = slot_of(&n, c->key[i]);
		n.key[j] = c->key[i];
		n.val[j] = c->val[i];
	}
	n.n = c->n;
	free(c->key);
	free(c->val);
	*c = n;
	return 0;
}

const char *
demangle_cached(struct demangle_cache *c, const char *name, int *missing)
{
	size_t i;

	if (!is_mangled(name))
		return name;
	if (demangle_missing() != NULL) {
		*missing = 1;
		return name;
	}
	if ((c->n + 1) * 2 > c->cap && demangle_grow(c) < 0)
		return name;
	i = slot_of(c, name);
	if (c->key[i] == NULL) {
		c->key[i] = name;
		c->val[i] = demangle_one(name);
		c->n++;
	}
	return c->val[i] != NULL ? c->val[i] : name;
}

void
demangle_cache_free(struct demangle_cache *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		free(c->val[i]);
	free(c->key);
	free(c->val);
	memset(c, 0, sizeof(*c));
}

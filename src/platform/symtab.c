/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A symbol table sorted by address, shared by the kernel's (kallsyms) and
 * each ELF object's: the lookup that turns an address into the symbol that
 * covers it.  Names live in one pool so a table of 200,000 kernel symbols
 * is two allocations.  Pure; decode_proc.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/decode_proc.h"
#include "scaletop/grow.h"

/* How far back a lookup looks for an enclosing symbol when the nearest does not cover. */
#define SYMTAB_NEST 16

void
symtab_free(struct symtab *t)
{
	free(t->sym);
	free(t->names);
	memset(t, 0, sizeof *t);
}

/* Room for n more bytes of names; -1 with ENOMEM. */
static int
symtab_names_grow(struct symtab *t, size_t n)
{
	size_t cap = t->ncap ? t->ncap : 4096;
	char *p;

	if (n > UINT32_MAX - t->nlen) {
		errno = ENOMEM;
		return -1;
	}
	while (cap - t->nlen < n)
		cap *= 2;
	if (cap == t->ncap)
		return 0;
	p = realloc(t->names, cap);
	if (p == NULL)
		return -1;
	t->names = p;
	t->ncap = cap;
	return 0;
}

static uint32_t
symtab_intern(struct symtab *t, const char *s, size_t n)
{
	uint32_t off = (uint32_t)t->nlen;

	memcpy(t->names + t->nlen, s, n);
	t->names[t->nlen + n] = '\0';
	t->nlen += n + 1;
	return off;
}

int
symtab_add(struct symtab *t, uint64_t addr, uint64_t size, char type, const char *name, size_t nlen,
	   const char *module, size_t mlen)
{
	struct symbol *s;

	if (grow_array(&t->sym, &t->cap, t->n + 1, sizeof(*t->sym), 256) != 0)
		return -1;
	if (symtab_names_grow(t, nlen + 1 + (module != NULL ? mlen + 1 : 0)) < 0)
		return -1;
	s = &t->sym[t->n++];
	s->addr = addr;
	s->size = size;
	s->type = type;
	s->versioned = memchr(name, '@', nlen) != NULL;
	s->name = symtab_intern(t, name, nlen);
	s->module = module != NULL ? symtab_intern(t, module, mlen) : UINT32_MAX;
	t->sorted = 0;
	return 0;
}

/* By address; at one address a global (upper-case type) first, then a plain name, then the larger.
 */
static int
symbol_cmp(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	int gx = x->type >= 'A' && x->type <= 'Z', gy = y->type >= 'A' && y->type <= 'Z';

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (gx != gy)
		return gy - gx;
	if (x->versioned != y->versioned)
		return x->versioned - y->versioned;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

void
symtab_sort(struct symtab *t)
{
	size_t i, j;

	if (t->n > 1)
		qsort(t->sym, t->n, sizeof t->sym[0], symbol_cmp);
	for (i = 0; i < t->n; i++) {
		if (t->sym[i].size != 0)
			continue;
		for (j = i + 1; j < t->n && t->sym[j].addr == t->sym[i].addr; j++)
			;
		if (j < t->n)
			t->sym[i].size = t->sym[j].addr - t->sym[i].addr;
	}
	t->sorted = 1;
}

static int
symbol_covers(const struct symbol *s, uint64_t addr)
{
	return addr >= s->addr && (addr - s->addr < s->size || (s->size == 0 && addr == s->addr));
}

const struct symbol *
symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n, mid, i, first;
	const struct symbol *best = NULL;

	if (!t->sorted)
		return NULL;
	while (lo < hi) { /* the first symbol above addr */
		mid = lo + (hi - lo) / 2;
		if (t->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* The innermost: the latest start that covers; at one start the table's first. */
	first = lo > SYMTAB_NEST ? lo - SYMTAB_NEST : 0;
	for (i = lo; i-- > first;) {
		if (best != NULL && t->sym[i].addr != best->addr)
			break;
		if (symbol_covers(&t->sym[i], addr))
			best = &t->sym[i];
	}
	return best;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The decoder of /proc/kallsyms, the kernel's symbols, for naming a kernel
 * address (a spinning CPU's frame, a blocked thread's kernel stack).  Without
 * root, or with kptr_restrict set, the kernel prints every address as 0:
 * then the table stays empty and the caller says the addresses are hidden,
 * rather than naming everything after the first symbol.
 */
#include <stdlib.h>

#include "scaletop/decode_proc.h"
#include "decode_line.h"

/*
 * Pure; decode_proc.h.
 */

/* The kernel's KSYM_NAME_LEN (512 since 6.1); a longer name is not kallsyms. */
#define KSYM_NAME_MAX 512

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The address: 1 to 16 hex digits and a blank. */
static int
ksym_addr(struct line *l, uint64_t *v)
{
	uint64_t x = 0;
	int nd = 0, d;

	while (l->p < l->end && (d = hex_digit(*l->p)) >= 0) {
		if (++nd > 16)
			return decode_fail(ERANGE);
		x = x << 4 | (uint64_t)d;
		l->p++;
	}
	if (nd == 0 || l->p == l->end || *l->p != ' ')
		return decode_fail(EINVAL);
	l->p++;
	*v = x;
	return 0;
}

/* A name: printable, no blanks, at most KSYM_NAME_MAX bytes. */
static int
ksym_word(struct line *l, const char **w, size_t *n)
{
	const char *p = l->p;

	while (p<l->end && * p> ' ' && *p < 0x7f)
		p++;
	if (p == l->p || p - l->p > KSYM_NAME_MAX)
		return decode_fail(EINVAL);
	*w = l->p;
	*n = (size_t)(p - l->p);
	l->p = p;
	return 0;
}

/* One line's symbol, its name and module pointing into the buffer. */
struct ksym {
	uint64_t addr;
	const char *name, *mod; /* mod NULL, or without its brackets */
	size_t nlen, mlen;
	char type;
};

/* One line: ADDR TYPE NAME, then "\t[MODULE]" for a module's symbol; 1 when it is one to keep. */
static int
ksym_parse(struct line *l, struct ksym *k, int *nonzero)
{
	uint64_t addr;
	const char *name, *mod = NULL;
	size_t nlen, mlen = 0;
	char type;

	if (ksym_addr(l, &addr) < 0)
		return -1;
	if (l->end - l->p < 2 || l->p[1] != ' ')
		return decode_fail(EINVAL);
	type = l->p[0];
	if (!((type >= 'a' && type <= 'z') || (type >= 'A' && type <= 'Z') || type == '?'))
		return decode_fail(EINVAL);
	l->p += 2;
	if (ksym_word(l, &name, &nlen) < 0)
		return -1;
	if (l->p < l->end) {
		if (*l->p != '\t')
			return decode_fail(EINVAL);
		l->p++;
		if (ksym_word(l, &mod, &mlen) < 0 || mlen < 3 || mod[0] != '[' ||
		    mod[mlen - 1] != ']' || l->p != l->end)
			return decode_fail(EINVAL);
	}
	if (addr != 0)
		*nonzero = 1;
	if (type == 'U' || type == 'u' || type == 'a' || type == 'A')
		return 0;
	k->addr = addr;
	k->type = type;
	k->name = name;
	k->nlen = nlen;
	/* The module is kept without its brackets. */
	k->mod = mod != NULL ? mod + 1 : NULL;
	k->mlen = mod != NULL ? mlen - 2 : 0;
	return 1;
}

static int
ksym_line(struct line *l, struct symtab *t, int *nonzero)
{
	struct ksym k;
	int r = ksym_parse(l, &k, nonzero);

	if (r <= 0)
		return r;
	return symtab_add(t, k.addr, 0, k.type, k.name, k.nlen, k.mod, k.mlen);
}

int
kallsyms_decode(const char *buf, size_t len, struct symtab *t, int *hidden)
{
	const char *pos = buf, *end = buf + len;
	struct line l;
	int r, nonzero = 0;

	symtab_free(t);
	*hidden = 0;
	while ((r = line_next(&pos, end, &l)) > 0)
		if (ksym_line(&l, t, &nonzero) < 0)
			return -1;
	if (r < 0)
		return -1;
	if (!nonzero) {
		symtab_free(t);
		*hidden = len > 0; /* symbols were listed, but not where they are */
		return 0;
	}
	symtab_sort(t);
	return 0;
}

/* The first of the n ascending addresses that is at least a. */
static size_t
ksym_lower(const uint64_t *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Whether k should stand for a target over the one kept: a later start, or
 * at one start a global over a local (as symtab_sort ranks them).
 */
static int
ksym_better(const struct ksym *k, const struct ksym *kept, int have)
{
	if (!have || k->addr > kept->addr)
		return 1;
	return k->addr == kept->addr && k->type >= 'A' && k->type <= 'Z' && kept->type >= 'a';
}

/* What each target keeps while the file streams by. */
struct ksym_for {
	struct ksym *floor; /* the latest symbol at or below it ... */
	char *have;
	uint64_t *next; /* ... and the first start above it (0: none seen) */
};

/*
 * A symbol at A is a floor candidate for the first target at or above it
 * (the later targets take it by the prefix maximum at the end), and the next
 * start of the last target below it (the earlier ones by the suffix minimum).
 */
static void
ksym_offer(struct ksym_for *f, const uint64_t *addr, size_t n, const struct ksym *k)
{
	size_t p = ksym_lower(addr, n, k->addr);

	if (p < n && ksym_better(k, &f->floor[p], f->have[p])) {
		f->floor[p] = *k;
		f->have[p] = 1;
	}
	if (p > 0 && (f->next[p - 1] == 0 || k->addr < f->next[p - 1]))
		f->next[p - 1] = k->addr;
}

/* The prefix and suffix passes, then each distinct floor into t with its size. */
static int
ksym_for_keep(struct ksym_for *f, size_t n, struct symtab *t)
{
	size_t i;

	/* a candidate of target i starts above target i - 1, so it beats every earlier one */
	for (i = 1; i < n; i++)
		if (!f->have[i] && f->have[i - 1]) {
			f->floor[i] = f->floor[i - 1];
			f->have[i] = 1;
		}
	for (i = n - 1; i-- > 0;)
		if (f->next[i + 1] != 0 && (f->next[i] == 0 || f->next[i + 1] < f->next[i]))
			f->next[i] = f->next[i + 1];
	for (i = 0; i < n; i++) {
		if (!f->have[i] ||
		    (i > 0 && f->have[i - 1] && f->floor[i - 1].addr == f->floor[i].addr))
			continue;
		if (symtab_add(t, f->floor[i].addr,
			       f->next[i] > f->floor[i].addr ? f->next[i] - f->floor[i].addr : 0,
			       f->floor[i].type, f->floor[i].name, f->floor[i].nlen,
			       f->floor[i].mod, f->floor[i].mlen) < 0)
			return -1;
	}
	symtab_sort(t);
	return 0;
}

int
kallsyms_decode_for(const char *buf, size_t len, const uint64_t *addr, size_t n, struct symtab *t,
		    int *hidden)
{
	const char *pos = buf, *end = buf + len;
	struct ksym_for f = { NULL, NULL, NULL };
	struct ksym k;
	struct line l;
	int r, nonzero = 0;

	symtab_free(t);
	*hidden = 0;
	if (n == 0)
		return 0;
	f.floor = calloc(n, sizeof(*f.floor));
	f.have = calloc(n, 1);
	f.next = calloc(n, sizeof(*f.next));
	r = f.floor && f.have && f.next ? 1 : decode_fail(ENOMEM);
	while (r > 0 && (r = line_next(&pos, end, &l)) > 0) {
		r = ksym_parse(&l, &k, &nonzero);
		if (r > 0)
			ksym_offer(&f, addr, n, &k);
		else if (r == 0)
			r = 1;
	}
	if (r == 0 && !nonzero)
		*hidden = len > 0;
	else if (r == 0 && ksym_for_keep(&f, n, t) < 0)
		r = decode_fail(ENOMEM);
	free(f.floor);
	free(f.have);
	free(f.next);
	if (r < 0)
		symtab_free(t);
	return r < 0 ? -1 : 0;
}

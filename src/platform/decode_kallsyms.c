/*
 * The decoder of /proc/kallsyms, the kernel's symbols, for naming a kernel
 * address (a spinning CPU's frame, a blocked thread's kernel stack).  Without
 * root, or with kptr_restrict set, the kernel prints every address as 0:
 * then the table stays empty and the caller says the addresses are hidden,
 * rather than naming everything after the first symbol.  Pure;
 * decode_proc.h.
 */
#include "scaletop/decode_proc.h"
#include "decode_line.h"

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

/* One line: ADDR TYPE NAME, then "\t[MODULE]" for a module's symbol. */
static int
ksym_line(struct line *l, struct symtab *t, int *nonzero)
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
	/* The module is kept without its brackets. */
	return symtab_add(t, addr, 0, type, name, nlen, mod != NULL ? mod + 1 : NULL,
			  mod != NULL ? mlen - 2 : 0);
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

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The line scanner of the Linux text decoders: lines, blanks, keys and
 * overflow-checked numbers.  Pure and portable; see decode_line.h.
 */
#include "decode_line.h"

int
line_next(const char **pos, const char *end, struct line *l)
{
	const char *nl;

	if (*pos >= end)
		return 0;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	if (nl == NULL)
		return decode_fail(EINVAL);
	l->p = *pos;
	l->end = nl;
	*pos = nl + 1;
	return 1;
}

void
line_skip_blanks(struct line *l)
{
	while (l->p < l->end && is_blank(*l->p))
		l->p++;
}

bool
line_at_end(struct line *l)
{
	line_skip_blanks(l);
	return l->p == l->end;
}

int
digits_u64(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (p == end || !is_digit(*p))
		return decode_fail(EINVAL);
	while (p < end && is_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return decode_fail(ERANGE);
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*v = n;
	return 0;
}

int
line_u64(struct line *l, uint64_t *v)
{
	line_skip_blanks(l);
	if (digits_u64(&l->p, l->end, v) != 0)
		return -1;
	if (l->p < l->end && !is_blank(*l->p))
		return decode_fail(EINVAL);
	return 0;
}

int
line_key(struct line *l, const char **key, size_t *klen)
{
	const char *p = l->p;

	while (p<l->end && * p> ' ' && *p < 0x7f)
		p++;
	if (p == l->p || (p < l->end && !is_blank(*p)))
		return decode_fail(EINVAL);
	*key = l->p;
	*klen = (size_t)(p - l->p);
	l->p = p;
	return 0;
}

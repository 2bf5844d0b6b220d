/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scanning helpers the parsers share: blanks, words, and numbers read
 * the same whatever the locale (a tool's "5790.62" is never read with a
 * decimal comma).  See parse.h.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "scaletop/parse.h"

static bool
parse_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

const char *
parse_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

const char *
parse_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned d;

	if (!parse_isdigit(*s))
		return NULL;
	for (; parse_isdigit(*s); s++) {
		d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
	}
	*out = v;
	return s;
}

/* An optional exponent ("e-3"); leaves s alone when no digits follow the 'e'. */
static const char *
parse_exponent(const char *s, int *exp10)
{
	const char *t = s + 1;
	int sign = 1, e = 0;

	if (*s != 'e' && *s != 'E')
		return s;
	if (*t == '+' || *t == '-')
		sign = *t++ == '-' ? -1 : 1;
	if (!parse_isdigit(*t))
		return s;
	for (; parse_isdigit(*t); t++) {
		if (e < 10000)
			e = e * 10 + (*t - '0');
	}
	*exp10 += sign * e;
	return t;
}

/*
 * mant * 10^exp10.  Powers of ten up to 1e22 are exact doubles, so for the
 * few-digit figures tools print, one multiply or divide rounds correctly and
 * "5790.62" reads as exactly the double the C literal 5790.62 is.
 */
static double
parse_scale(uint64_t mant, int exp10)
{
	static const double p10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

	if (mant == 0)
		return 0.0;
	if (exp10 >= 0 && exp10 <= 22)
		return (double)mant * p10[exp10];
	if (exp10 < 0 && exp10 >= -22)
		return (double)mant / p10[-exp10];
	return (double)mant * pow(10.0, exp10);
}

const char *
parse_number(const char *s, double *out)
{
	uint64_t mant = 0;
	int exp10 = 0, ndig = 0;
	bool any = false;
	double v;

	for (; parse_isdigit(*s); s++, any = true) {
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(*s - '0');
			ndig += mant != 0;
		} else
			exp10++; /* beyond 19 significant digits: keep the magnitude only */
	}
	if (*s == '.') {
		for (s++; parse_isdigit(*s); s++, any = true) {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(*s - '0');
				ndig += mant != 0;
				exp10--;
			}
		}
	}
	if (!any)
		return NULL;
	s = parse_exponent(s, &exp10);
	v = parse_scale(mant, exp10);
	if (!isfinite(v))
		return NULL;
	*out = v;
	return s;
}

const char *
parse_find_word(const char *s, const char *key)
{
	const char *at = s;
	size_t klen = strlen(key);

	while ((at = strstr(at, key)) != NULL) {
		if (at == s || at[-1] == ' ' || at[-1] == '\t')
			return at + klen;
		at++;
	}
	return NULL;
}

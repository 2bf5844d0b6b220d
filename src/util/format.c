/* SPDX-License-Identifier: BSD-2-Clause */
/* Text for every view and file: SI prefixes for counts and rates, UTF-8 safe for JSON. */
#include <math.h>
#include <stdio.h>

#include "scaletop/format.h"

char *
fmt_si(double v, char *buf, size_t len)
{
	static const char suffix[] = { 'k', 'M', 'G', 'T', 'P' };
	double a = fabs(v);
	int i = -1;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (a >= 999.5 && i < 4) {
		a /= 1000.0;
		v /= 1000.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, a >= 100 || a == floor(a) ? "%.0f" : "%.2f", v);
	else
		snprintf(buf, len,
			 a >= 100  ? "%.0f%c"
			 : a >= 10 ? "%.1f%c"
				   : "%.2f%c",
			 v, suffix[i]);
	return buf;
}

char *
fmt_ms(double ms, char *buf, size_t len)
{
	static const struct {
		double per_ms;
		const char *unit;
	} units[] = { { 1e6, "ns" }, { 1e3, "us" }, { 1, "ms" }, { 1e-3, "s" } };
	double v = ms * units[0].per_ms;
	size_t i = 0;

	if (!isfinite(ms)) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* The next unit once the figure would round to 1000 in this one. */
	while (fabs(v) >= 999.5 && i + 1 < sizeof(units) / sizeof(units[0]))
		v = ms * units[++i].per_ms;
	if (i == 0 || fabs(v) >= 99.95)
		snprintf(buf, len, "%.0f%s", v, units[i].unit);
	else
		snprintf(buf, len, fabs(v) >= 9.995 ? "%.1f%s" : "%.2f%s", v, units[i].unit);
	return buf;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 if p starts an invalid one. */
static size_t
utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n, i;
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates, and beyond U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * JSON strings are UTF-8, and jansson refuses anything else.  A hostname, a
 * path parameter or an external command's stderr in Latin-1 must not cost the
 * whole line, so each invalid byte becomes '?'.
 */
void
utf8_scrub(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t n;

	while (*p != '\0') {
		n = utf8_seq(p);
		if (n == 0) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

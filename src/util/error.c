/* SPDX-License-Identifier: BSD-2-Clause */
/* The one-line error convention: messages formatted into a caller's buffer, made safe to print. */
#include <stdarg.h>
#include <stdio.h>

#include "scaletop/error.h"

char *
st_printable(char *s)
{
	char *p;

	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return s;
}

int
st_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

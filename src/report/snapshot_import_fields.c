/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fields of a published table's line, for snapshot_import_table.c:
 * CSV (',' between fields) or blanks between them, a field quoted with '"'
 * in either, and numbers read whole or not at all.  Each refusal names the
 * file, the line and the column, counted in bytes from 1.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "import_table.h"
#include "compare_priv.h"

/* "name:LINE:COLUMN: 'field': why", the field shown when len > 0, at most 40 bytes of it. */
int
import_fail_at(struct import_reader *im, const char *at, size_t len, const char *fmt, ...)
{
	char why[ST_ERRLEN];
	size_t col = (size_t)(at - im->line) + 1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (len > 40)
		len = 40;
	if (len == 0)
		return st_error(im->err, im->errlen, "%s:%zu:%zu: %s", im->t->name, im->lineno, col,
				why);
	return st_error(im->err, im->errlen, "%s:%zu:%zu: '%.*s': %s", im->t->name, im->lineno, col,
			(int)len, at, why);
}

void
import_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

static void
import_put(struct import_field *f, char c)
{
	if (f->len < sizeof(f->text) - 1)
		f->text[f->len] = c;
	f->len++;
}

/* A field from the '"' at *p to its closing quote; "" inside is one quote. */
static int
import_quoted(struct import_reader *im, const char **p, const char *end, struct import_field *f)
{
	const char *q;

	for (q = *p + 1;; q++) {
		if (q >= end)
			return import_fail_at(im, f->at, 0,
					      "a quote not closed on its line; close it with '\"'");
		if (*q == '"' && q + 1 < end && q[1] == '"')
			import_put(f, *q++);
		else if (*q == '"')
			break;
		else
			import_put(f, *q);
	}
	*p = q + 1;
	f->rawlen = (size_t)(*p - f->at);
	if (im->sep == ',')
		import_blanks(p, end);
	if (*p < end && (im->sep == ',' ? **p != ',' : **p != ' ' && **p != '\t'))
		return import_fail_at(im, *p, 0, "expected %s after the quoted field",
				      im->sep == ',' ? "','" : "a blank");
	return 0;
}

/* The next field of the line at *p: 1, 0 when the line has no more, -1 on error. */
int
import_next(struct import_reader *im, const char **p, const char *end, bool first,
	    struct import_field *f)
{
	const char *s, *e;

	f->len = 0;
	f->sep = *p;
	if (im->sep == ',' && !first) {
		if (*p >= end)
			return 0;
		(*p)++;
	}
	import_blanks(p, end);
	if (im->sep == 0 && *p >= end)
		return 0;
	f->at = *p;
	if (im->sep == 0)
		f->sep = f->at;
	if (*p < end && **p == '"') {
		if (import_quoted(im, p, end, f) != 0)
			return -1;
	} else {
		for (s = *p; s < end && (im->sep == ',' ? *s != ',' : *s != ' ' && *s != '\t'); s++)
			;
		for (e = s; e > *p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		for (*p = f->at; *p < e; (*p)++)
			import_put(f, **p);
		*p = s;
		f->rawlen = (size_t)(e - f->at);
	}
	f->text[f->len < sizeof(f->text) ? f->len : sizeof(f->text) - 1] = '\0';
	return 1;
}

/* A plain decimal number: no hex, no nan/inf, whatever strtod would also take. */
int
import_number(const struct import_field *f, double *out)
{
	char *end;
	size_t i;

	if (f->len == 0 || f->len >= 64)
		return -1;
	for (i = 0; i < f->len; i++) {
		if (!isdigit((unsigned char)f->text[i]) && strchr("+-.eE", f->text[i]) == NULL)
			return -1;
	}
	errno = 0;
	*out = snapshot_strtod(f->text, &end);
	return *end == '\0' && errno == 0 && isfinite(*out) ? 0 : -1;
}

int
import_integer(const struct import_field *f, long min, long max, long *out)
{
	double v;

	if (import_number(f, &v) != 0 || v != floor(v) || v < min || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

/*
 * CSV when the first line has a ',' outside quotes, or one field only (as
 * "4" was read before tables); else blanks separate the fields.
 */
char
import_separator(const char *p, const char *end)
{
	bool quoted = false, blank = false, fields = false;

	for (; p < end; p++) {
		if (*p == '"')
			quoted = !quoted;
		if (*p == ',' && !quoted)
			return ',';
		if (*p == ' ' || *p == '\t')
			blank = !quoted;
		else if (blank)
			fields = true;
	}
	return fields ? 0 : ',';
}

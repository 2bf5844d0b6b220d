/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON text for snapshots and `run --json`.  jansson's own dump puts every
 * array element on a line of its own and prints reals with a fixed number of
 * digits: either lossy (a saved figure that does not load back equal) or
 * 17 digits of noise ("0.50000727100000004").
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

#define TEXT_OBJECT_WIDTH 160 /* an object of plain values this short goes on one line */

/*
 * Here each real gets the fewest digits that read back as the same double,
 * and a row of plain values (samples, one CPU, one tick) stays on one line.
 * Strings are still encoded by jansson, which takes only UTF-8:
 * utf8_scrub (format.c) makes text from the outside (a hostname, a probe's
 * label) fit it.
 */

struct text {
	char *p;
	size_t len, cap;
	bool oom;
};

/* The "C" locale for numbers, made once: printf and strtod follow LC_NUMERIC. */
static locale_t
text_c_locale(void)
{
	static locale_t c;

	if (c == (locale_t)0)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return c;
}

void
snapshot_number(char *buf, size_t len, double v)
{
	locale_t c = text_c_locale(), old = c != (locale_t)0 ? uselocale(c) : (locale_t)0;
	int prec;

	/* 15 digits hold any decimal of up to 15 digits; 17 hold any double. */
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (old != (locale_t)0)
		uselocale(old);
}

double
snapshot_strtod(const char *s, char **end)
{
	locale_t c = text_c_locale(), old = c != (locale_t)0 ? uselocale(c) : (locale_t)0;
	double v = strtod(s, end);

	if (old != (locale_t)0)
		uselocale(old);
	return v;
}

static void
text_put(struct text *t, const char *s, size_t n)
{
	size_t ncap;
	char *np;

	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		ncap = t->cap ? t->cap : 4096;
		while (ncap < t->len + n + 1)
			ncap *= 2;
		if ((np = realloc(t->p, ncap)) == NULL) {
			t->oom = true;
			return;
		}
		t->p = np;
		t->cap = ncap;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static void
text_puts(struct text *t, const char *s)
{
	text_put(t, s, strlen(s));
}

/* A real keeps a decimal point or exponent, so it reads back as a real. */
static void
text_real(struct text *t, double v)
{
	char buf[40];

	snapshot_number(buf, sizeof(buf), v);
	text_puts(t, buf);
	if (strpbrk(buf, ".e") == NULL)
		text_puts(t, ".0");
}

static void
text_scalar(struct text *t, const json_t *v)
{
	char buf[40], *s;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		text_puts(t, buf);
		break;
	case JSON_REAL:
		text_real(t, json_real_value(v));
		break;
	case JSON_TRUE:
		text_puts(t, "true");
		break;
	case JSON_FALSE:
		text_puts(t, "false");
		break;
	case JSON_NULL:
		text_puts(t, "null");
		break;
	default:
		if ((s = json_dumps(v, JSON_ENCODE_ANY)) == NULL) {
			t->oom = true;
			return;
		}
		text_puts(t, s);
		free(s);
	}
}

static void
text_key(struct text *t, const char *key)
{
	json_t *k = json_string(key);

	if (k == NULL) {
		t->oom = true;
		return;
	}
	text_scalar(t, k);
	json_decref(k);
	text_puts(t, ": ");
}

/* 0 for a plain value, else 1 + the deepest member's depth. */
static int
text_depth(const json_t *v)
{
	const char *key;
	json_t *m;
	size_t i;
	int d = 0, md;

	if (json_is_array(v)) {
		json_array_foreach(v, i, m)
		{
			if ((md = text_depth(m)) > d)
				d = md;
		}
		return d + 1;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, m)
		{
			if ((md = text_depth(m)) > d)
				d = md;
		}
		return d + 1;
	}
	return 0;
}

static void
text_inline(struct text *t, const json_t *v)
{
	const char *key;
	json_t *m;
	size_t i;

	if (json_is_array(v)) {
		text_puts(t, "[");
		json_array_foreach(v, i, m)
		{
			text_puts(t, i > 0 ? ", " : "");
			text_inline(t, m);
		}
		text_puts(t, "]");
	} else if (json_is_object(v)) {
		i = 0;
		text_puts(t, "{");
		json_object_foreach((json_t *)v, key, m)
		{
			text_puts(t, i++ > 0 ? ", " : "");
			text_key(t, key);
			text_inline(t, m);
		}
		text_puts(t, "}");
	} else {
		text_scalar(t, v);
	}
}

static void
text_indent(struct text *t, int level)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)level * 2;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		text_put(t, spaces, k);
		n -= k;
	}
}

/* An array holding an object: such lists (steps, events) get one line per member. */
static bool
text_has_object(const json_t *v)
{
	json_t *m;
	size_t i;

	json_array_foreach(v, i, m)
	{
		if (json_is_object(m))
			return true;
	}
	return false;
}

/*
 * One line for a row of plain values: an array of depth 1 or 2 without
 * objects (samples, a tick), or an object of depth 1 or 2 that fits
 * TEXT_OBJECT_WIDTH (one CPU, one event).
 */
static bool
text_try_inline(struct text *t, const json_t *v)
{
	size_t start = t->len;
	int d = text_depth(v);

	if (d > 2 || (json_is_array(v) && text_has_object(v)))
		return false;
	text_inline(t, v);
	if (json_is_object(v) && t->len - start > TEXT_OBJECT_WIDTH && !t->oom) {
		t->len = start;
		t->p[start] = '\0';
		return false;
	}
	return true;
}

static void
text_pretty(struct text *t, const json_t *v, int level)
{
	const char *key;
	json_t *m;
	size_t i, n;
	bool arr = json_is_array(v);

	if (!json_is_array(v) && !json_is_object(v)) {
		text_scalar(t, v);
		return;
	}
	if (text_try_inline(t, v))
		return;
	n = arr ? json_array_size(v) : json_object_size(v);
	text_puts(t, arr ? "[\n" : "{\n");
	i = 0;
	if (arr) {
		json_array_foreach(v, i, m)
		{
			text_indent(t, level + 1);
			text_pretty(t, m, level + 1);
			text_puts(t, i + 1 < n ? ",\n" : "\n");
		}
	} else {
		json_object_foreach((json_t *)v, key, m)
		{
			text_indent(t, level + 1);
			text_key(t, key);
			text_pretty(t, m, level + 1);
			text_puts(t, ++i < n ? ",\n" : "\n");
		}
	}
	text_indent(t, level);
	text_puts(t, arr ? "]" : "}");
}

int
snapshot_text_write(FILE *f, const json_t *v)
{
	struct text t = { NULL, 0, 0, false };
	int rc = 0;

	text_pretty(&t, v, 0);
	text_puts(&t, "\n");
	if (t.oom) {
		free(t.p);
		errno = ENOMEM;
		return -1;
	}
	if (fwrite(t.p, 1, t.len, f) != t.len)
		rc = -1;
	free(t.p);
	return rc;
}

void
snapshot_csv_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Text in a Markdown table cell or line: '|' would end the cell, so it is escaped. */
void
snapshot_md_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void
snapshot_csv_num(FILE *f, double x)
{
	char buf[40];

	fputc(',', f);
	if (isfinite(x)) {
		snapshot_number(buf, sizeof(buf), x);
		fputs(buf, f);
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading one field of a snapshot or a stream record with its type and range
 * checked.  Every refusal is one line naming the file, the field's path
 * (steps[2].ops_s) and what was expected, since a user fixing a file by hand
 * needs all three.  The snapshot loader and the stream reader both read
 * through here, so a field means the same and is refused alike in either.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/field_read.h"

void
field_path(char *buf, size_t len, const char *path, const char *key)
{
	snprintf(buf, len, "%s%s%s", path, path[0] != '\0' ? "." : "", key);
}

void
field_index(char *buf, size_t len, const char *path, size_t i)
{
	snprintf(buf, len, "%s[%zu]", path, i);
}

int
field_fail(struct field_ctx *c, const char *path, const char *fmt, ...)
{
	char why[ST_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	st_printable(why); /* it quotes values from the file */
	if (c->err == NULL)
		return -1;
	/* A stream's record is its own top level: nothing to name there. */
	if (c->record && path[0] == '\0')
		path = NULL;
	else if (path[0] == '\0')
		path = "top level";
	snprintf(c->err, c->errlen, "%s%s%s%s%s", c->name != NULL ? c->name : "",
		 c->name != NULL ? ": " : "", path != NULL ? path : "", path != NULL ? ": " : "",
		 why);
	return -1;
}

/* "a string or null" for a type mask. */
static void
field_expect(char *buf, size_t len, unsigned types)
{
	static const struct {
		unsigned bit;
		const char *word;
	} words[] = {
		{ F_OBJ, "an object" },  { F_ARR, "an array" }, { F_STR, "a string" },
		{ F_INT, "an integer" }, { F_NUM, "a number" }, { F_BOOL, "true or false" },
		{ F_NULL, "null" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!(types & words[i].bit))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", buf[0] ? " or " : "",
				      words[i].word);
		if (n >= len)
			return;
	}
}

static const char *
field_got(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	default:
		return "null";
	}
}

static bool
field_is(const json_t *v, unsigned types)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return types & F_OBJ;
	case JSON_ARRAY:
		return types & F_ARR;
	case JSON_STRING:
		return types & F_STR;
	case JSON_INTEGER:
		return types & (F_INT | F_NUM);
	case JSON_REAL:
		return types & F_NUM;
	case JSON_TRUE:
	case JSON_FALSE:
		return types & F_BOOL;
	default:
		return types & F_NULL;
	}
}

int
field_type(struct field_ctx *c, const json_t *v, const char *path, unsigned types)
{
	char want[128];

	if (field_is(v, types))
		return 0;
	field_expect(want, sizeof(want), types);
	return field_fail(c, path, "expected %s, got %s", want, field_got(v));
}

json_t *
field_get(struct field_ctx *c, const json_t *obj, const char *path, const char *key, unsigned types)
{
	char p[256], want[128];
	json_t *v = json_object_get(obj, key);

	field_path(p, sizeof(p), path, key);
	if (v == NULL) {
		field_expect(want, sizeof(want), types);
		if (c->record)
			field_fail(c, path, "\"%s\" is missing; expected %s", key, want);
		else
			field_fail(c, p, "missing; expected %s", want);
		return NULL;
	}
	return field_type(c, v, p, types) == 0 ? v : NULL;
}

int
field_count(struct field_ctx *c, const json_t *v, const char *path, size_t lo, size_t hi,
	    const char *what)
{
	size_t n = json_array_size(v);

	if (n >= lo && n <= hi)
		return 0;
	if (lo == 0)
		return field_fail(c, path, "%zu %s; expected at most %zu", n, what, hi);
	return field_fail(c, path, "%zu %s; expected %zu to %zu", n, what, lo, hi);
}

json_t *
field_array_at(struct field_ctx *c, const json_t *obj, const char *path, const char *key, size_t lo,
	       size_t hi, const char *what, char *at, size_t atlen)
{
	json_t *v = field_get(c, obj, path, key, F_ARR);

	field_path(at, atlen, path, key);
	return v != NULL && field_count(c, v, at, lo, hi, what) == 0 ? v : NULL;
}

json_t *
field_array(struct field_ctx *c, const json_t *obj, const char *path, const char *key, size_t lo,
	    size_t hi, const char *what)
{
	char at[256];

	return field_array_at(c, obj, path, key, lo, hi, what, at, sizeof(at));
}

/* "from 0 to 100", ">= 0", or "" for any value. */
static void
field_range(char *buf, size_t len, double min, double max)
{
	if (isfinite(min) && isfinite(max))
		snprintf(buf, len, " from %g to %g", min, max);
	else if (isfinite(min))
		snprintf(buf, len, " >= %g", min);
	else if (isfinite(max))
		snprintf(buf, len, " <= %g", max);
	else
		buf[0] = '\0';
}

int
field_num_of(struct field_ctx *c, const json_t *v, const char *path, double min, double max,
	     unsigned nullable, double *out)
{
	char range[64];
	double x;

	if (field_type(c, v, path, F_NUM | (nullable & F_NULL)) != 0)
		return -1;
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	x = json_number_value(v);
	/* A ratio of equal figures can round a few ulps past its bound: take the bound. */
	if (x > max && x <= max + fabs(max) * 1e-12)
		x = max;
	if (x < min && x >= min - fabs(min) * 1e-12)
		x = min;
	if (!(x >= min && x <= max)) {
		field_range(range, sizeof(range), min, max);
		return field_fail(c, path, "%g is out of range; expected a number%s", x, range);
	}
	*out = x;
	return 0;
}

int
field_num(struct field_ctx *c, const json_t *obj, const char *path, const char *key, double min,
	  double max, unsigned nullable, double *out)
{
	char p[256];
	json_t *v = field_get(c, obj, path, key, F_NUM | (nullable & F_NULL));

	if (v == NULL)
		return -1;
	field_path(p, sizeof(p), path, key);
	return field_num_of(c, v, p, min, max, nullable, out);
}

int
field_int(struct field_ctx *c, const json_t *obj, const char *path, const char *key, long long min,
	  long long max, unsigned nullable, long long dflt, long long *out)
{
	char p[256];
	json_t *v = field_get(c, obj, path, key, F_INT | (nullable & F_NULL));
	json_int_t x;

	if (v == NULL)
		return -1;
	if (json_is_null(v)) {
		*out = dflt;
		return 0;
	}
	x = json_integer_value(v);
	if (x < min || x > max) {
		field_path(p, sizeof(p), path, key);
		return field_fail(c, p,
				  "%" JSON_INTEGER_FORMAT " is out of range; expected an "
				  "integer from %lld to %lld",
				  x, min, max);
	}
	*out = x;
	return 0;
}

int
field_str_of(struct field_ctx *c, const json_t *v, const char *path, unsigned nullable, char *buf,
	     size_t size)
{
	size_t len;

	if (field_type(c, v, path, F_STR | (nullable & F_NULL)) != 0)
		return -1;
	if (json_is_null(v)) {
		buf[0] = '\0';
		return 0;
	}
	len = json_string_length(v);
	if (len >= size)
		return field_fail(c, path,
				  "a string of %zu bytes is too long; expected at most %zu", len,
				  size - 1);
	if (memchr(json_string_value(v), '\0', len) != NULL)
		return field_fail(c, path, "contains a NUL character; expected plain text");
	memcpy(buf, json_string_value(v), len + 1);
	return 0;
}

int
field_str(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	  unsigned nullable, char *buf, size_t size)
{
	char p[256];
	json_t *v = field_get(c, obj, path, key, F_STR | (nullable & F_NULL));

	if (v == NULL)
		return -1;
	field_path(p, sizeof(p), path, key);
	return field_str_of(c, v, p, nullable, buf, size);
}

/* "2026-11-29T23:21:35Z", with optional fractional seconds: what the writer makes. */
static bool
field_is_utc(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	int mon, day, hour, min, sec;
	size_t i;

	for (i = 0; shape[i] != '\0'; i++) {
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return false;
	}
	if (s[i] == '.') {
		if (s[++i] < '0' || s[i] > '9')
			return false;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (strcmp(s + i, "Z") != 0)
		return false;
	mon = atoi(s + 5);
	day = atoi(s + 8);
	hour = atoi(s + 11);
	min = atoi(s + 14);
	sec = atoi(s + 17);
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hour <= 23 && min <= 59 &&
	       sec <= 60;
}

int
field_utc(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	  unsigned nullable, char *buf, size_t size)
{
	char p[256];

	if (field_str(c, obj, path, key, nullable, buf, size) != 0)
		return -1;
	field_path(p, sizeof(p), path, key);
	if (buf[0] != '\0' && !field_is_utc(buf))
		return field_fail(c, p,
				  "'%s' is not a UTC time; expected ISO-8601 such as "
				  "2026-01-31T12:00:00Z",
				  buf);
	return 0;
}

int
field_bool(struct field_ctx *c, const json_t *obj, const char *path, const char *key, bool *out)
{
	json_t *v = field_get(c, obj, path, key, F_BOOL);

	if (v == NULL)
		return -1;
	*out = json_is_true(v);
	return 0;
}

int
field_enum(struct field_ctx *c, const json_t *obj, const char *path, const char *key,
	   const char *const *names, int n, int *out)
{
	char p[256], list[256];
	json_t *v = field_get(c, obj, path, key, F_STR);
	size_t k = 0;
	int i;

	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(json_string_value(v), names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; i < n && k < sizeof(list); i++)
		k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", names[i]);
	field_path(p, sizeof(p), path, key);
	return field_fail(c, p, "'%s' is not known; expected one of %s", json_string_value(v),
			  list);
}

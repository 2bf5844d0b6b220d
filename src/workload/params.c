/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Workload parameters: defaults, and the -p key=value parser that checks
 * each value against its table entry.  A rejected value leaves the args as
 * they were and gives one line saying what was wrong and what to type.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/workload.h"

enum parse_result { PARSE_OK, PARSE_SYNTAX, PARSE_RANGE };

#define KIB 1024LL
#define MIB (1024LL * KIB)
#define GIB (1024LL * MIB)

/* Decimal, optional sign, nothing else (no blanks, no hex). */
static enum parse_result
parse_int(const char *s, long long *out)
{
	const char *p = s;
	char *end;

	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return PARSE_SYNTAX;
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (*end != '\0')
		return PARSE_SYNTAX;
	return errno == ERANGE ? PARSE_RANGE : PARSE_OK;
}

/* Digits with an optional k/m/g suffix in powers of 1024; PARSE_RANGE on overflow. */
static enum parse_result
parse_size(const char *s, long long *out)
{
	long long v = 0, mult = 1;
	int overflow = 0;

	if (!isdigit((unsigned char)*s))
		return PARSE_SYNTAX;
	for (; isdigit((unsigned char)*s); s++) {
		int d = *s - '0';

		if (v > (LLONG_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	switch (*s) {
	case 'k':
	case 'K':
		mult = KIB;
		s++;
		break;
	case 'm':
	case 'M':
		mult = MIB;
		s++;
		break;
	case 'g':
	case 'G':
		mult = GIB;
		s++;
		break;
	}
	if (*s != '\0')
		return PARSE_SYNTAX;
	if (overflow || v > LLONG_MAX / mult)
		return PARSE_RANGE;
	*out = v * mult;
	return PARSE_OK;
}

static int
parse_choice(const char *s, const char *const *choices, long long *out)
{
	long long i;

	for (i = 0; choices != NULL && choices[i] != NULL; i++) {
		if (strcmp(s, choices[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

/* A size the way a user would type it: 64M rather than 67108864. */
static void
size_format(char *buf, size_t len, long long v)
{
	if (v != 0 && v % GIB == 0)
		snprintf(buf, len, "%lldG", v / GIB);
	else if (v != 0 && v % MIB == 0)
		snprintf(buf, len, "%lldM", v / MIB);
	else if (v != 0 && v % KIB == 0)
		snprintf(buf, len, "%lldK", v / KIB);
	else
		snprintf(buf, len, "%lld", v);
}

static void
choices_format(char *buf, size_t len, const char *const *choices)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; choices != NULL && choices[i] != NULL && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", choices[i]);
}

static void
names_format(char *buf, size_t len, const struct workload *wl)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < wl->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 wl->params[i].name);
}

static int
int_error(const struct workload *wl, const struct wl_param *p, const char *val, enum parse_result r,
	  char *err, size_t errlen)
{
	return st_error(
		err, errlen, "workload %s: %s=%s is %s (%lld..%lld): give a whole number of %s",
		wl->name, p->name, val, r == PARSE_SYNTAX ? "not a whole number" : "out of range",
		p->min, p->max, p->help);
}

static int
size_error(const struct workload *wl, const struct wl_param *p, const char *val,
	   enum parse_result r, char *err, size_t errlen)
{
	char lo[32], hi[32];

	size_format(lo, sizeof(lo), p->min);
	size_format(hi, sizeof(hi), p->max);
	if (r == PARSE_SYNTAX)
		return st_error(
			err, errlen,
			"workload %s: %s=%s is not a size (%s..%s): give a whole number "
			"of bytes with an optional K, M or G suffix (powers of 1024), e.g. %s",
			wl->name, p->name, val, lo, hi, p->def);
	return st_error(
		err, errlen,
		"workload %s: %s=%s is out of range (%s..%s): give a size in that range, e.g. %s",
		wl->name, p->name, val, lo, hi, p->def);
}

/* Parses val for parameter i into *v; -1 with the message on rejection. */
static int
value_parse(const struct workload *wl, int i, const char *val, union wl_value *v, char *err,
	    size_t errlen)
{
	const struct wl_param *p = &wl->params[i];
	enum parse_result r;
	char list[256];
	long long n = 0;

	switch (p->type) {
	case WP_INT:
		r = parse_int(val, &n);
		if (r == PARSE_OK && (n < p->min || n > p->max))
			r = PARSE_RANGE;
		if (r != PARSE_OK)
			return int_error(wl, p, val, r, err, errlen);
		break;
	case WP_SIZE:
		r = parse_size(val, &n);
		if (r == PARSE_OK && (n < p->min || n > p->max))
			r = PARSE_RANGE;
		if (r != PARSE_OK)
			return size_error(wl, p, val, r, err, errlen);
		break;
	case WP_ENUM:
		if (parse_choice(val, p->choices, &n) == -1) {
			choices_format(list, sizeof(list), p->choices);
			return st_error(
				err, errlen,
				"workload %s: %s=%s is not a choice (%s): pick one of those",
				wl->name, p->name, val, list);
		}
		break;
	case WP_PATH:
		v->s = NULL; /* the caller points it at its own copy of the text */
		return 0;
	default:
		return st_error(err, errlen, "workload %s: parameter %s has an unknown type",
				wl->name, p->name);
	}
	v->i = n;
	return 0;
}

/* Stores an accepted value: number, text as given, and a path's pointer. */
static void
value_store(struct wl_args *a, int i, const char *val, union wl_value v, bool set)
{
	snprintf(a->text[i], sizeof(a->text[i]), "%s", val);
	if (a->wl->params[i].type == WP_PATH)
		v.s = a->text[i];
	a->v[i] = v;
	a->set[i] = set;
}

void
wl_args_defaults(struct wl_args *a, const struct workload *wl)
{
	union wl_value v;
	int i;

	memset(a, 0, sizeof(*a));
	a->wl = wl;
	for (i = 0; i < wl->nparams && i < WL_MAX_PARAMS; i++) {
		v.i = 0;
		/* A default that does not parse is a table bug, caught by the unit tests. */
		if (value_parse(wl, i, wl->params[i].def, &v, NULL, 0) == 0)
			value_store(a, i, wl->params[i].def, v, false);
	}
}

int
wl_param_index(const struct workload *wl, const char *name)
{
	int i;

	for (i = 0; i < wl->nparams && i < WL_MAX_PARAMS; i++) {
		if (strcmp(wl->params[i].name, name) == 0)
			return i;
	}
	return -1;
}

int
wl_args_set(struct wl_args *a, const char *keyval, char *err, size_t errlen)
{
	const struct workload *wl = a->wl;
	const char *eq = strchr(keyval, '=');
	char key[64], names[256];
	union wl_value v;
	int i;

	if (wl == NULL)
		return st_error(err, errlen, "-p %s: no workload chosen: name the workload first",
				keyval);
	names_format(names, sizeof(names), wl);
	if (wl->nparams == 0)
		return st_error(err, errlen,
				"workload %s: -p %s: this workload takes no parameters", wl->name,
				keyval);
	if (eq == NULL)
		return st_error(
			err, errlen,
			"workload %s: -p %s is not key=value: write e.g. -p %s=%s (keys: %s)",
			wl->name, keyval, wl->params[0].name, wl->params[0].def, names);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - keyval), keyval);
	if ((size_t)(eq - keyval) >= sizeof(key) || (i = wl_param_index(wl, key)) == -1)
		return st_error(err, errlen,
				"workload %s: %s is not a parameter (%s): use one of those",
				wl->name, keyval, names);
	if (strlen(eq + 1) >= sizeof(a->text[i]))
		return st_error(err, errlen,
				"workload %s: %s= value is too long (%zu characters, %zu at most): "
				"give a shorter one",
				wl->name, key, strlen(eq + 1), sizeof(a->text[i]) - 1);
	if (value_parse(wl, i, eq + 1, &v, err, errlen) == -1)
		return -1;
	value_store(a, i, eq + 1, v, true);
	return 0;
}

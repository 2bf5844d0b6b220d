/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -n specs: "1,2,4", "1-16", "1-64x2" and their combinations, into a sorted,
 * de-duplicated list.  Counts are marked in a bitmap of the allowed range,
 * which sorts and de-duplicates for free.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"

#define NLIST_HINT "write counts like 4, ranges like 1-16, doubling ranges like 1-64x2, or topo"

struct nlist_item {
	const char *spec;            /* the whole spec, for messages */
	const struct topology *topo; /* for the item topo; NULL: not known */
	const char *start;           /* the item's first non-blank character */
	size_t len;                  /* up to the next comma, trailing blanks removed */
};

static int
nlist_column(const struct nlist_item *it, const char *at)
{
	return (int)(at - it->spec) + 1;
}

/* Digits as written; saturates so that huge values still read as out of range. */
static const char *
nlist_digits(const char *s, long *v)
{
	long n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n < 100000000)
			n = n * 10 + (*s - '0');
	}
	*v = n;
	return s;
}

static int
nlist_syntax(const struct nlist_item *it, const char *at, char *err, size_t errlen)
{
	if (*at == '\0' || *at == ',')
		return st_error(err, errlen, "-n '%s': item '%.*s' at column %d ends too early; %s",
				it->spec, (int)it->len, it->start, nlist_column(it, it->start),
				NLIST_HINT);
	return st_error(err, errlen,
			"-n '%s': item '%.*s' at column %d: unexpected '%c' at column %d; %s",
			it->spec, (int)it->len, it->start, nlist_column(it, it->start), *at,
			nlist_column(it, at), NLIST_HINT);
}

static int
nlist_range_error(const struct nlist_item *it, const char *at, size_t n, char *err, size_t errlen)
{
	return st_error(err, errlen,
			"-n '%s': item '%.*s' at column %d: %.*s is out of range; "
			"counts must be between %d and %d",
			it->spec, (int)it->len, it->start, nlist_column(it, it->start), (int)n, at,
			NLIST_MIN, NLIST_MAX);
}

/* Reads one count of the item at *s, within [NLIST_MIN, NLIST_MAX]. */
static int
nlist_count(const struct nlist_item *it, const char **s, long *v, char *err, size_t errlen)
{
	const char *end;

	if ((end = nlist_digits(*s, v)) == NULL)
		return nlist_syntax(it, *s, err, errlen);
	if (*v < NLIST_MIN || *v > NLIST_MAX)
		return nlist_range_error(it, *s, (size_t)(end - *s), err, errlen);
	*s = end;
	return 0;
}

/* A-B or A-BxF, both ends and the factor already read. */
static int
nlist_mark_range(const struct nlist_item *it, bool *seen, long a, long b, long f, char *err,
		 size_t errlen)
{
	long v;

	if (a > b)
		return st_error(err, errlen,
				"-n '%s': item '%.*s' at column %d runs backwards; "
				"write it as %ld-%ld",
				it->spec, (int)it->len, it->start, nlist_column(it, it->start), b,
				a);
	if (f == 1) {
		for (v = a; v <= b; v++)
			seen[v] = true;
		return 0;
	}
	for (v = a; v <= b; v *= f) {
		seen[v] = true;
		if (v > b / f)
			break;
	}
	seen[b] = true; /* the series may step over B; the user still asked to reach it */
	return 0;
}

static int
nlist_factor(const struct nlist_item *it, const char **s, long *f, char *err, size_t errlen)
{
	const char *at = *s, *end;

	if ((end = nlist_digits(at, f)) == NULL)
		return nlist_syntax(it, at, err, errlen);
	if (*f < 2 || *f > NLIST_MAX)
		return st_error(err, errlen,
				"-n '%s': item '%.*s' at column %d: factor %.*s must be "
				"from 2 to %d; for every count write the range without x",
				it->spec, (int)it->len, it->start, nlist_column(it, it->start),
				(int)(end - at), at, NLIST_MAX);
	*s = end;
	return 0;
}

/* The topology's counts (nlist.h's topo), each capped at NLIST_MAX. */
static void
nlist_mark_topo(bool *seen, const struct topology *t)
{
	struct topo_mark m[TOPO_MAX_MARKS];
	int nm = topology_marks(t, m, TOPO_MAX_MARKS), i;
	long v, top = 4L * t->online;

	for (i = 0; i < nm; i++) {
		if (m[i].n >= NLIST_MIN && m[i].n <= NLIST_MAX)
			seen[m[i].n] = true;
	}
	for (v = 1; v <= top && v <= NLIST_MAX; v *= 2)
		seen[v] = true;
	for (v = t->online; v <= top && v <= NLIST_MAX; v *= 2)
		seen[v] = true; /* all CPUs, 2x and 4x them */
	seen[1] = seen[2] = true;
}

static int
nlist_item_topo(const struct nlist_item *it, bool *seen, char *err, size_t errlen)
{
	if (it->topo == NULL || it->topo->online <= 0)
		return st_error(err, errlen,
				"-n '%s': item 'topo' at column %d: this machine's topology is "
				"not known; write counts like 1-64x2 instead",
				it->spec, nlist_column(it, it->start));
	nlist_mark_topo(seen, it->topo);
	return 0;
}

static int
nlist_item(const struct nlist_item *it, bool *seen, char *err, size_t errlen)
{
	const char *s = it->start;
	long a, b, f = 1;

	if (it->len == 4 && strncmp(it->start, "topo", 4) == 0)
		return nlist_item_topo(it, seen, err, errlen);
	if (nlist_count(it, &s, &a, err, errlen) != 0)
		return -1;
	if (*s != '-') {
		b = a;
	} else {
		s++;
		if (nlist_count(it, &s, &b, err, errlen) != 0)
			return -1;
		if (*s == 'x' || *s == 'X') {
			s++;
			if (nlist_factor(it, &s, &f, err, errlen) != 0)
				return -1;
		}
	}
	if (s != it->start + it->len)
		return nlist_syntax(it, s, err, errlen);
	return nlist_mark_range(it, seen, a, b, f, err, errlen);
}

static const char *
nlist_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Turns the bitmap into nl's array. */
static int
nlist_collect(struct nlist *nl, const bool *seen)
{
	size_t n = 0;
	int v;

	for (v = NLIST_MIN; v <= NLIST_MAX; v++)
		n += seen[v];
	if ((nl->v = malloc(n * sizeof(*nl->v))) == NULL)
		return -1;
	for (v = NLIST_MIN; v <= NLIST_MAX; v++) {
		if (seen[v])
			nl->v[nl->count++] = v;
	}
	return 0;
}

int
nlist_parse(struct nlist *nl, const char *spec, char *err, size_t errlen)
{
	return nlist_parse_topo(nl, spec, NULL, err, errlen);
}

int
nlist_topo(struct nlist *nl, const struct topology *t)
{
	char err[160];

	return nlist_parse_topo(nl, "topo", t, err, sizeof(err));
}

int
nlist_parse_topo(struct nlist *nl, const char *spec, const struct topology *t, char *err,
		 size_t errlen)
{
	bool seen[NLIST_MAX + 1] = { false };
	struct nlist_item it;
	const char *s = spec;

	memset(nl, 0, sizeof(*nl));
	it.spec = spec;
	it.topo = t;
	if (*nlist_skip_blanks(spec) == '\0')
		return st_error(err, errlen, "-n '%s': no counts given; %s", spec, NLIST_HINT);
	for (;;) {
		it.start = nlist_skip_blanks(s);
		s = it.start + strcspn(it.start, ",");
		it.len = (size_t)(s - it.start);
		while (it.len > 0 && (it.start[it.len - 1] == ' ' || it.start[it.len - 1] == '\t'))
			it.len--;
		if (it.len == 0)
			return st_error(err, errlen,
					"-n '%s': empty item at column %d; remove the "
					"extra comma",
					spec, nlist_column(&it, it.start));
		if (nlist_item(&it, seen, err, errlen) != 0)
			return -1;
		if (*s == '\0')
			break;
		s++;
	}
	if (nlist_collect(nl, seen) != 0)
		return st_error(err, errlen, "-n '%s': out of memory", spec);
	return 0;
}

int
nlist_default(struct nlist *nl, int ncpu)
{
	bool seen[NLIST_MAX + 1] = { false };
	int v, top;

	memset(nl, 0, sizeof(*nl));
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > NLIST_MAX)
		ncpu = NLIST_MAX;
	top = ncpu > NLIST_MAX / 2 ? NLIST_MAX : 2 * ncpu;
	for (v = 1; v <= top; v *= 2)
		seen[v] = true;
	seen[ncpu] = true;
	seen[top] = true;
	return nlist_collect(nl, seen);
}

/* Characters "1,2,4" takes for the first n counts. */
static size_t
nlist_width(const struct nlist *nl, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		w += (size_t)snprintf(NULL, 0, "%s%d", i ? "," : "", nl->v[i]);
	return w;
}

char *
nlist_format(const struct nlist *nl, char *buf, size_t len)
{
	size_t i, used = 0, w;
	bool all;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	all = nlist_width(nl, nl->count) < len;
	for (i = 0; i < nl->count; i++) {
		w = (size_t)snprintf(NULL, 0, "%s%d", i ? "," : "", nl->v[i]);
		if (!all && used + w + 3 >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", nl->v[i]);
	}
	if (!all)
		snprintf(buf + used, len - used, "...");
	return buf;
}

void
nlist_free(struct nlist *nl)
{
	free(nl->v);
	nl->v = NULL;
	nl->count = 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoder for /proc/lock_stat and the difference of two of its snapshots.
 * Pure and portable; see lockprof.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/lockprof.h"

#define LOCKSTAT_MAX_COLUMNS 12

/* One line of text, without its '\n'. */
struct lsline {
	const char *p;
	const char *end;
};

/*
 * Where each field we keep sits among a version's numeric columns.  0.4
 * inserted waittime-avg after waittime-total and appended holdtime-avg, so
 * acquisitions and holdtime-total move.
 */
struct lockstat_layout {
	const char *version;
	int ncol;
	int contentions;
	int wait_max;
	int wait_total;
	int acquisitions;
	int hold_total;
	/* Which columns are times (a fraction allowed) rather than counts. */
	uint16_t time_mask;
};

static const struct lockstat_layout lockstat_layouts[] = {
	/* con-bounces contentions wmin wmax wtotal acq-bounces acquisitions hmin hmax htotal */
	{ "0.3", 10, 1, 3, 4, 6, 9, 0x1c | 0x380 },
	/* ... wtotal wavg acq-bounces acquisitions hmin hmax htotal havg */
	{ "0.4", 12, 1, 3, 4, 7, 10, 0x3c | 0xf00 },
};

static int
lockstat_fail(int e)
{
	errno = e;
	return -1;
}

/* As line_next in decode_line.c: a last line without '\n' was cut short. */
static int
lsline_next(const char **pos, const char *end, struct lsline *l)
{
	const char *nl;

	if (*pos >= end)
		return 0;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	if (nl == NULL)
		return lockstat_fail(EINVAL);
	l->p = *pos;
	l->end = nl;
	*pos = nl + 1;
	return 1;
}

static bool
ls_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
ls_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void
lsline_trim(struct lsline *l)
{
	while (l->p < l->end && ls_blank(*l->p))
		l->p++;
	while (l->end > l->p && ls_blank(l->end[-1]))
		l->end--;
}

static bool
lsline_starts(const struct lsline *l, const char *prefix)
{
	size_t plen = strlen(prefix);

	return (size_t)(l->end - l->p) >= plen && memcmp(l->p, prefix, plen) == 0;
}

static bool
lsline_has(const struct lsline *l, const char *needle)
{
	size_t nlen = strlen(needle);
	const char *p;

	for (p = l->p; (size_t)(l->end - p) >= nlen; p++)
		if (memcmp(p, needle, nlen) == 0)
			return true;
	return false;
}

/* The header's rules and the dotted line between classes. */
static bool
lsline_is_rule(const struct lsline *l)
{
	const char *p;

	for (p = l->p; p < l->end; p++)
		if (*p != '-' && *p != '.')
			return false;
	return l->p < l->end;
}

/* Digits into *v with overflow checked; -1/EINVAL if there are none. */
static int
ls_digits(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (p == end || !ls_digit(*p))
		return lockstat_fail(EINVAL);
	while (p < end && ls_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return lockstat_fail(ERANGE);
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*v = n;
	return 0;
}

/*
 * A time column: "%lld.%02d" microseconds in the kernel.  The sign is
 * accepted because the value is an s64 of clock differences, and a bare
 * integer because nothing is lost by taking one.
 */
static int
ls_time(const char **pp, const char *end, double *v)
{
	const char *p = *pp;
	bool neg = false;
	uint64_t ip, fp;
	double scale = 1.0;
	const char *f;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (ls_digits(&p, end, &ip) != 0)
		return -1;
	*v = (double)ip;
	if (p < end && *p == '.') {
		p++;
		f = p;
		if (ls_digits(&p, end, &fp) != 0)
			return -1;
		while (f++ < p)
			scale *= 10.0;
		*v += (double)fp / scale;
	}
	if (neg)
		*v = -*v;
	*pp = p;
	return 0;
}

/*
 * The numbers after a class line's ':' into e.  -1/EINVAL unless there are
 * exactly the layout's columns, each a whole blank-separated field.
 */
static int
lockstat_columns(const char *p, const char *end, const struct lockstat_layout *lay,
		 struct lockprof_entry *e)
{
	uint64_t cnt[LOCKSTAT_MAX_COLUMNS] = { 0 };
	double tm[LOCKSTAT_MAX_COLUMNS] = { 0 };
	int col;

	for (col = 0;; col++) {
		while (p < end && ls_blank(*p))
			p++;
		if (p == end)
			break;
		if (col == lay->ncol)
			return lockstat_fail(EINVAL);
		if (lay->time_mask & (1u << col)) {
			if (ls_time(&p, end, &tm[col]) != 0)
				return -1;
		} else if (ls_digits(&p, end, &cnt[col]) != 0)
			return -1;
		if (p < end && !ls_blank(*p))
			return lockstat_fail(EINVAL);
	}
	if (col != lay->ncol)
		return lockstat_fail(EINVAL);
	e->contentions = cnt[lay->contentions];
	e->wait_max_us = tm[lay->wait_max];
	e->wait_total_us = tm[lay->wait_total];
	e->acquisitions = cnt[lay->acquisitions];
	e->hold_total_us = tm[lay->hold_total];
	return 0;
}

/*
 * Keeps out[0..*n) the max entries with the most contentions, descending.
 * An entry goes after those with as many, so ties keep arrival order; no
 * allocation, and O(max) per entry, which is fine for the few dozen a
 * display shows.
 */
static void
lockprof_top_insert(struct lockprof_entry *out, int max, int *n, const struct lockprof_entry *e)
{
	int i;

	if (max <= 0)
		return;
	if (*n == max && out[max - 1].contentions >= e->contentions)
		return;
	i = *n < max ? (*n)++ : max - 1;
	while (i > 0 && out[i - 1].contentions < e->contentions) {
		out[i] = out[i - 1];
		i--;
	}
	out[i] = *e;
}

/* "lock_stat version X.Y" into its layout; ENOTSUP for a version we lack. */
static int
lockstat_version(struct lsline *l, const struct lockstat_layout **lay)
{
	static const char prefix[] = "lock_stat version ";
	size_t plen = sizeof(prefix) - 1, vlen, i;
	const char *v;

	lsline_trim(l);
	if (!lsline_starts(l, prefix))
		return lockstat_fail(EINVAL);
	v = l->p + plen;
	vlen = (size_t)(l->end - v);
	for (i = 0; i < sizeof(lockstat_layouts) / sizeof(lockstat_layouts[0]); i++) {
		if (strlen(lockstat_layouts[i].version) == vlen &&
		    memcmp(lockstat_layouts[i].version, v, vlen) == 0) {
			*lay = &lockstat_layouts[i];
			return 0;
		}
	}
	return lockstat_fail(ENOTSUP);
}

/*
 * One class line: "<name>:" then the columns.  The last ':' ends the name
 * since numbers hold none, while a name might.  1 when the line was taken,
 * 0 when it is a contention point ("<name> <count> [<ip>] <symbol>", whose
 * symbol may hold a ':'), -1 when it is neither.
 */
static int
lockstat_class(struct lsline *l, const struct lockstat_layout *lay, struct lockprof_entry *e)
{
	const char *colon = NULL, *p, *name_end;
	size_t nlen;

	for (p = l->p; p < l->end; p++)
		if (*p == ':')
			colon = p;
	if (colon == NULL || lockstat_columns(colon + 1, l->end, lay, e) != 0) {
		if (lsline_has(l, "[<"))
			return 0;
		return colon == NULL ? lockstat_fail(EINVAL) : -1;
	}
	name_end = colon;
	while (name_end > l->p && ls_blank(name_end[-1]))
		name_end--;
	nlen = (size_t)(name_end - l->p);
	if (nlen == 0)
		return lockstat_fail(EINVAL);
	if (nlen >= sizeof(e->name))
		return lockstat_fail(ERANGE);
	memcpy(e->name, l->p, nlen);
	e->name[nlen] = '\0';
	return 1;
}

/* Where the class lines go: the top max (out[0..*n), sorted), or all of them (grown). */
struct lockstat_sink {
	struct lockprof_entry *out;
	int max, *n;
	bool all;
};

/* Appends e, doubling the array up to LOCKPROF_MAX_CLASSES; -1 (ERANGE, ENOMEM) beyond. */
static int
lockstat_append(struct lockstat_sink *k, const struct lockprof_entry *e)
{
	if (*k->n == k->max) {
		if (k->max >= LOCKPROF_MAX_CLASSES)
			return lockstat_fail(ERANGE);
		if (grow_array_int(&k->out, &k->max, k->max + 1, sizeof(*k->out), 256) != 0)
			return lockstat_fail(ENOMEM);
	}
	k->out[(*k->n)++] = *e;
	return 0;
}

static int
lockstat_scan(const char *buf, size_t len, struct lockstat_sink *k)
{
	const char *pos = buf, *end = buf + len;
	const struct lockstat_layout *lay;
	struct lockprof_entry e;
	struct lsline l;
	int r;

	/* The version line comes first; without it this is some other file. */
	if ((r = lsline_next(&pos, end, &l)) <= 0)
		return r == 0 ? lockstat_fail(EINVAL) : -1;
	if (lockstat_version(&l, &lay) != 0)
		return -1;
	while ((r = lsline_next(&pos, end, &l)) == 1) {
		lsline_trim(&l);
		if (l.p == l.end || lsline_is_rule(&l))
			continue;
		/* The column titles, and the notice printed once lockdep turned itself off. */
		if (lsline_starts(&l, "class name") || lsline_starts(&l, "*WARNING*"))
			continue;
		memset(&e, 0, sizeof(e));
		if ((r = lockstat_class(&l, lay, &e)) < 0)
			return -1;
		if (r == 1 && !k->all)
			lockprof_top_insert(k->out, k->max, k->n, &e);
		else if (r == 1 && lockstat_append(k, &e) != 0)
			return -1;
	}
	return r;
}

int
lockstat_decode(const char *buf, size_t len, struct lockprof_entry *out, int max, int *n)
{
	struct lockstat_sink k = { out, max, n, false };

	if (n == NULL || max < 0 || (max > 0 && out == NULL) || (buf == NULL && len > 0))
		return lockstat_fail(EINVAL);
	*n = 0;
	return lockstat_scan(buf, len, &k);
}

int
lockstat_decode_all(const char *buf, size_t len, struct lockprof_entry **out, int *n)
{
	struct lockstat_sink k = { NULL, 0, n, true };
	int e;

	if (n == NULL || out == NULL || (buf == NULL && len > 0))
		return lockstat_fail(EINVAL);
	*n = 0;
	*out = NULL;
	if (lockstat_scan(buf, len, &k) != 0) {
		e = errno;
		free(k.out);
		*n = 0;
		return lockstat_fail(e);
	}
	*out = k.out;
	return 0;
}

static int
lockprof_cmp_name(const void *x, const void *y)
{
	const struct lockprof_entry *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

static int
lockprof_cmp_key(const void *key, const void *y)
{
	const struct lockprof_entry *const *b = y;

	return strcmp(key, (*b)->name);
}

/* The change of one class; old NULL, or a counter gone back, counts from zero. */
static void
lockprof_change(const struct lockprof_entry *old, struct lockprof_entry *d)
{
	/*
	 * Writing 0 to the file clears every counter of every class at
	 * once, so one counter going back means all of them restarted.
	 */
	if (old != NULL && d->contentions >= old->contentions &&
	    d->acquisitions >= old->acquisitions && d->wait_total_us >= old->wait_total_us &&
	    d->hold_total_us >= old->hold_total_us) {
		d->contentions -= old->contentions;
		d->acquisitions -= old->acquisitions;
		d->wait_total_us -= old->wait_total_us;
		d->hold_total_us -= old->hold_total_us;
	}
}

int
lockprof_delta(const struct lockprof_entry *a, int na, const struct lockprof_entry *b, int nb,
	       struct lockprof_entry *out, int max, int *n)
{
	const struct lockprof_entry **byname = NULL, *const * hit;
	struct lockprof_entry d;
	int i;

	if (n == NULL || na < 0 || nb < 0 || max < 0 || (na > 0 && a == NULL) ||
	    (nb > 0 && b == NULL) || (max > 0 && out == NULL))
		return lockstat_fail(EINVAL);
	*n = 0;
	/* a by name, so each of b's thousands of classes is found in log time */
	if (na > 0 && (byname = malloc((size_t)na * sizeof(*byname))) == NULL)
		return lockstat_fail(ENOMEM);
	for (i = 0; i < na; i++)
		byname[i] = &a[i];
	if (na > 0)
		qsort(byname, (size_t)na, sizeof(*byname), lockprof_cmp_name);
	for (i = 0; i < nb; i++) {
		d = b[i];
		hit = na > 0 ? bsearch(b[i].name, byname, (size_t)na, sizeof(*byname),
				       lockprof_cmp_key)
			     : NULL;
		lockprof_change(hit != NULL ? *hit : NULL, &d);
		lockprof_top_insert(out, max, n, &d);
	}
	free(byname);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing the lock census: at each N, each family's top locks of every
 * side, the same lock on one line, with each side's share of the family's
 * blocked time and the most waiters it saw at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/report.h"
#include "compare_priv.h"

#define CL_SHOWN 3      /* each side's top locks shown at an N */
#define CL_LABEL_MAX 48 /* the text's lock column grows to this, longer labels push their cells */

/*
 * A lock is matched by its name and its process's command name, since its
 * address and pid change from run to run and those do not: "big_lock" at 87%
 * in A and 12% in B is the change that moved the wait. '-' is a side whose
 * census did not see the lock; "no census" a side that ran none at that N
 * (--no-locks, not Linux, a file from before the census).  Repeats and
 * trials of an N pool as the hot section's do: a lock's share is its mean
 * over the steps that ran a census (0 in one whose top lacks it), its
 * waiters the most any saw.  Text after compare's hot section, and a table
 * for --markdown.
 */

/* One lock at an N, across the sides. */
struct cl_row {
	const struct step_ulock *u;             /* the first seen: name and comm */
	const char *kind[SNAPSHOT_COMPARE_MAX]; /* each side's kind; NULL: not seen */
	double share[SNAPSHOT_COMPARE_MAX];     /* summed, then the mean over census steps */
	unsigned waiters[SNAPSHOT_COMPARE_MAX]; /* the most at once in any step */
	bool shown;
};

/* The locks of one family at one N. */
struct cl_set {
	struct cl_row *row;
	int nrow, cap;
	int steps[SNAPSHOT_COMPARE_MAX];  /* each side's usable steps at n */
	int census[SNAPSHOT_COMPARE_MAX]; /* those that ran a census */
};

static char
cl_letter(int i)
{
	return (char)('A' + i);
}

/* Whether any step of sn ran a census. */
static bool
cl_any_census(const struct snapshot *sn)
{
	int i;

	for (i = 0; i < sn->s.nsteps; i++) {
		if (sn->s.steps[i].ulocks.present)
			return true;
	}
	return false;
}

static int
cl_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct N of the sides' usable steps, ascending, into a malloc'ed *out; -1 on ENOMEM. */
static int
cl_all_n(struct snapshot *const *v, int k, int **out)
{
	int i, j, m = 0, total = 0, *n;

	for (i = 0; i < k; i++)
		total += v[i]->s.nsteps;
	if ((*out = n = malloc(sizeof(*n) * (size_t)(total > 0 ? total : 1))) == NULL)
		return -1;
	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->s.nsteps; j++) {
			if (step_usable(&v[i]->s.steps[j]))
				n[m++] = v[i]->s.steps[j].n;
		}
	}
	qsort(n, (size_t)m, sizeof(*n), cl_int_cmp);
	for (i = 0, j = 0; i < m; i++) {
		if (j == 0 || n[i] != n[j - 1])
			n[j++] = n[i];
	}
	return j;
}

static struct cl_row *
cl_find(struct cl_set *c, const struct step_ulock *u)
{
	struct cl_row *r;
	int i, cap;

	for (i = 0; i < c->nrow; i++) {
		if (strcmp(c->row[i].u->name, u->name) == 0 &&
		    strcmp(c->row[i].u->comm, u->comm) == 0)
			return &c->row[i];
	}
	if (c->nrow == c->cap) {
		cap = c->cap > 0 ? 2 * c->cap : 16;
		if ((r = realloc(c->row, (size_t)cap * sizeof(*r))) == NULL)
			return NULL;
		c->row = r;
		c->cap = cap;
	}
	r = &c->row[c->nrow++];
	memset(r, 0, sizeof(*r));
	r->u = u;
	return r;
}

/* Side i's steps at n into c: each lock of fam summed into its row; -1 on ENOMEM. */
static int
cl_side(struct cl_set *c, const struct snapshot *sn, int i, int n, enum wait_family fam)
{
	const struct step *st;
	struct cl_row *r;
	int j, m;

	for (j = 0; j < sn->s.nsteps; j++) {
		st = &sn->s.steps[j];
		if (st->n != n || !step_usable(st))
			continue;
		c->steps[i]++;
		if (!st->ulocks.present)
			continue;
		c->census[i]++;
		for (m = 0; m < st->ulocks.n; m++) {
			if (st->ulocks.lock[m].family != fam || st->ulocks.lock[m].idle)
				continue;
			if ((r = cl_find(c, &st->ulocks.lock[m])) == NULL)
				return -1;
			r->share[i] += st->ulocks.lock[m].share;
			if (r->kind[i] == NULL)
				r->kind[i] = st->ulocks.lock[m].kind;
			if (st->ulocks.lock[m].max_waiters > r->waiters[i])
				r->waiters[i] = st->ulocks.lock[m].max_waiters;
		}
	}
	return 0;
}

/* The largest share of a row on any side. */
static double
cl_max(const struct cl_row *r, int k)
{
	double x = 0;
	int i;

	for (i = 0; i < k; i++) {
		if (r->share[i] > x)
			x = r->share[i];
	}
	return x;
}

static int
cl_cmp(const void *pa, const void *pb)
{
	const struct cl_row *a = pa, *b = pb;
	double x = cl_max(a, SNAPSHOT_COMPARE_MAX), y = cl_max(b, SNAPSHOT_COMPARE_MAX);

	if (a->shown != b->shown)
		return a->shown ? -1 : 1;
	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->u->name, b->u->name);
}

/* Whether row j is among side i's CL_SHOWN largest (ties: the first seen). */
static bool
cl_top(const struct cl_set *c, int j, int i)
{
	const struct cl_row *r = &c->row[j], *o;
	int m, above = 0;

	if (r->kind[i] == NULL)
		return false;
	for (m = 0; m < c->nrow && above < CL_SHOWN; m++) {
		o = &c->row[m];
		if (m != j && o->kind[i] != NULL &&
		    (o->share[i] > r->share[i] || (o->share[i] == r->share[i] && m < j)))
			above++;
	}
	return above < CL_SHOWN;
}

/* Marks each side's CL_SHOWN largest rows and keeps those, the largest first. */
static void
cl_mark(struct cl_set *c, int k)
{
	int i, j;

	for (j = 0; j < c->nrow; j++) {
		for (i = 0; i < k && !c->row[j].shown; i++)
			c->row[j].shown = cl_top(c, j, i);
	}
	if (c->nrow > 1)
		qsort(c->row, (size_t)c->nrow, sizeof(*c->row), cl_cmp);
	while (c->nrow > 0 && !c->row[c->nrow - 1].shown)
		c->nrow--;
}

/*
 * The locks of fam at n over the k sides into c, each side's top CL_SHOWN
 * kept, the largest first; -1 on ENOMEM.  c->nrow is 0 where no side's
 * census saw a lock of fam there.
 */
static int
cl_collect(struct cl_set *c, struct snapshot *const *v, int k, int n, enum wait_family fam)
{
	int i, j;

	c->nrow = 0;
	memset(c->steps, 0, sizeof(c->steps));
	memset(c->census, 0, sizeof(c->census));
	for (i = 0; i < k; i++) {
		if (cl_side(c, v[i], i, n, fam) != 0)
			return -1;
	}
	for (j = 0; j < c->nrow; j++) {
		for (i = 0; i < k; i++)
			c->row[j].share[i] =
				c->census[i] > 0 ? c->row[j].share[i] / c->census[i] : 0;
	}
	cl_mark(c, k);
	return 0;
}

/* "mariadbd: lock_sys+64 (mutex)"; each side's kind where they differ: "(mutex/bitset)". */
static void
cl_label(char *buf, size_t len, const struct cl_row *r, int k)
{
	size_t off;
	bool dup, first = true;
	int i, j;

	off = (size_t)snprintf(buf, len, "%s%s%s (", r->u->comm, r->u->comm[0] ? ": " : "",
			       r->u->name);
	for (i = 0; i < k && off < len; i++) {
		if (r->kind[i] == NULL)
			continue;
		for (dup = false, j = 0; j < i && !dup; j++)
			dup = r->kind[j] != NULL && strcmp(r->kind[j], r->kind[i]) == 0;
		if (!dup)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", first ? "" : "/",
						r->kind[i]);
		first = false;
	}
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

/* Side i's cell: "87.0% 7w" (text: " 87.0%   7w"), "-", "no census" or "no step". */
static const char *
cl_cell(char *buf, size_t len, const struct cl_set *c, const struct cl_row *r, int i, bool text)
{
	if (c->steps[i] == 0)
		return "no step";
	if (c->census[i] == 0)
		return "no census";
	if (r->kind[i] == NULL)
		return "-";
	snprintf(buf, len, text ? "%5.1f%% %3uw" : "%.1f%% %uw", 100.0 * r->share[i],
		 r->waiters[i]);
	return buf;
}

static const char cl_what[] = "each side's top %d futexes at each N by share of the family's "
			      "blocked time, with the most waiters at once (w); -: not among "
			      "that side's locks";

static const char cl_none[] = "(--no-locks, not Linux, or a file from before the census)";

static void
cl_group_text(FILE *f, const struct cl_set *c, int k, int n, enum wait_family fam)
{
	char label[256], buf[32];
	int i, j, w = 0, len;

	for (j = 0; j < c->nrow; j++) {
		cl_label(label, sizeof(label), &c->row[j], k);
		len = (int)strlen(label);
		w = len > w ? (len < CL_LABEL_MAX ? len : CL_LABEL_MAX) : w;
	}
	fprintf(f, "N=%d %s\n", n, wait_family_names[fam]);
	for (j = 0; j < c->nrow; j++) {
		cl_label(label, sizeof(label), &c->row[j], k);
		fprintf(f, "  %-*s", w, label);
		for (i = 0; i < k; i++)
			fprintf(f, "  %c %11s", cl_letter(i),
				cl_cell(buf, sizeof(buf), c, &c->row[j], i, true));
		fputc('\n', f);
	}
}

/* A view of the locks of one family at one N. */
typedef void cl_each_fn(FILE *f, const struct cl_set *c, int k, int n, enum wait_family fam);

static void
cl_count_only(FILE *f, const struct cl_set *c, int k, int n, enum wait_family fam)
{
	(void)f;
	(void)c;
	(void)k;
	(void)n;
	(void)fam;
}

/*
 * Calls each(f, c, k, n, fam) for every N and family where a side's census
 * saw a lock; the number of calls, or -1 on ENOMEM.
 */
static int
cl_walk(FILE *f, struct snapshot *const *v, int k, cl_each_fn *each)
{
	static const enum wait_family fams[] = { WAIT_WORKLOAD, WAIT_TARGET };
	struct cl_set c;
	int *n, nn, i, fi, calls = 0;

	memset(&c, 0, sizeof(c));
	if ((nn = cl_all_n(v, k, &n)) < 0)
		return -1;
	for (i = 0; i < nn && calls >= 0; i++) {
		for (fi = 0; fi < 2 && calls >= 0; fi++) {
			if (cl_collect(&c, v, k, n[i], fams[fi]) != 0)
				calls = -1;
			else if (c.nrow > 0) {
				each(f, &c, k, n[i], fams[fi]);
				calls++;
			}
		}
	}
	free(c.row);
	free(n);
	return calls;
}

/* How many sides ran a census anywhere. */
static int
cl_sides_with_census(struct snapshot *const *v, int k)
{
	int i, m = 0;

	for (i = 0; i < k; i++)
		m += cl_any_census(v[i]);
	return m;
}

void
snapshot_compare_locks_text(FILE *f, struct snapshot *const *v, int k)
{
	int i, calls;

	if (cl_sides_with_census(v, k) == 0)
		return;
	fputs("\nlocks: ", f);
	fprintf(f, cl_what, CL_SHOWN);
	fputc('\n', f);
	for (i = 0; i < k; i++) {
		if (!cl_any_census(v[i]))
			fprintf(f, "  no census on %c %s\n", cl_letter(i), cl_none);
	}
	if ((calls = cl_walk(f, v, k, cl_group_text)) < 0)
		fputs("  out of memory\n", f);
	else if (calls == 0)
		fputs("  no census saw a thread wait on a futex\n", f);
}

static void
cl_group_md(FILE *f, const struct cl_set *c, int k, int n, enum wait_family fam)
{
	char label[256], buf[32];
	int i, j;

	for (j = 0; j < c->nrow; j++) {
		cl_label(label, sizeof(label), &c->row[j], k);
		fprintf(f, "| %d | %s | ", n, wait_family_names[fam]);
		snapshot_md_text(f, label);
		fputs(" |", f);
		for (i = 0; i < k; i++)
			fprintf(f, " %s |", cl_cell(buf, sizeof(buf), c, &c->row[j], i, false));
		fputc('\n', f);
	}
}

void
snapshot_compare_locks_md(FILE *f, struct snapshot *const *v, int k)
{
	int i, calls;

	if (cl_sides_with_census(v, k) == 0)
		return;
	if ((calls = cl_walk(f, v, k, cl_count_only)) <= 0) {
		fputs(calls < 0 ? "\nLocks: out of memory.\n"
				: "\nLocks: no census saw a thread wait on a futex.\n",
		      f);
		return;
	}
	fputs("\nLocks: ", f);
	fprintf(f, cl_what, CL_SHOWN);
	fputs(":\n\n| N | family | lock |", f);
	for (i = 0; i < k; i++)
		fprintf(f, " %c |", cl_letter(i));
	fputs("\n|---:|:--|:--|", f);
	for (i = 0; i < k; i++)
		fputs("---:|", f);
	fputc('\n', f);
	(void)cl_walk(f, v, k, cl_group_md);
	fputc('\n', f);
	for (i = 0; i < k; i++) {
		if (!cl_any_census(v[i]))
			fprintf(f, "No census on %c %s.\n", cl_letter(i), cl_none);
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The /proc/lock_stat decoder and snapshot delta over hand-written fixtures
 * in the documented format (tests/fixtures/lockstat/README).  The decoder is
 * handed an exact-size heap copy with no NUL after it, so a read past len is
 * caught by the sanitizer build.  Expected values are the fixtures' numbers,
 * and the deltas are worked out by hand in the comments.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/lockprof.h"
#include "../tap.h"

/* The kernel prints two decimals; sums of such values stay far inside this. */
#define TOL 1e-3
#define NMAX 16

static int
decode_text(const char *text, size_t len, struct lockprof_entry *out, int max, int *n)
{
	char *p = exact_copy(text, len);
	int r = lockstat_decode(p, len, out, max, n);

	free(p);
	return r;
}

static int
decode_str(const char *text, struct lockprof_entry *out, int max, int *n)
{
	return decode_text(text, strlen(text), out, max, n);
}

static int
decode_fixture(const char *name, struct lockprof_entry *out, int max, int *n)
{
	size_t len;
	char *text = fixture_read(name, &len);
	int r = decode_text(text, len, out, max, n);

	free(text);
	return r;
}

static void
is_entry(const struct lockprof_entry *e, const char *name, uint64_t con, double wtot, double wmax,
	 uint64_t acq, double htot)
{
	char what[160];

	is_str(e->name, name, "name");
	snprintf(what, sizeof(what), "%s contentions", name);
	is_u64(e->contentions, con, what);
	snprintf(what, sizeof(what), "%s wait_total_us", name);
	is_double(e->wait_total_us, wtot, TOL, what);
	snprintf(what, sizeof(what), "%s wait_max_us", name);
	is_double(e->wait_max_us, wmax, TOL, what);
	snprintf(what, sizeof(what), "%s acquisitions", name);
	is_u64(e->acquisitions, acq, what);
	snprintf(what, sizeof(what), "%s hold_total_us", name);
	is_double(e->hold_total_us, htot, TOL, what);
}

/* lock_stat_a, whichever version printed it: the same numbers, sorted. */
static void
check_a(const struct lockprof_entry *e, int n, const char *ver)
{
	char what[64];

	snprintf(what, sizeof(what), "%s: five class lines, contention points skipped", ver);
	if (!is_int(n, 5, what))
		return;
	is_entry(&e[0], "&rq->lock", 13128, 103881.26, 190.53, 3453404, 13224683.11);
	is_entry(&e[1], "&rq->lock/1", 11488, 136294.31, 388.73, 38404, 109388.53);
	is_entry(&e[2], "unix_table_lock", 112, 163.91, 49.24, 66312, 31589.81);
	is_entry(&e[3], "&mm->mmap_sem-R", 100, 325629.52, 299502.61, 34316685, 95016910.20);
	is_entry(&e[4], "&mm->mmap_sem-W", 84, 16371.53, 939.10, 2922365, 17464026916.32);
}

static void
test_versions(void)
{
	struct lockprof_entry e[NMAX];
	int n = -1;

	is_int(decode_fixture("lockstat/lock_stat_a", e, NMAX, &n), 0, "0.4 decodes");
	check_a(e, n, "0.4");
	n = -1;
	is_int(decode_fixture("lockstat/lock_stat_v03", e, NMAX, &n), 0, "0.3 decodes");
	check_a(e, n, "0.3");
}

static void
test_top(void)
{
	struct lockprof_entry e[NMAX];
	int n = -1;

	is_int(decode_fixture("lockstat/lock_stat_a", e, 2, &n), 0, "max 2 decodes");
	is_int(n, 2, "max 2 keeps two");
	is_str(e[0].name, "&rq->lock", "max 2: most contended first");
	is_str(e[1].name, "&rq->lock/1", "max 2: then the next");
	n = -1;
	is_int(decode_fixture("lockstat/lock_stat_a", NULL, 0, &n), 0, "max 0 decodes");
	is_int(n, 0, "max 0 keeps none");
	/* Equal counts keep the file's order. */
	n = -1;
	is_int(decode_str("lock_stat version 0.4\n"
			  "  x: 1 7 0.00 0.00 0.00 0.00 1 1 0.00 0.00 0.00 0.00\n"
			  "  y: 1 9 0.00 0.00 0.00 0.00 1 1 0.00 0.00 0.00 0.00\n"
			  "  z: 1 7 0.00 0.00 0.00 0.00 1 1 0.00 0.00 0.00 0.00\n",
			  e, 2, &n),
	       0, "ties decode");
	is_int(n, 2, "ties: two kept");
	is_str(e[0].name, "y", "ties: larger first");
	is_str(e[1].name, "x", "ties: the earlier of equals");
}

static void
test_odd_but_valid(void)
{
	struct lockprof_entry e[NMAX];
	int n = -1;

	is_int(decode_str("lock_stat version 0.4\n", e, NMAX, &n), 0, "header only decodes");
	is_int(n, 0, "header only: no classes");
	n = -1;
	is_int(decode_str(
		       "lock_stat version 0.4\n"
		       "*WARNING* lock debugging disabled!! - possibly due to a lockdep warning\n",
		       e, NMAX, &n),
	       0, "lockdep-off warning skipped");
	is_int(n, 0, "warning: no classes");
	/* A name with a ':' (Rust names locks by file:line); a symbol with one. */
	n = -1;
	is_int(decode_str("lock_stat version 0.4\n"
			  "   rust/k.rs:12:    3     5   1.50   2.25  7.5  1.50   4  6  0.10  9.99 "
			  "20.05  3.34\n"
			  "   -------------\n"
			  "   rust/k.rs:12      5   [<0000000000000000>] k::lock+0x10/0x20 [mod]\n",
			  e, NMAX, &n),
	       0, "colons in names and symbols decode");
	if (is_int(n, 1, "colons: one class"))
		is_entry(&e[0], "rust/k.rs:12", 5, 7.5, 2.25, 6, 20.05);
}

static void
test_malformed(void)
{
	static const char *fixtures[] = {
		"lockstat/not_lockstat",
		"lockstat/truncated",
		"lockstat/wrong_columns",
	};
	static const struct {
		const char *text;
		int err;
		const char *what;
	} cases[] = {
		{ "", EINVAL, "empty" },
		{ "lock_stat version 0.4", EINVAL, "header without newline" },
		{ "lock_stat version 0.5\n", ENOTSUP, "unknown version" },
		{ "lock_stat version\n", EINVAL, "no version number" },
		{ "\nlock_stat version 0.4\n", EINVAL, "header not first" },
		{ "lock_stat version 0.4\n x: 1 2 0.1 0.2 0.3 0.4 5 6 0.1 0.2 0.3\n", EINVAL,
		  "11 columns in 0.4" },
		{ "lock_stat version 0.3\n x: 1 2 0.1 0.2 0.3 0.4 5 6 0.1 0.2 0.3\n", EINVAL,
		  "11 columns in 0.3" },
		{ "lock_stat version 0.4\n x: 1 2a 0.1 0.2 0.3 0.4 5 6 0.1 0.2 0.3 0.4\n", EINVAL,
		  "letters in a count" },
		{ "lock_stat version 0.4\n x: 1 2 0.1 0.2 0.3 0.4 5.5 6 0.1 0.2 0.3 0.4\n", EINVAL,
		  "fraction in a count" },
		{ "lock_stat version 0.4\n x: 1 2 0.1 0.2 0. 0.4 5 6 0.1 0.2 0.3 0.4\n", EINVAL,
		  "time without decimals after the point" },
		{ "lock_stat version 0.4\n : 1 2 0.1 0.2 0.3 0.4 5 6 0.1 0.2 0.3 0.4\n", EINVAL,
		  "empty name" },
		{ "lock_stat version 0.4\n some other text\n", EINVAL, "a stray line" },
		{ "lock_stat version 0.4\n x: 1 18446744073709551616 0.1 0.2 0.3 0.4 5 6 0.1 0.2 "
		  "0.3 "
		  "0.4\n",
		  ERANGE, "count past 2^64" },
		{ "lock_stat version 0.4\n "
		  "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
		  "nnnnnnnnn"
		  "nnnnnnn: 1 2 0.1 0.2 0.3 0.4 5 6 0.1 0.2 0.3 0.4\n",
		  ERANGE, "96-byte name" },
	};
	struct lockprof_entry e[NMAX];
	char what[96];
	size_t i;
	int n;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		errno = 0;
		snprintf(what, sizeof(what), "%s refused", fixtures[i]);
		is_int(decode_fixture(fixtures[i], e, NMAX, &n), -1, what);
		snprintf(what, sizeof(what), "%s: EINVAL", fixtures[i]);
		is_int(errno, EINVAL, what);
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		errno = 0;
		snprintf(what, sizeof(what), "%s refused", cases[i].what);
		is_int(decode_str(cases[i].text, e, NMAX, &n), -1, what);
		snprintf(what, sizeof(what), "%s: errno", cases[i].what);
		is_int(errno, cases[i].err, what);
	}
	errno = 0;
	is_int(lockstat_decode("x\n", 2, e, -1, &n), -1, "negative max refused");
	is_int(errno, EINVAL, "negative max: EINVAL");
}

/* Every prefix of a real file: decoded or refused, never read past its end. */
static void
test_prefixes(void)
{
	struct lockprof_entry e[NMAX];
	size_t len, cut, bad = 0, full = 0;
	char *text = fixture_read("lockstat/lock_stat_a", &len);
	int n;

	for (cut = 0; cut < len; cut++) {
		int r = decode_text(text, cut, e, NMAX, &n);

		/* Only a cut just after a '\n' ends on a whole line. */
		if (cut > 0 && text[cut - 1] == '\n' && r != 0)
			bad++;
		if ((cut == 0 || text[cut - 1] != '\n') && (r != -1 || errno != EINVAL))
			bad++;
		if (r == 0 && n == 5)
			full++;
	}
	is_u64(bad, 0, "every prefix: whole lines decode, cut lines give EINVAL");
	ok(full > 0, "some whole-line prefix holds all five classes");
	free(text);
}

static void
test_delta(void)
{
	struct lockprof_entry a[NMAX], b[NMAX], c[NMAX], d[NMAX];
	int na, nb, nc, n = -1;

	if (decode_fixture("lockstat/lock_stat_a", a, NMAX, &na) != 0 ||
	    decode_fixture("lockstat/lock_stat_b", b, NMAX, &nb) != 0 ||
	    decode_fixture("lockstat/lock_stat_cleared", c, NMAX, &nc) != 0) {
		ok(0, "delta fixtures decode");
		return;
	}
	is_int(nb, 6, "b: six classes");
	is_int(lockprof_delta(a, na, b, nb, d, NMAX, &n), 0, "a to b");
	if (is_int(n, 6, "a to b: six classes")) {
		/* 14200-13128, 110001.76-103881.26, b's max, 3600000-3453404,
		 * 13800000.11-13224683.11 */
		is_entry(&d[0], "&rq->lock", 1072, 6120.50, 190.53, 146596, 575317.00);
		/* 12000-11488, 140000.00-136294.31, 40000-38404, 112000.03-109388.53 */
		is_entry(&d[1], "&rq->lock/1", 512, 3705.69, 402.00, 1596, 2611.50);
		/* New in b: counted from zero. */
		is_entry(&d[2], "tasklist_lock-W", 310, 3100.50, 1189.42, 5100, 39396.74);
		/* 120-100, 326000.02-325629.52, 34400000-34316685, 95100000.20-95016910.20 */
		is_entry(&d[3], "&mm->mmap_sem-R", 20, 370.50, 299502.61, 83315, 83090.00);
		/* 90-84, 17000.03-16371.53, 2950000-2922365, 17500000000.32-17464026916.32 */
		is_entry(&d[4], "&mm->mmap_sem-W", 6, 628.50, 939.10, 27635, 35973084.00);
		/* Uncontended between the two: only acquisitions and hold time moved. */
		is_entry(&d[5], "unix_table_lock", 0, 0.0, 49.24, 88, 30.19);
	}
	n = -1;
	is_int(lockprof_delta(a, na, b, nb, d, 3, &n), 0, "a to b, max 3");
	if (is_int(n, 3, "max 3 keeps three"))
		is_str(d[2].name, "tasklist_lock-W", "max 3: third by contentions");
	/* Cleared between b and c: every class restarts, and c's values are the change. */
	n = -1;
	is_int(lockprof_delta(b, nb, c, nc, d, NMAX, &n), 0, "b to cleared");
	if (is_int(n, 2, "b to cleared: two classes")) {
		is_entry(&d[0], "&rq->lock", 50, 250.25, 20.00, 10000, 3800.00);
		is_entry(&d[1], "unix_table_lock", 2, 1.40, 1.10, 120, 60.00);
	}
	/* Nothing changed: all zero. */
	n = -1;
	is_int(lockprof_delta(a, na, a, na, d, NMAX, &n), 0, "a to a");
	if (is_int(n, 5, "a to a: five classes"))
		is_entry(&d[0], "&rq->lock", 0, 0.0, 190.53, 0, 0.0);
}

static void
test_delta_one_backwards(void)
{
	struct lockprof_entry a = { "l", 10, 5.0, 1.0, 100, 50.0 };
	struct lockprof_entry b = { "l", 12, 6.0, 1.5, 110, 40.0 };
	struct lockprof_entry d;
	int n = -1;

	/* Only hold time went back, yet it can only do so after a clear. */
	is_int(lockprof_delta(&a, 1, &b, 1, &d, 1, &n), 0, "hold time backwards");
	if (is_int(n, 1, "hold time backwards: one class"))
		is_entry(&d, "l", 12, 6.0, 1.5, 110, 40.0);
	errno = 0;
	is_int(lockprof_delta(&a, -1, &b, 1, &d, 1, &n), -1, "negative count refused");
	is_int(errno, EINVAL, "negative count: EINVAL");
	errno = 0;
	is_int(lockprof_delta(&a, 1, &b, 1, NULL, 1, &n), -1, "NULL out refused");
	is_int(errno, EINVAL, "NULL out: EINVAL");
}

/* Every class of a fixture, as the sampler reads /proc/lock_stat. */
static int
decode_all_fixture(const char *name, struct lockprof_entry **out, int *n)
{
	size_t len;
	char *text = fixture_read(name, &len), *p;
	int r;

	if (text == NULL)
		return -1;
	p = exact_copy(text, len);
	r = lockstat_decode_all(p, len, out, n);
	free(p);
	free(text);
	return r;
}

/*
 * A class that crosses the top-256 cut during the window (lock_stat_many_*,
 * from many.py): rising_lock is 301st of 301 at the start with 9000
 * contentions since boot and gains 2000.  Its change is 2000; a reader that
 * kept only each file's top 256 classes would not find it at the start and
 * report 11000, its count since boot.
 */
static void
test_delta_crossing_cut(void)
{
	struct lockprof_entry *a = NULL, *b = NULL, d[5];
	int na = -1, nb = -1, n = -1;

	if (!ok(decode_all_fixture("lockstat/lock_stat_many_a", &a, &na) == 0 &&
			decode_all_fixture("lockstat/lock_stat_many_b", &b, &nb) == 0,
		"crossing: both files decode in full"))
		goto out;
	ok(na == 301 && nb == 301, "crossing: all 301 classes kept (%d, %d), not the top 256", na,
	   nb);
	is_str(a[0].name, "class_000", "crossing: in the file's order");
	is_int(lockprof_delta(a, na, b, nb, d, 5, &n), 0, "crossing: the window's change");
	if (is_int(n, 5, "crossing: the top 5 of the change")) {
		/* 11000-9000, 22000-18000, b's max, 440000-360000, 110000-90000 */
		is_entry(&d[0], "rising_lock", 2000, 4000.0, 50.0, 80000, 20000.0);
		/* the steady classes gained i % 7 at most: 6 for class_006, 013, ... */
		is_u64(d[1].contentions, 6, "crossing: the next gained 6");
	}
out:
	free(a);
	free(b);
}

/* lockstat_decode_all refuses more class lines than a kernel has, and bad text, cleanly. */
static void
test_decode_all_limits(void)
{
	static const char head[] = "lock_stat version 0.4\n";
	static const char row[] = "x: 1 2 0.10 0.20 0.30 0.40 5 6 0.50 0.60 0.70 0.80\n";
	size_t rl = sizeof(row) - 1, hl = sizeof(head) - 1,
	       len = hl + rl * (LOCKPROF_MAX_CLASSES + 1);
	struct lockprof_entry *out = (struct lockprof_entry *)&len;
	char *text = malloc(len);
	int n = -1, i;

	if (!ok(text != NULL, "limits: a big buffer"))
		return;
	memcpy(text, head, hl);
	for (i = 0; i <= LOCKPROF_MAX_CLASSES; i++)
		memcpy(text + hl + (size_t)i * rl, row, rl);
	errno = 0;
	ok(lockstat_decode_all(text, len, &out, &n) == -1 && errno == ERANGE,
	   "limits: %d class lines are more than a kernel has: ERANGE", LOCKPROF_MAX_CLASSES + 1);
	ok(out == NULL && n == 0, "limits: nothing returned on failure");
	len -= rl;
	ok(lockstat_decode_all(text, len, &out, &n) == 0 && n == LOCKPROF_MAX_CLASSES,
	   "limits: %d lines are kept", LOCKPROF_MAX_CLASSES);
	free(out);
	out = (struct lockprof_entry *)&len;
	errno = 0;
	ok(lockstat_decode_all(text, len - 1, &out, &n) == -1 && errno == EINVAL && out == NULL,
	   "limits: a cut last line is EINVAL, with nothing returned");
	ok(lockstat_decode_all(head, hl, &out, &n) == 0 && n == 0 && out == NULL,
	   "limits: no classes: none, and no array");
	free(text);
}

int
main(void)
{
	test_versions();
	test_top();
	test_odd_but_valid();
	test_malformed();
	test_prefixes();
	test_delta();
	test_delta_one_backwards();
	test_delta_crossing_cut();
	test_decode_all_limits();
	return done_testing();
}

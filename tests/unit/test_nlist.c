/* SPDX-License-Identifier: BSD-2-Clause */
/* -n specs: lists, ranges, geometric ranges, their errors, and the default sweep. */
#include <stdio.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/nlist.h"
#include "../tap.h"

/* Parses spec and compares the result, formatted, with want. */
static void
check_spec(const char *spec, const char *want)
{
	char err[ST_ERRLEN] = "", buf[1024];
	struct nlist nl;
	int rc;

	rc = nlist_parse(&nl, spec, err, sizeof(err));
	if (rc != 0)
		diag("  error: %s", err);
	ok(rc == 0 && strcmp(nlist_format(&nl, buf, sizeof(buf)), want) == 0,
	   "-n '%s' gives %s (got %s)", spec, want, rc == 0 ? buf : "an error");
	nlist_free(&nl);
}

/* The spec is refused with a one-line message containing each of the wanted pieces. */
static void
check_error(const char *spec, const char *w1, const char *w2, const char *w3)
{
	char err[ST_ERRLEN] = "";
	struct nlist nl;
	int rc;

	rc = nlist_parse(&nl, spec, err, sizeof(err));
	ok(rc == -1 && nl.count == 0, "-n '%s' is refused", spec);
	ok(strstr(err, w1) && strstr(err, w2) && strstr(err, w3) && !strchr(err, '\n'),
	   "one line with '%s', '%s', '%s': %s", w1, w2, w3, err);
	nlist_free(&nl);
}

static void
test_lists(void)
{
	check_spec("1,2,4,8", "1,2,4,8");
	check_spec("8,4,2,1", "1,2,4,8");
	check_spec("4,4,2,4", "2,4");
	check_spec("7", "7");
	check_spec(" 1 , 2,\t3 ", "1,2,3");
	check_spec("4096", "4096");
	check_spec("1", "1");
}

static void
test_ranges(void)
{
	check_spec("1-16", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
	check_spec("5-5", "5");
	check_spec("1-64x2", "1,2,4,8,16,32,64");
	check_spec("1-64X2", "1,2,4,8,16,32,64");
	check_spec("1-48x2", "1,2,4,8,16,32,48");
	check_spec("3-20x4", "3,12,20");
	check_spec("2-100x10", "2,20,100");
	check_spec("1-1x2", "1");
	check_spec("1-4096x2", "1,2,4,8,16,32,64,128,256,512,1024,2048,4096");
	check_spec("1000-4096x3", "1000,3000,4096");
	check_spec("1-4,8,16-64x2", "1,2,3,4,8,16,32,64");
	check_spec("16-64x2,1-4,8,4", "1,2,3,4,8,16,32,64");
	check_spec("1-6x2,3", "1,2,3,4,6");
}

static void
test_whole_range(void)
{
	char err[ST_ERRLEN];
	struct nlist nl;
	size_t i;
	int sorted = 1;

	ok(nlist_parse(&nl, "1-4096", err, sizeof(err)) == 0, "the whole range parses");
	is_int((long long)nl.count, 4096, "1-4096 has 4096 counts");
	for (i = 0; i < nl.count; i++)
		sorted &= nl.v[i] == (int)i + 1;
	ok(sorted, "each count once, in order");
	nlist_free(&nl);
	is_int((long long)nl.count, 0, "nlist_free empties the list");
}

static void
test_errors(void)
{
	check_error("", "-n ''", "no counts", "1-64x2");
	check_error("  ", "no counts", "ranges like 1-16", "doubling");
	check_error("1,,4", "'1,,4'", "empty item at column 3", "remove the extra comma");
	check_error("1,2,", "empty item at column 5", "comma", "-n");
	check_error(",1", "empty item at column 1", "comma", "-n");
	check_error("1,a", "item 'a' at column 3", "unexpected 'a' at column 3", "1-64x2");
	check_error("1,4y,8", "item '4y' at column 3", "unexpected 'y' at column 4", "ranges");
	check_error("1 2", "item '1 2' at column 1", "unexpected ' ' at column 2", "counts like");
	check_error("8x2", "item '8x2'", "unexpected 'x' at column 2", "doubling");
	check_error("-4", "item '-4' at column 1", "unexpected '-'", "ranges");
	check_error("1-", "item '1-' at column 1", "ends too early", "ranges like 1-16");
	check_error("2,1-8x", "item '1-8x' at column 3", "ends too early", "1-64x2");
	check_error("0", "item '0' at column 1", "0 is out of range", "between 1 and 4096");
	check_error("1,4097", "item '4097' at column 3", "4097 is out of range", "4096");
	check_error("1-99999999999999999999", "column 1", "99999999999999999999 is out of range",
		    "between 1 and 4096");
	check_error("4,8-2", "item '8-2' at column 3", "runs backwards", "write it as 2-8");
	check_error("1-8x1", "item '1-8x1' at column 1", "factor 1 must be from 2 to 4096",
		    "without x");
	check_error("1-8x0", "factor 0", "from 2", "without x");
	check_error("1-8x5000", "factor 5000", "4096", "column 1");
	check_error("1-8x-2", "item '1-8x-2'", "unexpected '-' at column 5", "1-64x2");
}

static void
check_default(int ncpu, const char *want)
{
	char buf[256];
	struct nlist nl;

	ok(nlist_default(&nl, ncpu) == 0 && strcmp(nlist_format(&nl, buf, sizeof(buf)), want) == 0,
	   "default for %d CPUs: %s (got %s)", ncpu, want, buf);
	nlist_free(&nl);
}

static void
test_default(void)
{
	check_default(6, "1,2,4,6,8,12");
	check_default(2, "1,2,4");
	check_default(1, "1,2");
	check_default(0, "1,2");
	check_default(-3, "1,2");
	check_default(3, "1,2,3,4,6");
	check_default(4, "1,2,4,8");
	check_default(12, "1,2,4,8,12,16,24");
	check_default(64, "1,2,4,8,16,32,64,128");
	check_default(3000, "1,2,4,8,16,32,64,128,256,512,1024,2048,3000,4096");
	check_default(100000, "1,2,4,8,16,32,64,128,256,512,1024,2048,4096");
}

static void
test_format(void)
{
	char err[ST_ERRLEN], buf[32];
	struct nlist nl;

	nlist_parse(&nl, "1-64x2", err, sizeof(err));
	is_str(nlist_format(&nl, buf, 17), "1,2,4,8,16,32,64", "exactly fits in 17 bytes");
	is_str(nlist_format(&nl, buf, 16), "1,2,4,8,16...", "one byte short: cut with ...");
	is_str(nlist_format(&nl, buf, 8), "1,2...", "short buffer");
	is_str(nlist_format(&nl, buf, 3), "..", "tiny buffer stays terminated");
	buf[0] = 'z';
	nlist_format(&nl, buf, 0);
	ok(buf[0] == 'z', "zero-length buffer untouched");
	nlist_free(&nl);
}

int
main(void)
{
	test_lists();
	test_ranges();
	test_whole_range();
	test_errors();
	test_default();
	test_format();
	return done_testing();
}

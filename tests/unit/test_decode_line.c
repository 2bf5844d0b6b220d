/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The line scanner the Linux decoders share (src/platform/decode_line.h):
 * lines, keys and numbers, each over an exact-size heap copy with no NUL
 * after it, so a read past the end is caught by the sanitizer build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/platform/decode_line.h"
#include "../tap.h"

static void
test_lines(void)
{
	static const char text[] = "one\n\ntwo  \nthree";
	char *buf = exact_copy(text, sizeof(text) - 1);
	const char *pos = buf, *end = buf + sizeof(text) - 1;
	struct line l;

	ok(line_next(&pos, end, &l) == 1 && l.end - l.p == 3 && memcmp(l.p, "one", 3) == 0,
	   "line_next: the first line, without its newline");
	ok(line_next(&pos, end, &l) == 1 && l.p == l.end, "line_next: an empty line");
	ok(line_next(&pos, end, &l) == 1 && l.end - l.p == 5, "line_next: trailing blanks kept");
	ok(line_at_end(&l) == false, "line_at_end: text before the blanks");
	l.p += 3;
	ok(line_at_end(&l), "line_at_end: only blanks left");
	errno = 0;
	ok(line_next(&pos, end, &l) == -1 && errno == EINVAL,
	   "line_next: a last line without a newline was cut short");
	pos = end;
	ok(line_next(&pos, end, &l) == 0, "line_next: 0 at the end of the text");
	free(buf);
}

static int
u64_of(const char *text, uint64_t *v)
{
	char *buf = exact_copy(text, strlen(text));
	struct line l = { buf, buf + strlen(text) };
	int r = line_u64(&l, v);

	free(buf);
	return r;
}

static void
test_numbers(void)
{
	uint64_t v = 0;

	ok(u64_of("  42 7", &v) == 0 && v == 42, "line_u64: blanks, then digits");
	ok(u64_of("18446744073709551615", &v) == 0 && v == UINT64_MAX, "line_u64: UINT64_MAX");
	errno = 0;
	ok(u64_of("18446744073709551616", &v) == -1 && errno == ERANGE,
	   "line_u64: one past UINT64_MAX is ERANGE");
	errno = 0;
	ok(u64_of("12ab", &v) == -1 && errno == EINVAL, "line_u64: 12ab is malformed");
	errno = 0;
	ok(u64_of("   ", &v) == -1 && errno == EINVAL, "line_u64: no digits");
}

static void
test_keys(void)
{
	static const char text[] = "ctxt 5";
	char *buf = exact_copy(text, sizeof(text) - 1);
	struct line l = { buf, buf + sizeof(text) - 1 };
	const char *key;
	size_t klen;

	ok(line_key(&l, &key, &klen) == 0 && key_is(key, klen, "ctxt"), "line_key: ctxt");
	ok(!key_is(key, klen, "ctx") && !key_is(key, klen, "ctxt2"), "key_is: the whole key only");
	l.p = buf + 4;
	errno = 0;
	ok(line_key(&l, &key, &klen) == -1 && errno == EINVAL, "line_key: a blank at the start");
	buf[1] = '\001';
	l.p = buf;
	ok(line_key(&l, &key, &klen) == -1, "line_key: a control byte in the key");
	free(buf);
	ok(is_blank('\t') && !is_blank('\n') && is_digit('9') && !is_digit('a'),
	   "is_blank and is_digit");
}

int
main(void)
{
	test_lines();
	test_numbers();
	test_keys();
	return done_testing();
}

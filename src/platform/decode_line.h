/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/platform/: the line scanner the Linux text decoders
 * (decode_procstat.c, decode_cpulist.c, decode_psi.c, decode_cpuinfo.c)
 * share.  It reads a buffer and its length, never past it, and needs no NUL
 * terminator.  On failure it sets errno as decode_linux.h describes.
 */
#ifndef SCALETOP_PLATFORM_DECODE_LINE_H
#define SCALETOP_PLATFORM_DECODE_LINE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One line of text, without its '\n'; p advances as it is scanned. */
struct line {
	const char *p;
	const char *end;
};

/* Sets errno to e and returns -1, the decoders' failure. */
static inline int
decode_fail(int e)
{
	errno = e;
	return -1;
}

static inline bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* True when the key [key, key + klen) is exactly want. */
static inline bool
key_is(const char *key, size_t klen, const char *want)
{
	return strlen(want) == klen && memcmp(key, want, klen) == 0;
}

/*
 * The next line of [*pos, end).  1 and the line, 0 at the end of the text,
 * or -1 (EINVAL) when the last line has no '\n': the kernel ends every line,
 * so the text was cut short and its last number may be incomplete.
 */
int line_next(const char **pos, const char *end, struct line *l);
void line_skip_blanks(struct line *l);
/* Skips blanks; true when nothing else is left on the line. */
bool line_at_end(struct line *l);
/* Digits at *pp into *v, with overflow checked (ERANGE); -1 (EINVAL) if there are none. */
int digits_u64(const char **pp, const char *end, uint64_t *v);
/* The next blank-separated field as an unsigned number; "12ab" is malformed. */
int line_u64(struct line *l, uint64_t *v);
/*
 * The key that starts a /proc/stat or PSI line: printable ASCII up to a blank
 * ("disk_io:" on 2.4 kernels included).  A control byte, a non-ASCII byte or
 * a blank at the start means the text is not what we think.
 */
int line_key(struct line *l, const char **key, size_t *klen);

#endif

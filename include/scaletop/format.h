/* SPDX-License-Identifier: BSD-2-Clause */
/* Text shared by every view and file: numbers with SI prefixes, text made valid UTF-8. */
#ifndef SCALETOP_FORMAT_H
#define SCALETOP_FORMAT_H

#include <stddef.h>

/* 1234567 -> "1.23M", 999 -> "999", 0.5 -> "0.50"; NaN -> "-".  Returns buf. */
char *fmt_si(double v, char *buf, size_t len);

/*
 * A duration given in ms, to three significant digits in the unit that
 * suits it: "85ns", "1.23us", "456us", "7.89ms", "1.20s"; NaN -> "-".
 * Returns buf.
 */
char *fmt_ms(double ms, char *buf, size_t len);

/*
 * JSON strings are UTF-8, and jansson refuses anything else: each byte of s
 * that does not start a valid UTF-8 sequence becomes '?', in place.
 */
void utf8_scrub(char *s);

#endif

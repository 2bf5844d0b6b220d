/* SPDX-License-Identifier: BSD-2-Clause */
/* One-line error messages for the user, carried up the call chain in a fixed buffer. */
#ifndef SCALETOP_ERROR_H
#define SCALETOP_ERROR_H

#include <stddef.h>

/* Big enough for "what, which file or value, why, what to do" with a long path. */
#define ST_ERRLEN 512

/* Formats into err (if non-NULL) and returns -1, so callers can `return st_error(...)`. */
int st_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Replaces control characters with '?' in place.  Messages quote input
 * (a value from a file, a command's stderr) and are shown on a terminal,
 * so nothing from outside may move the cursor or split the line.
 */
char *st_printable(char *s);

#endif

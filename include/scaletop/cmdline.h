/* SPDX-License-Identifier: BSD-2-Clause */
/* Splitting a command string into argv, with quoting but no shell. */
#ifndef SCALETOP_CMDLINE_H
#define SCALETOP_CMDLINE_H

#include <stddef.h>

/*
 * Splits s at blanks into a NULL-terminated argv (*out, malloc'd; free with
 * cmdline_free).  'single' and "double" quotes group words and a backslash
 * escapes the next character, as a shell would, but nothing is expanded:
 * no variables, globs, pipes or redirections.  -1 with a message naming the
 * column of an unterminated quote or an empty command.
 */
int cmdline_split(const char *s, char ***out, char *err, size_t errlen);
void cmdline_free(char **argv);

#endif

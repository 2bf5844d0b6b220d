/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Strict command-line numbers and one-line usage errors, shared by every
 * subcommand, the TUI and the run-style option parser.  Each error prints
 * "scaletop CMD: ..." on stderr and returns EXIT_USAGE, so a caller can
 * `return arg_parse_int(...)`.
 */
#ifndef SCALETOP_ARGPARSE_H
#define SCALETOP_ARGPARSE_H

/* Exit statuses shared by every subcommand. */
#define EXIT_USAGE 2   /* bad arguments: the message says which and what to do */
#define EXIT_RUNTIME 1 /* the work could not be done */

/* The program's name in messages ("scaletop"). */
extern const char *progname;

int arg_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A number of seconds in [min, max]; 0, or EXIT_USAGE after the message. */
int arg_parse_seconds(const char *cmd, const char *opt, const char *arg, double min, double max,
		      double *out);
/* A whole number in [min, max] (max LONG_MAX: "MIN or more"). */
int arg_parse_int(const char *cmd, const char *opt, const char *arg, long min, long max, long *out);
/* A percentage above 0 and below 100, with or without a trailing '%'. */
int arg_parse_percent(const char *cmd, const char *opt, const char *arg, double *out);

#endif

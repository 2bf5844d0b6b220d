/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Strict parsing of option values: a number is the whole word or an error,
 * never a prefix, and every error is one line that names the command, the
 * option and what to give instead.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "scaletop/argparse.h"

const char *progname = "scaletop";

int
arg_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", progname, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int
arg_parse_seconds(const char *cmd, const char *opt, const char *arg, double min, double max,
		  double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end != '\0' || isspace((unsigned char)*arg) || isnan(v))
		return arg_usage_error(cmd, "%s '%s': not a number of seconds; give e.g. %s %g",
				       opt, arg, opt, min > 1 ? min : 1.0);
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return arg_usage_error(cmd, "%s '%s': out of range; give %g to %g seconds", opt,
				       arg, min, max);
	*out = v;
	return 0;
}

int
arg_parse_int(const char *cmd, const char *opt, const char *arg, long min, long max, long *out)
{
	char range[64], *end;
	long v;

	if (max == LONG_MAX)
		snprintf(range, sizeof(range), "%ld or more", min);
	else
		snprintf(range, sizeof(range), "%ld to %ld", min, max);
	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || isspace((unsigned char)*arg))
		return arg_usage_error(cmd, "%s '%s': not a whole number; give %s", opt, arg,
				       range);
	if (errno == ERANGE || v < min || v > max)
		return arg_usage_error(cmd, "%s '%s': out of range; give %s", opt, arg, range);
	*out = v;
	return 0;
}

int
arg_parse_percent(const char *cmd, const char *opt, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || isspace((unsigned char)*arg) || !isfinite(v) || v <= 0 ||
	    v >= 100)
		return arg_usage_error(cmd,
				       "%s '%s': give a percentage above 0 and below 100, "
				       "e.g. %s 2",
				       opt, arg, opt);
	*out = v;
	return 0;
}

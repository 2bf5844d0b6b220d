/* SPDX-License-Identifier: BSD-2-Clause */
/* The strict option-value parsers (src/util/argparse.c) and their one-line messages. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "../tap.h"

static char errfile[] = "/tmp/test_argparse.XXXXXX";

/* What the last call printed on stderr (one line, the newline dropped). */
static const char *
last_error(void)
{
	static char line[512];
	FILE *f;

	fflush(stderr);
	line[0] = '\0';
	if ((f = fopen(errfile, "r")) != NULL) {
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	if (freopen(errfile, "w", stderr) == NULL)
		exit(1);
	return line;
}

static void
test_seconds(void)
{
	double v = -1;

	is_int(arg_parse_seconds("run", "-d", "2.5", 0.1, 60, &v), 0, "2.5 seconds");
	ok(v == 2.5, "... is 2.5");
	is_int(arg_parse_seconds("run", "-d", "2s", 0.1, 60, &v), EXIT_USAGE, "2s is refused");
	is_str(last_error(), "scaletop run: -d '2s': not a number of seconds; give e.g. -d 1",
	       "... naming the command, the option and an example");
	is_int(arg_parse_seconds("run", "-d", "61", 0.1, 60, &v), EXIT_USAGE, "61 > 60");
	is_str(last_error(), "scaletop run: -d '61': out of range; give 0.1 to 60 seconds",
	       "... with the range");
	is_int(arg_parse_seconds("run", "-d", " 1", 0.1, 60, &v), EXIT_USAGE, "a leading blank");
	is_int(arg_parse_seconds("run", "-d", "nan", 0, 60, &v), EXIT_USAGE, "nan");
	is_int(arg_parse_seconds("run", "-d", "inf", 0, 1e300, &v), EXIT_USAGE, "inf");
	last_error();
}

static void
test_int(void)
{
	long v = 0;

	is_int(arg_parse_int("tui", "--fake-cpus", "8", 1, 65536, &v), 0, "8");
	is_int(v, 8, "... is 8");
	is_int(arg_parse_int("tui", "--fake-cpus", "0", 1, 65536, &v), EXIT_USAGE, "0 < 1");
	is_str(last_error(), "scaletop tui: --fake-cpus '0': out of range; give 1 to 65536",
	       "the range in the message");
	is_int(arg_parse_int("x", "-k", "1.5", 1, LONG_MAX, &v), EXIT_USAGE, "1.5 is not whole");
	is_str(last_error(), "scaletop x: -k '1.5': not a whole number; give 1 or more",
	       "an open range reads 'or more'");
	is_int(arg_parse_int("x", "-k", "99999999999999999999", 1, LONG_MAX, &v), EXIT_USAGE,
	       "overflow is out of range");
	last_error();
}

static void
test_percent(void)
{
	double v = 0;

	is_int(arg_parse_percent("run", "--collapse", "20", &v), 0, "20");
	ok(v == 20, "... is 20");
	is_int(arg_parse_percent("run", "--collapse", "2.5%", &v), 0, "2.5%");
	ok(v == 2.5, "... is 2.5");
	is_int(arg_parse_percent("run", "--collapse", "100", &v), EXIT_USAGE, "100 is refused");
	is_str(last_error(),
	       "scaletop run: --collapse '100': give a percentage above 0 and below "
	       "100, e.g. --collapse 2",
	       "one line with an example");
	is_int(arg_parse_percent("run", "--collapse", "5%%", &v), EXIT_USAGE, "5%% is refused");
	last_error();
}

int
main(void)
{
	int fd = mkstemp(errfile);

	if (fd == -1 || freopen(errfile, "w", stderr) == NULL) {
		printf("Bail out! cannot redirect stderr\n");
		return 1;
	}
	close(fd);
	is_str(progname, "scaletop", "progname");
	is_int(arg_usage_error("list", "no %s", "such"), EXIT_USAGE, "a usage error returns 2");
	is_str(last_error(), "scaletop list: no such", "and prints one line");
	test_seconds();
	test_int();
	test_percent();
	unlink(errfile);
	return done_testing();
}

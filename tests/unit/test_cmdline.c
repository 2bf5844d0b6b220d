/* SPDX-License-Identifier: BSD-2-Clause */
/* Splitting --cmd strings into argv without a shell. */
#include <string.h>

#include "scaletop/cmdline.h"
#include "scaletop/error.h"
#include "../tap.h"

static void
check(const char *in, const char *const *want, int nwant)
{
	char err[ST_ERRLEN], **argv = NULL;
	int i, n = 0;

	if (!ok(cmdline_split(in, &argv, err, sizeof(err)) == 0, "split [%s]", in)) {
		diag("%s", err);
		return;
	}
	while (argv[n] != NULL)
		n++;
	is_int(n, nwant, "word count");
	for (i = 0; i < n && i < nwant; i++)
		is_str(argv[i], want[i], want[i]);
	cmdline_free(argv);
}

int
main(void)
{
	char err[ST_ERRLEN], **argv = NULL;

	check("sysbench --threads={n} cpu run",
	      (const char *const[]){ "sysbench", "--threads={n}", "cpu", "run" }, 4);
	check("  a   b\tc  ", (const char *const[]){ "a", "b", "c" }, 3);
	check("pgbench -c '{n}' \"my db\"",
	      (const char *const[]){ "pgbench", "-c", "{n}", "my db" }, 4);
	check("echo 'a \"b\"' \"c \\\"d\\\"\" e\\ f",
	      (const char *const[]){ "echo", "a \"b\"", "c \"d\"", "e f" }, 4);
	check("x '' y", (const char *const[]){ "x", "", "y" }, 3);
	check("a|b $HOME *", (const char *const[]){ "a|b", "$HOME", "*" }, 3);

	ok(cmdline_split("echo 'open", &argv, err, sizeof(err)) == -1 && argv == NULL,
	   "an unterminated quote is rejected");
	ok(strstr(err, "column 6") != NULL, "the message names the column (%s)", err);
	ok(cmdline_split("   ", &argv, err, sizeof(err)) == -1, "an empty command is rejected");
	ok(strstr(err, "empty command") != NULL, "and says so (%s)", err);
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reader of published tables (snapshot_import_table.c) and the sessions
 * made of their columns (snapshot_import.c): CSV with quoted fields, tables
 * separated by blanks, which column is whose stddev and runs, figures not
 * given, and each refusal's exact line, column and advice.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tap.h"
#include "scaletop/report.h"

static struct snapshot_table *
table(const char *text)
{
	struct snapshot_table *t = NULL;
	char err[ST_ERRLEN] = "";

	if (snapshot_table_read(text, strlen(text), "pub.csv", &t, err, sizeof(err)) != 0)
		diag("refused: %s", err);
	return t;
}

static void
rejects(const char *text, const char *want, const char *name)
{
	struct snapshot_table *t = NULL;
	char err[ST_ERRLEN] = "";
	int rc = snapshot_table_read(text, strlen(text), "pub.csv", &t, err, sizeof(err));

	if (!ok(rc == -1 && t == NULL && strcmp(err, want) == 0, "refuses %s", name)) {
		diag("  got:  %s", err);
		diag("  want: %s", want);
	}
	snapshot_table_free(t);
}

/* The step at N of s, or NULL. */
static const struct step *
step_at(const struct session *s, int n)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n)
			return &s->steps[i];
	}
	return NULL;
}

/* One system per column: names from the header, stddev by suffix, one runs for all, '-' gaps. */
static void
test_columns(void)
{
	struct snapshot_import o = { NULL, NULL, "tps", NULL };
	struct snapshot_table *t;
	struct snapshot_meta m;
	struct session s;
	const struct step *st;
	char err[ST_ERRLEN] = "", taken[sizeof(m.taken)];
	time_t t0;

	t = table("# published\n"
		  "threads, \"Linux, 6.6\", \"Linux, 6.6_sd\", FreeBSD, FreeBSD_sd, runs\r\n"
		  "1, 1000, 20, 900, 30, 5\r\n"
		  "\n"
		  "4,3600,90,-,,5\n"
		  "2,1900,40,1700,50,5\n");
	if (!ok(t != NULL, "a CSV table with quoted names, a gap and CRLF reads")) {
		snapshot_table_free(t);
		return;
	}
	is_int(snapshot_table_count(t), 2, "two columns of throughput");
	is_str(snapshot_table_column(t, 0), "Linux, 6.6", "the first, a quoted name with a comma");
	is_str(snapshot_table_column(t, 1), "FreeBSD", "the second");
	is_int(snapshot_table_find(t, "FreeBSD", err, sizeof(err)), 1, "find by name");
	is_int(snapshot_table_find(t, "freebsd", err, sizeof(err)), -1, "names are exact");
	is_str(err,
	       "pub.csv has no column of throughput called 'freebsd'; its columns are "
	       "'Linux, 6.6', 'FreeBSD'",
	       "  and the message lists the columns");
	ok(snapshot_table_session(t, 1, &o, &s, &m, err, sizeof(err)) == 0, "FreeBSD's session");
	is_int(s.nsteps, 2, "  a step per row with a figure: the gap at 4 left out");
	is_str(m.label, "FreeBSD", "  labelled with the column's name");
	st = step_at(&s, 2);
	ok(st != NULL && st->ops_s == 1700 && st->st.n == 5 && st->st.stddev == 50,
	   "  its own stddev, and the table's runs");
	ok(s.set.nn == 2 && s.set.n[0] == 1 && s.set.n[1] == 2, "  N list sorted");
	ok(strstr(s.events[0].text, "column 'FreeBSD'") != NULL, "  the event names the column");
	session_free(&s);
	snprintf(taken, sizeof(taken), "%s", m.taken);
	/* the clock turns a second before the next column's session */
	for (t0 = time(NULL); time(NULL) == t0;)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	ok(snapshot_table_session(t, 0, &o, &s, &m, err, sizeof(err)) == 0, "Linux's session");
	is_str(m.taken, taken,
	       "  taken when the file was read, as the other column (a second later)");
	st = step_at(&s, 4);
	ok(s.nsteps == 3 && st != NULL && st->st.stddev == 90 && st->st.n == 5,
	   "  three steps, stddev by the NAME_sd column");
	session_free(&s);
	snapshot_table_free(t);
}

/* A table separated by blanks, as papers print them: bare '±' after each system. */
static void
test_blanks(void)
{
	struct snapshot_import o = { "paper", NULL, NULL, NULL };
	struct snapshot_table *t;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN] = "";

	t = table("threads  \"Linux 6.6\"  \xc2\xb1   FreeBSD \xc2\xb1\n"
		  "1        1000         20   900     -\n"
		  "8\t7000\t150\t5000\t120\n");
	if (!ok(t != NULL, "a table separated by blanks and tabs reads")) {
		snapshot_table_free(t);
		return;
	}
	ok(snapshot_table_count(t) == 2 && strcmp(snapshot_table_column(t, 0), "Linux 6.6") == 0,
	   "  its two systems, a quoted name with a blank");
	ok(snapshot_table_session(t, 1, &o, &s, &m, err, sizeof(err)) == 0, "  FreeBSD's session");
	ok(s.nsteps == 2 && step_at(&s, 8)->st.stddev == 120 && !step_at(&s, 1)->st.have_spread &&
		   step_at(&s, 1)->st.n == 1,
	   "  '\xc2\xb1' is the stddev of the column before it; '-' is none");
	is_str(m.label, "paper", "  --label is kept as given");
	session_free(&s);
	snapshot_table_free(t);
}

/* Lines as before tables: no header, N,throughput[,stddev[,runs]]; and a name's suffixes. */
static void
test_forms(void)
{
	struct snapshot_import o = { NULL, NULL, NULL, NULL };
	struct snapshot_table *t;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN] = "";

	t = table("1,100\n2,190,5\n4,300,9,3\n");
	ok(t != NULL && snapshot_table_count(t) == 1 && snapshot_table_column(t, 0)[0] == '\0',
	   "headerless lines: one column, unnamed");
	ok(t != NULL && snapshot_table_session(t, 0, &o, &s, &m, err, sizeof(err)) == -1 &&
		   strcmp(err, "pub.csv has no header naming its column; give a label saying what "
			       "the results are") == 0,
	   "  without a label it cannot be named (%s)", err);
	session_free(&s);
	snapshot_table_free(t);
	t = table("n,A,A stddev,A_runs,B,B +/-\n1,10,1,4,20,2\n");
	ok(t != NULL && snapshot_table_count(t) == 2, "'A stddev', 'A_runs' and 'B +/-' read");
	ok(t != NULL && snapshot_table_session(t, 0, &o, &s, &m, err, sizeof(err)) == 0 &&
		   s.steps[0].st.n == 4 && s.steps[0].st.stddev == 1,
	   "  A's stddev and runs");
	session_free(&s);
	snapshot_table_free(t);
	ok(snapshot_import_csv("n,A,B\n1,1,2\n", 12, "two.csv", &o, &s, &m, err, sizeof(err)) ==
			   -1 &&
		   strcmp(err, "two.csv has 2 columns of throughput ('A', 'B'); import one with "
			       "--column, or each into its own snapshot") == 0,
	   "the one-snapshot import refuses two columns, naming them (%s)", err);
	session_free(&s);
}

static void
test_rejects(void)
{
	rejects("n,A,B\n1,10,20\n2,30\n",
		"pub.csv:3:5: the row has 2 fields where the header has 3; give each column a "
		"value, '-' for none",
		"a ragged row");
	rejects("n,A,B\n1,10,20,5\n",
		"pub.csv:2:8: a field beyond the header's 3 columns; give each row as many fields "
		"as the header names",
		"a row longer than the header");
	rejects("n,A,B\n1,10,20\n2,30,x\n",
		"pub.csv:3:6: 'x': expected a throughput for 'B', a number > 0, or '-' for none",
		"a field that is not a number, naming its column");
	rejects("n A\n1 10\n4 20\n1 30\n",
		"pub.csv:4:1: '1': N 1 again (line 2 has it); give one row per N, repeated runs "
		"as their mean, stddev and runs",
		"a duplicate N");
	rejects("n,\"A,B\n", "pub.csv:1:3: a quote not closed on its line; close it with '\"'",
		"an unterminated quote");
	rejects("n \"A\"x\n", "pub.csv:1:6: expected a blank after the quoted field",
		"a quoted name run into the next");
	rejects("n,A,A\n", "pub.csv:1:5: 'A': column 2 has this name too; name each column once",
		"a name twice");
	rejects("n,A,B_sd\n",
		"pub.csv:1:5: 'B_sd': the standard deviation of 'B', but no column of throughput "
		"before it has that name; name it after its column",
		"a stddev of no column");
	rejects("n,sd,A\n",
		"pub.csv:1:3: 'sd': a standard deviation column with no column of throughput "
		"before it; put it after the column it belongs to",
		"a stddev before any throughput");
	rejects("n,A,sd,A_sd\n", "pub.csv:1:8: 'A_sd': a second stddev column for 'A'; give one",
		"two stddevs of one column");
	rejects("n,,A\n", "pub.csv:1:3: an empty column name; name every column",
		"an empty column name");
	rejects("n\n1\n",
		"pub.csv:1:2: the header names no column of throughput; after N, name a column "
		"for each system (and NAME_sd for its stddev)",
		"a header of N alone");
	rejects("n,A,A_sd\n1,-,5\n",
		"pub.csv:2:5: '5': a stddev for 'A', which has no throughput in this row; give "
		"both or neither",
		"a stddev without its figure");
	rejects("n,A,A_sd,runs\n1,10,5,1\n",
		"pub.csv:2:8: '1': one run has no standard deviation; expected runs >= 2",
		"a stddev of one run");
	rejects("n,A\n", "pub.csv: no rows after the header; expected a row per N",
		"a header without rows");
	rejects("n,A,B\n1,10,-\n",
		"pub.csv: column 'B' has no figure in any row; give one, or leave the column out",
		"a column without figures");
	rejects("1 100 5 3\n2 150 x\n",
		"pub.csv:2:7: 'x': expected a standard deviation, a number >= 0",
		"headerless blanks: a bad stddev");
	rejects("1,-\n", "pub.csv:1:3: '-': expected a throughput, a number > 0",
		"headerless lines have no '-'");
}

int
main(void)
{
	test_columns();
	test_blanks();
	test_forms();
	test_rejects();
	return done_testing();
}

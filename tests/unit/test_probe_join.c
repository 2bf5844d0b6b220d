/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --probe's TID lines (src/model/probe_join.c): which lines name a thread,
 * how a run's lines are weighed into the tally (the probe's period per
 * thread, a TID's time split among its lines), and what the step's join
 * counts (lines, joined, distinct threads, thread-seconds).  Old-style
 * lines must stay labels exactly as they were.
 */
#include <string.h>

#include "scaletop/probe_join.h"
#include "../tap.h"

static int
parse(const char *line, pid_t *tid, char *label)
{
	return probe_line_parse(line, tid, label, WAIT_CHANNEL_LEN);
}

static void
test_parse(void)
{
	char label[WAIT_CHANNEL_LEN], longl[200];
	pid_t tid;

	is_int(parse("4711\tLWLock:WALWrite", &tid, label), 2, "TID<TAB>label is a TID line");
	is_int(tid, 4711, "... its TID");
	is_str(label, "LWLock:WALWrite", "... its label");
	is_int(parse("  4711\t\t wait/synch/mutex/innodb/lock_sys  \t", &tid, label), 2,
	       "blanks around it, more tabs after the TID: still a TID line");
	is_str(label, "wait/synch/mutex/innodb/lock_sys", "... its label trimmed");
	is_int(parse("LWLock:WALWrite", &tid, label), 1, "a label alone is an old-style line");
	is_int(tid, 0, "... with no TID");
	is_str(label, "LWLock:WALWrite", "... the label as it is");
	is_int(parse("4711 Lock:tuple", &tid, label), 1, "a TID and a blank (no TAB) is a label");
	is_str(label, "4711 Lock:tuple", "... the whole line");
	is_int(parse("4711\t", &tid, label), 1, "a TID and a TAB with no label is a label");
	is_str(label, "4711", "... the number itself, as before");
	is_int(parse("0\tCPU", &tid, label), 1, "TID 0 is no thread: an old-style label");
	is_int(parse("99999999999\tCPU", &tid, label), 1, "a TID past pid_t is a label too");
	is_int(parse("12a\tCPU", &tid, label), 1, "digits then letters are no TID");
	is_int(parse(" \t ", &tid, label), 0, "a blank line is nothing");
	is_int(parse("Lock:tuple\r", &tid, label), 1, "a label alone is trimmed of blanks only");
	is_str(label, "Lock:tuple\r", "... as it always was (its CR is kept)");
	memset(longl, 'x', sizeof(longl) - 1);
	longl[sizeof(longl) - 1] = '\0';
	memcpy(longl, "12\t", 3);
	is_int(parse(longl, &tid, label), 2, "a long label after a TID");
	is_int((long long)strlen(label), WAIT_CHANNEL_LEN - 1, "... is cut to a channel's length");
}

static double
weight(const struct wait_tally *t, const char *label)
{
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->e[i].family == WAIT_PROBE && t->e[i].state == WS_REPORTED &&
		    strcmp(t->e[i].channel, label) == 0)
			return t->e[i].share;
	}
	return 0;
}

static void
test_commit(void)
{
	struct probe_tid_line run1[] = {
		{ 10, true, "Lock:tuple" },
		{ 11, true, "CPU" },
		{ 12, false, "Lock:tuple" },
		{ 10, true, "LWLock:BufferContent" },
	};
	struct probe_tid_line run2[] = {
		{ 11, true, "Lock:tuple" },
		{ 13, true, "CPU" },
	};
	struct probe_join_acc a;
	struct wait_tally t;

	probe_join_init(&a);
	wait_tally_init(&t);
	is_int(probe_join_commit(&a, run1, 4, 1.0, &t), 0, "a run of 4 lines commits");
	is_double(weight(&t, "Lock:tuple"), 0.5 + 1.0, 1e-12,
		  "TID 10's second of time splits over its two lines; TID 12 (unjoined) weighs 1");
	is_double(weight(&t, "LWLock:BufferContent"), 0.5, 1e-12, "... the other half of 10's");
	is_double(weight(&t, "CPU"), 1.0, 1e-12, "TID 11's whole second");
	is_int(a.fig.lines, 4, "4 TID lines");
	is_int(a.fig.joined, 3, "3 joined the target's threads");
	is_int(a.fig.threads, 2, "they are 2 threads (10 and 11)");
	is_double(a.fig.thread_s, 2.0, 1e-12, "the joined lines weigh 2 thread-seconds");
	is_int(probe_join_commit(&a, run2, 2, 1.25, &t), 0, "a later run, 1.25 s after");
	is_double(weight(&t, "CPU"), 1.0 + 1.25, 1e-12, "each line weighs the time since the last");
	is_int(a.fig.threads, 3, "a thread joined again counts once (11), a new one adds (13)");
	is_int(a.fig.joined, 5, "5 joined lines in all");
	is_double(a.fig.thread_s, 2.0 + 2.5, 1e-12, "4.5 thread-seconds joined");
	is_double(wait_tally_total(&t, WAIT_PROBE), 3.0 + 2.5, 1e-12,
		  "the tally holds every thread's time once, joined or not");
	is_int(probe_join_commit(&a, run2, 2, 0, &t), 0, "a run that stands for no time");
	is_int(a.fig.lines, 6, "... adds no line");
	probe_join_reset(&a);
	is_int(a.fig.lines + a.fig.joined + a.fig.threads, 0, "a new window starts at nothing");
	is_int(probe_join_commit(&a, run2, 2, 1.0, &t), 0, "and counts its threads afresh");
	is_int(a.fig.threads, 2, "... 2 of them");
	wait_tally_free(&t);
	probe_join_free(&a);
}

int
main(void)
{
	test_parse();
	test_commit();
	return done_testing();
}

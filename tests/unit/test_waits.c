/* SPDX-License-Identifier: BSD-2-Clause */
/* The wait profile's tally and shares (src/model/waits.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/waits.h"
#include "../tap.h"

static double
family_sum(const struct wait_share *w, int n, enum wait_family f)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].family == f)
			sum += w[i].share;
	}
	return sum;
}

static void
test_tally(void)
{
	struct wait_tally t;
	struct wait_share *w;
	int n;

	wait_tally_init(&t);
	is_int(wait_tally_shares(&t, 0, &w, &n), 0, "an empty tally has no shares");
	ok(w == NULL && n == 0, "... and no array");
	wait_tally_add(&t, WAIT_TARGET, WS_RUNNING, NULL, 1.0);
	wait_tally_add(&t, WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 2.0);
	wait_tally_add(&t, WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 1.0);
	wait_tally_add(&t, WAIT_TARGET, WS_RUNNABLE, "", 0.0);
	wait_tally_add(&t, WAIT_TARGET, WS_RUNNABLE, "", -1.0);
	wait_tally_add(&t, WAIT_WORKLOAD, WS_RUNNABLE, "", 0.5);
	wait_tally_add(&t, WAIT_WORKLOAD, WS_RUNNING, "", 1.5);
	wait_tally_add(&t, WAIT_PROBE, WS_REPORTED, "LWLock:BufferMapping", 3);
	is_int(t.n, 5, "one line per (family, state, channel); no weight adds nothing");
	is_double(wait_tally_total(&t, WAIT_TARGET), 4.0, 1e-12, "the target's weight is summed");
	is_int(wait_tally_shares(&t, 0, &w, &n), 0, "shares are made");
	is_int(n, 5, "every line is kept without a cap");
	is_int(w[0].family, WAIT_WORKLOAD, "the workload's family comes first");
	is_double(w[0].share, 0.75, 1e-12, "its largest line first: running 1.5 of 2");
	is_str(w[2].channel, "futex_wait_queue", "the target's largest line first");
	is_double(w[2].share, 0.75, 1e-12, "futex_wait_queue: 3 of 4");
	is_double(family_sum(w, n, WAIT_WORKLOAD), 1.0, 1e-12, "the workload's shares sum to 1");
	is_double(family_sum(w, n, WAIT_TARGET), 1.0, 1e-12, "the target's shares sum to 1");
	is_double(family_sum(w, n, WAIT_PROBE), 1.0, 1e-12, "a probe's labels sum to 1");
	is_double(wait_share_of(w, n, WAIT_TARGET, WS_SLEEPING, NULL), 0.75, 1e-12,
		  "the share of a state, any channel");
	is_double(wait_share_of(w, n, WAIT_TARGET, WS_SLEEPING, "pipe_read"), 0, 0,
		  "a channel not seen has no share");
	ok(wait_has_family(w, n, WAIT_PROBE) && !wait_has_family(w, 2, WAIT_PROBE),
	   "whether a family is in a profile");
	free(w);
	wait_tally_reset(&t);
	is_int(t.n, 0, "reset empties the tally");
	wait_tally_free(&t);
}

static void
test_fold(void)
{
	struct wait_tally t;
	struct wait_share *w;
	char ch[16];
	int i, n;

	wait_tally_init(&t);
	for (i = 0; i < 10; i++) {
		snprintf(ch, sizeof(ch), "ch%d", i);
		wait_tally_add(&t, WAIT_TARGET, WS_SLEEPING, ch, (double)(i + 1));
	}
	is_int(wait_tally_shares(&t, 4, &w, &n), 0, "shares with a cap");
	is_int(n, 4, "at most the cap per family");
	is_str(w[0].channel, "ch9", "the largest kept first");
	is_str(w[3].channel, "(rest)", "the rest folded into one line");
	is_int(w[3].state, WS_OTHER, "... of state other");
	is_double(w[3].share, 28.0 / 55.0, 1e-12, "holding the 7 smallest: 28 of 55");
	is_double(family_sum(w, n, WAIT_TARGET), 1.0, 1e-12, "still summing to 1");
	free(w);
	wait_tally_free(&t);
}

static void
test_names(void)
{
	char longname[200];
	struct wait_tally t;
	int i;

	for (i = 0; i < WAIT_NFAMILIES; i++)
		is_int(wait_family_from_name(wait_family_names[i]), i,
		       "a family's name reads back");
	for (i = 0; i < WS_NSTATES; i++)
		is_int(wait_state_from_name(wait_state_names[i]), i, "a state's name reads back");
	is_int(wait_state_from_name("asleep"), -1, "an unknown state is -1");
	is_int(wait_family_from_name(""), -1, "an unknown family is -1");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	wait_tally_init(&t);
	wait_tally_add(&t, WAIT_PROBE, WS_REPORTED, longname, 1);
	wait_tally_add(&t, WAIT_PROBE, WS_REPORTED, longname, 1);
	is_int(t.n, 1, "a long channel is cut to fit, and still matches itself");
	is_int((int)strlen(t.e[0].channel), WAIT_CHANNEL_LEN - 1, "... cut at the field's size");
	wait_tally_free(&t);
}

int
main(void)
{
	test_tally();
	test_fold();
	test_names();
	return done_testing();
}

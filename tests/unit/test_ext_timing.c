/* SPDX-License-Identifier: BSD-2-Clause */
/* Where an external command's interval lines lie in time, and which count (ext_timing.h). */
#include <string.h>

#include "../../src/engine/ext_timing.h"
#include "../tap.h"

static struct parse_interval
line(double rate, bool stamped, double t_end)
{
	struct parse_interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.rate = rate;
	iv.have = stamped ? PARSE_HAVE_T : 0;
	iv.t_end = t_end;
	return iv;
}

/* --parse-regex: a line a second for 6 s, warm-up 1, -d 4. */
static void
test_unstamped(void)
{
	struct ext_timing t;
	struct ext_span sp;
	struct parse_interval iv = line(1000, false, 0);
	double counted = 0;
	int n = 0, i;

	ext_timing_init(&t, 1, 4);
	for (i = 1; i <= 6; i++) {
		if (ext_timing_place(&t, &iv, i + 0.003, &sp)) {
			n++;
			counted += sp.end - sp.start;
		}
		if (i == 1) {
			is_double(sp.start, 0, 0,
				  "the first line's interval starts at the step's start");
			ok(!sp.counted, "and, lying in the warm-up, is not counted");
		}
	}
	is_int(n, 4, "the four lines whose middles lie in 1..5 s are counted");
	is_double(counted, 4, 1e-9, "over the 4 s asked for, timed by arrival");

	ext_timing_init(&t, 1, 1);
	ok(ext_timing_place(&t, &iv, 2.01, &sp), "one final line at 2 s, warm-up 1, -d 1: counted");
	is_double(sp.end - sp.start, 2.01, 1e-12, "over the whole run");
	ext_timing_init(&t, 1, 1);
	ok(!ext_timing_place(&t, &iv, 0.5, &sp), "a line within the warm-up only: not counted");
}

/* sysbench [ Ns ] stamps, warm-up 1, -d 3. */
static void
test_stamped(void)
{
	struct ext_timing t;
	struct ext_span sp;
	struct parse_interval iv;
	int n = 0, i;

	ext_timing_init(&t, 1, 3);
	for (i = 1; i <= 5; i++) {
		iv = line(500, true, i);
		n += ext_timing_place(&t, &iv, i + 0.2, &sp);
	}
	is_int(n, 3, "[ 2s ] .. [ 4s ] counted, [ 1s ] and [ 5s ] not");
	is_double(sp.mono_end, 5.2, 1e-12, "a span ends at its line's arrival on the step's clock");
	is_double(sp.mono_start, 4.2, 1e-12, "and starts its length before");
	iv = line(500, true, 4);
	ok(!ext_timing_place(&t, &iv, 5.3, &sp), "a stamp that goes back is never counted");
}

/* pgbench --progress-timestamp: Unix time, warm-up 0, -d 10. */
static void
test_epoch(void)
{
	struct ext_timing t;
	struct ext_span sp;
	struct parse_interval iv;

	ext_timing_init(&t, 0, 10);
	iv = line(210.5, true, 1796124048.528);
	ok(!ext_timing_place(&t, &iv, 1.1, &sp), "the first Unix-time stamp only sets the origin");
	is_double(sp.end, 1.1, 1e-6, "mapped to its arrival");
	iv = line(157.2, true, 1796124049.527);
	ok(ext_timing_place(&t, &iv, 2.1, &sp), "the next is an interval");
	is_double(sp.end - sp.start, 0.999, 1e-6, "of 0.999 s, not 1.8e9 s");
	is_double(sp.end, 2.099, 1e-6, "on the rebased clock");
}

int
main(void)
{
	test_unstamped();
	test_stamped();
	test_epoch();
	return done_testing();
}

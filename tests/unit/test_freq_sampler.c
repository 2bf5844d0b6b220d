/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's mean CPU frequency (src/engine/freq_sampler.c) with a reader and
 * a clock of the test's own: reads at the window's start and at most once a
 * second after; a dear read pushes the next one out to 200 times its cost;
 * a machine that does not say is asked once a window and gives 0 (null).
 * Then the real reader once, to say what a read costs here (not judged).
 */
#include <errno.h>
#include <stdint.h>

#include "scaletop/host.h"
#include "scaletop/platform.h"
#include "../../src/engine/freq_sampler.h"
#include "../tap.h"

#define MS 1000000ull

static double next_mhz;
static int reads, fail;
static uint64_t fake_now, read_cost;

static uint64_t
fake_clock(void)
{
	return fake_now;
}

/* Each read returns next_mhz and takes read_cost on the fake clock. */
static int
fake_read(double *mhz)
{
	reads++;
	fake_now += read_cost;
	if (fail) {
		errno = ENOENT;
		return -1;
	}
	*mhz = next_mhz;
	return 0;
}

static struct freq_sampler
sampler(void)
{
	struct freq_sampler f = { 0 };

	f.read = fake_read;
	f.clock = fake_clock;
	reads = fail = 0;
	read_cost = 0;
	return f;
}

static void
test_once_a_second(void)
{
	struct freq_sampler f = sampler();
	uint64_t t;

	next_mhz = 2000;
	freq_sampler_begin(&f, 0);
	is_int(reads, 1, "a read as the window opens");
	next_mhz = 3000;
	for (t = 250 * MS; t < 2000 * MS; t += 250 * MS)
		freq_sampler_tick(&f, t);
	is_int(reads, 2, "ticks every 250 ms for 1.75 s: one more read, at 1 s");
	is_double(freq_sampler_end(&f, 2000 * MS), (2000 + 3000 + 3000) / 3.0, 1e-9,
		  "the window's end at 2 s reads once more; the mean of the three");
	is_int(reads, 3, "  three reads in all");
	freq_sampler_begin(&f, 5000 * MS);
	is_double(freq_sampler_end(&f, 5100 * MS), 3000, 1e-9,
		  "a new window starts afresh, and a 0.1 s window has one read");
}

static void
test_dear_reads(void)
{
	struct freq_sampler f = sampler();
	uint64_t t;

	next_mhz = 1500;
	read_cost = 10 * MS; /* a 10 ms read: the next waits 2 s */
	freq_sampler_begin(&f, 0);
	for (t = 250 * MS; t < 4000 * MS; t += 250 * MS)
		freq_sampler_tick(&f, t);
	is_int(reads, 2, "10 ms reads over 4 s: at 0 and at 2 s only");
	ok(f.cost_ns == 10 * MS, "the dearest read is kept (%llu ns)",
	   (unsigned long long)f.cost_ns);
}

static void
test_silent_machine(void)
{
	struct freq_sampler f = sampler();
	uint64_t t;

	fail = 1;
	freq_sampler_begin(&f, 0);
	for (t = 250 * MS; t < 3000 * MS; t += 250 * MS)
		freq_sampler_tick(&f, t);
	is_double(freq_sampler_end(&f, 3000 * MS), 0, 0, "a machine that does not say: 0 (null)");
	is_int(reads, 1, "  asked once in the window");
	fail = 0;
	next_mhz = 2500;
	freq_sampler_begin(&f, 4000 * MS);
	is_double(freq_sampler_end(&f, 4000 * MS), 2500, 1e-9, "  and again the next window");
}

static void
test_real_reader(void)
{
	double mhz = 0;
	uint64_t t0 = mono_now_ns(), t1;
	int r = host_cpu_freq_mhz(&mhz);

	t1 = mono_now_ns();
	if (r != 0) {
		skip("this machine does not say its CPUs' frequency", "the real reader");
		return;
	}
	ok(mhz > 0, "the real reader: %.0f MHz", mhz);
	diag("one read of every CPU's frequency took %.1f us here", (double)(t1 - t0) / 1e3);
}

int
main(void)
{
	test_once_a_second();
	test_dear_reads();
	test_silent_machine();
	test_real_reader();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sample_delta_compute on hand-made raw samples whose answers are worked out
 * by hand in the comments, so a wrong sum, a wrong divisor or a missed flag
 * shows up as a number that differs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/delta.h"
#include "scaletop/platform.h"
#include "../tap.h"

#define TOL 1e-9

/* Ticks in enum cpu_state order: usr nice sys irq soft iowait steal idle. */
static void
put_cpu(struct raw_sample *s, int id, unsigned flags, const uint64_t t[CPU_NSTATES])
{
	struct cpu_ticks *c;

	if (raw_sample_reserve(s, s->ncpu + 1) != 0)
		abort();
	c = &s->cpu[s->ncpu++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->flags = flags;
	if (t != NULL)
		memcpy(c->tick, t, sizeof(c->tick));
}

static void
reset(struct raw_sample *s, uint64_t mono_ns)
{
	s->ncpu = 0;
	s->mono_ns = mono_ns;
	memset(&s->sys, 0, sizeof(s->sys));
}

static double
pct_sum(const struct cpu_usage *u)
{
	double sum = 0;
	int i;

	for (i = 0; i < CPU_NSTATES; i++)
		sum += u->pct[i];
	return sum;
}

static int
all_zero(const struct cpu_usage *u)
{
	int i;

	for (i = 0; i < CPU_NSTATES; i++)
		if (u->pct[i] != 0.0)
			return 0;
	return u->busy == 0.0;
}

static void
test_two_cpus(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	/* cpu0 moves usr+30 sys+10 idle+60 (100 ticks); cpu1 moves 200 ticks. */
	const uint64_t a0[] = { 100, 0, 50, 0, 0, 0, 0, 850 };
	const uint64_t b0[] = { 130, 0, 60, 0, 0, 0, 0, 910 };
	const uint64_t a1[] = { 10, 20, 30, 40, 50, 60, 70, 80 };
	const uint64_t b1[] = { 15, 25, 35, 45, 55, 85, 70, 230 };

	reset(a, 1000000000);
	put_cpu(a, 0, 0, a0);
	put_cpu(a, 1, 0, a1);
	reset(b, 2000000000);
	put_cpu(b, 0, 0, b0);
	put_cpu(b, 1, 0, b1);

	is_int(sample_delta_compute(d, a, b), 0, "two cpus: computes");
	is_double(d->seconds, 1.0, TOL, "two cpus: one measured second");
	is_int(d->ncpu, 2, "two cpus: two rows");
	is_int(d->ncpu_with_data, 2, "two cpus: both in all");
	is_int(d->cpu[0].id, 0, "two cpus: row 0 is cpu 0");
	is_int(d->cpu[1].id, 1, "two cpus: row 1 is cpu 1");
	is_int(d->cpu[0].flags, 0, "two cpus: cpu0 unflagged");
	is_double(d->cpu[0].pct[CPU_USER], 30.0, TOL, "cpu0 usr 30%");
	is_double(d->cpu[0].pct[CPU_SYS], 10.0, TOL, "cpu0 sys 10%");
	is_double(d->cpu[0].pct[CPU_IDLE], 60.0, TOL, "cpu0 idle 60%");
	is_double(d->cpu[0].busy, 40.0, TOL, "cpu0 busy 40%");
	/* cpu1: 5 5 5 5 5 25 0 150 of 200 ticks */
	is_double(d->cpu[1].pct[CPU_USER], 2.5, TOL, "cpu1 usr 2.5%");
	is_double(d->cpu[1].pct[CPU_NICE], 2.5, TOL, "cpu1 nice 2.5%");
	is_double(d->cpu[1].pct[CPU_IRQ], 2.5, TOL, "cpu1 irq 2.5%");
	is_double(d->cpu[1].pct[CPU_SOFTIRQ], 2.5, TOL, "cpu1 soft 2.5%");
	is_double(d->cpu[1].pct[CPU_IOWAIT], 12.5, TOL, "cpu1 iowait 12.5%");
	is_double(d->cpu[1].pct[CPU_STEAL], 0.0, TOL, "cpu1 steal 0%");
	is_double(d->cpu[1].pct[CPU_IDLE], 75.0, TOL, "cpu1 idle 75%");
	is_double(d->cpu[1].busy, 12.5, TOL, "cpu1 busy = 100 - idle - iowait");
	is_double(pct_sum(&d->cpu[1]), 100.0, TOL, "cpu1 states sum to 100");

	/* all sums ticks (35 5 15 5 5 25 0 210 of 300), not the mean of rows (26.25 busy). */
	is_int(d->all.id, -1, "all: id -1");
	is_int(d->all.flags, 0, "all: unflagged");
	is_double(d->all.pct[CPU_USER], 3500.0 / 300, TOL, "all usr from summed ticks");
	is_double(d->all.pct[CPU_IOWAIT], 2500.0 / 300, TOL, "all iowait from summed ticks");
	is_double(d->all.pct[CPU_IDLE], 70.0, TOL, "all idle 70%");
	is_double(d->all.busy, 6500.0 / 300, TOL, "all busy 21.67%, not 26.25");
	is_double(pct_sum(&d->all), 100.0, TOL, "all states sum to 100");
}

static void
test_backwards(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	/* iowait falls by 3: counted as 0, the other 100 ticks make the 100%. */
	const uint64_t a0[] = { 100, 0, 0, 0, 0, 50, 0, 100 };
	const uint64_t b0[] = { 150, 0, 0, 0, 0, 47, 0, 150 };
	const uint64_t a1[] = { 0, 0, 0, 0, 0, 0, 0, 100 };
	const uint64_t b1[] = { 0, 0, 0, 0, 0, 0, 0, 200 };

	reset(a, 5000000000);
	put_cpu(a, 0, 0, a0);
	put_cpu(a, 1, 0, a1);
	reset(b, 6000000000);
	put_cpu(b, 0, 0, b0);
	put_cpu(b, 1, 0, b1);

	is_int(sample_delta_compute(d, a, b), 0, "backwards: computes");
	ok(d->cpu[0].flags == CPU_USAGE_BACKWARDS, "backwards: cpu0 flagged (flags %#x)",
	   d->cpu[0].flags);
	is_double(d->cpu[0].pct[CPU_IOWAIT], 0.0, TOL, "backwards: iowait clamped to 0");
	is_double(d->cpu[0].pct[CPU_USER], 50.0, TOL, "backwards: usr 50%");
	is_double(d->cpu[0].busy, 50.0, TOL, "backwards: busy 50%");
	is_double(pct_sum(&d->cpu[0]), 100.0, TOL, "backwards: still sums to 100");
	is_int(d->cpu[1].flags, 0, "backwards: cpu1 unaffected");
	ok(d->all.flags & CPU_USAGE_BACKWARDS, "backwards: all row flagged");
	is_int(d->ncpu_with_data, 2, "backwards: cpu0 still has data");
	/* all: usr 50, idle 150 of 200 */
	is_double(d->all.busy, 25.0, TOL, "backwards: all busy 25%");
}

static void
test_appear_vanish(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	const uint64_t t0[] = { 10, 0, 0, 0, 0, 0, 0, 10 };
	const uint64_t t1[] = { 20, 0, 0, 0, 0, 0, 0, 20 };
	const uint64_t big[] = { 900, 0, 0, 0, 0, 0, 0, 100 };
	static const int want_id[] = { 0, 1, 2, 3, 4 };
	static const unsigned want_flags[] = { CPU_USAGE_GONE, CPU_USAGE_NEW, 0, CPU_USAGE_NEW,
					       CPU_USAGE_GONE };
	int i, ok_ids = 1, ok_flags = 1;

	/* prev {0,2,4}, cur {1,2,3}: the union interleaves and stays sorted. */
	reset(a, 1000);
	put_cpu(a, 0, 0, t0);
	put_cpu(a, 2, 0, t0);
	put_cpu(a, 4, 0, t0);
	reset(b, 2000);
	put_cpu(b, 1, 0, big);
	put_cpu(b, 2, 0, t1);
	put_cpu(b, 3, 0, big);

	is_int(sample_delta_compute(d, a, b), 0, "appear/vanish: computes");
	is_int(d->ncpu, 5, "appear/vanish: union of 5 ids");
	for (i = 0; i < 5 && i < d->ncpu; i++) {
		if (d->cpu[i].id != want_id[i])
			ok_ids = 0;
		if (d->cpu[i].flags != want_flags[i]) {
			ok_flags = 0;
			diag("  row %d: flags %#x, want %#x", i, d->cpu[i].flags, want_flags[i]);
		}
	}
	ok(ok_ids, "appear/vanish: ids sorted 0..4");
	ok(ok_flags, "appear/vanish: gone, new, -, new, gone");
	ok(all_zero(&d->cpu[1]) && all_zero(&d->cpu[4]), "appear/vanish: no figures without data");
	is_int(d->ncpu_with_data, 1, "appear/vanish: only cpu2 in all");
	/* a new CPU's lifetime ticks (90% busy) must not leak into all */
	is_double(d->all.busy, 50.0, TOL, "appear/vanish: all is cpu2 alone");
}

static void
test_offline(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	const uint64_t t0[] = { 10, 0, 0, 0, 0, 0, 0, 10 };
	const uint64_t t1[] = { 40, 0, 0, 0, 0, 0, 0, 20 };
	const uint64_t life[] = { 5000, 0, 0, 0, 0, 0, 0, 5000 };

	/* cpu1 goes offline (ticks read as 0); cpu2 comes back online with old counters. */
	reset(a, 1000);
	put_cpu(a, 0, 0, t0);
	put_cpu(a, 1, 0, t0);
	put_cpu(a, 2, CPU_RAW_OFFLINE, NULL);
	reset(b, 2000);
	put_cpu(b, 0, 0, t1);
	put_cpu(b, 1, CPU_RAW_OFFLINE, NULL);
	put_cpu(b, 2, 0, life);

	is_int(sample_delta_compute(d, a, b), 0, "offline: computes");
	is_int(d->ncpu, 3, "offline: three rows");
	is_int(d->cpu[1].flags, CPU_USAGE_OFFLINE, "offline: cpu1 offline, not backwards");
	ok(all_zero(&d->cpu[1]), "offline: cpu1 has no figures");
	is_int(d->cpu[2].flags, CPU_USAGE_NEW, "offline: cpu2 back online counts as new");
	ok(all_zero(&d->cpu[2]), "offline: cpu2 lifetime ticks not shown");
	is_int(d->ncpu_with_data, 1, "offline: only cpu0 in all");
	is_double(d->all.busy, 75.0, TOL, "offline: all is cpu0 alone");

	/* offline in both samples stays offline */
	reset(a, 3000);
	put_cpu(a, 0, CPU_RAW_OFFLINE, NULL);
	reset(b, 4000);
	put_cpu(b, 0, CPU_RAW_OFFLINE, NULL);
	is_int(sample_delta_compute(d, a, b), 0, "offline twice: computes");
	is_int(d->cpu[0].flags, CPU_USAGE_OFFLINE, "offline twice: flagged offline only");
	is_int(d->ncpu_with_data, 0, "offline twice: nothing in all");
	ok(d->all.flags & CPU_USAGE_NO_TICKS, "offline twice: all has no ticks");
}

static void
test_no_ticks(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	const uint64_t t[] = { 7, 1, 2, 3, 4, 5, 6, 8 };

	/* Time passed but no tick did: shorter than a tick, or a tickless idle CPU. */
	reset(a, 1000000);
	put_cpu(a, 0, 0, t);
	reset(b, 1500000);
	put_cpu(b, 0, 0, t);
	is_int(sample_delta_compute(d, a, b), 0, "no ticks: computes");
	is_int(d->cpu[0].flags, CPU_USAGE_NO_TICKS, "no ticks: flagged");
	ok(all_zero(&d->cpu[0]), "no ticks: zero figures, not NaN");
	is_int(d->ncpu_with_data, 0, "no ticks: not counted in all");
	ok((d->all.flags & CPU_USAGE_NO_TICKS) && all_zero(&d->all), "no ticks: all row too");
	is_double(d->seconds, 0.0005, 1e-12, "no ticks: half a millisecond measured");
}

static void
test_rates(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	const double secs = 1.23456789;

	/* 1.23456789 s measured, though the caller may have asked for 1 s. */
	reset(a, 10000000000);
	reset(b, 11234567890);
	a->sys.have = b->sys.have =
		(1u << SYS_CTXSW) | (1u << SYS_INTR) | (1u << SYS_FORK) | (1u << SYS_SOFTIRQ);
	b->sys.have |= 1u << SYS_SYSCALL; /* only in the newer sample */
	a->sys.count[SYS_CTXSW] = 5000;
	b->sys.count[SYS_CTXSW] = 6000;
	a->sys.count[SYS_INTR] = 900;
	b->sys.count[SYS_INTR] = 800; /* wrapped or reset */
	a->sys.count[SYS_SOFTIRQ] = 12;
	b->sys.count[SYS_SOFTIRQ] = 12;
	a->sys.count[SYS_FORK] = 1;
	b->sys.count[SYS_FORK] = 4;
	b->sys.count[SYS_SYSCALL] = 99;
	a->sys.flags = SYS_HAVE_RUNQ | SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL;
	b->sys.flags = SYS_HAVE_RUNQ | SYS_HAVE_PSI_SOME | SYS_HAVE_PSI_FULL;
	a->sys.running = 9;
	b->sys.running = 3;
	b->sys.blocked = 2;
	a->sys.psi_some_us = 1000;
	b->sys.psi_some_us = 1000 + 617284; /* half of 1234567.89 us */
	a->sys.psi_full_us = 0;
	b->sys.psi_full_us = 5000000; /* more than the interval: clamped */

	is_int(sample_delta_compute(d, a, b), 0, "rates: computes");
	is_double(d->seconds, secs, 1e-12, "rates: measured seconds");
	is_double(d->rate[SYS_CTXSW], 1000 / secs, 1e-6, "rates: ctxsw over measured time");
	is_double(d->rate[SYS_FORK], 3 / secs, 1e-9, "rates: fork over measured time");
	is_double(d->rate[SYS_SOFTIRQ], 0.0, 0, "rates: unchanged counter is 0/s");
	ok(d->have_rate & (1u << SYS_SOFTIRQ), "rates: unchanged counter still valid");
	ok(!(d->have_rate & (1u << SYS_INTR)), "rates: backwards intr has no rate");
	is_double(d->rate[SYS_INTR], 0.0, 0, "rates: backwards intr reads 0, never negative");
	ok(!(d->have_rate & (1u << SYS_SYSCALL)), "rates: syscall missing from prev has no rate");
	ok(d->flags & SYS_HAVE_RUNQ, "rates: run queue valid");
	is_int(d->running, 3, "rates: running from the newer sample");
	is_int(d->blocked, 2, "rates: blocked from the newer sample");
	ok(d->flags & SYS_HAVE_PSI_SOME, "rates: psi some valid");
	is_double(d->psi_some_pct, 50.0, 1e-4, "rates: psi some 50% of measured time");
	is_double(d->psi_full_pct, 100.0, 0, "rates: psi full clamped to 100");

	/* PSI absent from the older sample, or going backwards, gives no figure. */
	a->sys.flags = SYS_HAVE_RUNQ | SYS_HAVE_PSI_FULL;
	a->sys.psi_full_us = 6000000;
	is_int(sample_delta_compute(d, a, b), 0, "rates: recomputes");
	ok(!(d->flags & SYS_HAVE_PSI_SOME), "rates: psi some needs both samples");
	ok(!(d->flags & SYS_HAVE_PSI_FULL), "rates: psi full backwards is invalid");
	ok(d->psi_some_pct == 0.0 && d->psi_full_pct == 0.0, "rates: invalid psi reads 0");

	b->sys.flags = 0;
	is_int(sample_delta_compute(d, a, b), 0, "rates: no run queue");
	ok(!(d->flags & SYS_HAVE_RUNQ) && d->running == 0 && d->blocked == 0,
	   "rates: run queue absent in the newer sample");
}

static void
test_many(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	struct cpu_usage *was;
	uint64_t ta[CPU_NSTATES] = { 0 }, tb[CPU_NSTATES] = { 0 };
	int i, bad = 0, cap;
	uint64_t busy_sum = 0;

	/* cpu i is busy for i % 101 of its 100 ticks, so every row has an exact answer. */
	reset(a, 1);
	reset(b, 2);
	for (i = 0; i < 1024; i++) {
		int busy = i % 101;

		ta[CPU_USER] = 1000u + (uint64_t)i;
		ta[CPU_IDLE] = 2000;
		tb[CPU_USER] = ta[CPU_USER] + (uint64_t)busy;
		tb[CPU_IDLE] = ta[CPU_IDLE] + (uint64_t)(100 - busy);
		busy_sum += (uint64_t)busy;
		put_cpu(a, i, 0, ta);
		put_cpu(b, i, 0, tb);
	}
	is_int(sample_delta_compute(d, a, b), 0, "1024 cpus: computes");
	is_int(d->ncpu, 1024, "1024 cpus: 1024 rows");
	is_int(d->ncpu_with_data, 1024, "1024 cpus: all in all");
	for (i = 0; i < d->ncpu; i++) {
		if (d->cpu[i].id != i || d->cpu[i].flags != 0 ||
		    d->cpu[i].busy != (double)(i % 101) ||
		    d->cpu[i].pct[CPU_IDLE] != (double)(100 - i % 101)) {
			if (bad++ == 0)
				diag("  first bad row %d: id %d busy %g", i, d->cpu[i].id,
				     d->cpu[i].busy);
		}
	}
	is_int(bad, 0, "1024 cpus: every row exact");
	is_double(d->all.busy, (double)busy_sum / 1024.0, TOL, "1024 cpus: all row");

	/* Once grown, computing again must reuse the same array. */
	was = d->cpu;
	cap = d->cap;
	is_int(sample_delta_compute(d, a, b), 0, "1024 cpus: computes again");
	ok(d->cpu == was && d->cap == cap, "1024 cpus: no reallocation once grown");
}

static void
test_not_newer(struct raw_sample *a, struct raw_sample *b, struct sample_delta *d)
{
	const uint64_t t[] = { 1, 0, 0, 0, 0, 0, 0, 1 };

	reset(a, 5000);
	put_cpu(a, 0, 0, t);
	reset(b, 5000);
	put_cpu(b, 0, 0, t);
	errno = 0;
	is_int(sample_delta_compute(d, a, b), -1, "same mono_ns: -1");
	is_int(errno, EINVAL, "same mono_ns: EINVAL");
	b->mono_ns = 4999;
	is_int(sample_delta_compute(d, a, b), -1, "older cur: -1");
}

int
main(void)
{
	struct raw_sample a, b;
	struct sample_delta d;

	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	is_int(d.all.id, -1, "init: all row id -1");

	test_two_cpus(&a, &b, &d);
	test_backwards(&a, &b, &d);
	test_appear_vanish(&a, &b, &d);
	test_offline(&a, &b, &d);
	test_no_ticks(&a, &b, &d);
	test_rates(&a, &b, &d);
	test_many(&a, &b, &d);
	test_not_newer(&a, &b, &d);

	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The quiet check (sweep_quiet.h).  A sweep's first steps are the ones every
 * ratio is taken against, so a machine that is busy before the first step
 * is said to be, naming the busiest process, before any is measured.  The
 * check is the others' measurement over one second (others.c), with nothing
 * of the workload running yet: the CPU counters' busy time less scaletop's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "scaletop/delta.h"
#include "sweep_quiet.h"

#define QUIET_PERIOD_NS 1000000000u

void
sweep_quiet_init(struct sweep_quiet *q)
{
	others_book_init(&q->book);
	raw_sample_init(&q->cpu0);
	q->t0_ns = q->first_ns = 0;
	q->busy_said = false;
}

void
sweep_quiet_free(struct sweep_quiet *q)
{
	others_book_free(&q->book);
	raw_sample_free(&q->cpu0);
}

static void
sweep_quiet_scan(struct sweep_quiet *q)
{
	struct proc_cpu *t;
	size_t n;

	if (proc_cpu_read(&t, &n) != 0)
		return;
	(void)others_book_add(&q->book, t, n, NULL, 0);
	free(t);
}

void
sweep_quiet_begin(struct sweep_quiet *q, const struct raw_sample *cpu, uint64_t now)
{
	if (q->first_ns == 0)
		q->first_ns = now;
	q->t0_ns = now;
	others_book_reset(&q->book);
	if (cpu == NULL || raw_sample_copy(&q->cpu0, cpu) != 0)
		q->cpu0.mono_ns = 0;
	sweep_quiet_scan(q);
}

/* The others over the second just ended into o; false when it cannot be told. */
static bool
sweep_quiet_measure(struct sweep_quiet *q, const struct raw_sample *cpu, struct step_others *o)
{
	struct sample_delta d;
	struct others_totals t;
	bool ok;

	sample_delta_init(&d);
	ok = cpu != NULL && q->cpu0.mono_ns != 0 && cpu->mono_ns > q->cpu0.mono_ns &&
	     sample_delta_compute(&d, &q->cpu0, cpu) == 0 && d.ncpu_with_data > 0;
	if (ok) {
		sweep_quiet_scan(q);
		t.seconds = d.seconds;
		t.busy_cpus = (d.all.busy - d.all.pct[CPU_STEAL]) / 100.0 * d.ncpu_with_data;
		t.measured_cpus = 0;
		t.self = getpid();
		others_book_figures(&q->book, &t, o, NULL);
		ok = o->known;
	}
	sample_delta_free(&d);
	return ok;
}

/*
 * "cc1 x3 0.70, make 0.10": the busiest first; or why no name is given.  The
 * analysis reads them back from the event (analysis_serving.c): a command
 * busy before the first step is no server of the workload.
 */
static void
sweep_quiet_names(const struct step_others *o, char *buf, size_t len)
{
	if (o->ntop == 0)
		snprintf(buf, len, "none named: processes shorter than a second");
	else
		others_names_text(o, STEP_OTHERS_TOP, buf, len);
}

bool
sweep_quiet_tick(struct sweep_quiet *q, struct session *s, const struct raw_sample *cpu,
		 uint64_t now, double wait_s)
{
	struct step_others o;
	double waited = (double)(now - q->first_ns) / 1e9, t = session_time(s, now);
	char names[160];

	if (now < q->t0_ns + QUIET_PERIOD_NS)
		return false;
	if (!sweep_quiet_measure(q, cpu, &o))
		return true; /* no process table or no counters: nothing to say */
	sweep_quiet_names(&o, names, sizeof(names));
	if (o.cpus <= OTHERS_QUIET_CPUS) {
		if (q->busy_said)
			session_add_event(
				s, -1, EV_INFO, t,
				"the machine is quiet after %.0f s: others used %.2f CPUs "
				"over the last second",
				waited, o.cpus);
		return true;
	}
	if (wait_s <= 0) {
		session_add_event(s, -1, EV_WARNING, t,
				  "the machine is busy: others used %.2f CPUs over 1 s before the "
				  "first step (%s); the first steps' ratios may be unreliable; "
				  "--wait-quiet waits for it",
				  o.cpus, names);
		return true;
	}
	if (waited + 0.5 >= wait_s) {
		session_add_event(s, -1, EV_WARNING, t,
				  "the machine stayed busy for %.0f s (--wait-quiet): others used "
				  "%.2f CPUs over the last second (%s); running anyway",
				  waited, o.cpus, names);
		return true;
	}
	if (!q->busy_said)
		session_add_event(s, -1, EV_INFO, t,
				  "the machine is busy: others used %.2f CPUs over 1 s (%s); "
				  "waiting up to %g s for it to be quiet (--wait-quiet)",
				  o.cpus, names, wait_s);
	q->busy_said = true;
	sweep_quiet_begin(q, cpu, now);
	return false;
}

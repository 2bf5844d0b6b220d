/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare's load line on sessions built here: where B's workers waited for a
 * CPU far more than A's at N up to the CPUs, the line names the other
 * processes of B's busiest step (steps[].others: command, how many, CPUs),
 * how much they took in all and at which N; without others measured, the
 * line says only that other jobs took CPUs; sides alike, no line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/report.h"
#include "../tap.h"

/* A side of 3 trials at N=1, 2 and 4 on 2 CPUs whose workers waited delay% for a CPU. */
static void
side(struct snapshot *sn, const char *name, double delay)
{
	struct analysis_opts o;
	struct step *st;
	int t, i;
	static const int n[3] = { 1, 2, 4 };

	snapshot_init(sn);
	snprintf(sn->name, sizeof(sn->name), "%s", name);
	snprintf(sn->meta.label, sizeof(sn->meta.label), "%s", name);
	snprintf(sn->s.wl.unit, sizeof(sn->s.wl.unit), "ops");
	sn->s.host.ncpus = 2;
	for (t = 0; t < 3; t++) {
		for (i = 0; i < 3; i++) {
			st = session_add_step(&sn->s, n[i], 0);
			st->trial = t;
			st->status = STEP_OK;
			st->ops_s = 1000.0 * n[i] * (1 + 0.01 * t);
			st->ct.have |= CT_HAVE_RUN_DELAY;
			st->ct.run_delay_pct = delay;
		}
	}
	analysis_opts_for(&sn->s, &o);
	analysis_run(&sn->s, &o, &sn->now);
}

/* Others on every step of sn at N up to 2: cc1 x3 then make, the most at N=n_busy. */
static void
others(struct snapshot *sn, int n_busy)
{
	struct step_others *x;
	int i;

	for (i = 0; i < sn->s.nsteps; i++) {
		x = &sn->s.steps[i].others;
		memset(x, 0, sizeof(*x));
		x->known = true;
		x->cpus = sn->s.steps[i].n == n_busy ? 1.42 : 0.3;
		x->named_cpus = x->cpus - 0.1;
		snprintf(x->top[0].comm, sizeof(x->top[0].comm), "cc1");
		x->top[0].procs = 3;
		x->top[0].cpus = x->cpus - 0.2;
		snprintf(x->top[1].comm, sizeof(x->top[1].comm), "make");
		x->top[1].procs = 1;
		x->top[1].cpus = 0.1;
		x->ntop = 2;
	}
	/* N=4 is above the CPUs: the workload itself waits there, so it never names anyone */
	for (i = 0; i < sn->s.nsteps; i++) {
		if (sn->s.steps[i].n == 4)
			sn->s.steps[i].others.cpus = 1.9;
	}
}

/* compare's load line for a against b, into line ("" without one). */
static void
load_line(struct snapshot *a, struct snapshot *b, char *line, size_t len)
{
	struct snapshot *v[2] = { a, b };
	struct compare_opts o;
	char *buf = NULL, *p, *e;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	line[0] = '\0';
	if (f == NULL)
		return;
	compare_opts_default(&o);
	snapshot_compare_text(f, v, 2, &o);
	fclose(f);
	if ((p = strstr(buf, "\nload: ")) != NULL) {
		p++;
		e = strchr(p, '\n');
		snprintf(line, len, "%.*s", (int)(e != NULL ? e - p : (long)strlen(p)), p);
	}
	free(buf);
}

int
main(void)
{
	struct snapshot a, b;
	char line[512];

	side(&a, "a.json", 20);
	side(&b, "b.json", 85);
	load_line(&a, &b, line, sizeof(line));
	is_str(line,
	       "load: B's workers waited for a CPU 85% of their time at N up to the CPUs, A's 20%: "
	       "other jobs took CPUs from B; a difference may be theirs (sweep both when the "
	       "machine is quiet, or in turns)",
	       "others not measured: the load line says other jobs, no names");

	others(&b, 1);
	load_line(&a, &b, line, sizeof(line));
	is_str(line,
	       "load: B's workers waited for a CPU 85% of their time at N up to the CPUs, A's 20%: "
	       "other jobs took CPUs from B: cc1 x3 1.2 CPUs, make 0.1 at N=1 (1.4 CPUs in all); "
	       "a difference may be theirs (sweep both when the machine is quiet, or in turns)",
	       "others measured: B's busiest step at N up to the CPUs is named, N=4 left out");

	load_line(&b, &a, line, sizeof(line));
	ok(strstr(line, "other jobs took CPUs from A: cc1 x3 1.2 CPUs, make 0.1 at N=1 ") != NULL,
	   "the other way round: A is the side named");

	others(&b, 2);
	load_line(&a, &b, line, sizeof(line));
	ok(strstr(line, "took CPUs from B: cc1 x3 1.2 CPUs, make 0.1 at N=2 (1.4 CPUs in all);") !=
		   NULL,
	   "the busiest step is the one named (N=2): %s", line);

	others(&a, 1);
	snapshot_free(&b);
	side(&b, "b.json", 25);
	others(&b, 1);
	load_line(&a, &b, line, sizeof(line));
	is_str(line, "", "run delays 5 points apart: no load line, whoever ran");

	snapshot_free(&a);
	snapshot_free(&b);
	return done_testing();
}

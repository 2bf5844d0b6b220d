/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verdict writer on its own (src/model/analysis_verdict.h): the
 * sentence comes from the analysis and its context alone, with no session.
 * test_analysis checks whole analyses' verdicts word for word.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/model/analysis_verdict.h"
#include "../tap.h"

static void
test_singular(void)
{
	char one[32];

	verdict_singular("threads", one, sizeof(one));
	is_str(one, "thread", "singular: threads");
	verdict_singular("processes", one, sizeof(one));
	is_str(one, "process", "singular: processes");
	verdict_singular("CPUs", one, sizeof(one));
	is_str(one, "CPU", "singular: CPUs");
	verdict_singular("s", one, sizeof(one));
	is_str(one, "s", "singular: a lone s stays");
}

/* A context over a; the caller fills the points. */
static void
ctx_init(struct verdict_ctx *c, const struct analysis *a)
{
	memset(c, 0, sizeof(*c));
	c->a = a;
	c->eff_min = 0.9;
	c->theta = 0.2;
	c->n_unit = "threads";
	c->unit = "ops";
	verdict_singular(c->n_unit, c->one, sizeof(c->one));
}

static void
test_small(void)
{
	struct scaling_point pt = { .n = 4, .x = 1500, .ci = NAN };
	struct analysis a;
	struct verdict_ctx c;
	char buf[256];

	memset(&a, 0, sizeof(a));
	ctx_init(&c, &a);
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf, "no usable steps", "no points");
	a.npoints = 1;
	a.pts = &pt;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf, "one point only: 1.50k ops/s at 4 threads", "one point");
	pt.n = 1;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf, "one point only: 1.50k ops/s at 1 thread", "one point at N = 1: singular");
	verdict_build(&c, buf, 10);
	is_str(buf, "one point", "cut to the buffer");
}

/* 1 -> 2 -> 4 threads: scales to 2, peaks at 4 with the given flags. */
static void
peaked(struct analysis *a, struct scaling_point *p)
{
	static const double x[] = { 100, 190, 250 };
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < 3; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].n = 1 << i;
		p[i].x = x[i];
		p[i].ci = NAN;
		p[i].speedup = x[i] / 100;
		p[i].efficiency = p[i].speedup / p[i].n;
	}
	a->npoints = 3;
	a->pts = p;
	a->have_x1 = true;
	a->x1 = 100;
	a->n_peak = a->last_n = 4;
	a->x_peak = 250;
	a->linear_n = 2;
	a->last_frac = 1;
}

static void
test_peak(void)
{
	struct scaling_point p[3];
	struct analysis a;
	struct verdict_ctx c;
	char buf[256];

	peaked(&a, p);
	ctx_init(&c, &a);
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf, "scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4", "a peak");
	c.peak_unstable = true;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf, "scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4 (unstable)",
	       "an unstable run in the peak is flagged");
	a.peak_uncertain = true;
	a.x_peak_ci = 100;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf,
	       "scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4 (uncertain: CI +-40%)",
	       "an uncertain peak is said before an unstable one");
}

/* 1, 2, 4, 8: a peak at 4 and a fall to 40% at 8, with its clauses kept. */
static void
test_ranked(void)
{
	struct scaling_point p[4];
	struct analysis a;
	struct verdict_ctx c;
	char buf[256], part[256], list[512];
	int i;

	peaked(&a, p);
	memset(&p[3], 0, sizeof(p[3]));
	p[3].n = 8;
	p[3].x = 100;
	p[3].ci = NAN;
	p[3].speedup = 1;
	p[3].efficiency = 1.0 / 8;
	a.npoints = 4;
	a.last_n = 8;
	a.last_frac = 0.4;
	a.collapse = true;
	a.collapse_n = 8;
	ctx_init(&c, &a);
	analysis_verdict_ranked(&a, buf, sizeof(buf));
	is_str(buf, "", "no parts and no verdict: nothing");
	c.part = a.part;
	c.nparts = &a.nparts;
	verdict_build(&c, a.verdict, sizeof(a.verdict));
	is_str(a.verdict,
	       "collapse above 4: 40% of peak at 8; scales to 2 threads (efficiency >= 90%); peak "
	       "250 ops/s at 4",
	       "a collapse: the sentence in its own order, the collapse its headline");
	is_int(a.nparts, 3, "three clauses");
	list[0] = '\0';
	for (i = 0; i < a.nparts; i++) {
		snprintf(part, sizeof(part), "[%d]%.*s", (int)a.part[i].rank, (int)a.part[i].len,
			 a.verdict + a.part[i].off);
		strncat(list, part, sizeof(list) - strlen(list) - 1);
	}
	is_str(list,
	       "[0]collapse above 4: 40% of peak at 8[5]scales to 2 threads (efficiency >= "
	       "90%)[4]peak "
	       "250 ops/s at 4",
	       "each clause without its separator, with its rank");
	analysis_verdict_ranked(&a, buf, sizeof(buf));
	is_str(buf,
	       "collapse above 4: 40% of peak at 8; peak 250 ops/s at 4; scales to 2 threads "
	       "(efficiency >= 90%)",
	       "ranked: the collapse first, then the peak, then the scaling");
	analysis_verdict_ranked(&a, buf, 20);
	is_str(buf, "collapse above 4: 4", "ranked and cut: the collapse still leads");

	a.collapse = false;
	a.last_frac = 0.97;
	p[3].x = 245;
	verdict_build(&c, a.verdict, sizeof(a.verdict));
	is_int(a.nparts, 2, "flat after: a part of the peak's clause");
	analysis_verdict_ranked(&a, buf, sizeof(buf));
	is_str(buf, "scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4, flat after",
	       "ranked without a collapse: the headline (how far it scales) first, then the peak");
	a.nparts = 0;
	analysis_verdict_ranked(&a, buf, sizeof(buf));
	is_str(buf, a.verdict, "a verdict without parts (read from a file) as it is");
}

/* A peak or a collapse on one of the machine's boundaries is named by it; elsewhere nothing is
 * added. */
static void
test_boundary(void)
{
	struct scaling_point p[4];
	struct analysis a;
	struct verdict_ctx c;
	const char *want = "collapse above 4 = one LLC (cpus 0-3 share L3): 40% of peak at 8;";
	char buf[256];

	peaked(&a, p);
	ctx_init(&c, &a);
	c.marks[0] = (struct topo_mark){ 2, TOPO_SMT, "one core's 2 SMT threads (cpus 0,1)" };
	c.marks[1] = (struct topo_mark){ 4, TOPO_LLC, "one LLC (cpus 0-3 share L3)" };
	c.nmarks = 2;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf,
	       "scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4 = one LLC (cpus 0-3 "
	       "share L3)",
	       "the peak on a boundary names it");
	memset(&p[3], 0, sizeof(p[3]));
	p[3].n = 8;
	p[3].x = 100;
	p[3].ci = NAN;
	a.npoints = 4;
	a.last_n = 8;
	a.last_frac = 0.4;
	a.collapse = true;
	a.collapse_n = 8;
	verdict_build(&c, buf, sizeof(buf));
	ok(strncmp(buf, want, strlen(want)) == 0,
	   "a collapse above a boundary names it in the headline: %s", buf);
	ok(strstr(buf + 1, "= one LLC") == strstr(buf, "= one LLC"),
	   "and the peak's clause, at the same N, does not name it again");
	c.marks[1].n = 5;
	verdict_build(&c, buf, sizeof(buf));
	ok(strstr(buf, " = ") == NULL, "off the boundaries, no words are added: %s", buf);
}

/*
 * The busy machine's clause on its own: the CPU count unknown or one, no
 * names, a busy N other than 1 (no word on ratios), and its rank in a line
 * cut short.
 */
static void
test_busy(void)
{
	struct scaling_point p[3];
	struct analysis a;
	struct verdict_ctx c;
	char buf[256];

	peaked(&a, p);
	ctx_init(&c, &a);
	c.part = a.part;
	c.nparts = &a.nparts;
	a.busy.n = 2;
	a.busy.by_others = true;
	a.busy.others_cpus = 0.74;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf,
	       "scales to 2 threads (efficiency >= 90%); on a busy machine: other processes used "
	       "0.7 CPUs at N=2; peak 250 ops/s at 4",
	       "busy, CPU count unknown, no names: the CPUs alone, no word on ratios");
	a.busy.ncpus = 1;
	snprintf(a.busy.top[0].comm, sizeof(a.busy.top[0].comm), "gzip");
	a.busy.top[0].procs = 1;
	a.busy.ntop = 1;
	verdict_build(&c, buf, sizeof(buf));
	is_str(buf,
	       "scales to 2 threads (efficiency >= 90%); on a busy machine: other processes used "
	       "0.7 of 1 CPU at N=2 (gzip); peak 250 ops/s at 4",
	       "one CPU: singular; one process of a name: no count");
	a.busy.n = 1;
	a.busy.by_others = false;
	a.busy.run_delay_pct = 40.4;
	verdict_build(&c, a.verdict, sizeof(a.verdict));
	is_str(a.verdict,
	       "scales to 2 threads (efficiency >= 90%); on a busy machine: the workers waited for "
	       "a CPU 40% of their time at N=1 (gzip); ratios to N=1 are unreliable; peak 250 "
	       "ops/s at 4",
	       "busy by run delay at N=1: said, naming the others a scan saw, with the ratios' "
	       "warning");
	a.busy.ntop = 0;
	verdict_build(&c, a.verdict, sizeof(a.verdict));
	is_str(a.verdict,
	       "scales to 2 threads (efficiency >= 90%); on a busy machine: the workers waited for "
	       "a CPU 40% of their time at N=1; ratios to N=1 are unreliable; peak 250 ops/s at 4",
	       "busy by run delay, no others named: the delay alone");
	analysis_verdict_ranked(&a, buf, 60);
	is_str(buf, "scales to 2 threads (efficiency >= 90%); on a busy machine:",
	       "ranked and cut: the headline, then the busy machine");
}

int
main(void)
{
	test_singular();
	test_small();
	test_peak();
	test_ranked();
	test_boundary();
	test_busy();
	return done_testing();
}

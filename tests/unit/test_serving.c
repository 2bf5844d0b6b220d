/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A server is not a busy machine (analysis_serving.c), on a table of
 * sessions: a server whose CPU rises with N, a flat bystander, one starting
 * mid-sweep, one step, trials, a --target that names the server, the quiet
 * check's veto, a collapse, a trickle, two servers; each with its verdict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/others.h"
#include "scaletop/session.h"
#include "../tap.h"

#define MAXS 8

struct other_cpu {
	const char *comm;
	double cpus;
};

/* One step: its N, throughput, the others' named commands, the workers' run delay (< 0: none). */
struct srow_step {
	int n;
	double x;
	struct other_cpu o[2];
	double delay;
};

struct srow {
	const char *name;
	int k;
	struct srow_step st[MAXS];
	const char *target;  /* --target, or NULL */
	const char *quiet;   /* the quiet check's warning, or NULL */
	const char *serving; /* the command found serving, or NULL for none */
	const char *want;    /* the whole verdict */
};

/* -1 in an entry's delay: not measured. */
static const struct srow rows[] = {
	{ "a server rising with N: not busy, named",
	  2,
	  { { 1, 100, { { "postgres", 0.8 } }, -1 }, { 2, 230, { { "postgres", 1.5 } }, -1 } },
	  NULL,
	  NULL,
	  "postgres",
	  "scales linearly to 2 clients: 2.3x at 2; postgres served the workload (0.8 to 1.5 "
	  "CPUs): "
	  "--target comm:postgres shows its waits" },
	{ "a flat bystander: busy, as before",
	  3,
	  { { 1, 100, { { "backup", 0.8 } }, -1 },
	    { 2, 190, { { "backup", 0.78 } }, -1 },
	    { 4, 300, { { "backup", 0.8 } }, -1 } },
	  NULL,
	  NULL,
	  NULL,
	  "scales to 2 clients (efficiency >= 90%); on a busy machine: other processes used 0.8 of "
	  "2 "
	  "CPUs at N=1 (backup x2); ratios to N=1 are unreliable; peak 300 transactions/s at 4" },
	{ "a bystander that starts mid-sweep: busy where it ran",
	  4,
	  { { 1, 100, { { 0 } }, -1 },
	    { 2, 150, { { "backup", 0.6 } }, -1 },
	    { 4, 200, { { "backup", 0.9 } }, -1 },
	    { 8, 220, { { "backup", 1.0 } }, -1 } },
	  NULL,
	  NULL,
	  NULL,
	  "scales sub-linearly (efficiency < 90% at 2 clients); on a busy machine: other processes "
	  "used 0.6 of 2 CPUs at N=2 (backup x2); peak 220 transactions/s at 8" },
	{ "one step only: a server cannot be told, busy",
	  1,
	  { { 2, 100, { { "postgres", 0.8 } }, -1 } },
	  NULL,
	  NULL,
	  NULL,
	  "one point only: 100 transactions/s at 2 clients; on a busy machine: other processes "
	  "used "
	  "0.8 of 2 CPUs at N=2 (postgres x2)" },
	{ "trials, N order alternating: the server still found",
	  6,
	  { { 1, 100, { { "postgres", 0.7 } }, -1 },
	    { 2, 180, { { "postgres", 1.3 } }, -1 },
	    { 4, 200, { { "postgres", 1.5 } }, -1 },
	    { 4, 205, { { "postgres", 1.6 } }, -1 },
	    { 2, 175, { { "postgres", 1.2 } }, -1 },
	    { 1, 98, { { "postgres", 0.75 } }, -1 } },
	  NULL,
	  NULL,
	  "postgres",
	  "scales sub-linearly (efficiency < 90% at 2 clients); postgres served the workload (0.7 "
	  "to "
	  "1.6 CPUs): --target comm:postgres shows its waits; peak 202 transactions/s at 4" },
	{ "trials, a bystander in the second trial only: busy",
	  4,
	  { { 1, 100, { { 0 } }, -1 },
	    { 2, 190, { { 0 } }, -1 },
	    { 2, 150, { { "cc1", 0.9 } }, -1 },
	    { 1, 60, { { "cc1", 0.9 } }, -1 } },
	  NULL,
	  NULL,
	  NULL,
	  "scales linearly to 2 clients: 2.1x at 2; on a busy machine: other processes used 0.9 of "
	  "2 "
	  "CPUs at N=1 (cc1 x2); ratios to N=1 are unreliable" },
	{ "--target names the server: neither busy nor named again",
	  2,
	  { { 1, 100, { { "postgres", 0.8 } }, -1 }, { 2, 230, { { "postgres", 1.5 } }, -1 } },
	  "comm:postgres",
	  NULL,
	  "postgres",
	  "scales linearly to 2 clients: 2.3x at 2" },
	{ "--target pid: of one of the server's processes: not named again",
	  2,
	  { { 1, 100, { { "postgres", 0.8 } }, -1 }, { 2, 230, { { "postgres", 1.5 } }, -1 } },
	  "pid:4242",
	  NULL,
	  "postgres",
	  "scales linearly to 2 clients: 2.3x at 2" },
	/* The peak's clause does not fit the sentence's 255 bytes after these two. */
	{ "a server and a flat bystander: the bystander alone makes it busy",
	  3,
	  { { 1, 100, { { "postgres", 0.5 }, { "backup", 0.6 } }, -1 },
	    { 2, 190, { { "postgres", 0.9 }, { "backup", 0.6 } }, -1 },
	    { 4, 220, { { "postgres", 1.0 }, { "backup", 0.55 } }, -1 } },
	  NULL,
	  NULL,
	  "postgres",
	  "scales to 2 clients (efficiency >= 90%); on a busy machine: other processes used 0.6 of "
	  "2 "
	  "CPUs at N=1 (backup x2); ratios to N=1 are unreliable; postgres served the workload "
	  "(0.5 "
	  "to "
	  "1.0 CPUs): --target comm:postgres shows its waits" },
	{ "a trickle that rises (a neighbour's compiler): no server",
	  2,
	  { { 1, 100, { { "clang", 0.03 } }, -1 }, { 2, 200, { { "clang", 0.1 } }, -1 } },
	  NULL,
	  NULL,
	  NULL,
	  "scales linearly to 2 clients: 2.0x at 2" },
	{ "two servers: both named, the first for --target",
	  2,
	  { { 1, 100, { { "postgres", 0.6 }, { "pgbouncer", 0.2 } }, -1 },
	    { 2, 200, { { "postgres", 1.2 }, { "pgbouncer", 0.3 } }, -1 } },
	  NULL,
	  NULL,
	  "postgres",
	  "scales linearly to 2 clients: 2.0x at 2; postgres and pgbouncer served the workload "
	  "(0.6 "
	  "to 1.2, 0.2 to 0.3 CPUs): --target comm:postgres shows their waits" },
	{ "rising, but busy before the first step (the quiet check): a bystander",
	  2,
	  { { 1, 100, { { "cc1", 0.6 } }, -1 }, { 2, 190, { { "cc1", 0.9 } }, -1 } },
	  NULL,
	  "the machine is busy: others used 0.80 CPUs over 1 s before the first step (cc1 x3 0.70, "
	  "make 0.10); the first steps' ratios may be unreliable; --wait-quiet waits for it",
	  NULL,
	  "scales linearly to 2 clients: 1.9x at 2; on a busy machine: other processes used 0.6 of "
	  "2 "
	  "CPUs at N=1 (cc1 x2); ratios to N=1 are unreliable" },
	{ "busy while --wait-quiet waited, quiet at its end: the server is found",
	  2,
	  { { 1, 100, { { "postgres", 0.8 } }, -1 }, { 2, 230, { { "postgres", 1.5 } }, -1 } },
	  NULL,
	  "the machine is busy: others used 0.90 CPUs over 1 s (postgres x4 0.85); waiting up to "
	  "30 s for it to be quiet (--wait-quiet)\nthe machine is quiet after 4 s: others used "
	  "0.05 "
	  "CPUs over the last second",
	  "postgres",
	  "scales linearly to 2 clients: 2.3x at 2; postgres served the workload (0.8 to 1.5 "
	  "CPUs): "
	  "--target comm:postgres shows its waits" },
	{ "the workers' run delay behind their own server: not busy",
	  2,
	  { { 1, 100, { { "postgres", 0.8 } }, 10 }, { 2, 170, { { "postgres", 1.4 } }, 40 } },
	  NULL,
	  NULL,
	  "postgres",
	  "scales sub-linearly (efficiency < 90% at 2 clients); postgres served the workload (0.8 "
	  "to "
	  "1.4 CPUs): --target comm:postgres shows its waits; peak 170 transactions/s at 2" },
	{ "a collapse with the server spinning: its CPU rises with N as throughput falls",
	  4,
	  { { 1, 100, { { "postgres", 0.8 } }, -1 },
	    { 2, 150, { { "postgres", 1.4 } }, -1 },
	    { 4, 60, { { "postgres", 1.8 } }, -1 },
	    { 8, 40, { { "postgres", 1.9 } }, -1 } },
	  NULL,
	  NULL,
	  "postgres",
	  "collapse above 2: 27% of peak at 8; postgres served the workload (0.8 to 1.9 CPUs): "
	  "--target comm:postgres shows its waits; scales sub-linearly (efficiency < 90% at 2 "
	  "clients); peak 150 transactions/s at 2" },
};

static void
fill_step(struct step *st, const struct srow_step *r)
{
	int i;

	st->ops_s = r->x;
	st->status = STEP_OK;
	st->others.known = true;
	st->others.cpus = 0.02;
	for (i = 0; i < 2 && r->o[i].comm != NULL; i++) {
		struct step_other *o = &st->others.top[st->others.ntop++];

		snprintf(o->comm, sizeof(o->comm), "%s", r->o[i].comm);
		o->procs = 2;
		o->pid[0] = 4000 + 100 * i;
		o->pid[1] =
			4242 + 100 * i; /* the second busiest of the first command: a target's */
		o->npid = 2;
		o->cpus = r->o[i].cpus;
		st->others.cpus += r->o[i].cpus;
		st->others.named_cpus += r->o[i].cpus;
	}
	if (r->delay >= 0) {
		st->ct.have |= CT_HAVE_RUN_DELAY;
		st->ct.run_delay_pct = r->delay;
	}
}

/* The quiet check's events, one a line of text. */
static void
quiet_events(struct session *s, const char *text)
{
	const char *nl;

	while (text != NULL && text[0] != '\0') {
		nl = strchr(text, '\n');
		session_add_event(s, -1, EV_WARNING, 0, "%.*s",
				  (int)(nl != NULL ? nl - text : (long)strlen(text)), text);
		text = nl != NULL ? nl + 1 : NULL;
	}
}

static void
build(struct session *s, const struct srow *r)
{
	struct step *st;
	int i;

	session_init(s);
	s->host.ncpus = 2;
	snprintf(s->wl.unit, sizeof(s->wl.unit), "transactions");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "clients");
	if (r->target != NULL) {
		snprintf(s->set.target[0], sizeof(s->set.target[0]), "%s", r->target);
		s->set.ntargets = 1;
	}
	if (r->quiet != NULL)
		quiet_events(s, r->quiet);
	for (i = 0; i < r->k; i++) {
		if ((st = session_add_step(s, r->st[i].n, 0)) == NULL)
			return;
		fill_step(st, &r->st[i]);
	}
}

static void
check_row(const struct srow *r)
{
	struct session s;
	struct analysis a;

	build(&s, r);
	if (analysis_run(&s, NULL, &a) != 0)
		diag("analysis_run failed");
	if (r->serving != NULL)
		ok(a.serving.n >= 1 && strcmp(a.serving.s[0].comm, r->serving) == 0,
		   "%s: %s serves (found %d)", r->name, r->serving, a.serving.n);
	else
		ok(a.serving.n == 0, "%s: nothing serves (found %d%s%s)", r->name, a.serving.n,
		   a.serving.n > 0 ? ": " : "", a.serving.n > 0 ? a.serving.s[0].comm : "");
	is_str(a.verdict, r->want, r->name);
	analysis_free(&a);
	session_free(&s);
}

/* The quiet check's names read back (others_names_cpus), as the veto reads them. */
static void
check_names(void)
{
	const char *t = "bash x2 0.78, memcheck-amd64- x2 0.73, tmux: server 0.08); the first";

	ok(fabs(others_names_cpus(t, "bash") - 0.78) < 1e-9, "names: bash x2 0.78");
	ok(fabs(others_names_cpus(t, "memcheck-amd64-") - 0.73) < 1e-9, "names: the second");
	ok(fabs(others_names_cpus(t, "tmux: server") - 0.08) < 1e-9, "names: a name with a space");
	ok(others_names_cpus(t, "bas") < 0, "names: a prefix is not the name");
	ok(others_names_cpus(t, "the") < 0, "names: nothing after the ')' is read");
	ok(others_names_cpus("none named: processes shorter than a second)", "none") < 0,
	   "names: none named");
	ok(others_names_cpus("", "bash") < 0, "names: empty");
	ok(fabs(others_names_cpus("x9 1.5", "x9") - 1.5) < 1e-9, "names: a name like a count");
	ok(others_names_cpus("cc1 inf, ld nan, as -1", "cc1") < 0 &&
		   others_names_cpus("cc1 inf, ld nan, as -1", "ld") < 0 &&
		   others_names_cpus("cc1 inf, ld nan, as -1", "as") < 0,
	   "names: no infinite, NaN or negative CPUs");
}

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(&rows[i]);
	check_names();
	return done_testing();
}

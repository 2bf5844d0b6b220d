/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The --probe runner (src/engine/probe.c) with real commands of this
 * machine, driven by a real loop as the sweep drives it: fixed labels reach
 * the tally with their weights; a hung probe is killed with its group at the
 * time-out and said once; a probe that prints too much is cut at the cap; one
 * that cannot start, exits non-zero or prints nothing is an event.  And the
 * step context runs the probes in its window and makes their labels the
 * step's probe shares.  No assertion is on elapsed time: the loop runs until
 * a count of runs is reached, bounded by a count of ticks.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scaletop/platform.h"
#include "scaletop/measures.h"
#include "../../src/engine/probe.h"
#include "../../src/engine/step_ctx.h"
#include "../tap.h"

#define TICK_NS UINT64_C(50000000)
#define MAX_TICKS 400 /* 20 s: a bound, never reached when the probe behaves */

struct drive {
	struct probes *p;
	struct step_ctx *c; /* when set, the ticks go through the step context */
	int want_runs;      /* quit once probe 0 has ended this many runs */
	int ticks, max_ticks;
	pid_t seen_pid; /* the last run seen going */
};

static void
drive_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct drive *d = arg;
	struct probes *p = d->c != NULL ? d->c->probes : d->p;
	pid_t pid;

	(void)missed;
	d->ticks++;
	if (d->c != NULL) {
		/* as the sweep ticks a step: the collectors' tick, then the kind's */
		step_ctx_sample(d->c, now);
		step_ctx_live_contention(d->c, now, 0, 0, 0);
	} else
		probes_tick(p, now);
	if ((pid = probes_running_pid(p, 0)) > 0)
		d->seen_pid = pid;
	if (probes_runs(p, 0) >= d->want_runs || d->ticks >= d->max_ticks)
		loop_quit(l);
}

static void
drive_run(struct loop *l, struct drive *d)
{
	char err[256];

	d->ticks = 0;
	if (d->max_ticks == 0)
		d->max_ticks = MAX_TICKS;
	loop_set_tick(l, TICK_NS, drive_tick, d);
	if (loop_run(l, err, sizeof(err)) != 0)
		diag("loop: %s", err);
	loop_set_tick(l, 0, NULL, NULL);
}

/* A session with one step (N=4) and one probe. */
static void
one_probe(struct session *s, const char *cmd)
{
	session_init(s);
	s->t0_ns = mono_now_ns();
	snprintf(s->set.probe[0], sizeof(s->set.probe[0]), "%s", cmd);
	s->set.nprobes = 1;
	session_add_step(s, 4, 0);
}

/* Runs one probe alone until it has ended want runs (or max_ticks pass); the results. */
struct result {
	int runs, clean;
	pid_t pid;
};

static struct result
probe_alone(struct session *s, struct wait_tally *t, int want, int max_ticks)
{
	struct drive d = { 0 };
	struct result r;
	char err[256];
	struct loop *l = loop_new(err, sizeof(err));

	if (l == NULL) {
		diag("loop_new: %s", err);
		exit(99);
	}
	d.p = probes_new(s, l);
	d.want_runs = want;
	d.max_ticks = max_ticks;
	probes_begin(d.p, 0, t, mono_now_ns());
	drive_run(l, &d);
	probes_end(d.p, mono_now_ns());
	r.runs = probes_runs(d.p, 0);
	r.clean = probes_clean_runs(d.p, 0);
	r.pid = d.seen_pid;
	probes_free(d.p);
	loop_free(l);
	return r;
}

static double
weight_of(const struct wait_tally *t, const char *label)
{
	int i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->e[i].channel, label) == 0 && t->e[i].family == WAIT_PROBE &&
		    t->e[i].state == WS_REPORTED)
			return t->e[i].share;
	}
	return 0;
}

static int
events_with(const struct session *s, const char *text)
{
	int i, k = 0;

	for (i = 0; i < s->nevents; i++) {
		if (strstr(s->events[i].text, text) != NULL && s->events[i].kind == EV_WARNING)
			k++;
	}
	return k;
}

static void
test_labels(void)
{
	char long_label[81], cmd[200];
	struct session s;
	struct wait_tally t;
	struct result r;

	memset(long_label, 'x', 80);
	long_label[80] = '\0';
	snprintf(cmd, sizeof(cmd), "printf 'a\\n  b \\n\\n\\t\\na\\nIO:DataFileRead\\n%s'",
		 long_label);
	one_probe(&s, cmd);
	wait_tally_init(&t);
	r = probe_alone(&s, &t, 2, 0);
	is_int(r.runs, 2, "fixed labels: two runs ended");
	is_int(r.clean, 2, "both exited with status 0");
	is_double(weight_of(&t, "a"), 4, 0, "each label weighs 1: 'a' twice a run, 4 in 2 runs");
	is_double(weight_of(&t, "b"), 2, 0, "a label is trimmed of blanks ('  b ')");
	is_double(weight_of(&t, "IO:DataFileRead"), 2, 0, "a PostgreSQL-style label as it is");
	long_label[WAIT_CHANNEL_LEN - 1] = '\0';
	is_double(weight_of(&t, long_label), 2, 0,
		  "a label longer than a channel is cut to its length (the last, unterminated line "
		  "counts)");
	is_double(wait_tally_total(&t, WAIT_PROBE), 10, 0,
		  "blank lines add nothing: 5 labels a run");
	is_double(wait_tally_total(&t, WAIT_WORKLOAD) + wait_tally_total(&t, WAIT_TARGET), 0, 0,
		  "only the probe family is touched");
	is_int(s.nevents, 0, "a probe that behaves is not an event");
	wait_tally_free(&t);
	session_free(&s);
}

/* Whether a process group is gone, looking for up to 2 s (its members may be reaped late). */
static bool
group_gone(pid_t pgid)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (kill(-pgid, 0) == -1 && errno == ESRCH)
			return true;
		sleep_ms(20);
	}
	return false;
}

static void
test_hang(void)
{
	struct session s;
	struct wait_tally t;
	struct result r;

	/* The leader and a second sleep in its group, which only a kill of the group ends. */
	one_probe(&s, "sh -c 'echo early; sleep 60 & exec sleep 61'");
	wait_tally_init(&t);
	r = probe_alone(&s, &t, 2, 0);
	is_int(r.runs, 2, "a hung probe: two runs were cut off");
	is_int(r.clean, 0, "neither counts as clean");
	is_int(events_with(&s, "ran over 2 s and was killed"), 1,
	       "the time-out is said once in the step, not once a run");
	is_double(weight_of(&t, "early"), 0, 0, "what a cut-off run printed is dropped");
	ok(r.pid > 0 && kill(r.pid, 0) == -1 && errno == ESRCH,
	   "the run's leader is gone (reaped)");
	ok(r.pid > 0 && group_gone(r.pid), "and so is its whole process group");
	wait_tally_free(&t);
	session_free(&s);
}

static void
test_cap(void)
{
	char xs[101], cmd[160];
	struct session s;
	struct wait_tally t;
	struct result r;

	one_probe(&s, "yes a");
	wait_tally_init(&t);
	r = probe_alone(&s, &t, 2, 0);
	is_int(r.clean, 2, "a probe that never stops printing: two runs cut at the cap");
	is_double(weight_of(&t, "a"), 2.0 * PROBE_MAX_LINES, 0,
		  "each run keeps the first 1000 labels, the rest is discarded");
	is_int(events_with(&s, "printed more than 1000 labels or 64 KiB"), 1,
	       "the cap is said once");
	wait_tally_free(&t);
	session_free(&s);

	memset(xs, 'x', 100);
	xs[100] = '\0';
	snprintf(cmd, sizeof(cmd), "yes %s", xs);
	one_probe(&s, cmd);
	wait_tally_init(&t);
	r = probe_alone(&s, &t, 1, 0);
	xs[WAIT_CHANNEL_LEN - 1] = '\0';
	is_double(weight_of(&t, xs), r.clean * (double)(PROBE_MAX_BYTES / 101), 0,
		  "long lines: the byte cap (64 KiB) comes first, 648 labels of 101 bytes a run");
	ok(r.clean >= 1, "the capped run counts");
	wait_tally_free(&t);
	session_free(&s);
}

static void
test_failures(void)
{
	struct session s;
	struct wait_tally t;
	struct result r;

	one_probe(&s, "/nonexistent/probe-command --x");
	wait_tally_init(&t);
	r = probe_alone(&s, &t, INT_MAX, 35);
	is_int(r.runs, 0, "a probe that cannot start never runs");
	is_int(events_with(&s, "cannot start: /nonexistent/probe-command"), 1,
	       "it is an event, once in the step (two tries were made)");
	is_int(t.n, 0, "and adds nothing");
	session_free(&s);

	one_probe(&s, "echo 'oops");
	r = probe_alone(&s, &t, INT_MAX, 5);
	is_int(events_with(&s, "unterminated ' quote"), 1,
	       "a command that cannot be split is said as one that cannot start");
	session_free(&s);

	one_probe(&s, "sh -c 'echo x; echo no such database >&2; exit 3'");
	r = probe_alone(&s, &t, 2, 0);
	is_int(r.runs, 2, "a failing probe runs on");
	is_int(events_with(&s, "exited with status 3: no such database"), 1,
	       "its exit and last stderr line are said once");
	is_double(weight_of(&t, "x"), 0, 0, "what a failed run printed is no label");
	session_free(&s);

	one_probe(&s, "true");
	r = probe_alone(&s, &t, 1, 0);
	is_int(r.clean, 1, "a probe that prints nothing exits cleanly");
	is_int(events_with(&s, "printed no wait label"), 1, "a window without a label is said");
	wait_tally_free(&t);
	session_free(&s);
}

/* The join's question as the engine answers it: TIDs 100 and 101 are the target's, no other. */
static int
fake_threads(void *arg, const pid_t *tids, size_t n, bool *is_target)
{
	size_t i;

	(*(int *)arg)++;
	for (i = 0; i < n; i++)
		is_target[i] = tids[i] == 100 || tids[i] == 101;
	return 0;
}

/* Runs probe 0 for want runs with the fake join; the step's join is s->steps[0].pjoin. */
static struct result
probe_joined(struct session *s, struct wait_tally *t, int want, bool join, int *asked,
	     int max_ticks)
{
	struct drive d = { 0 };
	struct result r;
	char err[256];
	struct loop *l = loop_new(err, sizeof(err));

	if (l == NULL) {
		diag("loop_new: %s", err);
		exit(99);
	}
	d.p = probes_new(s, l);
	if (join)
		probes_set_threads(d.p, fake_threads, asked);
	d.want_runs = want;
	d.max_ticks = max_ticks;
	probes_begin(d.p, 0, t, mono_now_ns());
	drive_run(l, &d);
	probes_end(d.p, mono_now_ns());
	r.runs = probes_runs(d.p, 0);
	r.clean = probes_clean_runs(d.p, 0);
	probes_free(d.p);
	loop_free(l);
	return r;
}

static void
test_tid_lines(void)
{
	struct session s;
	struct wait_tally t;
	struct result r;
	int asked = 0;

	one_probe(&s, "printf '100\tLock:tuple\n101\tCPU\n999\tLock:tuple\nold\n'");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 1, true, &asked, 0);
	is_int(r.clean, 1, "TID lines: one clean run");
	is_int(asked, 1, "the engine is asked once for the run's TIDs");
	is_double(weight_of(&t, "CPU"), PROBE_PERIOD_NS / 1e9, 1e-12,
		  "the window's first run stands for one period: a joined line weighs 1 s");
	is_double(weight_of(&t, "Lock:tuple"), 2 * PROBE_PERIOD_NS / 1e9, 1e-12,
		  "a line whose TID is no target thread weighs the same, kept unjoined");
	is_double(weight_of(&t, "old"), 1, 0, "an old-style line still weighs 1");
	is_int(s.steps[0].pjoin.lines, 3, "the step's join: 3 TID lines");
	is_int(s.steps[0].pjoin.joined, 2, "2 joined");
	is_int(s.steps[0].pjoin.threads, 2, "2 threads");
	is_double(s.steps[0].pjoin.thread_s, 2.0, 1e-12, "2 thread-seconds");
	is_int(events_with(&s, "with a TID that is no thread of --target (999, say)"), 1,
	       "the unjoined line is said once, naming its TID");
	wait_tally_free(&t);
	session_free(&s);

	one_probe(&s, "printf '100\tLock:tuple\n'");
	wait_tally_init(&t);
	asked = 0;
	r = probe_joined(&s, &t, 2, true, &asked, 0);
	is_int(r.clean, 2, "two clean runs");
	ok(weight_of(&t, "Lock:tuple") >= 2 * PROBE_PERIOD_NS / 1e9,
	   "the second stands for the time since the first, at least one period (%g s in all)",
	   weight_of(&t, "Lock:tuple"));
	is_double(s.steps[0].pjoin.thread_s, weight_of(&t, "Lock:tuple"), 1e-12,
		  "all of it joined");
	is_int(s.steps[0].pjoin.threads, 1, "one thread, counted once over the runs");
	is_int(s.nevents, 0, "lines that all join are no event");
	wait_tally_free(&t);
	session_free(&s);

	one_probe(&s, "printf '100\tLock:tuple\n'");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 1, false, &asked, 0);
	is_int(s.steps[0].pjoin.joined, 0, "without a --target no line joins");
	is_int(s.steps[0].pjoin.lines, 1, "but it is counted");
	is_double(weight_of(&t, "Lock:tuple"), 1, 1e-12, "and kept");
	is_int(events_with(&s, "without --target they join no thread"), 1, "and said");
	wait_tally_free(&t);
	session_free(&s);
}

/* A fake client named name in dir, printing text (printf's format) and exiting with status. */
static void
fake_client(const char *dir, const char *name, const char *text, int status)
{
	char path[300], body[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(body, sizeof(body), "#!/bin/sh\nprintf '%s'\nexit %d\n", text, status);
	write_file(path, body);
	if (chmod(path, 0755) != 0)
		diag("chmod %s failed", path);
}

static void
test_presets(void)
{
	char dir[] = "/tmp/scaletop-presets.XXXXXX", path[400];
	const char *old = getenv("PATH");
	char *saved = old != NULL ? strdup(old) : NULL;
	struct session s;
	struct wait_tally t;
	struct result r;
	int asked = 0;

	if (mkdtemp(dir) == NULL) {
		diag("mkdtemp failed");
		exit(99);
	}
	snprintf(path, sizeof(path), "%s:/bin:/usr/bin", dir);
	setenv("PATH", path, 1);
	fake_client(dir, "psql", "#scaletop track_activities=on\n100\tLWLock:WALWrite\n101\tCPU\n",
		    0);
	one_probe(&s, "postgres:host=/nowhere dbname=x");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 1, true, &asked, 0);
	is_int(r.clean, 1, "postgres preset: its client ran cleanly");
	is_double(weight_of(&t, "LWLock:WALWrite"), 1, 1e-12, "its TID lines are joined labels");
	is_double(weight_of(&t, "#scaletop track_activities=on"), 0, 0,
		  "its status line is no label");
	is_int(s.steps[0].pjoin.joined, 2, "both joined");
	is_int(s.nevents, 0, "all on: nothing said");
	wait_tally_free(&t);
	session_free(&s);

	fake_client(dir, "psql", "#scaletop track_activities=off\n", 0);
	one_probe(&s, "postgres");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 2, true, &asked, 0);
	is_int(events_with(&s, "N=4: --probe postgres found track_activities off"), 1,
	       "track_activities off: said once in the step, by the preset's name");
	is_int(events_with(&s, "printed no wait label"), 0,
	       "and not again as a probe with no label");
	wait_tally_free(&t);
	session_free(&s);

	fake_client(dir, "mariadb", "#scaletop performance_schema=0 consumer=NO instruments=0\n",
		    0);
	one_probe(&s, "mariadb:--socket=/nowhere --user=root");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 2, true, &asked, 0);
	is_int(r.clean, 2, "mariadb preset: two runs");
	is_int(events_with(&s, "found performance_schema OFF: start mariadbd with "
			       "--performance-schema=ON (my.cnf: performance_schema=ON), "
			       "--performance-schema-consumer-events-waits-current=ON and "
			       "--performance-schema-instrument='wait/synch/%=ON'"),
	       1, "performance_schema OFF: one event, whole, saying how to turn it all on");
	wait_tally_free(&t);
	session_free(&s);

	fake_client(dir, "mariadb",
		    "#scaletop performance_schema=1 consumer=YES instruments=0\n7\tCPU\n", 0);
	one_probe(&s, "mariadb");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, 1, true, &asked, 0);
	is_int(events_with(&s, "found no wait/synch instrument on"), 1,
	       "no wait/synch instrument on: that is said");
	is_double(weight_of(&t, "CPU"), 1, 1e-12, "and the lines it printed still count");
	wait_tally_free(&t);
	session_free(&s);

	snprintf(path, sizeof(path), "%s/none", dir);
	setenv("PATH", path, 1);
	one_probe(&s, "postgres");
	wait_tally_init(&t);
	r = probe_joined(&s, &t, INT_MAX, true, &asked, 25);
	is_int(events_with(&s, "--probe postgres cannot start: psql: command not found in PATH"), 1,
	       "a preset whose client is missing says so once, and the step goes on");
	wait_tally_free(&t);
	session_free(&s);

	if (saved != NULL)
		setenv("PATH", saved, 1);
	free(saved);
	remove_tree(dir);
}

static void
no_end(void *arg, enum step_status status, const char *reason)
{
	(void)arg;
	(void)status;
	(void)reason;
}

static const struct step_kind quiet_kind = { .name = "quiet", .per_worker = true };

/* The collector table's waits and probes alone, in its order, into cfg. */
static void
probe_collectors(struct sweep_config *cfg, const struct collector **v)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < ncollectors; i++) {
		if (strcmp(collectors[i]->key, "waits") == 0 ||
		    strcmp(collectors[i]->key, "probe_join") == 0)
			v[cfg->ncollectors++] = collectors[i];
	}
	cfg->collectors = v;
}

/* The step context opens the probes with its window and closes them into the step's shares. */
static void
test_step_window(void)
{
	const struct collector *table[COLLECTORS_MAX];
	struct sweep_config cfg;
	struct sweep_live live;
	struct step_ctx c;
	struct session s;
	struct drive d = { 0 };
	struct step *st;
	char err[256];
	struct loop *l = loop_new(err, sizeof(err));

	one_probe(&s, "printf 'Lock:tuple\\nCPU\\nLock:tuple\\n'");
	s.set.duration_s = 2;
	s.set.interval_s = 0.05;
	memset(&live, 0, sizeof(live));
	step_ctx_init(&c);
	probe_collectors(&cfg, table);
	is_int(cfg.ncollectors, 2, "the table has the waits and the probes");
	c.cfg = &cfg;
	c.s = &s;
	c.loop = l;
	c.live = &live;
	c.end = no_end;
	step_ctx_begin(&c, &quiet_kind, 0, 4, mono_now_ns());
	step_ctx_window_begin(&c, mono_now_ns(), 0, 0, 0);
	ok(c.probes != NULL, "the window's start makes the probes");
	d.c = &c;
	d.want_runs = 2;
	drive_run(l, &d);
	step_ctx_window_end(&c, mono_now_ns(), 0, 0, 0);
	st = &s.steps[0];
	ok(wait_has_family(st->waits, st->nwaits, WAIT_PROBE), "the step has probe shares");
	is_double(wait_share_of(st->waits, st->nwaits, WAIT_PROBE, WS_REPORTED, "Lock:tuple"),
		  2.0 / 3, 1e-12, "Lock:tuple is two labels in three");
	is_double(wait_share_of(st->waits, st->nwaits, WAIT_PROBE, WS_REPORTED, "CPU"), 1.0 / 3,
		  1e-12, "CPU one in three");
	is_int(probes_running_pid(c.probes, 0), -1, "nothing runs once the window is closed");
	is_int(s.nevents, 0, "and nothing was said");
	step_ctx_free(&c);
	free(live.waits); /* the live profile is the sweep's to free; here the test is the sweep */
	loop_free(l);
	session_free(&s);
}

int
main(void)
{
	/* A probe's pipe closed under it must not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	test_labels();
	test_hang();
	test_cap();
	test_failures();
	test_tid_lines();
	test_presets();
	test_step_window();
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Snapshots: a session saved and loaded back equal, field by field and
 * null by null; every refusal of the loader with its message; the atomic
 * writer's failures (no overwrite, EACCES, ENOSPC) leaving the old file
 * intact; and the CSV import.
 */
#define _GNU_SOURCE /* unshare, for the ENOSPC test in a private mount namespace */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mount.h>
#endif

#include "scaletop/platform.h"
#include "scaletop/session_json.h"
#include "scaletop/report.h"
#include "../tap.h"

static char tmpdir[256];

/* --- a session with every kind of figure ---------------------------------- */

static void
fill_cpu(struct cpu_usage *u, int id, double usr, double sys, unsigned flags)
{
	memset(u, 0, sizeof(*u));
	u->id = id;
	u->flags = flags;
	if (flags & CPU_USAGE_NO_DATA)
		return;
	u->pct[CPU_USER] = usr;
	u->pct[CPU_SYS] = sys;
	u->pct[CPU_IDLE] = round((100.0 - usr - sys) * 100) / 100;
	u->busy = round((usr + sys) * 100) / 100;
}

static struct step *
add_step(struct session *s, int n, int rep, double base, int niv)
{
	struct step *st = session_add_step(s, n, rep);
	int i;

	for (i = 0; i < niv; i++)
		step_add_interval(st, base * (1.0 + 0.013 * i) / 3.0);
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	st->status = STEP_OK;
	st->start_s = 1.0 / 3.0 + n;
	st->warmup_s = 0.2500001 * n;
	st->window_s = 0.6 + 1e-7 * n;
	st->ops = (uint64_t)(base * st->window_s);
	st->ops_s = (double)st->ops / st->window_s;
	st->ncpu = 3;
	st->cpu = calloc(3, sizeof(*st->cpu));
	fill_cpu(&st->all, -1, 33.33, 12.07, 0);
	fill_cpu(&st->cpu[0], 0, 51.52, 48.48, 0);
	fill_cpu(&st->cpu[1], 2, 0, 0, CPU_USAGE_OFFLINE);
	fill_cpu(&st->cpu[2], 5, 10.01, 1.5, CPU_USAGE_BACKWARDS);
	st->ct.vcsw_s = 97.99857 * n;
	st->ct.ivcsw_s = 4.0 / 3.0;
	st->ct.vcsw_kop = 0.1705653021;
	st->ct.ivcsw_kop = 1e-9;
	st->ct.run_delay_pct = 0.5377711797;
	st->ct.kernel_pct = 100.0 / 7.0;
	st->ct.cpu_used = 0.9999854582 * n;
	st->ct.ops_per_cpu_s = 574560.0;
	st->ct.sys_ctxsw_s = 525.9895907;
	st->ct.psi_some_pct = 1.104778136;
	st->ct.lock_wait_pct = 42.0;
	st->ct.have = CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_RUN_DELAY | CT_HAVE_KERNEL |
		      CT_HAVE_OPS_CPU | CT_HAVE_SYS_CTXSW | CT_HAVE_PSI | CT_HAVE_LOCK_WAIT;
	return st;
}

static void
add_ticks(struct session *s)
{
	float busy[6];
	struct tick t;
	int i, k;

	session_start_series(s, 6, 8);
	for (i = 0; i < 11; i++) { /* 11 into a ring of 8: 3 dropped */
		t.t = 0.25 * i + 1e-6 / 3;
		t.step = i < 2 ? -1 : i % 3;
		t.phase = i % 6;
		t.rate = i == 4 ? NAN : 1000.0 / 3 * i;
		t.busy_all = i == 5 ? NAN : (float)(round(100 * 97.0 / (i + 1)) / 100);
		for (k = 0; k < 6; k++)
			busy[k] = k == 3 ? NAN : (float)(round(100 * (12.34 * k + i)) / 100);
		series_add(&s->ticks, &t, busy);
	}
}

static void
make_session(struct session *s)
{
	struct step *st;
	int n[] = { 1, 2, 3, 4, 6, 8 };

	session_init(s);
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	snprintf(s->host.os_release, sizeof(s->host.os_release), "6.1.0-18-amd64");
	snprintf(s->host.os_version, sizeof(s->host.os_version), "#1 SMP \"quoted\" \\ build");
	snprintf(s->host.platform, sizeof(s->host.platform), "x86_64");
	snprintf(s->host.hostname, sizeof(s->host.hostname), "héte");
	snprintf(s->host.cpu_model, sizeof(s->host.cpu_model), "Intel(R) Xeon(R)");
	s->host.ncpus = 6;
	s->host.mem_total = 25276502016ULL;
	snprintf(s->sampler_note, sizeof(s->sampler_note), "per-CPU data: 3 of 6");
	snprintf(s->wl.name, sizeof(s->wl.name), "external");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "events");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "clients");
	snprintf(s->wl.key[0], sizeof(s->wl.key[0]), "work");
	snprintf(s->wl.value[0], sizeof(s->wl.value[0]), "1000");
	snprintf(s->wl.key[1], sizeof(s->wl.key[1]), "dir");
	snprintf(s->wl.value[1], sizeof(s->wl.value[1]), "/tmp/a b");
	s->wl.nparams = 2;
	s->wl.argv = calloc(4, sizeof(char *));
	s->wl.argv[0] = strdup("sysbench");
	s->wl.argv[1] = strdup("--threads={n}");
	s->wl.argv[2] = strdup("run");
	snprintf(s->wl.parser, sizeof(s->wl.parser), "sysbench");
	s->set.n = malloc(sizeof(n));
	memcpy(s->set.n, n, sizeof(n));
	s->set.nn = 6;
	s->set.duration_s = 0.6;
	s->set.warmup_s = 0.2;
	s->set.stable_pct = 2.5;
	s->set.min_measure_s = 2;
	s->set.interval_s = 0.1;
	s->set.repeat = 2;
	s->set.trials = 3;
	s->set.stall_s = 10;
	s->set.stop_on_failure = true;
	s->set.mode = MODE_PROCESSES;
	snprintf(s->set.target[0], TARGET_SPEC_LEN, "comm:postgres");
	s->set.ntargets = 1;
	snprintf(s->started_utc, sizeof(s->started_utc), "2026-11-29T23:21:35Z");
	st = add_step(s, 1, 0, 574551.6449, 6);
	st->fair = (struct fairness){ .have = true,
				      .workers = 1,
				      .min = 3447309,
				      .median = 3447309,
				      .max = 3447309,
				      .jain = 1 };
	/* A target and a wait profile whose shares have every digit a double has. */
	st->tg = (struct target_figures){ .present = true,
					  .procs = 3,
					  .threads = 41,
					  .cpu_used = 1.0 / 3.0,
					  .user_cpu = 0.2,
					  .sys_cpu = 1.0 / 3.0 - 0.2,
					  .machine_pct = 100.0 / 18.0,
					  .ops_per_cpu_s = 574551.6449 / 3,
					  .have = TG_HAVE_CPU | TG_HAVE_OPS_CPU };
	st->waits = calloc(3, sizeof(*st->waits));
	st->nwaits = 3;
	st->waits[0] =
		(struct wait_share){ WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 2.0 / 3.0, 40 };
	st->waits[1] = (struct wait_share){ WAIT_TARGET, WS_RUNNABLE, "", 1.0 / 3.0, 12 };
	st->waits[2] = (struct wait_share){ WAIT_PROBE, WS_REPORTED, "LWLock:WALWrite", 1, 0 };
	st->ct.threads = 7;
	st->ct.have |= CT_HAVE_THREADS;
	st = add_step(s, 1, 1, 580000.1, 1); /* one sample: no spread */
	st->trial = 2;
	/* Not what such a step would count: only the file's handling of a null index is tested. */
	st->fair = (struct fairness){ .have = true, .workers = 1, .jain = NAN, .starved = 1 };
	st = add_step(s, 2, 0, 1098765.4321, 5);
	st->fair = (struct fairness){ .have = true,
				      .workers = 2,
				      .min = 0,
				      .median = 3296296.5,
				      .max = 6592593,
				      .jain = 0.5,
				      .starved = 1 };
	st = add_step(s, 3, 0, 1500000, 4);
	st->status = STEP_UNSTABLE;
	snprintf(st->reason, sizeof(st->reason), "CI 7%% of the mean");
	st = add_step(s, 4, 0, 1700000, 4);
	st->ct.have &= ~(CT_HAVE_RUN_DELAY | CT_HAVE_LOCK_WAIT | CT_HAVE_PSI);
	st->ct.run_delay_pct = st->ct.lock_wait_pct = st->ct.psi_some_pct = 0;
	add_step(s, 6, 0, 1600000, 4);
	st = add_step(s, 8, 0, 700000, 0); /* failed: no figures */
	st->status = STEP_FAILED;
	st->ops_s = 0;
	st->no_intervals = true;
	snprintf(st->reason, sizeof(st->reason), "exited with status 1: \033[31mred\033[0m");
	free(st->cpu);
	st->cpu = NULL;
	st->ncpu = 0;
	memset(&st->all, 0, sizeof(st->all));
	st->all.id = -1;
	memset(&st->ct, 0, sizeof(st->ct));
	session_add_event(s, 0, EV_STEP, 1.25, "N=1: 575k ops/s (ok)");
	session_add_event(s, 3, EV_UNSTABLE, 7.5, "N=3 unstable");
	session_add_event(s, -1, EV_WARNING, 0.0, "a \"warning\" with\na newline");
	session_add_event(s, 6, EV_FAILURE, 9.0, "N=8 failed");
	add_ticks(s);
}

/* --- equality, field by field --------------------------------------------- */

static int diffs;

static void
differ(const char *what)
{
	if (diffs++ < 5)
		diag("  differs: %s", what);
}

/* Equal doubles, NaN equal to NaN: a null that loads back as null. */
static void
same_d(double a, double b, const char *what)
{
	if (!(a == b || (isnan(a) && isnan(b))) || signbit(a) != signbit(b))
		differ(what);
}

static void
same_s(const char *a, const char *b, const char *what)
{
	if (strcmp(a, b) != 0)
		differ(what);
}

static void
same_i(long long a, long long b, const char *what)
{
	if (a != b)
		differ(what);
}

static void
same_cpu(const struct cpu_usage *a, const struct cpu_usage *b)
{
	int i;

	same_i(a->id, b->id, "cpu id");
	same_i(a->flags, b->flags, "cpu flags");
	for (i = 0; i < CPU_NSTATES; i++)
		same_d(a->pct[i], b->pct[i], cpu_state_names[i]);
	same_d(a->busy, b->busy, "cpu busy");
}

static void
same_step(const struct step *a, const struct step *b)
{
	int i;

	same_i(a->n, b->n, "n");
	same_i(a->rep, b->rep, "rep");
	same_i(a->trial, b->trial, "trial");
	same_i(a->status, b->status, "status");
	same_s(a->reason, b->reason, "reason");
	same_d(a->start_s, b->start_s, "start_s");
	same_d(a->warmup_s, b->warmup_s, "warmup_s");
	same_d(a->window_s, b->window_s, "window_s");
	same_i((long long)a->ops, (long long)b->ops, "ops");
	same_d(a->ops_s, b->ops_s, "ops_s");
	same_i(a->no_intervals, b->no_intervals, "no_intervals");
	same_i(a->niv, b->niv, "niv");
	for (i = 0; i < a->niv && i < b->niv; i++)
		same_d(a->iv[i], b->iv[i], "interval sample");
	same_i((long long)a->st.n, (long long)b->st.n, "stats n");
	same_d(a->st.mean, b->st.mean, "mean");
	same_d(a->st.median, b->st.median, "median");
	same_d(a->st.min, b->st.min, "min");
	same_d(a->st.max, b->st.max, "max");
	same_d(a->st.stddev, b->st.stddev, "stddev");
	same_d(a->st.ci95, b->st.ci95, "ci95");
	same_d(a->st.ci95_ac, b->st.ci95_ac, "ci95_ac");
	same_i(a->st.have_spread, b->st.have_spread, "have_spread");
	same_cpu(&a->all, &b->all);
	same_i(a->ncpu, b->ncpu, "ncpu");
	for (i = 0; i < a->ncpu && i < b->ncpu; i++)
		same_cpu(&a->cpu[i], &b->cpu[i]);
	same_i(a->ct.have, b->ct.have, "contention have");
	same_d(a->ct.vcsw_s, b->ct.vcsw_s, "vcsw_s");
	same_d(a->ct.ivcsw_s, b->ct.ivcsw_s, "ivcsw_s");
	same_d(a->ct.vcsw_kop, b->ct.vcsw_kop, "vcsw_kop");
	same_d(a->ct.ivcsw_kop, b->ct.ivcsw_kop, "ivcsw_kop");
	same_d(a->ct.run_delay_pct, b->ct.run_delay_pct, "run_delay_pct");
	same_d(a->ct.kernel_pct, b->ct.kernel_pct, "kernel_pct");
	same_d(a->ct.cpu_used, b->ct.cpu_used, "cpu_used");
	same_d(a->ct.ops_per_cpu_s, b->ct.ops_per_cpu_s, "ops_per_cpu_s");
	same_d(a->ct.sys_ctxsw_s, b->ct.sys_ctxsw_s, "sys_ctxsw_s");
	same_d(a->ct.psi_some_pct, b->ct.psi_some_pct, "psi_some_pct");
	same_d(a->ct.lock_wait_pct, b->ct.lock_wait_pct, "lock_wait_pct");
	same_i(a->fair.have, b->fair.have, "fairness have");
	same_i(a->fair.workers, b->fair.workers, "fairness workers");
	same_i((long long)a->fair.min, (long long)b->fair.min, "fairness min");
	same_d(a->fair.median, b->fair.median, "fairness median");
	same_i((long long)a->fair.max, (long long)b->fair.max, "fairness max");
	same_d(a->fair.jain, b->fair.jain, "fairness jain");
	same_i(a->fair.starved, b->fair.starved, "fairness starved");
	same_i(a->ct.threads, b->ct.threads, "contention threads");
	same_i(a->tg.present, b->tg.present, "target present");
	same_i(a->tg.procs, b->tg.procs, "target procs");
	same_i(a->tg.threads, b->tg.threads, "target threads");
	same_i(a->tg.have, b->tg.have, "target have");
	same_d(a->tg.cpu_used, b->tg.cpu_used, "target cpu_used");
	same_d(a->tg.user_cpu, b->tg.user_cpu, "target user_cpu");
	same_d(a->tg.sys_cpu, b->tg.sys_cpu, "target sys_cpu");
	same_d(a->tg.machine_pct, b->tg.machine_pct, "target machine_pct");
	same_d(a->tg.ops_per_cpu_s, b->tg.ops_per_cpu_s, "target ops_per_cpu_s");
	same_i(a->nwaits, b->nwaits, "nwaits");
	for (i = 0; i < a->nwaits && i < b->nwaits; i++) {
		same_i(a->waits[i].family, b->waits[i].family, "wait family");
		same_i(a->waits[i].state, b->waits[i].state, "wait state");
		same_s(a->waits[i].channel, b->waits[i].channel, "wait channel");
		same_d(a->waits[i].share, b->waits[i].share, "wait share");
		same_i(a->waits[i].readings, b->waits[i].readings, "wait readings");
	}
}

static void
same_header(const struct session *a, const struct session *b)
{
	int i;

	same_s(a->host.os_name, b->host.os_name, "os_name");
	same_s(a->host.os_release, b->host.os_release, "os_release");
	same_s(a->host.os_version, b->host.os_version, "os_version");
	same_s(a->host.platform, b->host.platform, "platform");
	same_s(a->host.hostname, b->host.hostname, "hostname");
	same_s(a->host.cpu_model, b->host.cpu_model, "cpu_model");
	same_i(a->host.ncpus, b->host.ncpus, "ncpus");
	same_i((long long)a->host.mem_total, (long long)b->host.mem_total, "mem_total");
	same_s(a->sampler_note, b->sampler_note, "sampler_note");
	same_s(a->started_utc, b->started_utc, "started_utc");
	same_s(a->wl.name, b->wl.name, "workload name");
	same_s(a->wl.unit, b->wl.unit, "unit");
	same_s(a->wl.n_unit, b->wl.n_unit, "n_unit");
	same_s(a->wl.parser, b->wl.parser, "parser");
	same_i(a->wl.nparams, b->wl.nparams, "nparams");
	for (i = 0; i < a->wl.nparams && i < b->wl.nparams; i++) {
		same_s(a->wl.key[i], b->wl.key[i], "param key");
		same_s(a->wl.value[i], b->wl.value[i], "param value");
	}
	same_i(a->wl.argv == NULL, b->wl.argv == NULL, "argv presence");
	for (i = 0; a->wl.argv && b->wl.argv && (a->wl.argv[i] || b->wl.argv[i]); i++)
		same_s(a->wl.argv[i] ? a->wl.argv[i] : "", b->wl.argv[i] ? b->wl.argv[i] : "",
		       "argv");
	same_i(a->set.nn, b->set.nn, "nn");
	for (i = 0; i < a->set.nn && i < b->set.nn; i++)
		same_i(a->set.n[i], b->set.n[i], "settings n");
	same_d(a->set.duration_s, b->set.duration_s, "duration_s");
	same_d(a->set.warmup_s, b->set.warmup_s, "settings warmup_s");
	same_d(a->set.stable_pct, b->set.stable_pct, "stable_pct");
	same_d(a->set.min_measure_s, b->set.min_measure_s, "min_measure_s");
	same_d(a->set.interval_s, b->set.interval_s, "interval_s");
	same_i(a->set.repeat, b->set.repeat, "repeat");
	same_i(a->set.trials, b->set.trials, "trials");
	same_d(a->set.stall_s, b->set.stall_s, "stall_s");
	same_i(a->set.stop_on_failure, b->set.stop_on_failure, "stop_on_failure");
	same_i(a->set.mode, b->set.mode, "mode");
	same_i(a->set.ntargets, b->set.ntargets, "ntargets");
	for (i = 0; i < a->set.ntargets && i < b->set.ntargets; i++)
		same_s(a->set.target[i], b->set.target[i], "target spec");
	same_i(a->set.nprobes, b->set.nprobes, "nprobes");
}

static void
same_series(const struct series *a, const struct series *b)
{
	const struct tick *x, *y;
	int i, k;

	same_i(series_len(a), series_len(b), "ticks held");
	same_i(a->count, b->count, "ticks ever added");
	same_i(a->ncpu, b->ncpu, "series ncpu");
	for (i = 0; i < series_len(a) && i < series_len(b); i++) {
		x = series_at(a, i);
		y = series_at(b, i);
		same_d(x->t, y->t, "tick t");
		same_i(x->step, y->step, "tick step");
		same_i(x->phase, y->phase, "tick phase");
		same_d(x->rate, y->rate, "tick rate");
		same_d(x->busy_all, y->busy_all, "tick busy_all");
		for (k = 0; k < a->ncpu && k < b->ncpu; k++)
			same_d(x->busy[k], y->busy[k], "tick busy");
	}
}

static int
session_diffs(const struct session *a, const struct session *b)
{
	int i;

	diffs = 0;
	same_header(a, b);
	same_i(a->nsteps, b->nsteps, "nsteps");
	for (i = 0; i < a->nsteps && i < b->nsteps; i++)
		same_step(&a->steps[i], &b->steps[i]);
	same_i(a->nevents, b->nevents, "nevents");
	for (i = 0; i < a->nevents && i < b->nevents; i++) {
		same_d(a->events[i].t, b->events[i].t, "event t");
		same_i(a->events[i].step, b->events[i].step, "event step");
		same_i(a->events[i].kind, b->events[i].kind, "event kind");
		same_s(a->events[i].text, b->events[i].text, "event text");
	}
	same_series(&a->ticks, &b->ticks);
	return diffs;
}

/* --- helpers ---------------------------------------------------------------- */

static char *
slurp(const char *path, size_t *len)
{
	char *buf = NULL, err[ST_ERRLEN];

	if (snapshot_file_read(path, &buf, len, err, sizeof(err)) != 0) {
		diag("%s", err);
		*len = 0;
	}
	return buf;
}

static void
spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static const char *
tpath(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

/* Files in dir whose name starts with '.': the writer's temp files. */
static int
count_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d != NULL)
		closedir(d);
	return n;
}

/* --- round trip --------------------------------------------------------------- */

static void
test_round_trip(void)
{
	struct session s;
	struct snapshot snap;
	char err[ST_ERRLEN] = "";
	char *a, *b;
	size_t la, lb;

	make_session(&s);
	ok(snapshot_save(tpath("rt.json"), &s, NULL, false, err, sizeof(err)) == 0,
	   "round trip: saved (%s)", err);
	ok(snapshot_load(tpath("rt.json"), &snap, err, sizeof(err)) == 0, "round trip: loaded (%s)",
	   err);
	is_int(session_diffs(&s, &snap.s), 0, "round trip: every field, figure and null equal");
	is_str(snap.warning, "", "round trip: the saved analysis agrees with the recomputed");
	is_str(snap.meta.tool_name, "scaletop", "round trip: the tool is named");
	ok(snap.now.npoints == 5 && snap.now.n_peak == 4,
	   "round trip: analysis of the loaded "
	   "steps (peak at N=%d of %d points)",
	   snap.now.n_peak, snap.now.npoints);
	ok(snapshot_save(tpath("rt2.json"), &snap.s, &snap.meta, false, err, sizeof(err)) == 0,
	   "round trip: the loaded session saves again");
	a = slurp(tpath("rt.json"), &la);
	b = slurp(tpath("rt2.json"), &lb);
	ok(la == lb && la > 0 && memcmp(a, b, la) == 0, "round trip: saved again, byte for byte "
							"the same file");
	ok(strstr(a, "nan") == NULL && strstr(a, "NaN") == NULL && strstr(a, "inf") == NULL,
	   "no NaN or Inf is written");
	ok(strstr(a, "\"dropped\": 3,\n    \"ticks\": [\n      [0.7500003333333334, 0, "
		     "\"measuring\", 1000.0, 24.25, [3.0, 15.34, 27.68, null, 52.36, 64.7]],\n") !=
		   NULL,
	   "ticks are compact rows, the oldest first; a missing figure is null");
	free(a);
	free(b);
	snapshot_free(&snap);
	session_free(&s);
}

/*
 * A snapshot written before ci95_ac existed: the reader computes it from
 * the samples, as stats_compute would have.
 */
static void
test_old_without_ci95_ac(void)
{
	struct snapshot snap;
	struct stats fresh;
	char err[ST_ERRLEN] = "";
	int i, same = 0, widened = 0, usable = 0;

	if (!ok(snapshot_load(fixture_path("snapshots/mutex-linux.json"), &snap, err,
			      sizeof(err)) == 0,
		"old file: loads (%s)", err))
		return;
	for (i = 0; i < snap.s.nsteps; i++) {
		const struct step *st = &snap.s.steps[i];

		if (!st->st.have_spread || st->niv < 2)
			continue;
		usable++;
		stats_compute(&fresh, st->iv, (size_t)st->niv);
		same += fabs(st->st.ci95_ac - fresh.ci95_ac) <= 1e-6 * fresh.ci95_ac;
		widened += st->st.ci95_ac >= st->st.ci95;
	}
	ok(usable >= 3, "old file: %d steps with samples", usable);
	is_int(same, usable, "old file: ci95_ac recomputed from each step's samples");
	is_int(widened, usable, "old file: never below ci95");
	for (i = 0, usable = 0; i < snap.s.nsteps; i++)
		usable += snap.s.steps[i].fair.have;
	is_int(usable, 0, "old file: no fairness member, so no step claims one");
	snapshot_free(&snap);
}

/*
 * A file written before the USL terms had only contention_bound (sigma >
 * kappa).  It still loads, and the terms are derived from the saved sigma
 * and kappa at the largest analysed N: here sigma 0.05 > kappa 0.02, yet at
 * N 4 coherency's 4 kappa is the larger, so the old flag is not carried over.
 */
static void
test_old_usl_terms(void)
{
	struct snapshot snap;
	char err[ST_ERRLEN] = "", *buf, *text;
	size_t len;
	json_t *root, *usl;

	if (snapshot_file_read(fixture_path("snapshots/cpu-linux.json"), &buf, &len, err,
			       sizeof(err)) != 0) {
		ok(0, "old USL: fixture read (%s)", err);
		return;
	}
	root = json_loadb(buf, len, 0, NULL);
	free(buf);
	usl = json_object_get(json_object_get(root, "analysis"), "usl");
	ok(usl != NULL && json_object_get(usl, "bound_measured") == NULL &&
		   json_is_true(json_object_get(usl, "contention_bound")),
	   "old USL: the fixture has contention_bound only");
	json_object_set_new(usl, "sigma", json_real(0.05));
	json_object_set_new(usl, "kappa", json_real(0.02));
	json_object_set_new(usl, "n_star", json_real(sqrt(0.95 / 0.02)));
	text = json_dumps(root, 0);
	json_decref(root);
	if (!ok(snapshot_read(text, strlen(text), "old.json", &snap, err, sizeof(err)) == 0,
		"old USL: a file without the terms loads (%s)", err)) {
		free(text);
		return;
	}
	free(text);
	ok(snap.saved.usl.n_max == 4 && snap.saved.usl.bound_measured == USL_TERM_COHERENCY,
	   "old USL: the term at N 4 is derived: coherency, whatever contention_bound said");
	ok(snap.saved.usl.bound_at_peak == USL_TERM_COHERENCY && snap.saved.usl.n_cross == 2.5 &&
		   !snap.saved.usl.n_star_extrapolated,
	   "old USL: at N* 6.9 coherency too; the terms cross at 2.5; N* < 8 is not far");
	snapshot_free(&snap);
}

/* Figures the model leaves NaN are null in the file and NaN again once loaded. */
static void
test_nulls(void)
{
	struct session s;
	struct snapshot snap;
	char err[ST_ERRLEN] = "";
	json_t *j;

	make_session(&s);
	s.steps[2].ct.kernel_pct = NAN; /* measured but not a number: null, and its group with it */
	s.events[1].t = NAN;
	s.set.duration_s = NAN;
	j = session_json(&s);
	ok(json_is_null(json_object_get(
		   json_object_get(json_array_get(json_object_get(j, "steps"), 2), "contention"),
		   "kernel_pct")),
	   "NaN figure written as null");
	ok(json_is_null(json_object_get(json_array_get(json_object_get(j, "steps"), 6), "ops_s")),
	   "a failed step's ops/s is null");
	ok(json_is_null(json_object_get(
		   json_object_get(json_array_get(json_object_get(j, "steps"), 1), "intervals"),
		   "stddev")),
	   "one sample: stddev is null");
	json_decref(j);
	s.steps[2].ct.cpu_used = NAN;
	ok(snapshot_save(tpath("nulls.json"), &s, NULL, false, err, sizeof(err)) == 0 &&
		   snapshot_load(tpath("nulls.json"), &snap, err, sizeof(err)) == 0,
	   "NaNs: saved and "
	   "loaded (%s)",
	   err);
	ok(isnan(snap.s.events[1].t) && isnan(snap.s.set.duration_s), "NaNs: null loads as NaN");
	ok(!(snap.s.steps[2].ct.have & CT_HAVE_KERNEL), "NaNs: a null group loads as not measured");
	snapshot_free(&snap);
	session_free(&s);
}

/* --- the loader's refusals ------------------------------------------------------ */

static char *good_text;
static size_t good_len;

static void
rejects(const char *text, size_t len, const char *want, const char *name)
{
	char err[ST_ERRLEN] = "";
	struct session s;
	int rc = snapshot_parse(text, len, "x.json", &s, err, sizeof(err));

	session_free(&s);
	if (!ok(rc == -1 && strcmp(err, want) == 0, "rejects %s", name)) {
		diag("  got:  %s", err);
		diag("  want: %s", want);
	}
	ok(strchr(err, '\n') == NULL, "  in one line");
}

/* The good snapshot with one member changed, by a path like "steps.0.ops_s"; malloc'd. */
static char *
edited(const char *path, json_t *val)
{
	json_t *root = json_loadb(good_text, good_len, 0, NULL), *obj = root;
	char buf[256], *tok, *save, *next;
	char *text;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok != NULL; tok = next) {
		next = strtok_r(NULL, ".", &save);
		if (next == NULL)
			break;
		obj = json_is_array(obj) ? json_array_get(obj, (size_t)atoi(tok))
					 : json_object_get(obj, tok);
	}
	if (val == NULL)
		json_object_del(obj, tok);
	else if (json_is_array(obj))
		json_array_set_new(obj, (size_t)atoi(tok), val);
	else
		json_object_set_new(obj, tok, val);
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	return text;
}

/* Changes one member of the good snapshot, by a path like "steps.0.ops_s", and checks. */
static void
rejects_edit(const char *path, json_t *val, const char *want, const char *name)
{
	char *text = edited(path, val);

	rejects(text, strlen(text), want, name);
	free(text);
}

/* The edited snapshot loads, and the edited figure reads within its bounds. */
static void
accepts_edit(const char *path, json_t *val, const char *name)
{
	char err[ST_ERRLEN] = "", *text = edited(path, val);
	struct session s;
	int rc = snapshot_parse(text, strlen(text), "x.json", &s, err, sizeof(err));

	if (!ok(rc == 0, "loads %s", name))
		diag("  got:  %s", err);
	else
		is_double(s.steps[0].cpu[0].pct[CPU_USER], 100.0, 0, "  as the bound");
	session_free(&s);
	free(text);
}

#define TRUNCATED "{\n  \"format\": \"scaletop-snapshot\",\n  \"version\": [1,\n"

static void
test_rejects(void)
{
	struct session s;
	char err[ST_ERRLEN], *big;
	size_t n;

	make_session(&s);
	snapshot_save(tpath("good.json"), &s, NULL, false, err, sizeof(err));
	session_free(&s);
	good_text = slurp(tpath("good.json"), &good_len);
	ok(snapshot_parse(good_text, good_len, "x.json", &s, err, sizeof(err)) == 0,
	   "the good snapshot parses");
	session_free(&s);

	rejects("{\n  \"format\": scaletop\n}\n", 25,
		"x.json:2:20: not JSON: invalid token near "
		"'scaletop'; expected a JSON snapshot",
		"text that is not JSON, with line:column");
	rejects(TRUNCATED, strlen(TRUNCATED),
		"x.json:4:0: truncated: ']' expected near end of file; expected a JSON snapshot",
		"a truncated text, with where it ends");
	rejects("[1, 2]", 6, "x.json: top level: expected an object, got an array",
		"JSON that is not an object");
	rejects_edit("format", json_string("other"),
		     "x.json: format: 'other' is not a scaletop "
		     "snapshot; expected 'scaletop-snapshot'",
		     "another format");
	rejects_edit("version", json_integer(2),
		     "x.json: version: 2 is newer than this scaletop "
		     "reads (1); use a newer scaletop",
		     "an unknown major version");
	rejects_edit("version", json_string("1"),
		     "x.json: version: expected an integer, got a "
		     "string",
		     "a version that is a string");
	rejects_edit("host", NULL, "x.json: host: missing; expected an object",
		     "a missing required object");
	rejects_edit("steps.2.ops_s", json_string("fast"),
		     "x.json: steps[2].ops_s: expected a "
		     "number or null, got a string",
		     "a wrong type, by its path");
	rejects_edit("steps.0.intervals.count", NULL,
		     "x.json: steps[0].intervals.count: missing; "
		     "expected an integer",
		     "a missing required figure");
	rejects_edit("host.ncpus", json_integer(-3),
		     "x.json: host.ncpus: -3 is out of range; "
		     "expected an integer from 0 to 65536",
		     "a negative CPU count");
	rejects_edit("steps.0.cpu.per_cpu.0.usr", json_real(150.5),
		     "x.json: "
		     "steps[0].cpu.per_cpu[0].usr: 150.5 is out of range; expected a number from "
		     "0 to 100",
		     "a percentage over 100");
	rejects_edit("steps.0.cpu.per_cpu.0.usr", json_real(100.0000001),
		     "x.json: "
		     "steps[0].cpu.per_cpu[0].usr: 100 is out of range; expected a number from "
		     "0 to 100",
		     "a percentage over 100 by more than rounding");
	accepts_edit("steps.0.cpu.per_cpu.0.usr", json_real(nextafter(100.0, 200.0)),
		     "a percentage one ulp over 100 (a ratio of equal sums) is read as 100");
	rejects_edit("settings.n.1", json_integer(1),
		     "x.json: settings.n[1]: 1 after 1; expected "
		     "ascending values",
		     "an N list out of order");
	rejects_edit("events.0.step", json_integer(-1),
		     "x.json: events[0].step: -1 is out of "
		     "range; expected an integer from 0 to 2147483647",
		     "an event of a negative step");
	rejects_edit("series.ticks.0.1", json_integer(-3),
		     "x.json: series.ticks[0][1]: step -3 is negative; expected 0 to 6 or null",
		     "a tick of a negative step");
	rejects_edit("steps.0.status", json_string("great"),
		     "x.json: steps[0].status: 'great' is "
		     "not known; expected one of running, ok, unstable, failed, interrupted",
		     "an unknown status");
	rejects_edit("steps.0.intervals.samples.0", json_null(),
		     "x.json: "
		     "steps[0].intervals.samples[0]: expected a number, got null",
		     "a null sample");
	rejects_edit("steps.0.intervals.count", json_integer(7),
		     "x.json: "
		     "steps[0].intervals.samples: 6 samples, but count is 7; expected as many",
		     "a sample count that does not match");
	rejects_edit("steps.0.contention.ivcsw_s", json_null(),
		     "x.json: "
		     "steps[0].contention.ivcsw_s: null; expected the same as the figures measured "
		     "with it (numbers)",
		     "half of a contention group");
	rejects_edit("taken", json_string("yesterday"),
		     "x.json: taken: 'yesterday' is not a UTC "
		     "time; expected ISO-8601 such as 2026-01-31T12:00:00Z",
		     "a time that is not "
		     "ISO-8601");
	rejects_edit("series.ticks.0", json_pack("[f, n, s, n, n]", 1.0, "warm-up"),
		     "x.json: "
		     "series.ticks[0]: 5 elements; expected 6 (t, step, phase, rate, busy_all, "
		     "busy)",
		     "a tick without its per-CPU part");
	rejects_edit("steps.0.fairness.jain", json_real(1.5),
		     "x.json: steps[0].fairness.jain: 1.5 "
		     "is out of range; expected a number from 0 to 1",
		     "a Jain index over 1");
	rejects_edit("steps.2.fairness.starved", json_integer(0),
		     "x.json: steps[2].fairness: "
		     "starved 0 does not fit min 0",
		     "starved workers that do not match min");
	rejects_edit("steps.2.fairness.median", json_real(1e9),
		     "x.json: steps[2].fairness: min 0, "
		     "median 1e+09 and max 6592593 are not in order",
		     "a median above the max");
	rejects_edit("steps.2.fairness", json_string("fair"),
		     "x.json: steps[2].fairness: expected "
		     "an object, got a string",
		     "fairness of the wrong shape");
	rejects_edit("analysis.usl", json_string("good"),
		     "x.json: analysis.usl: expected an "
		     "object, got a string",
		     "a saved analysis of the wrong shape");

	/* Over the cap: refused before a byte is parsed. */
	n = SNAPSHOT_MAX_BYTES + 1;
	big = malloc(n);
	memset(big, ' ', n);
	rejects(big, n,
		"x.json: top level: 67108865 bytes is over the 64 MiB a snapshot may have; "
		"not a snapshot, or a damaged one",
		"a buffer over the size cap");
	free(big);
}

static void
test_rejects_files(void)
{
	struct snapshot snap;
	char err[ST_ERRLEN] = "";
	char want[600];
	int fd;

	/* A truncated file says where it ends and that it is truncated. */
	fd = open(tpath("cut.json"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (write(fd, good_text, 100) != 100)
		diag("short write");
	close(fd);
	ok(snapshot_load(tpath("cut.json"), &snap, err, sizeof(err)) == -1 &&
		   strstr(err, "cut.json:") == err + strlen(tmpdir) + 1 &&
		   strstr(err, ": truncated: ") && strstr(err, "expected a JSON snapshot"),
	   "a truncated file: '%s'", err);
	snapshot_free(&snap);

	/* A sparse file over the cap is refused from its size, unread. */
	fd = open(tpath("huge.json"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(ftruncate(fd, (off_t)SNAPSHOT_MAX_BYTES + 4096) == 0, "a 64 MiB + 4 KiB sparse file");
	close(fd);
	snprintf(want, sizeof(want),
		 "%s: over the 64 MiB a snapshot may have; not a snapshot, or "
		 "a damaged one",
		 tpath("huge.json"));
	ok(snapshot_load(tpath("huge.json"), &snap, err, sizeof(err)) == -1 &&
		   strcmp(err, want) == 0,
	   "a file over the size cap: '%s'", err);
	snapshot_free(&snap);
	unlink(tpath("huge.json"));

	snprintf(want, sizeof(want), "cannot read %s: %s; check the path", tpath("none.json"),
		 strerror(ENOENT));
	ok(snapshot_load(tpath("none.json"), &snap, err, sizeof(err)) == -1 &&
		   strcmp(err, want) == 0,
	   "a missing file: '%s'", err);
	snapshot_free(&snap);
}

/* An analysis edited by hand (or by another version) loads with a warning. */
/*
 * A tick or an event naming a step the file does not hold (scaletop's TUI
 * wrote such files after a sweep that followed a longer one): the file
 * loads, the tick is dropped, the event kept as no step's, and one line
 * says so.
 */
static void
loads_stray(const char *path, json_t *val, const char *want, int ticks, const char *name)
{
	char err[ST_ERRLEN] = "", *text = edited(path, val);
	struct snapshot snap;
	int rc = snapshot_read(text, strlen(text), "x.json", &snap, err, sizeof(err));

	if (!ok(rc == 0, "loads %s", name))
		diag("  %s", err);
	if (!ok(strstr(snap.repair, want) != NULL && strchr(snap.repair, '\n') == NULL,
		"  with one line of warning"))
		diag("  got: '%s'", snap.repair);
	is_int(series_len(&snap.s.ticks), ticks, "  the other ticks are kept");
	is_int(snap.s.nsteps, 7, "  and every step");
	free(text);
	snapshot_free(&snap);
}

static void
test_stray_steps(void)
{
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	json_t *ticks;
	int i;

	loads_stray("series.ticks.0.1", json_integer(7),
		    "x.json: dropped 1 tick that named a step the file does not hold", 7,
		    "a tick of a step the file does not hold");
	loads_stray("events.0.step", json_integer(99),
		    "x.json: read 1 event as no step's that named a step", 8,
		    "an event of a step the file does not hold");
	ticks = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(ticks, json_pack("[f, i, s, n, n]", 1.0 + i, 7, "measuring"));
	loads_stray("series",
		    json_pack("{s:i, s:i, s:i, s:o}", "ncpu", 0, "ncpu_dropped", 0, "dropped", 0,
			      "ticks", ticks),
		    "dropped 3 ticks", 0, "a series whose every tick names a step not held");
	ok(snapshot_read(good_text, good_len, "x.json", &snap, err, sizeof(err)) == 0 &&
		   snap.repair[0] == '\0',
	   "a file whose ticks all name its steps loads without that warning");
	snapshot_free(&snap);
	/* Made by scaletop 0.1.0's TUI: -n 1,2,4 -o, then n 1,2, s and q (issue 21). */
	ok(snapshot_load(fixture_path("snapshots/stale-ticks.json"), &snap, err, sizeof(err)) == 0,
	   "the old TUI's file after a shorter N list loads (%s)", err);
	if (!ok(strstr(snap.repair, "stale-ticks.json: dropped 3 ticks that named a step") != NULL,
		"  and says what was dropped"))
		diag("  got: '%s'", snap.repair);
	is_int(snap.s.nsteps, 2, "  with both its steps");
	snapshot_free(&snap);
}

/* Ticks of the session on the ring, as a tick's step in the written file. */
static void
ring_add(struct session *s, int step, int n)
{
	struct tick t = { .phase = 3, .rate = NAN, .busy_all = 50 };
	float busy[2] = { 10, 20 };
	int i;

	for (i = 0; i < n; i++) {
		t.t = (double)i;
		t.step = step;
		series_add(&s->ticks, &t, busy);
	}
}

/* Each written tick's step, as "0 0 1 -" ("-": null); how many. */
static int
written_steps(const struct session *s, char *buf, size_t len)
{
	json_t *j = session_json_series(s), *ticks, *row;
	size_t i, off = 0;

	buf[0] = '\0';
	if (j == NULL || json_is_null(j)) {
		json_decref(j);
		return 0;
	}
	ticks = json_object_get(j, "ticks");
	json_array_foreach(ticks, i, row)
	{
		json_t *v = json_array_get(row, 1);

		if (json_is_integer(v))
			off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? " " : "",
						(int)json_integer_value(v));
		else
			off += (size_t)snprintf(buf + off, len - off, "%s-", i ? " " : "");
	}
	i = json_array_size(ticks);
	json_decref(j);
	return (int)i;
}

/*
 * The TUI hands one ring from session to session (r, n, w, and a live N
 * and back): each session's file holds its own ticks only.
 */
static void
test_take_series(void)
{
	struct session a, b, live;
	char buf[256];

	session_init(&a);
	session_init(&b);
	session_init(&live);
	add_step(&a, 1, 0, 1000, 4);
	add_step(&a, 2, 0, 1900, 4);
	add_step(&a, 4, 0, 1500, 4);
	session_start_series(&a, 2, 64);
	ring_add(&a, 0, 2);
	ring_add(&a, 2, 2);
	ring_add(&a, -1, 1);
	is_int(written_steps(&a, buf, sizeof(buf)), 5, "one session's ring: every tick is written");
	session_take_series(&b, &a); /* n: a shorter list */
	add_step(&b, 1, 0, 1000, 4);
	ring_add(&b, 0, 3);
	is_int(series_len(&b.ticks), 8, "the new session has the ring, with the old ticks");
	is_int(written_steps(&b, buf, sizeof(buf)), 3, "but its file holds only its own ticks");
	is_str(buf, "0 0 0", "  of its own step");
	session_take_series(&live, &b); /* +: a live N, then back */
	add_step(&live, 8, 0, 1000, 4);
	ring_add(&live, 0, 2);
	session_take_series(&b, &live);
	ring_add(&b, -1, 1);
	is_int(written_steps(&b, buf, sizeof(buf)), 4,
	       "after a live N: its ticks before and after");
	is_str(buf, "0 0 0 -", "  and not the live run's");
	is_int(written_steps(&live, buf, sizeof(buf)), 0, "the live session has no ring left");
	session_free(&a);
	session_free(&b);
	session_free(&live);
}

static void
test_analysis_disagrees(void)
{
	json_t *root = json_loadb(good_text, good_len, 0, NULL);
	struct snapshot snap;
	char err[ST_ERRLEN] = "";
	char *text;

	json_object_set_new(json_object_get(root, "analysis"), "verdict",
			    json_string("scales perfectly"));
	text = json_dumps(root, 0);
	ok(snapshot_read(text, strlen(text), "v.json", &snap, err, sizeof(err)) == 0,
	   "an edited analysis still loads");
	ok(strncmp(snap.warning, "v.json: the saved analysis (scaletop ", 37) == 0 &&
		   strstr(snap.warning, "verdict was 'scales perfectly', is now '") != NULL &&
		   strstr(snap.warning, "showing the recomputed one") != NULL,
	   "and says how it differs: '%s'", snap.warning);
	snapshot_free(&snap);
	free(text);
	json_decref(root);
}

/* --- the atomic writer -------------------------------------------------------------- */

static void
test_no_overwrite(void)
{
	struct session s;
	struct stat sb;
	char err[ST_ERRLEN] = "", want[600], *text;
	size_t len;
	mode_t old = umask(022);

	make_session(&s);
	spit(tpath("old.json"), "old contents\n");
	snprintf(want, sizeof(want),
		 "%s exists and was not replaced; give --force to replace it, "
		 "or another name",
		 tpath("old.json"));
	ok(snapshot_save(tpath("old.json"), &s, NULL, false, err, sizeof(err)) == -1 &&
		   strcmp(err, want) == 0,
	   "an existing file is not replaced without force: '%s'", err);
	text = slurp(tpath("old.json"), &len);
	ok(len == 13 && memcmp(text, "old contents\n", 13) == 0, "  and is left as it was");
	free(text);
	ok(snapshot_save(tpath("old.json"), &s, NULL, true, err, sizeof(err)) == 0,
	   "with force it is replaced");
	stat(tpath("old.json"), &sb);
	is_int(sb.st_mode & 07777, 0644, "  with mode 0644");
	is_int(count_temps(tmpdir), 0, "  and no temp file is left");
	umask(old);
	session_free(&s);
}

/* Everything a child writes to the pipe, until it closes it; then closes fd. */
static void
read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
}

/*
 * Runs fn in a child without root; its exit status (128 + the signal if one
 * ended it, which fails the caller's check), or -1 when root cannot be dropped.
 */
static int
as_nobody(int (*fn)(const char *), const char *arg, char *msg, size_t msglen)
{
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		if (geteuid() == 0 && (setgid(65534) == -1 || setuid(65534) == -1))
			_exit(99);
		dup2(fds[1], STDOUT_FILENO);
		_exit(fn(arg));
	}
	close(fds[1]);
	read_all(fds[0], msg, msglen);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status) == 99)
		return -1;
	return WEXITSTATUS(status);
}

/* Saves make_session's session, with pad interval samples more, over path. */
static int
save_padded(const char *path, int pad)
{
	struct session s;
	char err[ST_ERRLEN] = "";
	int rc, i;

	make_session(&s);
	for (i = 0; i < pad; i++)
		step_add_interval(&s.steps[0], 1e6 / (i + 3.0));
	stats_compute(&s.steps[0].st, s.steps[0].iv, (size_t)s.steps[0].niv);
	rc = snapshot_save(path, &s, NULL, true, err, sizeof(err));
	fputs(err, stdout);
	fflush(stdout);
	return rc == 0 ? 0 : errno == EACCES ? 13 : errno == ENOSPC ? 28 : 1;
}

static int
save_forced(const char *path)
{
	return save_padded(path, 0);
}

static void
test_eacces(void)
{
	char dir[600], path[700], msg[ST_ERRLEN], want[1000], *text;
	size_t len;
	int rc;

	snprintf(dir, sizeof(dir), "%s/ro", tmpdir);
	snprintf(path, sizeof(path), "%s/snap.json", dir);
	mkdir(dir, 0755);
	spit(path, "old contents\n");
	if (geteuid() != 0)
		chmod(dir, 0555);
	rc = as_nobody(save_forced, path, msg, sizeof(msg));
	if (rc == -1) {
		skip("cannot drop root to test permissions", "read-only folder: EACCES");
		return;
	}
	is_int(rc, 13, "a folder we may not write to: the save fails with EACCES");
	snprintf(want, sizeof(want),
		 "cannot write %s: cannot make a temporary file next to it: "
		 "%s; nothing was replaced; write to a folder you may write to",
		 path, strerror(EACCES));
	is_str(msg, want, "  saying what, which file, why and what to do");
	text = slurp(path, &len);
	ok(len == 13 && memcmp(text, "old contents\n", 13) == 0, "  the old file is intact");
	free(text);
	chmod(dir, 0755);
}

#ifdef __linux__
/* In a private mount namespace: a 64 KiB tmpfs, an old file, then a save too big for it. */
static int
enospc_child(const char *dir)
{
	char path[700], *text;
	size_t len;
	int rc;

	if (private_tmpfs(dir, 0, "size=64k") != 0)
		return 77;
	snprintf(path, sizeof(path), "%s/snap.json", dir);
	spit(path, "old contents\n");
	/* 10000 samples more make the file some 200 KiB: it cannot fit. */
	rc = save_padded(path, 10000);
	printf("\n");
	fflush(stdout);
	if (rc != 28)
		return rc == 0 ? 4 : rc;
	text = slurp(path, &len);
	rc = len == 13 && memcmp(text, "old contents\n", 13) == 0 ? 0 : 2;
	free(text);
	if (rc == 0 && count_temps(dir) != 0)
		rc = 3;
	umount(dir);
	return rc;
}
#endif

/* The child prints the save's message; it must be the ENOSPC one.  Exit 77: cannot mount. */
static void
test_enospc(void)
{
#ifdef __linux__
	char dir[600], out[2048], want[1000];
	int fds[2], status;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/full", tmpdir);
	mkdir(dir, 0755);
	if (pipe(fds) != 0)
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		_exit(enospc_child(dir));
	}
	close(fds[1]);
	read_all(fds[0], out, sizeof(out));
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		/* The child's one line, "# cannot mount ...: why", on the pipe. */
		fputs(out, stdout);
		skip("cannot mount a small tmpfs here (needs root; the line above says why)",
		     "ENOSPC");
		return;
	}
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "a full file system: ENOSPC, the old file intact, no temp file left");
	snprintf(want, sizeof(want),
		 "cannot write %s/snap.json: %s; nothing was replaced; free "
		 "some space or write elsewhere\n",
		 dir, strerror(ENOSPC));
	is_str(out, want, "  saying why and what to do");
#else
	skip("the ENOSPC test mounts a Linux tmpfs", "ENOSPC");
#endif
}

/* Each failure must leave the old file as it was, and no temp file behind. */
static void
test_write_failures(void)
{
	test_no_overwrite();
	test_eacces();
	test_enospc();
}

/* --- import ----------------------------------------------------------------------- */

static int
import_text(const char *text, size_t len, struct session *s, char *err, size_t errlen)
{
	struct snapshot_import o = { "paper", "Table 3 of a paper", NULL, "clients" };
	struct snapshot_meta m;

	return snapshot_import_csv(text, len, "dir/pub.csv", &o, s, &m, err, errlen);
}

static void
import_rejects_n(const char *text, size_t len, const char *want, const char *name)
{
	char err[ST_ERRLEN] = "";
	struct session s;
	int rc = import_text(text, len, &s, err, sizeof(err));

	session_free(&s);
	if (!ok(rc == -1 && strcmp(err, want) == 0, "import rejects %s", name)) {
		diag("  got:  %s", err);
		diag("  want: %s", want);
	}
}

static void
import_rejects(const char *text, const char *want, const char *name)
{
	import_rejects_n(text, strlen(text), want, name);
}

static void
test_import(void)
{
	struct snapshot_import o = { "paper", NULL, "tps", NULL };
	struct snapshot snap;
	struct snapshot_meta m;
	struct session s;
	char err[ST_ERRLEN] = "";
	const char *csv = "# from the paper\r\nN, throughput, stddev, runs\r\n1,1000\r\n"
			  "2, 1900.5 ,50\r\n\r\n4,3500,120,5\r\n8,2000\r\n";

	ok(snapshot_import_csv(csv, strlen(csv), "dir/pub.csv", &o, &s, &m, err, sizeof(err)) == 0,
	   "import: a header, comments, CRLF, blanks (%s)", err);
	is_int(s.nsteps, 4, "import: one step per data line");
	ok(s.steps[1].n == 2 && s.steps[1].ops_s == 1900.5, "import: N and throughput");
	ok(s.steps[0].st.n == 1 && s.steps[0].st.mean == 1000 && !s.steps[0].st.have_spread,
	   "import: a lone figure is one sample");
	ok(s.steps[1].st.n == 0 && s.steps[1].st.stddev == 50 && !s.steps[1].st.have_spread,
	   "import: a stddev without runs is kept, without a CI");
	is_double(s.steps[2].st.ci95, 2.776445105 * 120 / sqrt(5), 1e-6,
		  "import: stddev over 5 runs gives the 95% CI");
	ok(strcmp(s.wl.name, "imported") == 0 && strcmp(s.wl.unit, "tps") == 0 &&
		   strcmp(s.wl.value[s.wl.nparams - 1], "pub.csv") == 0,
	   "import: workload imported, "
	   "unit, source");
	is_str(m.label, "paper", "import: the label");
	ok(snapshot_save(tpath("imp.json"), &s, &m, false, err, sizeof(err)) == 0 &&
		   snapshot_load(tpath("imp.json"), &snap, err, sizeof(err)) == 0,
	   "import: saves and "
	   "loads (%s)",
	   err);
	is_int(session_diffs(&s, &snap.s), 0, "import: loads back equal");
	ok(snap.now.collapse && snap.now.collapse_n == 8, "import: analysed (collapse at %d)",
	   snap.now.collapse_n);
	snapshot_free(&snap);
	session_free(&s);

	import_rejects("1,100\n2,abc\n",
		       "dir/pub.csv:2:3: 'abc': expected a throughput, a number "
		       "> 0",
		       "a throughput that is not a number, with line:column");
	import_rejects("n,x\n0,100\n",
		       "dir/pub.csv:2:1: '0': expected N, an integer from 1 to "
		       "4096",
		       "N = 0");
	import_rejects("1.5,100\n",
		       "dir/pub.csv:1:1: '1.5': expected N, an integer from 1 to "
		       "4096",
		       "a fractional N");
	import_rejects("4\n", "dir/pub.csv:1:2: expected ',' and a throughput after N",
		       "a line without a throughput");
	import_rejects("1,nan\n", "dir/pub.csv:1:3: 'nan': expected a throughput, a number > 0",
		       "NaN");
	import_rejects("1,100,-5\n",
		       "dir/pub.csv:1:7: '-5': expected a standard deviation, a "
		       "number >= 0",
		       "a negative stddev");
	import_rejects("1,100,5,2,9\n",
		       "dir/pub.csv:1:10: expected the end of the line: the "
		       "fields are N,throughput[,stddev[,runs]]",
		       "a fifth field");
	import_rejects("1,100,5,1\n",
		       "dir/pub.csv:1:9: '1': one run has no standard deviation; "
		       "expected runs >= 2",
		       "a stddev of one run");
	import_rejects("# nothing\n\n",
		       "dir/pub.csv: no data lines; expected lines of "
		       "N,throughput[,stddev[,runs]]",
		       "a file without data");
	import_rejects_n("1,100\n2,2\0"
			 "00\n",
			 12, "dir/pub.csv:2:4: a NUL byte; expected text", "a NUL byte");
}

/* Numbers are written with '.' whatever the locale, and read back exactly. */
static void
test_numbers(void)
{
	char buf[40];

	snapshot_number(buf, sizeof(buf), 0.5);
	is_str(buf, "0.5", "a short number stays short");
	snapshot_number(buf, sizeof(buf), 1.0 / 3.0);
	is_str(buf, "0.3333333333333333", "a third takes 16 digits, all it needs");
	snapshot_number(buf, sizeof(buf), 0.1 + 0.2);
	is_str(buf, "0.30000000000000004", "0.1 + 0.2 needs 17");
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL) {
		snapshot_number(buf, sizeof(buf), 2.5);
		is_str(buf, "2.5", "a comma locale still writes '.'");
		is_double(snapshot_strtod("2.5", NULL), 2.5, 0, "and reads '.'");
		setlocale(LC_NUMERIC, "C");
	} else {
		skip("no de_DE.UTF-8 locale", "a comma locale still writes '.'");
	}
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_snapshot.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	chmod(tmpdir, 0755);
	test_numbers();
	test_round_trip();
	test_old_without_ci95_ac();
	test_old_usl_terms();
	test_nulls();
	test_rejects();
	test_rejects_files();
	test_stray_steps();
	test_take_series();
	test_analysis_disagrees();
	test_write_failures();
	test_import();
	free(good_text);
	if (getenv("SNAPSHOT_TEST_KEEP") == NULL)
		rm_tree(tmpdir);
	else
		diag("files kept in %s", tmpdir);
	return done_testing();
}

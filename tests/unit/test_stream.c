/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON Lines stream: what the recorder writes, the reader rebuilds, field
 * by field, whatever the chunks it arrives in; and a cut, broken or foreign
 * stream is read as far as it can be, with a note or an error naming the line.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"

static char tmpdir[] = "/tmp/test_stream.XXXXXX";

/* --- a hand-built run ----------------------------------------------------- */

static void
fill_usage(struct cpu_usage *u, int id, double usr, double sys, double iowait)
{
	memset(u, 0, sizeof(*u));
	u->id = id;
	u->pct[CPU_USER] = usr;
	u->pct[CPU_SYS] = sys;
	u->pct[CPU_IOWAIT] = iowait;
	u->pct[CPU_SOFTIRQ] = 1.25;
	u->pct[CPU_IDLE] = 100 - usr - sys - iowait - 1.25;
	u->busy = usr + sys + 1.25;
}

static void
build_header(struct session *s)
{
	static const int n[] = { 1, 2, 4 };

	session_init(s);
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	snprintf(s->host.os_release, sizeof(s->host.os_release), "6.1.0-18-amd64");
	snprintf(s->host.os_version, sizeof(s->host.os_version), "#1 SMP Debian");
	snprintf(s->host.platform, sizeof(s->host.platform), "x86_64");
	snprintf(s->host.hostname, sizeof(s->host.hostname), "db7");
	snprintf(s->host.cpu_model, sizeof(s->host.cpu_model), "AMD EPYC 7313P");
	s->host.ncpus = 4;
	s->host.mem_total = 68719476736ull;
	snprintf(s->sampler_note, sizeof(s->sampler_note), "CPU pressure unavailable");
	snprintf(s->started_utc, sizeof(s->started_utc), "2026-03-01T10:00:00Z");
	snprintf(s->wl.name, sizeof(s->wl.name), "external");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "transactions");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "clients");
	snprintf(s->wl.parser, sizeof(s->wl.parser), "pgbench");
	s->wl.nparams = 2;
	snprintf(s->wl.key[0], sizeof(s->wl.key[0]), "scale");
	snprintf(s->wl.value[0], sizeof(s->wl.value[0]), "50");
	snprintf(s->wl.key[1], sizeof(s->wl.key[1]), "dir");
	snprintf(s->wl.value[1], sizeof(s->wl.value[1]), "/srv/caf\xe9"); /* Latin-1 */
	s->wl.argv = calloc(4, sizeof(char *));
	s->wl.argv[0] = strdup("pgbench");
	s->wl.argv[1] = strdup("-c");
	s->wl.argv[2] = strdup("{n}");
	s->set.n = malloc(sizeof(n));
	memcpy(s->set.n, n, sizeof(n));
	s->set.nn = 3;
	s->set.duration_s = 10;
	s->set.warmup_s = 2;
	s->set.stable_pct = 2.5;
	s->set.min_measure_s = 3;
	s->set.interval_s = 0.25;
	s->set.repeat = 1;
	s->set.stall_s = 5;
	s->set.stop_on_failure = true;
	s->set.mode = MODE_PROCESSES;
}

static void
build_steps(struct session *s)
{
	struct step *st = session_add_step(s, 1, 0);
	int i;

	st->status = STEP_OK;
	st->start_s = 0.5;
	st->warmup_s = 2.0;
	st->window_s = 10.25;
	st->ops = 123456789;
	st->ops_s = st->ops / st->window_s;
	for (i = 0; i < 5; i++)
		step_add_interval(st, 1000.5 + i);
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	st->ncpu = 2;
	st->cpu = calloc(2, sizeof(*st->cpu));
	fill_usage(&st->cpu[0], 0, 40, 10, 0);
	fill_usage(&st->cpu[1], 3, 20, 5, 2.5);
	fill_usage(&st->all, -1, 30, 7.5, 1.25);
	st->ct.vcsw_s = 1500.5;
	st->ct.ivcsw_s = 20;
	st->ct.vcsw_kop = 1.5;
	st->ct.ivcsw_kop = 0.02;
	st->ct.lock_wait_pct = 12.5;
	st->ct.have = CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_LOCK_WAIT;
	st->fair = (struct fairness){ .have = true,
				      .workers = 4,
				      .min = 0,
				      .median = 1.5e6,
				      .max = 90000000,
				      .jain = 0.3125,
				      .starved = 1 };

	st = session_add_step(s, 2, 0);
	st->status = STEP_FAILED;
	snprintf(st->reason, sizeof(st->reason), "exit status 3: \"no such table\"\n\xff");
	st->start_s = 13.0;
	session_add_event(s, 0, EV_STEP, 12.75, "N=1: 12 Mtransactions/s (ok) over 10.2 s");
	session_add_event(s, 1, EV_FAILURE, 14.0, "N=2 failed: exit status 3");
	session_add_event(s, -1, EV_WARNING, 14.5, "teardown: \"quoted\" \\ and tab\t");
}

/* A tick the engine would see: 3 CPU rows (ids 0, 1, 3), one of them new. */
static void
build_live(struct sweep_live *lv, struct sample_delta *d)
{
	memset(lv, 0, sizeof(*lv));
	sample_delta_init(d);
	d->seconds = 0.250113;
	d->ncpu = d->cap = 3;
	d->cpu = calloc(3, sizeof(*d->cpu));
	fill_usage(&d->cpu[0], 0, 55.55, 20, 0);
	fill_usage(&d->cpu[1], 1, 0, 0, 0);
	d->cpu[1].flags = CPU_USAGE_NEW;
	memset(d->cpu[1].pct, 0, sizeof(d->cpu[1].pct));
	d->cpu[1].busy = 0;
	fill_usage(&d->cpu[2], 3, 10, 30, 5);
	d->cpu[2].flags = CPU_USAGE_BACKWARDS;
	fill_usage(&d->all, -1, 32.78, 25, 2.5);
	d->ncpu_with_data = 2;
	d->rate[SYS_CTXSW] = 12345.67;
	d->rate[SYS_INTR] = 890;
	d->have_rate = (1u << SYS_CTXSW) | (1u << SYS_INTR);
	d->flags = SYS_HAVE_RUNQ | SYS_HAVE_PSI_SOME;
	d->running = 3;
	d->blocked = 1;
	d->psi_some_pct = 4.5;
	lv->phase = PHASE_MEASURING;
	lv->step = 1;
	lv->steps_total = 3;
	lv->phase_s = 1.75;
	lv->rate = 987.25;
	lv->have_rate = true;
	lv->cpu = *d;
	lv->have_cpu = true;
}

static void
build_analysis(struct analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->npoints = 2;
	a->pts = calloc(2, sizeof(*a->pts));
	a->pts[0] = (struct scaling_point){ .n = 1,
					    .x = 1000,
					    .ci = 5,
					    .runs = 1,
					    .speedup = 1,
					    .efficiency = 1,
					    .increment = 1000 };
	a->pts[1] = (struct scaling_point){ .n = 2,
					    .x = 1900,
					    .ci = NAN,
					    .runs = 1,
					    .speedup = 1.9,
					    .efficiency = 0.95,
					    .increment = 900 };
	a->have_x1 = true;
	a->x1 = 1000;
	a->n_peak = 2;
	a->x_peak = 1900;
	a->x_peak_ci = NAN;
	a->linear_n = 2;
	a->last_n = 2;
	a->last_frac = 1;
	a->usl.ok = true;
	a->usl.amdahl = true;
	a->usl.npoints = 4;
	a->usl.sigma = 0.05;
	a->usl.kappa = 0;
	a->usl.lambda = 1000;
	a->usl.se_sigma = 0.01;
	a->usl.se_kappa = NAN;
	a->usl.se_lambda = 3;
	a->usl.rse = 12;
	a->usl.n_star = INFINITY;
	a->usl.x_star = NAN;
	a->usl.n_max = 2;
	a->usl.n_cross = INFINITY;
	a->usl.bound_measured = USL_TERM_CONTENTION;
	a->usl.bound_at_peak = USL_TERM_CONTENTION;
	snprintf(a->verdict, sizeof(a->verdict), "scales to 2 clients; peak 1.9 k/s at 2");
}

/* --- writing -------------------------------------------------------------- */

static char *
tmp_path(const char *name)
{
	static char path[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", tmpdir, name);
	return path[k];
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	*len = f != NULL ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	buf[*len] = '\0';
	if (f != NULL)
		fclose(f);
	return buf;
}

/* Records the hand-built run; returns the stream's text. */
static char *
record_run(struct session *s, struct sweep_live *lv, struct analysis *a, size_t *len)
{
	const char *path = tmp_path("run.jsonl");
	char err[ST_ERRLEN] = "";
	struct recorder *rec = recorder_open(path, 0, err, sizeof(err));
	struct contention live = { .run_delay_pct = 3.5,
				   .kernel_pct = 22.25,
				   .cpu_used = 1.5,
				   .have = CT_HAVE_RUN_DELAY | CT_HAVE_KERNEL };
	float busy[4] = { 76.8f, NAN, NAN, 41.25f };
	struct tick t = {
		.t = 14.25, .step = 1, .phase = PHASE_MEASURING, .rate = 987.25, .busy_all = 59.03f
	};
	int rc = 0;

	ok(rec != NULL, "the recorder opens a new file (%s)", err);
	rc |= recorder_header(rec, s);
	series_add(&s->ticks, &t, busy);
	rc |= recorder_tick(rec, s, lv, &live);
	t.t = 14.5, t.step = -1, t.phase = PHASE_STOPPING, t.rate = NAN;
	series_add(&s->ticks, &t, NULL);
	lv->have_cpu = false;
	rc |= recorder_tick(rec, s, lv, NULL);
	lv->have_cpu = true;
	rc |= recorder_step(rec, s, 0);
	rc |= recorder_event(rec, &s->events[0]);
	rc |= recorder_step(rec, s, 1);
	rc |= recorder_event(rec, &s->events[1]);
	rc |= recorder_event(rec, &s->events[2]);
	rc |= recorder_analysis(rec, a, NULL);
	ok(rc == 0 && recorder_error(rec) == NULL, "every line is written");
	is_int(recorder_close(rec, err, sizeof(err)), 0, "the recorder closes cleanly");
	return slurp(path, len);
}

/* --- reading and comparing ------------------------------------------------ */

/* Feeds the text in chunks of random sizes (1 byte up to a few KiB), then finishes. */
static struct stream_reader *
read_chunked(const char *text, size_t len, unsigned seed, int *rc)
{
	struct stream_reader *r = stream_reader_new("run.jsonl");
	size_t off = 0, n;

	srand(seed);
	*rc = 0;
	while (off < len && *rc == 0) {
		n = (size_t)(rand() % 4 == 0 ? rand() % 4096 : rand() % 40) + 1;
		n = n > len - off ? len - off : n;
		*rc = stream_reader_feed(r, text + off, n);
		off += n;
	}
	if (*rc == 0)
		*rc = stream_reader_finish(r);
	return r;
}

static int
count_lines(const char *text)
{
	int n = 0;

	for (; *text != '\0'; text++)
		n += *text == '\n';
	return n;
}

static void
compare_header(const struct session *got, const struct session *want)
{
	is_str(got->host.hostname, want->host.hostname, "host name");
	is_str(got->host.os_release, want->host.os_release, "OS release");
	is_str(got->host.os_version, want->host.os_version, "OS version");
	is_str(got->host.platform, want->host.platform, "platform");
	is_str(got->host.cpu_model, want->host.cpu_model, "CPU model");
	is_int(got->host.ncpus, want->host.ncpus, "CPU count");
	is_u64(got->host.mem_total, want->host.mem_total, "memory");
	is_str(got->sampler_note, want->sampler_note, "sampler note");
	is_str(got->started_utc, want->started_utc, "start time");
	is_str(got->wl.name, "external", "workload name");
	is_str(got->wl.unit, "transactions", "workload unit");
	is_str(got->wl.n_unit, "clients", "unit of N");
	is_str(got->wl.parser, "pgbench", "parser");
	is_int(got->wl.nparams, 2, "two parameters");
	is_str(got->wl.key[1], "dir", "parameter key");
	is_str(got->wl.value[1], "/srv/caf?", "a Latin-1 byte becomes '?', not a lost header");
	ok(got->wl.argv != NULL && got->wl.argv[3] == NULL && strcmp(got->wl.argv[2], "{n}") == 0,
	   "the command template");
	ok(got->set.nn == 3 && got->set.n[0] == 1 && got->set.n[2] == 4, "the N list");
	is_double(got->set.duration_s, 10, 0, "duration");
	is_double(got->set.warmup_s, 2, 0, "warm-up");
	is_double(got->set.stable_pct, 2.5, 0, "stable %");
	is_double(got->set.min_measure_s, 3, 0, "minimum measurement");
	is_double(got->set.interval_s, 0.25, 0, "interval");
	is_int(got->set.repeat, 1, "repeat");
	is_double(got->set.stall_s, 5, 0, "stall timeout");
	ok(got->set.stop_on_failure, "stop on failure");
	is_int(got->set.mode, MODE_PROCESSES, "process mode");
}

static void
compare_usage(const struct cpu_usage *got, const struct cpu_usage *want, const char *what)
{
	char name[128];
	int i, same = got->id == want->id && got->flags == want->flags &&
		      fabs(got->busy - want->busy) < 0.005;

	for (i = 0; i < CPU_NSTATES; i++)
		same &= fabs(got->pct[i] - want->pct[i]) < 0.005;
	snprintf(name, sizeof(name), "%s: id, flags, every state and busy", what);
	ok(same, "%s", name);
}

static void
compare_steps(const struct session *got, const struct session *want)
{
	const struct step *g = &got->steps[0], *w = &want->steps[0];
	int i, same = 1;

	is_int(got->nsteps, 2, "both steps");
	is_int(g->n, 1, "step N");
	is_int(g->status, STEP_OK, "step status");
	is_double(g->ops_s, w->ops_s, 1e-6, "headline throughput");
	is_u64(g->ops, w->ops, "operations");
	is_double(g->window_s, w->window_s, 1e-12, "window");
	is_double(g->warmup_s, w->warmup_s, 1e-12, "measured warm-up");
	is_int(g->niv, 5, "interval samples");
	for (i = 0; i < 5 && g->niv == 5; i++)
		same &= fabs(g->iv[i] - w->iv[i]) < 1e-9;
	ok(same, "every interval sample");
	is_double(g->st.ci95, w->st.ci95, 1e-9, "95% CI");
	ok(g->st.have_spread && g->st.n == 5, "spread and count");
	is_int(g->ncpu, 2, "per-CPU rows of the step");
	if (g->ncpu == 2)
		compare_usage(&g->cpu[1], &w->cpu[1], "step CPU 3");
	compare_usage(&g->all, &w->all, "step all CPUs");
	is_int((int)g->ct.have, CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_LOCK_WAIT,
	       "contention figures present");
	is_double(g->ct.vcsw_s, 1500.5, 1e-9, "voluntary switches/s");
	is_double(g->ct.lock_wait_pct, 12.5, 1e-9, "lock wait %");
	ok(g->fair.have && g->fair.workers == 4 && g->fair.min == 0 && g->fair.max == 90000000 &&
		   g->fair.starved == 1,
	   "fairness: workers, min, max and starved");
	is_double(g->fair.median, 1.5e6, 0, "fairness: median");
	is_double(g->fair.jain, 0.3125, 1e-12, "fairness: Jain's index");
	ok(!got->steps[1].fair.have, "a step without fairness has none");
	is_int(got->steps[1].status, STEP_FAILED, "failed step");
	is_str(got->steps[1].reason, "exit status 3: \"no such table\"\n?", "failure reason");
	is_double(got->steps[1].ops_s, 0, 0, "a failed step has no throughput");
	is_int(got->steps[1].ncpu, 0, "a step without CPU figures");
}

static void
compare_events(const struct session *got, const struct session *want)
{
	int i, same = got->nevents == want->nevents;

	for (i = 0; same && i < got->nevents; i++) {
		same &= got->events[i].kind == want->events[i].kind;
		same &= got->events[i].step == want->events[i].step;
		same &= fabs(got->events[i].t - want->events[i].t) < 1e-12;
		same &= strcmp(got->events[i].text, want->events[i].text) == 0;
	}
	ok(same, "every event: time, step, kind and text");
}

static void
compare_ticks(struct stream_reader *r, const struct sample_delta *d)
{
	const struct stream_tick *t = stream_reader_tick(r, 0);
	const struct stream_cpu *c;
	const struct contention *ct;
	const struct tick *k;

	is_int((int)stream_reader_nticks(r), 2, "both ticks kept");
	if (t == NULL)
		return;
	is_double(t->t, 14.25, 0, "tick time");
	is_int(t->phase, PHASE_MEASURING, "tick phase");
	ok(t->step == 1 && t->n == 2 && t->rep == 0 && t->steps_total == 3, "tick step and N");
	is_double(t->phase_s, 1.75, 0, "time in phase");
	is_double(t->rate, 987.25, 0, "tick throughput");
	is_double(t->interval, 0.250113, 1e-12, "measured interval");
	is_int(t->ncpu, 3, "three CPU rows");
	c = stream_reader_tick_cpus(r, t);
	ok(c != NULL && c[2].id == 3 && c[2].flags == CPU_USAGE_BACKWARDS, "row id and flags");
	if (c != NULL) {
		is_double(stream_pct(c[0].pct[CPU_USER]), 55.55, 1e-9, "CPU 0 user %");
		is_double(stream_pct(c[2].pct[CPU_IOWAIT]), 5, 1e-9, "CPU 3 iowait %");
		is_double(stream_pct(c[2].pct[CPU_SOFTIRQ]), 1.25, 1e-9, "CPU 3 softirq %");
		ok(isnan(stream_pct(c[1].busy)) && c[1].flags == CPU_USAGE_NEW,
		   "a new CPU has no figures");
	}
	is_double(stream_pct(t->all.busy), d->all.busy, 1e-9, "all-CPU busy %");
	is_double(t->sys.ctxsw_s, 12345.67, 0.01, "context switches/s");
	ok(isnan(t->sys.syscall_s) && isnan(t->sys.psi_full_pct), "missing rates stay missing");
	ok(t->sys.running == 3 && t->sys.blocked == 1, "run queue");
	ct = stream_reader_tick_contention(r, t);
	ok(ct != NULL && ct->have == (CT_HAVE_RUN_DELAY | CT_HAVE_KERNEL) &&
		   ct->kernel_pct == 22.25 && ct->cpu_used == 1.5,
	   "live contention");
	t = stream_reader_tick(r, 1);
	ok(t != NULL && !t->have_cpu && t->ncpu == 0 && t->step == -1 && isnan(t->rate) &&
		   stream_reader_tick_contention(r, t) == NULL,
	   "a tick without CPU data, step or contention");
	k = series_at(&stream_reader_session(r)->ticks, 0);
	ok(k != NULL && k->busy[0] == (float)d->cpu[0].busy && isnan(k->busy[1]) &&
		   k->busy[3] == 41.25f && series_len(&stream_reader_session(r)->ticks) == 2,
	   "the recent series has busy %% by CPU id");
}

static void
compare_analysis(struct stream_reader *r, const struct analysis *want)
{
	const struct session *s = stream_reader_session(r);
	struct analysis_opts o;
	const struct analysis *got = stream_reader_analysis(r, &o);

	ok(got != NULL, "the analysis is read");
	if (got == NULL)
		return;
	is_str(got->verdict, want->verdict, "verdict");
	ok(got->npoints == 2 && got->pts[1].n == 2 && got->pts[1].efficiency == 0.95 &&
		   isnan(got->pts[1].ci),
	   "scaling points");
	ok(got->n_peak == 2 && got->x_peak == 1900 && isnan(got->x_peak_ci), "peak");
	ok(got->linear_n == 2 && !got->collapse && got->last_frac == 1, "linear range, collapse");
	ok(got->usl.ok && got->usl.amdahl && got->usl.sigma == 0.05 && got->usl.rse == 12 &&
		   isnan(got->usl.se_kappa),
	   "USL fit");
	ok(isinf(got->usl.n_star), "n* of a fit with kappa 0 is infinite again");
	ok(got->usl.n_max == 2 && isinf(got->usl.n_cross) &&
		   got->usl.bound_measured == USL_TERM_CONTENTION &&
		   got->usl.bound_at_peak == USL_TERM_CONTENTION && !got->usl.n_star_extrapolated,
	   "the USL terms: largest N, crossing at infinity, contention at both");
	ok(o.efficiency_min == 0.9 && o.collapse_theta == 0.2, "the thresholds it was made with");
	ok(s->set.efficiency_min == 0.9 && s->set.collapse_theta == 0.2,
	   "become the session's settings, as for a loaded snapshot");
}

static void
test_round_trip(const char *text, size_t len, struct session *want, struct sample_delta *d,
		struct analysis *a)
{
	unsigned seeds[] = { 1, 7, 1234 };
	struct stream_reader *r;
	size_t i;
	int rc;

	is_int(count_lines(text), 10,
	       "10 lines: header, 2 ticks, 2 steps, 3 events, analysis, end");
	ok(strncmp(text, "{\"type\":\"header\",\"format\":\"scaletop-stream\"", 43) == 0,
	   "the first line is the header, its type first");
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		r = read_chunked(text, len, seeds[i], &rc);
		diag("random chunks, seed %u", seeds[i]);
		is_int(rc, 0, "the stream reads back");
		is_str(stream_reader_error(r), "", "no error");
		is_int(stream_reader_nnotes(r), 0, "no notes");
		ok(stream_reader_ended(r), "the end line is seen");
		compare_header(stream_reader_session(r), want);
		compare_steps(stream_reader_session(r), want);
		compare_events(stream_reader_session(r), want);
		compare_ticks(r, d);
		compare_analysis(r, a);
		stream_reader_free(r);
	}
}

/* --- damaged and foreign streams ------------------------------------------ */

/* The offset just after the k-th newline (k from 1). */
static size_t
after_line(const char *text, int k)
{
	const char *p = text;

	while (k-- > 0 && (p = strchr(p, '\n')) != NULL)
		p++;
	return p != NULL ? (size_t)(p - text) : strlen(text);
}

static void
test_truncated(const char *text)
{
	struct stream_reader *r = stream_reader_new("cut.jsonl");
	size_t cut = after_line(text, 5) + 30; /* 30 bytes into line 6, the second step */

	is_int(stream_reader_feed(r, text, cut), 0, "a stream cut mid-line feeds");
	is_int(stream_reader_finish(r), 0, "and finishes without an error");
	is_int(stream_reader_nnotes(r), 1, "with one note");
	is_str(stream_reader_note(r, 0),
	       "cut.jsonl: truncated: last line incomplete, replayed up to line 5", "the note");
	is_int(stream_reader_session(r)->nsteps, 1, "the step before the cut is kept");
	is_int(stream_reader_session(r)->nevents, 1, "so is the event");
	is_int((int)stream_reader_nticks(r), 2, "and the ticks");
	ok(!stream_reader_ended(r), "no end was seen");
	is_int(stream_reader_feed(r, "x", 1), -1, "input after the end is refused");
	stream_reader_free(r);
}

/* Reads text with extra put in after line k; returns the reader. */
static struct stream_reader *
read_spliced(const char *text, int k, const char *extra, int *rc)
{
	struct stream_reader *r = stream_reader_new(NULL);
	size_t at = after_line(text, k);

	*rc = stream_reader_feed(r, text, at);
	if (*rc == 0)
		*rc = stream_reader_feed(r, extra, strlen(extra));
	if (*rc == 0)
		*rc = stream_reader_feed(r, text + at, strlen(text + at));
	if (*rc == 0)
		*rc = stream_reader_finish(r);
	return r;
}

static void
test_bad_lines(const char *text)
{
	static const struct {
		int after;
		const char *line, *error, *name;
	} bad[] = {
		{ 2, "not json\n", "line 3: column 3: not JSON", "garbage" },
		{ 2, "[1,2]\n", "line 3: not a JSON object", "an array" },
		{ 2, "{\"t\":1}\n", "line 3: no \"type\"", "a line without a type" },
		{ 0, "{\"type\":\"tick\",\"t\":1}\n", "line 1: \"tick\" before the header",
		  "a tick before the header" },
		{ 1,
		  "{\"type\":\"tick\",\"t\":1,\"phase\":\"measuring\",\"steps_total\":1,"
		  "\"all\":{\"usr\":150}}\n",
		  "line 2: tick: \"usr\" is not a percentage", "a percentage beyond 100" },
		{ 1, "{\"type\":\"tick\",\"t\":1,\"phase\":\"sleeping\",\"steps_total\":1}\n",
		  "line 2: tick: \"phase\" is not a word", "an unknown phase" },
		{ 1, "{\"type\":\"tick\",\"t\":\"1\",\"phase\":\"idle\",\"steps_total\":1}\n",
		  "line 2: tick: \"t\" is not a number", "a time that is a string" },
		{ 1,
		  "{\"type\":\"tick\",\"t\":1,\"phase\":\"idle\",\"steps_total\":1,"
		  "\"cpus\":[{\"cpu\":70000}]}\n",
		  "line 2: tick: \"cpu\" is out of range", "a CPU id beyond the limit" },
		{ 3, "{\"type\":\"step\",\"index\":4}\n", "line 4: step: \"n\" is missing",
		  "a step without its fields" },
		{ 1, "{\"type\":\"header\"}\n", "line 2: a second header", "a second header" },
		{ 10, "{\"type\":\"event\",\"t\":1,\"kind\":\"info\",\"text\":\"x\"}\n",
		  "line 11: a line after the end line", "a line after the end" },
	};
	struct stream_reader *r;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = read_spliced(text, bad[i].after, bad[i].line, &rc);
		is_int(rc, -1, bad[i].name);
		ok(strncmp(stream_reader_error(r), bad[i].error, strlen(bad[i].error)) == 0,
		   "%s: the error names the line (%s)", bad[i].name, stream_reader_error(r));
		stream_reader_free(r);
	}
	r = read_spliced(text, 3, "{\"type\":\"step\",\"index\":7}\n", &rc);
	ok(strstr(stream_reader_error(r), "line 4: step: \"n\"") != NULL, "error fields first");
	stream_reader_free(r);
	r = read_spliced(text, 2, "garbage\n", &rc);
	ok(stream_reader_have_header(r) && stream_reader_nticks(r) == 1,
	   "what came before a bad line stays readable");
	is_int(stream_reader_feed(r, "\n", 1), -1, "a failed reader refuses more input");
	stream_reader_free(r);
}

static void
test_unknown_and_blank(const char *text)
{
	struct stream_reader *r;
	int rc;

	r = read_spliced(text, 2,
			 "{\"type\":\"flamegraph\",\"x\":[1]}\n"
			 "{\"type\":\"flamegraph\"}\n\r\n  \n",
			 &rc);
	is_int(rc, 0, "unknown types and blank lines are skipped");
	is_int(stream_reader_session(r)->nsteps, 2, "everything else is read");
	is_int(stream_reader_nnotes(r), 2, "one note for the unknown type, one for the count");
	ok(strstr(stream_reader_note(r, 0), "line 3: skipped a line of unknown type "
					    "\"flamegraph\"") != NULL,
	   "the note names the first unknown line (%s)", stream_reader_note(r, 0));
	ok(strstr(stream_reader_note(r, 1), "counts 9 lines before it, but 13") != NULL,
	   "the end line's count shows lines were added (%s)", stream_reader_note(r, 1));
	stream_reader_free(r);
	r = read_spliced(text, 1, "{\"type\":\"\\u001b[2J\"}\n\033]0;x\007\n", &rc);
	ok(strstr(stream_reader_note(r, 0), "type \"?[2J\"") != NULL &&
		   strchr(stream_reader_error(r), '\033') == NULL,
	   "control characters from the file never reach the terminal");
	stream_reader_free(r);
}

/* A live pipe: each line counts once whole, and the viewer hears what changed. */
static void
test_live(const char *text)
{
	struct stream_reader *r = stream_reader_new(NULL);
	size_t l1 = after_line(text, 1), l2 = after_line(text, 2);

	stream_reader_feed(r, text, l1 - 1);
	ok(!stream_reader_have_header(r) && stream_reader_changes(r) == 0,
	   "a line is not applied before its newline");
	stream_reader_feed(r, text + l1 - 1, l2 - l1 + 1);
	is_int((int)stream_reader_changes(r), STREAM_GOT_HEADER | STREAM_GOT_TICK,
	       "the newline brings the header, then a tick");
	is_int((int)stream_reader_changes(r), 0, "changes are cleared once read");
	ok(stream_reader_nticks(r) == 1 && stream_reader_session(r)->nsteps == 0,
	   "the state so far is readable mid-stream");
	stream_reader_feed(r, text + l2, strlen(text + l2));
	is_int((int)stream_reader_changes(r),
	       STREAM_GOT_TICK | STREAM_GOT_STEP | STREAM_GOT_EVENT | STREAM_GOT_ANALYSIS |
		       STREAM_GOT_END,
	       "then the rest");
	is_u64(stream_reader_lines(r), 10, "ten whole lines");
	stream_reader_free(r);
}

static void
test_crlf(const char *text, size_t len)
{
	struct stream_reader *r = stream_reader_new(NULL);
	char *crlf = malloc(2 * len + 1), *q = crlf;
	const char *p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '\n')
			*q++ = '\r';
		*q++ = *p;
	}
	stream_reader_feed(r, crlf, (size_t)(q - crlf));
	is_int(stream_reader_finish(r), 0, "a stream with CRLF line ends reads");
	is_int(stream_reader_session(r)->nevents, 3, "all of it");
	stream_reader_free(r);
	free(crlf);
}

static void
test_empty(void)
{
	struct stream_reader *r = stream_reader_new("none.jsonl");

	is_int(stream_reader_feed(r, "", 0), 0, "feeding nothing is fine");
	is_int(stream_reader_finish(r), -1, "but an empty stream is an error");
	is_str(stream_reader_error(r),
	       "none.jsonl: empty: no header line, so not a scaletop stream", "that says so");
	ok(stream_reader_session(r)->nsteps == 0 && stream_reader_nticks(r) == 0,
	   "and holds nothing");
	stream_reader_free(r);
	r = stream_reader_new(NULL);
	stream_reader_feed(r, "{\"type\":\"hea", 12);
	is_int(stream_reader_finish(r), -1, "a cut header is an error");
	is_str(stream_reader_note(r, 0), "truncated: last line incomplete, replayed up to line 0",
	       "with the note");
	stream_reader_free(r);
}

static void
test_limits(const char *text, size_t len)
{
	struct stream_reader *r = stream_reader_new(NULL);
	char *big;

	stream_reader_set_limits(r, 1, 0);
	stream_reader_feed(r, text, len);
	is_int(stream_reader_finish(r), 0, "a stream beyond the tick limit reads");
	is_int((int)stream_reader_nticks(r), 1, "only the first tick is kept for scrubbing");
	is_int(series_len(&stream_reader_session(r)->ticks), 2, "the recent series has both");
	ok(stream_reader_nnotes(r) == 1 &&
		   strstr(stream_reader_note(r, 0), "kept the first 1") != NULL,
	   "with a note");
	stream_reader_free(r);

	r = stream_reader_new(NULL);
	big = malloc(STREAM_MAX_LINE + 2);
	memset(big, ' ', STREAM_MAX_LINE + 1);
	big[STREAM_MAX_LINE + 1] = '\n';
	is_int(stream_reader_feed(r, big, STREAM_MAX_LINE + 2), -1, "an over-long line is refused");
	ok(strstr(stream_reader_error(r), "line 1: longer than 1048576 bytes") != NULL,
	   "naming the line and the limit");
	free(big);
	stream_reader_free(r);
}

static void
test_load(void)
{
	struct stream_reader *r = stream_reader_new(NULL);

	is_int(stream_reader_load(r, tmp_path("run.jsonl")), 0, "a file loads whole");
	is_int(stream_reader_session(r)->nsteps, 2, "with its steps");
	stream_reader_free(r);
	r = stream_reader_new(NULL);
	is_int(stream_reader_load(r, tmp_path("nope.jsonl")), -1, "a missing file is an error");
	ok(strstr(stream_reader_error(r), "cannot open") != NULL, "that says so");
	stream_reader_free(r);
}

/* --- the recorder's failures ---------------------------------------------- */

static void
test_open_refusal(void)
{
	char err[ST_ERRLEN] = "";
	struct recorder *rec = recorder_open(tmp_path("run.jsonl"), 0, err, sizeof(err));

	ok(rec == NULL, "an existing file is not overwritten");
	ok(strstr(err, "already exists") != NULL, "the message says why (%s)", err);
	rec = recorder_open(tmp_path("run.jsonl"), RECORDER_FORCE, err, sizeof(err));
	ok(rec != NULL, "unless forced");
	recorder_close(rec, err, sizeof(err));
	rec = recorder_open(tmp_path("no/such/dir.jsonl"), 0, err, sizeof(err));
	ok(rec == NULL && strstr(err, "No such file") != NULL, "a bad path is refused (%s)", err);
}

static void
test_full_disk(struct session *s)
{
	char err[ST_ERRLEN] = "";
	struct recorder *rec;

	if (access("/dev/full", W_OK) != 0) {
		skip("no /dev/full on this OS", "a full disk stops the recording");
		return;
	}
	rec = recorder_open("/dev/full", RECORDER_FORCE, err, sizeof(err));
	is_int(recorder_header(rec, s), -1, "a full disk fails the first line");
	ok(recorder_error(rec) != NULL && strstr(recorder_error(rec), "No space left") != NULL,
	   "once, saying why (%s)", recorder_error(rec) ? recorder_error(rec) : "");
	is_int(recorder_event(rec, &s->events[0]), 0, "then the recorder is quiet");
	is_int(recorder_close(rec, err, sizeof(err)), 0, "and closing does not report it again");
}

/* The reader at the other end of ssh goes away: EPIPE, not death by SIGPIPE. */
static void
test_closed_pipe(struct session *s)
{
	char err[ST_ERRLEN] = "";
	struct recorder *rec;
	int p[2], saved, rc1, rc2;
	const char *why;

	signal(SIGPIPE, SIG_IGN);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (pipe(p) != 0 || saved == -1) {
		skip("no pipe", "a closed pipe stops the recording");
		return;
	}
	dup2(p[1], STDOUT_FILENO);
	close(p[1]);
	close(p[0]);
	rec = recorder_open("-", 0, err, sizeof(err));
	rc1 = recorder_header(rec, s);
	rc2 = recorder_event(rec, &s->events[0]);
	why = recorder_error(rec);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	is_int(rc1, -1, "writing to a closed pipe fails");
	ok(why != NULL && strstr(why, "standard output stopped: Broken pipe") != NULL,
	   "with EPIPE, once (%s)", why ? why : "");
	is_int(rc2, 0, "then the run goes on quietly");
	recorder_close(rec, err, sizeof(err));
}

/* --- a real recording ----------------------------------------------------- */

/* A stream recorded from a real sweep of the `cpu` workload at 1 and 2 threads. */
/* The window so far in tick lines: the target's figures and the waits, the probes' among them. */
static void
test_tick_window(struct session *s, struct sweep_live *lv)
{
	struct wait_share w[2] = { { WAIT_WORKLOAD, WS_RUNNING, "", 1, 40 },
				   { WAIT_PROBE, WS_REPORTED, "Lock:wal", 1, 0 } };
	struct tick k = { .t = 20, .step = 1, .phase = PHASE_MEASURING, .rate = 5 };
	const char *path = tmp_path("win.jsonl");
	const struct target_figures *tg;
	const struct stream_tick *t;
	const struct wait_share *got;
	struct stream_reader *r;
	char err[ST_ERRLEN] = "";
	struct recorder *rec;
	int rc = 0, n, i;

	rec = recorder_open(path, 0, err, sizeof(err));
	if (rec == NULL) {
		ok(0, "the recorder opens win.jsonl: %s", err);
		return;
	}
	lv->tg = (struct target_figures){ .present = true,
					  .procs = 2,
					  .threads = 9,
					  .cpu_used = 0.75,
					  .user_cpu = 0.5,
					  .sys_cpu = 0.25,
					  .machine_pct = 18.75,
					  .have = TG_HAVE_CPU };
	lv->have_tg = lv->have_ct = true;
	lv->waits = w;
	lv->nwaits = 2;
	rc |= recorder_header(rec, s);
	for (i = 0; i < 3; i++) {
		k.t += 0.25;
		series_add(&s->ticks, &k, NULL);
		if (i == 2)
			lv->have_tg = false, lv->nwaits = 0;
		rc |= recorder_tick(rec, s, lv, &lv->ct);
	}
	lv->waits = NULL;
	lv->have_ct = false;
	ok(rc == 0 && recorder_close(rec, err, sizeof(err)) == 0, "ticks with a window recorded");
	r = stream_reader_new(NULL);
	is_int(stream_reader_load(r, path), 0, "and read back");
	is_int((int)stream_reader_nticks(r), 3, "  three ticks");
	t = stream_reader_tick(r, 0);
	tg = t != NULL ? stream_reader_tick_target(r, t) : NULL;
	ok(tg != NULL && tg->procs == 2 && tg->threads == 9 && tg->cpu_used == 0.75 &&
		   tg->machine_pct == 18.75 && (tg->have & TG_HAVE_CPU) &&
		   !(tg->have & TG_HAVE_CSW),
	   "  a tick's target figures, null ones not had");
	got = t != NULL ? stream_reader_tick_waits(r, t, &n) : NULL;
	ok(got != NULL && n == 2 && got[1].family == WAIT_PROBE && got[1].state == WS_REPORTED &&
		   strcmp(got[1].channel, "Lock:wal") == 0 && got[1].share == 1,
	   "  its waits, the probe's label among them");
	t = stream_reader_tick(r, 1);
	ok(t != NULL && stream_reader_tick_target(r, t) == tg &&
		   stream_reader_tick_waits(r, t, &n) == got && n == 2,
	   "  a repeated window is kept once");
	t = stream_reader_tick(r, 2);
	ok(t != NULL && stream_reader_tick_target(r, t) == NULL &&
		   stream_reader_tick_waits(r, t, &n) == NULL && n == 0,
	   "  a tick without them has neither");
	stream_reader_free(r);
	remove(path);
}

/* A tick's waits are refused as a step's are: the shares of a family sum to 1. */
static void
test_tick_window_refused(const char *text)
{
	static const char bad[] = "{\"type\":\"tick\",\"t\":1,\"phase\":\"measuring\","
				  "\"steps_total\":3,\"waits\":[{\"family\":\"probe\","
				  "\"state\":\"reported\",\"channel\":\"x\",\"share\":0.5}]}\n";
	struct stream_reader *r;
	int rc;

	r = read_spliced(text, 1, bad, &rc);
	is_int(rc, -1, "a tick whose probe shares sum to 0.5 is refused");
	ok(strstr(stream_reader_error(r),
		  "line 2: tick: waits: the probe family's shares at N=0 sum to 0.5") != NULL,
	   "  naming the line, the record and the rule (%s)", stream_reader_error(r));
	stream_reader_free(r);
}

static void
test_fixture(void)
{
	struct stream_reader *r = stream_reader_new(NULL);
	const struct stream_tick *t;
	const struct stream_cpu *c;
	double sum;
	size_t i;
	int k, s, measuring = 0, sums_ok = 1, window = 0, nw;

	is_int(stream_reader_load(r, fixture_path("streams/cpu-1-2.jsonl")), 0,
	       "a real recording reads");
	is_int(stream_reader_session(r)->nsteps, 2, "both steps");
	ok(stream_reader_ended(r) && stream_reader_nnotes(r) == 0, "complete, without notes");
	ok(stream_reader_nticks(r) > 10, "with its ticks (%zu)", stream_reader_nticks(r));
	for (i = 0; i < stream_reader_nticks(r); i++) {
		t = stream_reader_tick(r, i);
		c = stream_reader_tick_cpus(r, t);
		measuring += t->phase == PHASE_MEASURING && !isnan(t->rate) && t->rate > 0;
		window += stream_reader_tick_target(r, t) != NULL ||
			  stream_reader_tick_waits(r, t, &nw) != NULL;
		for (k = 0; k < t->ncpu; k++) {
			if (c[k].flags & CPU_USAGE_NO_DATA)
				continue;
			for (sum = 0, s = 0; s < CPU_NSTATES; s++)
				sum += stream_pct(c[k].pct[s]);
			sums_ok &= fabs(sum - 100) < 0.1;
		}
	}
	ok(measuring > 0, "measuring ticks carry a throughput");
	ok(window == 0, "an older stream's ticks read without a target or waits");
	ok(sums_ok, "every CPU's states add up to 100%%");
	stream_reader_free(r);
}

/* --- the same data in a snapshot and in a stream ------------------------- */

/*
 * A stream of obj as a line of this type, after the header line of s unless s
 * is NULL: the reader's error ("" if none).
 */
static void
stream_error(const struct session *s, json_t *obj, const char *type, char *err, size_t len)
{
	struct stream_reader *r = stream_reader_new("x.jsonl");
	char *text;
	json_t *h;

	if (s != NULL) {
		h = session_json_header(s);
		json_object_set_new(h, "format", json_string(STREAM_FORMAT));
		json_object_set_new(h, "version", json_integer(STREAM_VERSION));
		json_object_set_new(h, "type", json_string("header"));
		text = json_dumps(h, JSON_COMPACT);
		stream_reader_feed(r, text, strlen(text));
		stream_reader_feed(r, "\n", 1);
		free(text);
		json_decref(h);
	}
	json_object_set_new(obj, "type", json_string(type));
	text = json_dumps(obj, JSON_COMPACT);
	if (text != NULL)
		stream_reader_feed(r, text, strlen(text));
	stream_reader_feed(r, "\n", 1);
	stream_reader_finish(r);
	snprintf(err, len, "%s", stream_reader_error(r));
	stream_reader_free(r);
	free(text);
}

/* The header line of s with path set to v, as recorder_header frames it. */
static void
stream_header_error(const struct session *s, const char *path, json_t *v, char *err, size_t len)
{
	json_t *h = session_json_header(s);

	json_object_set_new(h, "format", json_string(STREAM_FORMAT));
	json_object_set_new(h, "version", json_integer(STREAM_VERSION));
	json_edit(h, path, v);
	stream_error(NULL, h, "header", err, len);
	json_decref(h);
}

/*
 * A bad value v (stolen) in host, workload or settings: the snapshot says
 * "x.json: WHY", the stream "x.jsonl: line 1: header: WHY", the same WHY.
 */
static void
refused_alike(const struct session *s, const char *path, json_t *v, const char *why,
	      const char *name)
{
	char snap[ST_ERRLEN], stream[ST_ERRLEN], want[ST_ERRLEN], what[128];

	json_incref(v);
	snapshot_error(s, path, v, snap, sizeof(snap));
	stream_header_error(s, path, v, stream, sizeof(stream));
	snprintf(want, sizeof(want), "x.json: %s", why);
	snprintf(what, sizeof(what), "%s: the snapshot is refused", name);
	is_str(snap, want, what);
	snprintf(want, sizeof(want), "x.jsonl: line 1: header: %s", why);
	snprintf(what, sizeof(what), "%s: so is the stream, in the same words", name);
	is_str(stream, want, what);
}

/* The hand-built run, its text made UTF-8 as the recorder makes it (a snapshot needs it too). */
static void
test_refused_alike(void)
{
	char host[301], snap[ST_ERRLEN], stream[ST_ERRLEN];
	struct session run, *s = &run;
	json_t *n, *st;

	build_header(s);
	build_steps(s);
	snprintf(s->wl.value[1], sizeof(s->wl.value[1]), "/srv/cafe");
	snprintf(s->steps[1].reason, sizeof(s->steps[1].reason), "exit status 3");

	n = json_pack("[i, i, i]", 1, 4, 2);
	refused_alike(s, "settings.n", n, "settings.n[2]: 2 after 4; expected ascending values",
		      "an N list out of order");
	n = json_pack("[i, i, i]", 1, 2, 2147483647);
	refused_alike(s, "settings.n", n,
		      "settings.n[2]: 2147483647 is out of range; expected an "
		      "integer from 1 to 4096",
		      "an N beyond NLIST_MAX");
	memset(host, 'h', sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	n = json_string(host);
	refused_alike(s, "host.hostname", n,
		      "host.hostname: a string of 300 bytes is too long; "
		      "expected at most 255",
		      "an over-long string");
	n = json_string("threads, processes or both");
	refused_alike(s, "workload.n_unit", n,
		      "workload.n_unit: a string of 26 bytes is too "
		      "long; expected at most 15",
		      "an over-long unit of N");

	/* A step: "steps[0].n" in the snapshot, the step line's own "n" in the stream. */
	snapshot_error(s, "steps.0.n", json_integer(5000), snap, sizeof(snap));
	is_str(snap, "x.json: steps[0].n: 5000 is out of range; expected an integer from 1 to 4096",
	       "a step's N beyond NLIST_MAX: the snapshot is refused");
	st = session_json_step(s, &s->steps[0]);
	json_object_set_new(st, "index", json_integer(0));
	json_object_set_new(st, "n", json_integer(5000));
	stream_error(s, st, "step", stream, sizeof(stream));
	is_str(stream,
	       "x.jsonl: line 2: step: n: 5000 is out of range; expected an integer from "
	       "1 to 4096",
	       "so is the stream's step line, in the same words");
	json_decref(st);

	/* An event: "events[0].text" in the snapshot, the event line's own "text". */
	snapshot_error(s, "events.0.text", json_string(host), snap, sizeof(snap));
	is_str(snap,
	       "x.json: events[0].text: a string of 300 bytes is too long; expected at most "
	       "255",
	       "an over-long event text: the snapshot is refused");
	st = session_json_event(&s->events[0]);
	json_object_set_new(st, "text", json_string(host));
	stream_error(s, st, "event", stream, sizeof(stream));
	is_str(stream,
	       "x.jsonl: line 2: event: text: a string of 300 bytes is too long; expected "
	       "at most 255",
	       "so is the stream's event line, in the same words");
	json_decref(st);
	n = json_string("yesterday");
	refused_alike(s, "started", n,
		      "started: 'yesterday' is not a UTC time; expected ISO-8601 "
		      "such as 2026-01-31T12:00:00Z",
		      "a start that is not a time");
	session_free(s);
}

/* The stream's own rules for events: the running step may be named, an unknown kind is info. */
static void
test_stream_events(void)
{
	static const char text[] = "{\"type\":\"event\",\"t\":1.5,\"step\":0,\"kind\":\"party\","
				   "\"text\":\"N=1 starts\"}\n";
	struct session run, *s = &run;
	struct stream_reader *r;
	char *line;
	json_t *h;

	build_header(s);
	snprintf(s->wl.value[1], sizeof(s->wl.value[1]), "/srv/cafe");
	h = session_json_header(s);
	json_object_set_new(h, "format", json_string(STREAM_FORMAT));
	json_object_set_new(h, "version", json_integer(STREAM_VERSION));
	json_object_set_new(h, "type", json_string("header"));
	line = json_dumps(h, JSON_COMPACT);
	r = stream_reader_new(NULL);
	stream_reader_feed(r, line, strlen(line));
	stream_reader_feed(r, "\n", 1);
	is_int(stream_reader_feed(r, text, strlen(text)), 0,
	       "an event of the step that runs, of a kind not known, is read");
	ok(stream_reader_session(r)->nevents == 1 &&
		   stream_reader_session(r)->events[0].kind == EV_INFO &&
		   stream_reader_session(r)->events[0].step == 0,
	   "as info, naming its step");
	stream_reader_free(r);
	free(line);
	json_decref(h);
	session_free(s);
}

int
main(void)
{
	struct session s;
	struct sweep_live lv;
	struct sample_delta d;
	struct analysis a;
	char *text;
	size_t len;

	if (mkdtemp(tmpdir) == NULL)
		return printf("Bail out! mkdtemp: %s\n", strerror(errno)), 1;
	build_header(&s);
	build_steps(&s);
	session_start_series(&s, 4, 64);
	build_live(&lv, &d);
	build_analysis(&a);
	text = record_run(&s, &lv, &a, &len);
	test_round_trip(text, len, &s, &d, &a);
	test_truncated(text);
	test_bad_lines(text);
	test_unknown_and_blank(text);
	test_live(text);
	test_crlf(text, len);
	test_empty();
	test_limits(text, len);
	test_load();
	test_open_refusal();
	test_full_disk(&s);
	test_closed_pipe(&s);
	test_fixture();
	test_tick_window(&s, &lv);
	test_tick_window_refused(text);
	test_refused_alike();
	test_stream_events();
	free(text);
	free(a.pts);
	sample_delta_free(&d);
	session_free(&s);
	remove(tmp_path("run.jsonl"));
	rmdir(tmpdir);
	return done_testing();
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The latency knee (src/model/analysis_knee.c) on a table of shapes: a flat
 * tail, a knee below the peak, a knee only after it, a rise inside the
 * throughput's CIs, noisy and steady trials, a tool's p95, latency missing
 * at some N, and a single N.  The figures and the clause are checked, and
 * the knee's member of a snapshot's analysis, written and read back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/analysis.h"
#include "scaletop/error.h"
#include "scaletop/session.h"
#include "scaletop/snapshot.h"
#include "../tap.h"

#define END -1

/* One shape: per N its throughput, CI (NaN: none) and each trial's tail (NaN: no latency). */
struct shape {
	const char *name;
	int pct; /* 99: a histogram's p99; else a tool's interval percentile */
	int npts, ntrials;
	int n[8];
	double x[8], ci[8];
	double tail[8][3];
};

static void
step_tail(struct step *st, int pct, double ms)
{
	st->lat.mean_ms = st->lat.p50_ms = st->lat.p90_ms = NAN;
	st->lat.p99_ms = st->lat.p999_ms = st->lat.max_ms = st->lat.pct_ms = NAN;
	if (isnan(ms))
		return;
	st->lat.count = 1000;
	if (pct == 99) {
		st->lat.method = LAT_HISTOGRAM;
		st->lat.mean_ms = ms / 2;
		st->lat.p50_ms = ms * 0.4;
		st->lat.p90_ms = ms * 0.8;
		st->lat.p99_ms = ms;
		st->lat.p999_ms = ms * 1.2;
		st->lat.max_ms = ms * 1.5;
	} else {
		st->lat.method = LAT_INTERVAL;
		st->lat.pct = pct;
		st->lat.pct_ms = ms;
	}
}

static void
build(struct session *s, const struct shape *sh)
{
	struct step *st;
	int i, t;

	session_init(s);
	snprintf(s->wl.name, sizeof(s->wl.name), "pgbench");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "transactions");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "clients");
	s->set.n = malloc(sizeof(*s->set.n) * (size_t)sh->npts);
	for (i = 0; i < sh->npts; i++)
		s->set.n[i] = sh->n[i];
	s->set.nn = sh->npts;
	s->set.duration_s = 2;
	s->set.warmup_s = 1;
	s->set.min_measure_s = 2;
	s->set.interval_s = 0.5;
	s->set.repeat = 1;
	s->set.trials = sh->ntrials;
	s->set.stall_s = 10;
	for (t = 0; t < sh->ntrials; t++) {
		for (i = 0; i < sh->npts; i++) {
			st = session_add_step(s, sh->n[i], 0);
			st->trial = t;
			st->ops_s = sh->x[i];
			st->status = STEP_OK;
			st->st.have_spread = !isnan(sh->ci[i]);
			st->st.ci95 = isnan(sh->ci[i]) ? 0 : sh->ci[i];
			step_tail(st, sh->pct, sh->tail[i][t]);
		}
	}
}

/* Analyses the shape; its knee into k and the verdict into v. */
static void
judge(const struct shape *sh, struct analysis_knee *k, char *v, size_t len)
{
	struct session s;
	struct analysis a;

	build(&s, sh);
	if (analysis_run(&s, NULL, &a) != 0)
		diag("%s: analysis_run failed", sh->name);
	*k = a.knee;
	snprintf(v, len, "%s", a.verdict);
	diag("%s: %s", sh->name, a.verdict);
	analysis_free(&a);
	session_free(&s);
}

static const double N_ = NAN;

static void
test_no_knee(void)
{
	const struct shape shapes[] = {
		{ "flat tail",
		  99,
		  4,
		  1,
		  { 1, 2, 4, 8 },
		  { 100, 190, 350, 600 },
		  { N_, N_, N_, N_ },
		  { { 1.0 }, { 1.1 }, { 1.2 }, { 1.3 } } },
		{ "after the peak",
		  99,
		  5,
		  1,
		  { 1, 2, 4, 8, 16 },
		  { 100, 190, 360, 400, 380 },
		  { N_, N_, N_, N_, N_ },
		  { { 1.0 }, { 1.1 }, { 1.2 }, { 1.5 }, { 9.0 } } },
		{ "at the peak",
		  99,
		  4,
		  1,
		  { 1, 2, 4, 8 },
		  { 100, 190, 360, 400 },
		  { N_, N_, N_, N_ },
		  { { 1.0 }, { 1.1 }, { 1.2 }, { 9.0 } } },
		{ "after the peak, a partial recovery beyond it",
		  99,
		  5,
		  1,
		  { 1, 2, 3, 4, 8 },
		  { 2000, 3000, 120, 170, 40 },
		  { 10, 10, 5, 5, 5 },
		  { { 0.0005 }, { 0.002 }, { 16 }, { 30 }, { 120 } } },
		{ "rise inside the CIs",
		  99,
		  5,
		  1,
		  { 1, 2, 4, 8, 16 },
		  { 100, 190, 360, 400, 448 },
		  { 5, 5, 10, 30, 30 },
		  { { 1.5 }, { 1.1 }, { 2.0 }, { 9.0 }, { 20 } } },
		{ "noisy trials",
		  99,
		  5,
		  2,
		  { 1, 2, 4, 8, 16 },
		  { 100, 190, 360, 400, 448 },
		  { N_, N_, N_, N_, N_ },
		  { { 1.0, 3.0 }, { 1.1, 3.5 }, { 2.0, 2.5 }, { 9.0, 10.0 }, { 20, 22 } } },
		{ "no latency",
		  99,
		  3,
		  1,
		  { 1, 2, 4 },
		  { 100, 190, 360 },
		  { N_, N_, N_ },
		  { { N_ }, { N_ }, { N_ } } },
		{ "a single N", 99, 1, 1, { 4 }, { 360 }, { N_ }, { { 9.0 } } },
	};
	struct analysis_knee k;
	char v[256];
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		judge(&shapes[i], &k, v, sizeof(v));
		ok(!k.found, "%s: no knee", shapes[i].name);
		ok(strstr(v, "latency") == NULL, "%s: the verdict names none", shapes[i].name);
	}
}

/* "shape: what", a test's name. */
static const char *
nm(const struct shape *sh, const char *what)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s: %s", sh->name, what);
	return buf;
}

/* A knee found: its figures and where the verdict has it. */
static void
knee_is(const struct shape *sh, int from, int to, double from_ms, double to_ms, int pct,
	const char *clause)
{
	struct analysis_knee k;
	char v[256], t[192];

	judge(sh, &k, v, sizeof(v));
	ok(k.found, "%s: a knee", sh->name);
	is_int(k.n_from, from, nm(sh, "from N"));
	is_int(k.n_to, to, nm(sh, "to N"));
	is_double(k.from_ms, from_ms, 1e-9, nm(sh, "from ms"));
	is_double(k.to_ms, to_ms, 1e-9, nm(sh, "to ms"));
	is_int(k.pct, pct, nm(sh, "percentile"));
	analysis_knee_text(&k, "clients", t, sizeof(t));
	is_str(t, clause, nm(sh, "the clause"));
	ok(strstr(v, clause) != NULL, "%s: the verdict has the clause", sh->name);
}

static void
test_knee(void)
{
	const struct shape below = { "below the peak",
				     99,
				     5,
				     1,
				     { 1, 2, 4, 8, 16 },
				     { 100, 190, 360, 400, 448 },
				     { N_, N_, N_, N_, N_ },
				     { { 1.5 }, { 1.1 }, { 2.0 }, { 9.0 }, { 20 } } };
	const struct shape trials = {
		"steady trials",
		99,
		5,
		2,
		{ 1, 2, 4, 8, 16 },
		{ 100, 190, 360, 400, 448 },
		{ 2, 3, 4, 5, 6 },
		{ { 1.0, 1.2 }, { 1.1, 1.3 }, { 2.0, 2.5 }, { 9.0, 10.0 }, { 20, 22 } }
	};
	const struct shape p95 = { "a tool's p95",
				   95,
				   4,
				   1,
				   { 1, 2, 4, 8 },
				   { 100, 190, 300, 330 },
				   { N_, N_, N_, N_ },
				   { { 0.5 }, { 0.52 }, { 6.0 }, { 12 } } };
	const struct shape gaps = { "latency missing at some N",
				    99,
				    5,
				    1,
				    { 1, 2, 4, 8, 16 },
				    { 100, 190, 360, 400, 448 },
				    { N_, N_, N_, N_, N_ },
				    { { N_ }, { 2.0 }, { N_ }, { 30 }, { 40 } } };

	knee_is(&below, 2, 8, 1.1, 9.0, 99,
		"p99 latency x8.2 from 2 to 8 clients (1.1 to 9.0 ms) while throughput still rose "
		"12%");
	knee_is(&trials, 1, 8, 1.1, 9.5, 99,
		"p99 latency x8.6 from 1 to 8 clients (1.1 to 9.5 ms) while throughput still rose "
		"12%");
	knee_is(&p95, 1, 4, 0.5, 6.0, 95,
		"p95 latency x12 from 1 to 4 clients (0.5 to 6.0 ms) while throughput still rose "
		"10%");
	knee_is(&gaps, 2, 8, 2.0, 30, 99,
		"p99 latency x15 from 2 to 8 clients (2.0 to 30 ms) while throughput still rose "
		"12%");
}

/* The file's first 64 KiB, NUL-terminated, in a static buffer; "" when it cannot be read. */
static const char *
slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* A snapshot keeps the knee in its analysis; one without a knee writes no such member. */
static void
test_saved(void)
{
	const struct shape below = { "saved",
				     99,
				     5,
				     1,
				     { 1, 2, 4, 8, 16 },
				     { 100, 190, 360, 400, 448 },
				     { N_, N_, N_, N_, N_ },
				     { { 1.5 }, { 1.1 }, { 2.0 }, { 9.0 }, { 20 } } };
	const struct shape flat = { "flat",
				    99,
				    3,
				    1,
				    { 1, 2, 4 },
				    { 100, 190, 350 },
				    { N_, N_, N_ },
				    { { 1.0 }, { 1.1 }, { 1.2 } } };
	const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	char path[512], err[ST_ERRLEN] = "";
	const char *text;
	struct session s;
	struct snapshot snap;

	snprintf(path, sizeof(path), "%s/test_knee.%ld.json", dir, (long)getpid());
	build(&s, &below);
	ok(snapshot_save(path, &s, NULL, true, err, sizeof(err)) == 0, "saved: written (%s)", err);
	session_free(&s);
	if (snapshot_load(path, &snap, err, sizeof(err)) != 0) {
		ok(0, "saved: read back (%s)", err);
		return;
	}
	is_str(snap.warning, "", "saved: the saved analysis agrees with the recomputed");
	ok(snap.saved.knee.found, "saved: the file has the knee");
	is_int(snap.saved.knee.n_from, 2, "saved: from N");
	is_int(snap.saved.knee.n_to, 8, "saved: to N");
	is_int(snap.saved.knee.n_peak, 16, "saved: the peak above it");
	is_double(snap.saved.knee.to_ms, 9.0, 1e-9, "saved: to ms");
	is_double(snap.saved.knee.rise, 448.0 / 400 - 1, 1e-9, "saved: the rise");
	snapshot_free(&snap);
	build(&s, &flat);
	ok(snapshot_save(path, &s, NULL, true, err, sizeof(err)) == 0, "flat: written (%s)", err);
	session_free(&s);
	text = slurp(path);
	ok(text[0] != '\0' && strstr(text, "\"knee\"") == NULL, "flat: no knee member in the file");
	unlink(path);
}

int
main(void)
{
	test_no_knee();
	test_knee();
	test_saved();
	return done_testing();
}

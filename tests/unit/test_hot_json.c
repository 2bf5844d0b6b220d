/*
 * A step's "hot" in the session's JSON: paths and spinning callers saved and
 * read back equal from a snapshot and from a stream, a step without it
 * loading as unsampled, and each bad value refused with its path.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/snapshot.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"

static char tmpdir[] = "/tmp/test_hot_json.XXXXXX";

static const char *
tpath(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static void
add_path(struct step_hot *h, enum wait_family f, uint64_t samples, int nk, const char *f0,
	 const char *f1, const char *f2)
{
	struct hot_path *p;
	const char *fr[] = { f0, f1, f2 };
	int i;

	h->paths = realloc(h->paths, sizeof(*h->paths) * (size_t)(h->npaths + 1));
	p = &h->paths[h->npaths++];
	memset(p, 0, sizeof(*p));
	p->family = f;
	for (i = 0; i < 3 && fr[i] != NULL; i++)
		snprintf(p->frame[p->nframes++], HOT_NAME_LEN, "%s", fr[i]);
	p->nkernel = nk;
	p->samples = samples;
	p->share = (double)samples / (double)h->samples[f];
}

static void
make_session(struct session *s)
{
	static const int n[] = { 1, 2 };
	struct step *st;
	struct step_hot *h;
	int i;

	session_init(s);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "box");
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	snprintf(s->wl.name, sizeof(s->wl.name), "fdtable");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "threads");
	s->set.n = malloc(sizeof(n));
	memcpy(s->set.n, n, sizeof(n));
	s->set.nn = 2;
	s->set.duration_s = 2;
	s->set.interval_s = 0.25;
	s->set.repeat = 1;
	for (i = 0; i < 2; i++) {
		st = session_add_step(s, n[i], 0);
		step_add_interval(st, 1000);
		step_add_interval(st, 1010);
		stats_compute(&st->st, st->iv, (size_t)st->niv);
		st->status = STEP_OK;
		st->window_s = 2;
		st->ops = 2010;
		st->ops_s = 1005;
	}
	h = &s->steps[1].hot;
	h->present = true;
	h->samples[WAIT_WORKLOAD] = 200;
	h->samples[WAIT_TARGET] = 10;
	h->spin_share[WAIT_WORKLOAD] = 0.25;
	add_path(h, WAIT_WORKLOAD, 50, 3, "native_queued_spin_lock_slowpath", "_raw_spin_lock",
		 "alloc_fd");
	add_path(h, WAIT_WORKLOAD, 30, 0, "wl_fdtable", "worker_main", NULL);
	add_path(h, WAIT_TARGET, 10, 1, "0xffffffff81000130", NULL, NULL);
	h->spins = calloc(1, sizeof(*h->spins));
	h->nspins = 1;
	h->spins[0].family = WAIT_WORKLOAD;
	snprintf(h->spins[0].spin, HOT_NAME_LEN, "native_queued_spin_lock_slowpath");
	snprintf(h->spins[0].caller, HOT_NAME_LEN, "alloc_fd");
	h->spins[0].samples = 50;
	h->spins[0].share = 0.25;
}

static int
same_hot(const struct step_hot *a, const struct step_hot *b)
{
	int i, j;

	if (a->present != b->present || a->npaths != b->npaths || a->nspins != b->nspins ||
	    memcmp(a->samples, b->samples, sizeof(a->samples)) != 0)
		return 0;
	for (i = 0; i < WAIT_NFAMILIES; i++)
		if (fabs(a->spin_share[i] - b->spin_share[i]) > 1e-12)
			return 0;
	for (i = 0; i < a->npaths; i++) {
		if (a->paths[i].family != b->paths[i].family ||
		    a->paths[i].nframes != b->paths[i].nframes ||
		    a->paths[i].nkernel != b->paths[i].nkernel ||
		    a->paths[i].samples != b->paths[i].samples ||
		    fabs(a->paths[i].share - b->paths[i].share) > 1e-12)
			return 0;
		for (j = 0; j < a->paths[i].nframes; j++)
			if (strcmp(a->paths[i].frame[j], b->paths[i].frame[j]) != 0)
				return 0;
	}
	for (i = 0; i < a->nspins; i++)
		if (a->spins[i].family != b->spins[i].family ||
		    strcmp(a->spins[i].spin, b->spins[i].spin) != 0 ||
		    strcmp(a->spins[i].caller, b->spins[i].caller) != 0 ||
		    a->spins[i].samples != b->spins[i].samples)
			return 0;
	return 1;
}

static void
test_round_trips(void)
{
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	struct session s;
	struct recorder *rec;
	struct stream_reader *r;
	const struct session *got;

	make_session(&s);
	ok(snapshot_save(tpath("a.json"), &s, NULL, false, err, sizeof(err)) == 0, "saves (%s)",
	   err);
	ok(snapshot_load(tpath("a.json"), &snap, err, sizeof(err)) == 0, "loads (%s)", err);
	ok(!snap.s.steps[0].hot.present, "a step that was not sampled has no hot paths");
	ok(same_hot(&snap.s.steps[1].hot, &s.steps[1].hot), "the sampled step's paths come back");
	snapshot_free(&snap);

	rec = recorder_open(tpath("a.jsonl"), 0, err, sizeof(err));
	ok(rec != NULL && recorder_header(rec, &s) == 0 && recorder_step(rec, &s, 0) == 0 &&
		   recorder_step(rec, &s, 1) == 0 && recorder_close(rec, err, sizeof(err)) == 0,
	   "a stream is written (%s)", err);
	r = stream_reader_new(NULL);
	is_int(stream_reader_load(r, tpath("a.jsonl")), 0, "and read back");
	got = stream_reader_session(r);
	ok(got->nsteps == 2 && same_hot(&got->steps[1].hot, &s.steps[1].hot),
	   "the stream's step has the same paths");
	stream_reader_free(r);
	session_free(&s);
}

static void
refused(const char *path, json_t *v, const char *want)
{
	char err[ST_ERRLEN];
	struct session s;

	make_session(&s);
	snapshot_error(&s, path, v, err, sizeof(err));
	ok(strstr(err, want) != NULL, "%s refused: %s", path, err);
	session_free(&s);
}

static void
test_refusals(void)
{
	char err[ST_ERRLEN];
	struct session s;

	refused("steps.1.hot.paths.0.family", json_string("probe"), "steps[1].hot.paths[0]");
	refused("steps.1.hot.paths.0.share", json_real(1.5), "share");
	refused("steps.1.hot.paths.1.share", json_real(0.9), "paths sum to");
	refused("steps.1.hot.paths.0.kernel_frames", json_integer(4), "kernel_frames");
	refused("steps.1.hot.paths.0.frames.0", json_integer(4), "frames[0]");
	refused("steps.1.hot.spin.0.spin", json_null(), "spin");
	refused("steps.1.hot.samples.workload", json_integer(-1), "samples.workload");
	refused("steps.1.hot.spin_share", NULL, "spin_share");
	refused("steps.1.hot", json_integer(3), "steps[1].hot");
	make_session(&s);
	snapshot_error(&s, "steps.1.hot", json_null(), err, sizeof(err));
	is_str(err, "", "a null hot is a step that was not sampled");
	snapshot_error(&s, "steps.1.hot.spin.0.caller", json_null(), err, sizeof(err));
	is_str(err, "", "a spin with no caller loads");
	session_free(&s);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return ok(0, "mkdtemp"), done_testing();
	test_round_trips();
	test_refusals();
	remove_tree(tmpdir);
	return done_testing();
}

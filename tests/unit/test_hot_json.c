/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's "hot" in the session's JSON: paths, functions' own samples and
 * spinning callers (kernel and user) saved and read back equal from a
 * snapshot and from a stream, a step without it loading as unsampled, a
 * file from before the functions and user spin were kept loading as none,
 * and each bad value refused with its path.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"
#include "json_steps.h"

static char tmpdir[] = "/tmp/test_hot_json.XXXXXX";

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
	struct step_hot *h;

	json_steps_session(s, "fdtable", n, 2);
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
	h->spin_share[WAIT_WORKLOAD] = 0.35;
	h->user_spin_share[WAIT_WORKLOAD] = 0.10;
	h->spins = realloc(h->spins, 2 * sizeof(*h->spins));
	h->nspins = 2;
	memset(&h->spins[1], 0, sizeof(h->spins[1]));
	h->spins[1].family = WAIT_WORKLOAD;
	h->spins[1].user = true;
	snprintf(h->spins[1].spin, HOT_NAME_LEN, "pthread_spin_lock");
	snprintf(h->spins[1].caller, HOT_NAME_LEN, "wl_fdtable");
	h->spins[1].samples = 20;
	h->spins[1].share = 0.10;
	h->selfs = calloc(2, sizeof(*h->selfs));
	h->nselfs = 2;
	h->selfs[0].family = WAIT_WORKLOAD;
	h->selfs[0].kernel = true;
	snprintf(h->selfs[0].func, HOT_NAME_LEN, "native_queued_spin_lock_slowpath");
	h->selfs[0].samples = 50;
	h->selfs[0].share = 0.25;
	h->selfs[1].family = WAIT_TARGET;
	snprintf(h->selfs[1].func, HOT_NAME_LEN, "0xffffffff81000130");
	h->selfs[1].samples = 10;
	h->selfs[1].share = 1.0;
}

static int
same_selfs(const struct step_hot *a, const struct step_hot *b)
{
	int i;

	if (a->nselfs != b->nselfs)
		return 0;
	for (i = 0; i < a->nselfs; i++)
		if (a->selfs[i].family != b->selfs[i].family ||
		    a->selfs[i].kernel != b->selfs[i].kernel ||
		    strcmp(a->selfs[i].func, b->selfs[i].func) != 0 ||
		    a->selfs[i].samples != b->selfs[i].samples ||
		    fabs(a->selfs[i].share - b->selfs[i].share) > 1e-12)
			return 0;
	return 1;
}

static int
same_hot(const struct step_hot *a, const struct step_hot *b)
{
	int i, j;

	if (a->present != b->present || a->npaths != b->npaths || a->nspins != b->nspins ||
	    memcmp(a->samples, b->samples, sizeof(a->samples)) != 0)
		return 0;
	for (i = 0; i < WAIT_NFAMILIES; i++)
		if (fabs(a->spin_share[i] - b->spin_share[i]) > 1e-12 ||
		    fabs(a->user_spin_share[i] - b->user_spin_share[i]) > 1e-12)
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
		    a->spins[i].user != b->spins[i].user ||
		    a->spins[i].samples != b->spins[i].samples)
			return 0;
	return same_selfs(a, b);
}

static void
test_round_trips(void)
{
	struct snapshot snap;
	struct session s;
	struct stream_reader *r;
	const struct session *got;

	make_session(&s);
	if (json_steps_round_trip(&s, tmpdir, &snap, &r) == 0) {
		ok(!snap.s.steps[0].hot.present, "a step that was not sampled has no hot paths");
		ok(same_hot(&snap.s.steps[1].hot, &s.steps[1].hot),
		   "the sampled step's paths come back");
		snapshot_free(&snap);
		got = stream_reader_session(r);
		ok(same_hot(&got->steps[1].hot, &s.steps[1].hot),
		   "the stream's step has the same paths");
		stream_reader_free(r);
	}
	session_free(&s);
}

static void
refused(const char *path, json_t *v, const char *want)
{
	json_steps_refused(make_session, path, v, want);
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
	refused("steps.1.hot.self.0.function", json_null(), "self[0]");
	refused("steps.1.hot.self.0.kernel", json_integer(1), "kernel");
	refused("steps.1.hot.self.1.share", json_real(1.5), "share");
	refused("steps.1.hot.self.0.family", json_string("probe"), "steps[1].hot.self[0]");
	refused("steps.1.hot.self", json_integer(2), "self");
	refused("steps.1.hot.spin.1.user", json_string("yes"), "user");
	refused("steps.1.hot.user_spin_share.workload", json_real(0.5), "more than its spin");
	refused("steps.1.hot.user_spin_share.workload", json_real(-0.1), "user_spin_share");
}

/* A file from before the functions and user spin were kept: they load as none. */
static void
test_older(void)
{
	char err[ST_ERRLEN] = "";
	struct session s, got;
	json_t *root;
	char *text;
	const struct step_hot *h;

	make_session(&s);
	root = session_json_labelled(&s, NULL, NULL);
	json_edit(root, "steps.1.hot.self", NULL);
	json_edit(root, "steps.1.hot.user_spin_share", NULL);
	json_edit(root, "steps.1.hot.spin.1.user", NULL);
	text = json_dumps(root, 0);
	session_init(&got);
	ok(text != NULL &&
		   snapshot_parse(text, strlen(text), "x.json", &got, err, sizeof(err)) == 0,
	   "a hot with no self, no user_spin_share and a spin with no user flag loads: %s", err);
	h = &got.steps[1].hot;
	ok(got.nsteps == 2 && h->present && h->nselfs == 0 && h->selfs == NULL,
	   "with no functions");
	ok(got.nsteps == 2 && h->user_spin_share[WAIT_WORKLOAD] == 0 && h->nspins == 2 &&
		   !h->spins[1].user && h->spin_share[WAIT_WORKLOAD] == 0.35,
	   "and its spin the kernel's");
	session_free(&got);
	free(text);
	json_decref(root);
	session_free(&s);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return ok(0, "mkdtemp"), done_testing();
	test_round_trips();
	test_refusals();
	test_older();
	remove_tree(tmpdir);
	return done_testing();
}

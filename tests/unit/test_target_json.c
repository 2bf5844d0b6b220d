/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The system under test and the wait profile in the session's JSON: a
 * step's target figures and waits, contention.threads and the settings'
 * targets and probes saved and read back equal from a snapshot and from a
 * stream; each bad value refused in the same words by both; files from
 * before them still loading; and compare's tables of targets and waits.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/files.h"
#include "scaletop/session_json.h"
#include "scaletop/report.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"

static char tmpdir[] = "/tmp/test_target_json.XXXXXX";

static const char *
tpath(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

/* --- a session with a target, waits and probes ------------------------------ */

static void
add_wait(struct step *st, enum wait_family f, enum wait_state s, const char *channel, double share)
{
	struct wait_share *w;

	st->waits = realloc(st->waits, sizeof(*st->waits) * (size_t)(st->nwaits + 1));
	w = &st->waits[st->nwaits++];
	memset(w, 0, sizeof(*w));
	w->family = f;
	w->state = s;
	snprintf(w->channel, sizeof(w->channel), "%s", channel);
	w->share = share;
}

static struct step *
add_step(struct session *s, int n, double rate)
{
	struct step *st = session_add_step(s, n, 0);
	int i;

	for (i = 0; i < 4; i++)
		step_add_interval(st, rate * (1 + 0.01 * i));
	stats_compute(&st->st, st->iv, (size_t)st->niv);
	st->status = STEP_OK;
	st->start_s = 1.5 * n;
	st->warmup_s = 0.5;
	st->window_s = 2;
	st->ops = (uint64_t)(rate * 2);
	st->ops_s = rate;
	st->ct.vcsw_kop = 15.353;
	st->ct.vcsw_s = st->ct.ivcsw_s = st->ct.ivcsw_kop = 0.25;
	st->ct.threads = n + 1;
	st->ct.have = CT_HAVE_CSW | CT_HAVE_CSW_KOP | CT_HAVE_THREADS;
	return st;
}

/*
 * N=1: every target figure, every family; N=4: the target without pressure
 * or run delay, the target runnable far more; rate sets the throughput.
 */
static void
make_session(struct session *s, double runnable4)
{
	static const int n[] = { 1, 4 };
	struct step *st;

	session_init(s);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "db7");
	snprintf(s->host.os_name, sizeof(s->host.os_name), "Linux");
	snprintf(s->wl.name, sizeof(s->wl.name), "external");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "transactions");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "clients");
	s->set.n = malloc(sizeof(n));
	memcpy(s->set.n, n, sizeof(n));
	s->set.nn = 2;
	s->set.duration_s = 2;
	s->set.warmup_s = 0.5;
	s->set.interval_s = 0.25;
	s->set.repeat = 1;
	snprintf(s->set.target[0], TARGET_SPEC_LEN, "comm:mariadbd");
	snprintf(s->set.target[1], TARGET_SPEC_LEN, "cgroup:/system.slice/mariadb.service");
	s->set.ntargets = 2;
	snprintf(s->set.probe[0], TARGET_SPEC_LEN,
		 "psql -Atc \"select coalesce(wait_event_type||':'||wait_event,'CPU') from "
		 "pg_stat_activity where state='active'\"");
	s->set.nprobes = 1;

	st = add_step(s, 1, 1000);
	st->tg = (struct target_figures){ .present = true,
					  .procs = 1,
					  .threads = 37,
					  .cpu_used = 0.95,
					  .user_cpu = 0.8,
					  .sys_cpu = 0.15,
					  .vcsw_kop = 12.5,
					  .ivcsw_kop = 0.1,
					  .run_delay_pct = 1.25,
					  .machine_pct = 23.75,
					  .ops_per_cpu_s = 1234.5,
					  .psi_some_pct = 0.5,
					  .have = TG_HAVE_CPU | TG_HAVE_CSW | TG_HAVE_RUN_DELAY |
						  TG_HAVE_OPS_CPU | TG_HAVE_PSI };
	add_wait(st, WAIT_WORKLOAD, WS_SLEEPING, "do_epoll_wait", 0.75);
	add_wait(st, WAIT_WORKLOAD, WS_RUNNING, "", 0.25);
	add_wait(st, WAIT_TARGET, WS_RUNNING, "", 0.5);
	add_wait(st, WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 0.3);
	add_wait(st, WAIT_TARGET, WS_RUNNABLE, "", 0.03);
	add_wait(st, WAIT_TARGET, WS_UNINTERRUPTIBLE, "io_schedule", 0.17);
	add_wait(st, WAIT_PROBE, WS_REPORTED, "CPU", 1);
	st->pjoin = (struct probe_join){ .lines = 12, .joined = 9, .threads = 4, .thread_s = 9.25 };

	st = add_step(s, 4, 900);
	st->tg = (struct target_figures){ .present = true,
					  .procs = 1,
					  .threads = 40,
					  .cpu_used = 3.5,
					  .user_cpu = 2.5,
					  .sys_cpu = 1,
					  .machine_pct = 87.5,
					  .vcsw_kop = 40,
					  .ivcsw_kop = 2,
					  .have = TG_HAVE_CPU | TG_HAVE_CSW };
	add_wait(st, WAIT_WORKLOAD, WS_SLEEPING, "do_epoll_wait", 1);
	add_wait(st, WAIT_TARGET, WS_RUNNABLE, "", runnable4);
	add_wait(st, WAIT_TARGET, WS_SLEEPING, "futex_wait_queue", 0.38);
	add_wait(st, WAIT_TARGET, WS_RUNNING, "", 1 - 0.38 - runnable4);
}

/* --- equality ----------------------------------------------------------------- */

/* Equal to the 15 digits a stream keeps (a snapshot keeps every digit). */
static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-13 * fmax(1, fabs(a));
}

static int
same_target(const struct target_figures *a, const struct target_figures *b)
{
	return a->present == b->present && a->procs == b->procs && a->threads == b->threads &&
	       a->have == b->have &&
	       (!(a->have & TG_HAVE_CPU) ||
		(near(a->cpu_used, b->cpu_used) && near(a->user_cpu, b->user_cpu) &&
		 near(a->sys_cpu, b->sys_cpu) && near(a->machine_pct, b->machine_pct))) &&
	       (!(a->have & TG_HAVE_CSW) ||
		(near(a->vcsw_kop, b->vcsw_kop) && near(a->ivcsw_kop, b->ivcsw_kop))) &&
	       (!(a->have & TG_HAVE_RUN_DELAY) || near(a->run_delay_pct, b->run_delay_pct)) &&
	       (!(a->have & TG_HAVE_OPS_CPU) || near(a->ops_per_cpu_s, b->ops_per_cpu_s)) &&
	       (!(a->have & TG_HAVE_PSI) || near(a->psi_some_pct, b->psi_some_pct));
}

static int
same_waits(const struct step *a, const struct step *b)
{
	int i;

	if (a->nwaits != b->nwaits)
		return 0;
	for (i = 0; i < a->nwaits; i++) {
		if (a->waits[i].family != b->waits[i].family ||
		    a->waits[i].state != b->waits[i].state ||
		    strcmp(a->waits[i].channel, b->waits[i].channel) != 0 ||
		    !near(a->waits[i].share, b->waits[i].share))
			return 0;
	}
	return 1;
}

static void
same_session(const struct session *got, const struct session *want, const char *what)
{
	int i, tg = 1, w = 1, th = 1, pj = 1;

	is_int(got->nsteps, want->nsteps, what);
	for (i = 0; i < got->nsteps && i < want->nsteps; i++) {
		tg &= same_target(&got->steps[i].tg, &want->steps[i].tg);
		w &= same_waits(&got->steps[i], &want->steps[i]);
		pj &= got->steps[i].pjoin.lines == want->steps[i].pjoin.lines &&
		      got->steps[i].pjoin.joined == want->steps[i].pjoin.joined &&
		      got->steps[i].pjoin.threads == want->steps[i].pjoin.threads &&
		      near(got->steps[i].pjoin.thread_s, want->steps[i].pjoin.thread_s);
		th &= got->steps[i].ct.have == want->steps[i].ct.have &&
		      got->steps[i].ct.threads == want->steps[i].ct.threads;
	}
	ok(tg, "%s: every target figure, and which were measured", what);
	ok(w, "%s: every wait line: family, state, channel and share", what);
	ok(th, "%s: the workload's threads in contention", what);
	ok(pj && got->steps[0].pjoin.lines == 12,
	   "%s: the probe's join (lines, joined, threads, thread-seconds); none where none came",
	   what);
	ok(got->set.ntargets == 2 && strcmp(got->set.target[1], want->set.target[1]) == 0 &&
		   strcmp(got->set.target[0], "comm:mariadbd") == 0,
	   "%s: the --target specs", what);
	ok(got->set.nprobes == 1 && strcmp(got->set.probe[0], want->set.probe[0]) == 0,
	   "%s: the --probe command", what);
}

/* --- round trips -------------------------------------------------------------- */

static void
test_snapshot_round_trip(void)
{
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	struct session s;

	make_session(&s, 0.41);
	ok(snapshot_save(tpath("a.json"), &s, NULL, false, err, sizeof(err)) == 0,
	   "a snapshot with a target and waits saves (%s)", err);
	ok(snapshot_load(tpath("a.json"), &snap, err, sizeof(err)) == 0, "and loads (%s)", err);
	same_session(&snap.s, &s, "snapshot");
	snapshot_free(&snap);
	session_free(&s);
}

static void
test_stream_round_trip(void)
{
	char err[ST_ERRLEN] = "";
	struct stream_reader *r;
	struct recorder *rec;
	struct session s;
	int rc = 0;

	make_session(&s, 0.41);
	rec = recorder_open(tpath("a.jsonl"), 0, err, sizeof(err));
	ok(rec != NULL, "the recorder opens (%s)", err);
	if (rec == NULL) {
		session_free(&s);
		return;
	}
	rc |= recorder_header(rec, &s);
	rc |= recorder_step(rec, &s, 0);
	rc |= recorder_step(rec, &s, 1);
	ok(rc == 0 && recorder_close(rec, err, sizeof(err)) == 0, "the stream is written (%s)",
	   err);
	r = stream_reader_new(NULL);
	is_int(stream_reader_load(r, tpath("a.jsonl")), 0, "and read back");
	is_str(stream_reader_error(r), "", "  without an error");
	same_session(stream_reader_session(r), &s, "stream");
	stream_reader_free(r);
	session_free(&s);
}

/* A probe's label and a spec in Latin-1 still save: their bad bytes become '?'. */
static void
test_not_utf8(void)
{
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	struct session s;

	make_session(&s, 0.41);
	snprintf(s.steps[0].waits[6].channel, WAIT_CHANNEL_LEN, "Lock:caf\xe9");
	snprintf(s.set.target[0], TARGET_SPEC_LEN, "comm:caf\xe9");
	ok(snapshot_save(tpath("latin1.json"), &s, NULL, false, err, sizeof(err)) == 0,
	   "a label and a spec that are not UTF-8 save (%s)", err);
	ok(snapshot_load(tpath("latin1.json"), &snap, err, sizeof(err)) == 0, "and load (%s)", err);
	is_str(snap.s.steps[0].waits[6].channel, "Lock:caf?", "  the label's bad byte is '?'");
	is_str(snap.s.set.target[0], "comm:caf?", "  so is the spec's");
	snapshot_free(&snap);
	session_free(&s);
}

/* --- refused alike -------------------------------------------------------------- */

static void
feed_line(struct stream_reader *r, json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT);

	stream_reader_feed(r, text, strlen(text));
	stream_reader_feed(r, "\n", 1);
	free(text);
}

static json_t *
stream_header(const struct session *s)
{
	json_t *h = session_json_header(s);

	json_object_set_new(h, "type", json_string("header"));
	json_object_set_new(h, "format", json_string(STREAM_FORMAT));
	json_object_set_new(h, "version", json_integer(STREAM_VERSION));
	return h;
}

/* A stream of s's header and step 0's line, with path set to v in the step (or the header). */
static void
stream_error(const struct session *s, bool header, const char *path, json_t *v, char *err,
	     size_t len)
{
	struct stream_reader *r = stream_reader_new("x.jsonl");
	json_t *h = stream_header(s), *st = session_json_step(s, &s->steps[0]);

	json_object_set_new(st, "type", json_string("step"));
	json_object_set_new(st, "index", json_integer(0));
	json_edit(header ? h : st, path, v);
	feed_line(r, h);
	feed_line(r, st);
	stream_reader_finish(r);
	snprintf(err, len, "%s", stream_reader_error(r));
	stream_reader_free(r);
	json_decref(h);
	json_decref(st);
}

/* A bad v (stolen) in step 0 at path: "x.json: steps[0].PATH: WHY" and "step: PATH: WHY". */
static void
step_refused(const struct session *s, const char *path, json_t *v, const char *why,
	     const char *name)
{
	char snap[ST_ERRLEN], stream[ST_ERRLEN], full[128], want[ST_ERRLEN], what[160];

	snprintf(full, sizeof(full), "steps.0.%s", path);
	json_incref(v);
	snapshot_error(s, full, v, snap, sizeof(snap));
	stream_error(s, false, path, v, stream, sizeof(stream));
	snprintf(want, sizeof(want), "x.json: steps[0].%s", why);
	snprintf(what, sizeof(what), "%s: the snapshot is refused", name);
	is_str(snap, want, what);
	snprintf(want, sizeof(want), "x.jsonl: line 2: step: %s", why);
	snprintf(what, sizeof(what), "%s: so is the stream, in the same words", name);
	is_str(stream, want, what);
}

static void
settings_refused(const struct session *s, const char *path, json_t *v, const char *why,
		 const char *name)
{
	char snap[ST_ERRLEN], stream[ST_ERRLEN], want[ST_ERRLEN], what[160];

	json_incref(v);
	snapshot_error(s, path, v, snap, sizeof(snap));
	stream_error(s, true, path, v, stream, sizeof(stream));
	snprintf(want, sizeof(want), "x.json: %s", why);
	snprintf(what, sizeof(what), "%s: the snapshot is refused", name);
	is_str(snap, want, what);
	snprintf(want, sizeof(want), "x.jsonl: line 1: header: %s", why);
	snprintf(what, sizeof(what), "%s: so is the stream, in the same words", name);
	is_str(stream, want, what);
}

static void
test_refused_alike(void)
{
	char long_channel[80], long_spec[300], err[ST_ERRLEN];
	struct session s;

	make_session(&s, 0.41);
	snapshot_error(&s, "label", json_string("fine"), err, sizeof(err));
	is_str(err, "", "the session's snapshot loads before it is spoiled");
	stream_error(&s, false, "index", json_integer(0), err, sizeof(err));
	is_str(err, "", "so does its stream");

	step_refused(&s, "waits.3.share", json_real(0.4),
		     "waits: the target family's shares at N=1 sum to 1.1; expected 1 (within "
		     "0.001)",
		     "a family's shares that do not sum to 1");
	step_refused(&s, "waits.0.share", json_real(0.5),
		     "waits: the workload family's shares at N=1 sum to 0.75; expected 1 "
		     "(within 0.001)",
		     "a family's shares short of 1");
	step_refused(&s, "waits.2.state", json_string("napping"),
		     "waits[2].state: 'napping' is not known; expected one of running, runnable, "
		     "sleeping, uninterruptible, reported, other",
		     "an unknown state");
	step_refused(&s, "waits.2.family", json_string("kernel"),
		     "waits[2].family: 'kernel' is not known; expected one of workload, target, "
		     "probe",
		     "an unknown family");
	memset(long_channel, 'w', sizeof(long_channel) - 1);
	long_channel[sizeof(long_channel) - 1] = '\0';
	step_refused(&s, "waits.3.channel", json_string(long_channel),
		     "waits[3].channel: a string of 79 bytes is too long; expected at most 63",
		     "an over-long channel");
	step_refused(&s, "waits.3.share", json_real(1.5),
		     "waits[3].share: 1.5 is out of range; expected a number from 0 to 1",
		     "a share over 1");
	step_refused(&s, "waits.3",
		     json_pack("{s:s, s:s, s:n, s:f}", "family", "target", "state", "running",
			       "channel", "share", 0.3),
		     "waits[3]: target running '' again (as in waits[2]); expected each line once",
		     "a line twice");
	step_refused(&s, "waits", json_string("none"), "waits: expected an array, got a string",
		     "waits of the wrong shape");
	step_refused(&s, "probe_join.unjoined", json_integer(2),
		     "probe_join: joined 9 and unjoined 2 lines of 12; expected them to add up",
		     "a probe join whose counts do not add up");
	step_refused(&s, "probe_join.threads", json_integer(10),
		     "probe_join.threads: 10 is out of range; expected an integer from 0 to 9",
		     "more threads joined than lines");
	step_refused(&s, "probe_join.lines", json_integer(0),
		     "probe_join.lines: 0 is out of range; expected an integer from 1 to "
		     "2147483647",
		     "a probe join of no line");
	step_refused(&s, "target.run_delay_pct", json_real(150),
		     "target.run_delay_pct: 150 is out of range; expected a number from 0 to 100",
		     "a target's run delay over 100%");
	step_refused(&s, "target.machine_pct", json_real(-1),
		     "target.machine_pct: -1 is out of range; expected a number from 0 to 100",
		     "a negative share of the machine");
	step_refused(&s, "target.user_cpu", json_null(),
		     "target.user_cpu: null; expected the same as the figures measured with it "
		     "(numbers)",
		     "half of a target's CPU figures");
	step_refused(&s, "target.threads", json_integer(-2),
		     "target.threads: -2 is out of range; expected an integer from 0 to "
		     "2147483647",
		     "a negative thread count");
	step_refused(&s, "contention.threads", json_real(2.5),
		     "contention.threads: expected an integer or null, got a real number",
		     "the workload's threads as a fraction");

	memset(long_spec, 's', sizeof(long_spec) - 1);
	long_spec[sizeof(long_spec) - 1] = '\0';
	settings_refused(&s, "settings.target.1", json_string(long_spec),
			 "settings.target[1]: a string of 299 bytes is too long; expected at "
			 "most 255",
			 "an over-long --target spec");
	settings_refused(&s, "settings.probe",
			 json_pack("[s, s, s, s, s]", "a", "b", "c", "d", "e"),
			 "settings.probe: 5 entries; expected at most 4", "too many probes");
	settings_refused(&s, "settings.target.0", json_string(""),
			 "settings.target[0]: empty; expected 1 to 255 bytes", "an empty spec");
	settings_refused(&s, "settings.target.0", json_integer(3),
			 "settings.target[0]: expected a string, got an integer",
			 "a spec that is not a string");
	session_free(&s);
}

/* --- what older files and writers give ------------------------------------------ */

static int
none_of_it(const struct session *s)
{
	int i, none = s->set.ntargets == 0 && s->set.nprobes == 0;

	for (i = 0; i < s->nsteps; i++)
		none &= !s->steps[i].tg.present && s->steps[i].nwaits == 0 &&
			s->steps[i].pjoin.lines == 0 && !(s->steps[i].ct.have & CT_HAVE_THREADS);
	return none;
}

static void
test_old_files(void)
{
	static const char *const snaps[] = { "snapshots/cpu-linux.json",
					     "snapshots/mutex-linux.json",
					     "snapshots/imported.json" };
	static const char *const streams[] = { "streams/cpu-1-2.jsonl", "streams/cpu-1-5.jsonl" };
	char err[ST_ERRLEN], what[128];
	struct stream_reader *r;
	struct snapshot snap;
	size_t i;

	for (i = 0; i < sizeof(snaps) / sizeof(snaps[0]); i++) {
		snprintf(what, sizeof(what), "%s, from before targets and waits, loads", snaps[i]);
		ok(snapshot_load(fixture_path(snaps[i]), &snap, err, sizeof(err)) == 0, "%s", what);
		ok(none_of_it(&snap.s), "  with no target, waits, thread count or specs");
		snapshot_free(&snap);
	}
	for (i = 0; i < sizeof(streams) / sizeof(streams[0]); i++) {
		r = stream_reader_new(NULL);
		snprintf(what, sizeof(what), "%s, from before targets and waits, reads",
			 streams[i]);
		is_int(stream_reader_load(r, fixture_path(streams[i])), 0, what);
		ok(stream_reader_session(r)->nsteps > 0 && none_of_it(stream_reader_session(r)),
		   "  with no target, waits, thread count or specs");
		stream_reader_free(r);
	}
}

/* The committed files with a target and waits: the stream recorded from the snapshot. */
static void
test_fixtures_with(void)
{
	const struct session *a, *b;
	struct stream_reader *r = stream_reader_new(NULL);
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	int i, same = 1;

	ok(snapshot_load(fixture_path("snapshots/mutex-waits.json"), &snap, err, sizeof(err)) == 0,
	   "mutex-waits.json loads (%s)", err);
	is_int(stream_reader_load(r, fixture_path("streams/mutex-waits.jsonl")), 0,
	       "mutex-waits.jsonl reads");
	a = &snap.s;
	b = stream_reader_session(r);
	same &= a->nsteps == 5 && b->nsteps == 5 && b->set.ntargets == 1 && b->set.nprobes == 1;
	for (i = 0; same && i < a->nsteps; i++)
		same &= a->steps[i].tg.present && a->steps[i].nwaits == 10 &&
			same_target(&a->steps[i].tg, &b->steps[i].tg) &&
			same_waits(&a->steps[i], &b->steps[i]);
	ok(same, "  both with the same target and waits at every step");
	snapshot_free(&snap);
	stream_reader_free(r);
}

/* What a writer may leave out: "waits" absent or [], "target" null, "threads" null. */
static void
test_optional(void)
{
	char err[ST_ERRLEN];
	struct session s;
	json_t *root;
	char *text;

	make_session(&s, 0.41);
	root = session_json_labelled(&s, NULL, NULL);
	session_free(&s);
	json_edit(root, "steps.0.waits", json_array());
	json_edit(root, "steps.0.target", json_null());
	json_edit(root, "steps.0.contention.threads", json_null());
	json_edit(root, "steps.1.waits", NULL);
	json_edit(root, "steps.1.target", NULL);
	json_edit(root, "settings.probe", json_array());
	text = json_dumps(root, JSON_INDENT(2));
	err[0] = '\0';
	is_int(snapshot_parse(text, strlen(text), "x.json", &s, err, sizeof(err)), 0,
	       "empty waits, no target, no thread count and no probes load");
	is_str(err, "", "  without a message");
	ok(s.nsteps == 2 && s.steps[0].nwaits == 0 && s.steps[1].nwaits == 0 &&
		   !s.steps[0].tg.present && !s.steps[1].tg.present &&
		   !(s.steps[0].ct.have & CT_HAVE_THREADS) &&
		   (s.steps[1].ct.have & CT_HAVE_THREADS),
	   "  as none of each");
	ok(s.set.nprobes == 0 && s.set.ntargets == 2, "  the targets kept, no probes");
	session_free(&s);
	free(text);
	json_decref(root);

	make_session(&s, 0.41);
	s.set.ntargets = s.set.nprobes = 0;
	s.steps[0].tg.present = false;
	root = session_json_labelled(&s, NULL, NULL);
	ok(json_object_get(json_object_get(root, "settings"), "target") == NULL &&
		   json_object_get(json_object_get(root, "settings"), "probe") == NULL,
	   "settings without targets or probes leave both out");
	ok(json_object_get(json_array_get(json_object_get(root, "steps"), 0), "target") == NULL,
	   "a step without a target leaves it out");
	json_decref(root);
	session_free(&s);
}

/* --- compare ---------------------------------------------------------------------- */

/* compare's table t written by snapshot_compare_csv_write, read back ("" when it failed). */
static char *
compare_file(struct snapshot *const *v, int k, enum snapshot_compare_table t, const char *name)
{
	char err[ST_ERRLEN] = "", *buf = NULL;
	size_t len = 0;

	if (snapshot_compare_csv_write(tpath(name), t, v, k, true, err, sizeof(err)) != 0 ||
	    file_read_all(tpath(name), 1 << 20, &buf, &len) != 0) {
		diag("%s: %s", name, err);
		free(buf);
		return strdup("");
	}
	remove(tpath(name));
	return buf;
}

static char *
compare_out(struct snapshot *const *v, int k, bool csv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (csv)
		snapshot_compare_csv(f, v, k, NULL);
	else
		snapshot_compare_text(f, v, k, NULL);
	fclose(f);
	return buf;
}

static void
save_load(struct session *s, const char *name, struct snapshot *snap)
{
	char err[ST_ERRLEN] = "";

	if (snapshot_save(tpath(name), s, NULL, true, err, sizeof(err)) != 0 ||
	    snapshot_load(tpath(name), snap, err, sizeof(err)) != 0)
		diag("%s: %s", name, err);
	session_free(s);
}

static void
test_compare(void)
{
	struct snapshot a, b, *v[2] = { &a, &b };
	struct session s;
	char *out;

	make_session(&s, 0.03);
	save_load(&s, "cmp-a.json", &a);
	make_session(&s, 0.41);
	s.steps[0].tg.present = false; /* B had no target at N=1 */
	save_load(&s, "cmp-b.json", &b);
	out = compare_out(v, 2, false);
	if (getenv("TEST_SHOW") != NULL)
		diag("%s", out);
	ok(strstr(out, "\nwaits: the largest lines of each family's share of its thread-time at "
		       "N; the differences in points\n") != NULL,
	   "compare: a waits section");
	ok(strstr(out, "     4  target    runnable         -                               "
		       "3.0%   41.0%   +38.0\n") != NULL,
	   "  a line with A's share, B's share and the difference in points");
	ok(strstr(out, "     4  target    running          -                              "
		       "59.0%   21.0%   -38.0\n") != NULL,
	   "  the running share that fell as runnable rose");
	ok(strstr(out, "     1  probe     reported         CPU                           "
		       "100.0%  100.0%    +0.0\n") != NULL,
	   "  a probe's label as its channel");
	ok(strstr(out, "     4  workload  sleeping         do_epoll_wait") != NULL &&
		   strstr(out, "     4  probe") == NULL,
	   "  a family neither has at an N is left out");
	ok(strstr(out, "     1    A      1      37   0.95   0.80   0.15   23.8    12.50      "
		       "0.10    1.2    1.23k    0.5\n     1    B      -") != NULL,
	   "compare: the target's figures of A and B one under the other, - where B has none");
	ok(strstr(out, "     4    B      1      40   3.50   2.50   1.00   87.5    40.00      "
		       "2.00      -        -      -\n") != NULL,
	   "  a figure not measured is -");
	free(out);
	out = compare_out(v, 2, true);
	ok(strstr(out, "\n\n") == NULL && strstr(out, "family") == NULL &&
		   strstr(out, "procs") == NULL,
	   "compare --csv: the throughput's table alone");
	free(out);
	out = compare_file(v, 2, SNAPSHOT_CMP_WAITS, "waits.csv");
	if (getenv("TEST_SHOW") != NULL)
		diag("%s", out);
	ok(strncmp(out, "n,family,state,channel,A share %,B share %,B-A points\n", 54) == 0 &&
		   strstr(out, "\n\n") == NULL,
	   "--csv-waits: one table, its header first");
	ok(strstr(out, "\n4,target,runnable,\"\",3,41,38\n") != NULL,
	   "  each line's shares and difference, in %% and points");
	free(out);
	out = compare_file(v, 2, SNAPSHOT_CMP_TARGET, "target.csv");
	ok(strncmp(out,
		   "n,snapshot,procs,threads,cpu_used,user_cpu,sys_cpu,machine_pct,"
		   "vcsw_kop,ivcsw_kop,run_delay_pct,ops_per_cpu_s,psi_some_pct\n",
		   123) == 0 &&
		   strstr(out, "\n4,B,1,40,3.5,2.5,1,87.5,40,2,,,\n") != NULL,
	   "--csv-target: one table, empty cells for what was not measured");
	free(out);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Neither snapshot has a target or waits: compare prints what it always printed. */
static void
test_compare_without(void)
{
	struct snapshot a, b, *v[2] = { &a, &b };
	char err[ST_ERRLEN];
	char *out;

	snapshot_load(fixture_path("snapshots/cpu-linux.json"), &a, err, sizeof(err));
	snapshot_load(fixture_path("snapshots/mutex-linux.json"), &b, err, sizeof(err));
	out = compare_out(v, 2, false);
	ok(strstr(out, "waits:") == NULL && strstr(out, "target:") == NULL,
	   "compare of files without waits or targets has neither section");
	free(out);
	out = compare_out(v, 2, true);
	ok(strstr(out, "\n\n") == NULL, "  nor has its CSV a second table");
	free(out);
	snapshot_free(&a);
	snapshot_free(&b);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return printf("Bail out! mkdtemp: %s\n", strerror(errno)), 1;
	test_snapshot_round_trip();
	test_stream_round_trip();
	test_not_utf8();
	test_refused_alike();
	test_old_files();
	test_fixtures_with();
	test_optional();
	test_compare();
	test_compare_without();
	remove_tree(tmpdir);
	return done_testing();
}

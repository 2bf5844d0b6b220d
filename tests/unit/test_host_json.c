/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's fingerprint and each step's frequency in the session's JSON:
 * every field saved and read back equal from a snapshot and a stream; bad
 * values refused in the same words by both; the older fixture snapshots
 * and streams still loading, as knowing none of it; show's lines; and
 * compare's warnings on a copy of a snapshot whose JSON differs in one
 * field (CPUs, SMT, governor, duration ...), with the OS's own differences
 * on a note line instead.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "scaletop/decode_host.h"
#include "scaletop/session_json.h"
#include "scaletop/report.h"
#include "scaletop/stream.h"
#include "../tap.h"
#include "json_edit.h"

static char tmpdir[] = "/tmp/test_host_json.XXXXXX";

static const char *
tpath(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

/* 2 sockets x 1 node x 1 LLC x 4 cores x 2 threads, one CPU offline. */
static void
fill_topology(struct topology *t)
{
	static const int v[TOPO_NLEVELS][4] = {
		[TOPO_SMT] = { 8, 2, 1, 2 },   [TOPO_LLC] = { 2, 8, 7, 8 },
		[TOPO_NODE] = { 2, 8, 7, 8 },  [TOPO_SOCKET] = { 2, 8, 7, 8 },
		[TOPO_CORES] = { 1, 8, 8, 8 }, [TOPO_ALL] = { 1, 15, 15, 15 },
	};
	static const char *const first[TOPO_NLEVELS] = { "0,8",      "0-3,8-11", "0-3,8-11",
							 "0-3,8-11", "0-7",      "0-14" };
	int l;

	t->online = 15;
	t->present = 16;
	t->llc_level = 3;
	snprintf(t->source, sizeof(t->source), "sysfs");
	for (l = 0; l < TOPO_NLEVELS; l++) {
		t->unit[l].count = v[l][0];
		t->unit[l].cpus = v[l][1];
		t->unit[l].min_cpus = v[l][2];
		t->unit[l].max_cpus = v[l][3];
		snprintf(t->unit[l].first, sizeof(t->unit[l].first), "%s", first[l]);
	}
}

static void
fill_host(struct host_info *h)
{
	snprintf(h->os_name, sizeof(h->os_name), "Linux");
	snprintf(h->os_release, sizeof(h->os_release), "6.8.0-31-generic");
	snprintf(h->hostname, sizeof(h->hostname), "metal");
	snprintf(h->cpu_model, sizeof(h->cpu_model), "Intel(R) Xeon(R) Gold 6230");
	h->ncpus = 16;
	snprintf(h->kernel_cmdline, sizeof(h->kernel_cmdline), "root=/dev/sda1 ro isolcpus=15");
	h->sockets = 2;
	h->cores = 8;
	h->threads = 16;
	h->smt = HOST_SMT_ON;
	h->numa_nodes = 2;
	snprintf(h->freq_driver, sizeof(h->freq_driver), "intel_pstate");
	snprintf(h->governor, sizeof(h->governor), "performance");
	h->freq_min_mhz = 800;
	h->freq_max_mhz = 3900;
	snprintf(h->hypervisor, sizeof(h->hypervisor), "none");
	snprintf(h->clocksource, sizeof(h->clocksource), "tsc");
	snprintf(h->boot_id, sizeof(h->boot_id), "34673e70-3f48-40bb-930c-2fa84aaf27c4");
	snprintf(h->scheduler, sizeof(h->scheduler), "sched_ext:rusty");
	host_mitigation_add(h, "spectre_v2", "Mitigation: Enhanced / Automatic IBRS", 37);
	host_mitigation_add(h, "mds", "Vulnerable: Clear CPU buffers attempted, no microcode", 53);
	host_mitigation_add(h, "meltdown", "Not affected", 12);
	fill_topology(&h->topo);
}

static void
make_session(struct session *s)
{
	static const int n[] = { 1, 2 };
	struct step *st;
	int i, j;

	session_init(s);
	fill_host(&s->host);
	snprintf(s->wl.name, sizeof(s->wl.name), "cpu");
	snprintf(s->wl.unit, sizeof(s->wl.unit), "ops");
	snprintf(s->wl.n_unit, sizeof(s->wl.n_unit), "threads");
	s->set.n = malloc(sizeof(n));
	memcpy(s->set.n, n, sizeof(n));
	s->set.nn = 2;
	s->set.duration_s = 2;
	s->set.warmup_s = 0.5;
	s->set.interval_s = 0.25;
	s->set.repeat = 1;
	for (i = 0; i < 2; i++) {
		st = session_add_step(s, n[i], 0);
		for (j = 0; j < 4; j++)
			step_add_interval(st, 1000.0 * n[i] * (1 + 0.01 * j));
		stats_compute(&st->st, st->iv, (size_t)st->niv);
		st->status = STEP_OK;
		st->window_s = 2;
		st->ops_s = 1000.0 * n[i];
		st->ops = (uint64_t)(st->ops_s * 2);
	}
	s->steps[0].freq_mhz = 3012.5;
	s->steps[1].freq_mhz = 2987.25;
}

static void
same_host(const struct session *got, const struct session *want, const char *what)
{
	const struct host_info *a = &got->host, *b = &want->host;
	int i, m = a->nmitigations == b->nmitigations;

	for (i = 0; m && i < a->nmitigations; i++)
		m = strcmp(a->mitigations[i].name, b->mitigations[i].name) == 0 &&
		    strcmp(a->mitigations[i].text, b->mitigations[i].text) == 0;
	is_str(a->kernel_cmdline, b->kernel_cmdline, what);
	ok(a->sockets == 2 && a->cores == 8 && a->threads == 16 && a->numa_nodes == 2,
	   "%s: sockets, cores, threads, NUMA nodes", what);
	is_int(a->smt, HOST_SMT_ON, "  SMT");
	ok(strcmp(a->freq_driver, b->freq_driver) == 0 && strcmp(a->governor, b->governor) == 0 &&
		   a->freq_min_mhz == 800 && a->freq_max_mhz == 3900,
	   "%s: the cpufreq driver, governor and limits", what);
	ok(strcmp(a->hypervisor, "none") == 0 && strcmp(a->clocksource, "tsc") == 0 &&
		   strcmp(a->scheduler, "sched_ext:rusty") == 0,
	   "%s: hypervisor, clocksource, scheduler", what);
	ok(strcmp(a->boot_id, "34673e70-3f48-40bb-930c-2fa84aaf27c4") == 0, "%s: the boot id",
	   what);
	ok(m, "%s: every mitigation, name and text, in order", what);
	ok(memcmp(&a->topo, &b->topo, sizeof(a->topo)) == 0, "%s: the topology, every level", what);
	ok(got->nsteps == 2 && got->steps[0].freq_mhz == 3012.5 &&
		   got->steps[1].freq_mhz == 2987.25,
	   "%s: each step's frequency", what);
}

static void
test_round_trips(void)
{
	char err[ST_ERRLEN] = "";
	struct stream_reader *r;
	struct recorder *rec;
	struct snapshot snap;
	struct session s;

	make_session(&s);
	ok(snapshot_save(tpath("a.json"), &s, NULL, false, err, sizeof(err)) == 0 &&
		   snapshot_load(tpath("a.json"), &snap, err, sizeof(err)) == 0,
	   "a snapshot with a fingerprint saves and loads (%s)", err);
	same_host(&snap.s, &s, "snapshot");
	snapshot_free(&snap);

	rec = recorder_open(tpath("a.jsonl"), 0, err, sizeof(err));
	if (rec != NULL) {
		ok(recorder_header(rec, &s) == 0 && recorder_step(rec, &s, 0) == 0 &&
			   recorder_step(rec, &s, 1) == 0 &&
			   recorder_close(rec, err, sizeof(err)) == 0,
		   "the stream is written (%s)", err);
		r = stream_reader_new(NULL);
		is_int(stream_reader_load(r, tpath("a.jsonl")), 0, "and read back");
		same_host(stream_reader_session(r), &s, "stream (its header)");
		stream_reader_free(r);
	} else
		ok(0, "the recorder opens (%s)", err);

	/* what the OS did not say stays unknown: null in the file, "" and 0 back */
	memset(&s.host.kernel_cmdline, 0,
	       sizeof(s.host) - offsetof(struct host_info, kernel_cmdline));
	s.steps[0].freq_mhz = s.steps[1].freq_mhz = 0;
	ok(snapshot_save(tpath("b.json"), &s, NULL, false, err, sizeof(err)) == 0 &&
		   snapshot_load(tpath("b.json"), &snap, err, sizeof(err)) == 0,
	   "a snapshot knowing none of it saves and loads (%s)", err);
	ok(snap.s.host.sockets == 0 && snap.s.host.smt == HOST_SMT_UNKNOWN &&
		   snap.s.host.nmitigations == 0 && snap.s.host.governor[0] == '\0' &&
		   snap.s.steps[0].freq_mhz == 0 && snap.s.host.topo.online == 0,
	   "  and knows none of it back");
	snapshot_free(&snap);
	session_free(&s);
}

/* A kernel command line in Latin-1 still saves: its bad bytes become '?'. */
static void
test_not_utf8(void)
{
	char err[ST_ERRLEN] = "";
	struct snapshot snap;
	struct session s;

	make_session(&s);
	snprintf(s.host.kernel_cmdline, sizeof(s.host.kernel_cmdline), "label=caf\xe9 ro");
	ok(snapshot_save(tpath("latin1.json"), &s, NULL, false, err, sizeof(err)) == 0 &&
		   snapshot_load(tpath("latin1.json"), &snap, err, sizeof(err)) == 0,
	   "a command line that is not UTF-8 saves and loads (%s)", err);
	is_str(snap.s.host.kernel_cmdline, "label=caf? ro", "  its bad byte is '?'");
	snapshot_free(&snap);
	session_free(&s);
}

/* The stream of s's header and step 0, with path set to v in the header or the step. */
static void
stream_error(const struct session *s, bool header, const char *path, json_t *v, char *err,
	     size_t len)
{
	struct stream_reader *r = stream_reader_new("x.jsonl");
	json_t *h = session_json_header(s), *st = session_json_step(s, &s->steps[0]);
	char *text;

	json_object_set_new(h, "type", json_string("header"));
	json_object_set_new(h, "format", json_string(STREAM_FORMAT));
	json_object_set_new(h, "version", json_integer(STREAM_VERSION));
	json_object_set_new(st, "type", json_string("step"));
	json_object_set_new(st, "index", json_integer(0));
	json_edit(header ? h : st, path, v);
	text = json_dumps(h, JSON_COMPACT);
	stream_reader_feed(r, text, strlen(text));
	stream_reader_feed(r, "\n", 1);
	free(text);
	text = json_dumps(st, JSON_COMPACT);
	stream_reader_feed(r, text, strlen(text));
	stream_reader_feed(r, "\n", 1);
	free(text);
	stream_reader_finish(r);
	snprintf(err, len, "%s", stream_reader_error(r));
	stream_reader_free(r);
	json_decref(h);
	json_decref(st);
}

/* path ("host.X" or "steps.0.X") set to v: the snapshot's and the stream's words. */
static void
refused(const struct session *s, const char *path, json_t *v, const char *why, const char *name)
{
	bool step = strncmp(path, "steps.0.", 8) == 0;
	char snap[ST_ERRLEN], stream[ST_ERRLEN], want[ST_ERRLEN], what[160];

	json_incref(v);
	snapshot_error(s, path, v, snap, sizeof(snap));
	stream_error(s, !step, step ? path + 8 : path, v, stream, sizeof(stream));
	snprintf(want, sizeof(want), "x.json: %s%s", step ? "steps[0]." : "", why);
	snprintf(what, sizeof(what), "%s: the snapshot is refused", name);
	is_str(snap, want, what);
	snprintf(want, sizeof(want), "x.jsonl: line %d: %s: %s", step ? 2 : 1,
		 step ? "step" : "header", why);
	snprintf(what, sizeof(what), "%s: so is the stream, in the same words", name);
	is_str(stream, want, what);
}

static void
test_refused(void)
{
	char long_text[300], err[ST_ERRLEN];
	struct session s;

	make_session(&s);
	snapshot_error(&s, "label", json_string("fine"), err, sizeof(err));
	is_str(err, "", "the session loads before it is spoiled");
	refused(&s, "host.sockets", json_integer(0),
		"host.sockets: 0 is out of range; expected an integer from 1 to 65536",
		"0 sockets");
	refused(&s, "host.freq_max_mhz", json_string("3.9 GHz"),
		"host.freq_max_mhz: expected an integer or null, got a string",
		"a frequency as text");
	refused(&s, "host.smt", json_string("maybe"),
		"host.smt: 'maybe' is not known; expected one of on, off, unsupported",
		"an SMT state it does not know");
	memset(long_text, 'm', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	refused(&s, "host.mitigations.mds", json_string(long_text),
		"host.mitigations.mds: a string of 299 bytes is too long; expected at most 255",
		"an over-long mitigation");
	refused(&s, "host.mitigations.mds", json_string(" "),
		"host.mitigations.mds: an empty text; expected what the kernel says",
		"an empty mitigation");
	refused(&s, "host.mitigations", json_array(),
		"host.mitigations: expected an object or null, got an array",
		"mitigations as a list");
	refused(&s, "host.topology.levels.smt.cpus", json_integer(99),
		"host.topology.levels.smt.cpus: 99 is out of range; expected an integer from 1 "
		"to 15",
		"a unit bigger than the machine");
	refused(&s, "host.topology.levels.llc.min_cpus", json_integer(9),
		"host.topology.levels.llc.min_cpus: 9 is out of range; expected an integer from "
		"1 to 8",
		"a smallest unit above the first");
	refused(&s, "host.topology.levels", json_string("all"),
		"host.topology.levels: expected an object, got a string", "levels as text");
	refused(&s, "steps.0.freq_mhz", json_real(-5),
		"freq_mhz: -5 is out of range; expected a number from 1 to 100000",
		"a negative frequency");
	session_free(&s);
}

/* Every fixture from before the fingerprint loads, knowing none of it. */
static void
test_older_files(void)
{
	static const char *const snaps[] = { "cpu-linux.json", "mutex-waits.json",
					     "imported.json" };
	char err[ST_ERRLEN], rel[96];
	struct stream_reader *r;
	struct snapshot snap;
	size_t i;

	for (i = 0; i < sizeof(snaps) / sizeof(snaps[0]); i++) {
		snprintf(rel, sizeof(rel), "snapshots/%s", snaps[i]);
		ok(snapshot_load(fixture_path(rel), &snap, err, sizeof(err)) == 0, "%s loads (%s)",
		   snaps[i], err);
		ok(snap.s.host.sockets == 0 && snap.s.host.smt == HOST_SMT_UNKNOWN &&
			   snap.s.host.nmitigations == 0 && snap.s.host.clocksource[0] == '\0' &&
			   snap.s.host.topo.online == 0 &&
			   (snap.s.nsteps == 0 || snap.s.steps[0].freq_mhz == 0),
		   "  and knows no fingerprint and no frequency");
		snapshot_free(&snap);
	}
	r = stream_reader_new(NULL);
	is_int(stream_reader_load(r, fixture_path("streams/mutex-waits.jsonl")), 0,
	       "an older stream loads");
	is_int(stream_reader_session(r)->host.smt, HOST_SMT_UNKNOWN, "  knowing no SMT state");
	stream_reader_free(r);
}

/* compare's warnings for A and a copy of it whose JSON has path set to v; they land in out. */
static int
warnings(const char *path, json_t *v, char *out, size_t len)
{
	struct snapshot a, b, *pv[2] = { &a, &b };
	char err[ST_ERRLEN] = "", *text;
	struct session s;
	json_t *root;
	FILE *f = tmpfile();
	size_t got;
	int n = -1;

	make_session(&s);
	root = session_json_labelled(&s, NULL, NULL);
	text = json_dumps(root, 0);
	snapshot_read(text, strlen(text), "a.json", &a, err, sizeof(err));
	free(text);
	json_edit(root, path, v);
	text = json_dumps(root, 0);
	if (snapshot_read(text, strlen(text), "b.json", &b, err, sizeof(err)) != 0)
		diag("the copy does not load: %s", err);
	else if (f != NULL)
		n = snapshot_compare_warn(f, pv, 2);
	out[0] = '\0';
	if (f != NULL) {
		rewind(f);
		got = fread(out, 1, len - 1, f);
		out[got] = '\0';
		fclose(f);
	}
	free(text);
	json_decref(root);
	snapshot_free(&a);
	snapshot_free(&b);
	session_free(&s);
	return n;
}

static void
is_warned(const char *path, json_t *v, const char *want, const char *name)
{
	char out[2048];
	int n = warnings(path, v, out, sizeof(out));

	is_int(n, 1, name);
	is_str(out, want, "  the line names the field and both values");
}

static void
test_warnings(void)
{
	char out[2048];

	is_int(warnings("label", json_string("the same run"), out, sizeof(out)), 0,
	       "a copy that differs only in its label: no warning");
	is_str(out, "", "  and no note");
	is_warned("host.ncpus", json_integer(8),
		  "warning: B differs from A in CPUs (host.ncpus): A 16, B 8\n",
		  "a copy with fewer CPUs");
	is_warned("host.smt", json_string("off"),
		  "warning: B differs from A in SMT (host.smt): A on, B off\n", "SMT off");
	is_warned("host.governor", json_string("powersave"),
		  "warning: B differs from A in governor (host.governor): A performance, B "
		  "powersave\n",
		  "another governor");
	is_warned("host.freq_max_mhz", json_integer(2100),
		  "warning: B differs from A in frequency limits (host.freq_min_mhz, "
		  "host.freq_max_mhz): A 800-3900 MHz, B 800-2100 MHz\n",
		  "turbo off");
	is_warned("steps.1.freq_mhz", json_real(2000),
		  "warning: B differs from A in the CPUs' mean frequency over the steps "
		  "(steps[].freq_mhz): A 3000 MHz, B 2506 MHz\n",
		  "steps that ran slower");
	is_warned("settings.warmup_s", json_real(3),
		  "warning: B differs from A in warm-up (settings.warmup_s): A 0.5 s, B 3 s\n",
		  "a longer warm-up");
	is_warned("tool.version", json_string("0.0.9"),
		  "warning: B differs from A in scaletop version (tool.version): A " PACKAGE_VERSION
		  ", B 0.0.9\n",
		  "an older scaletop");
	is_warned("host.topology.levels.llc.count", json_integer(4),
		  "warning: B differs from A in topology (host.topology): A 2 sockets x 1 node x "
		  "1 LLC (L3) x 4 cores x 1-2 threads; 15 of 16 CPUs online, B 2 sockets x 1 node "
		  "x 2 LLCs (L3) x 2 cores x 1-2 threads; 15 of 16 CPUs online\n",
		  "another LLC count");
	is_int(warnings("host.topology", json_null(), out, sizeof(out)), 0,
	       "a copy that does not know its topology is not warned about");
	is_int(warnings("host.smt", json_null(), out, sizeof(out)), 0,
	       "a copy that does not know SMT is not warned about");
	is_int(warnings("host.os_release", json_string("6.1.0-18-amd64"), out, sizeof(out)), 0,
	       "another kernel is no warning");
	is_str(out,
	       "note: B differs from A in kernel (A 6.8.0-31-generic, B 6.1.0-18-amd64): what an "
	       "OS or machine comparison compares\n",
	       "  but a note naming both");
	warnings("host.mitigations.spectre_v2", json_string("Vulnerable"), out, sizeof(out));
	is_str(out,
	       "note: B differs from A in mitigations (spectre_v2): what an OS or machine "
	       "comparison compares\n",
	       "a mitigation that differs is noted by name");
}

static void
test_show(void)
{
	char out[2048];
	struct session s;
	FILE *f = tmpfile();
	size_t got;

	make_session(&s);
	if (f == NULL) {
		ok(0, "a temporary file for show's lines");
		session_free(&s);
		return;
	}
	snapshot_host_text(f, &s);
	rewind(f);
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = '\0';
	fclose(f);
	is_str(out,
	       "cpus: 2 sockets, 8 cores, 16 threads, SMT on, 2 NUMA nodes, hypervisor none\n"
	       "topology: 2 sockets x 1 node x 1 LLC (L3) x 4 cores x 1-2 threads; 15 of 16 CPUs "
	       "online\n"
	       "cpufreq: intel_pstate, performance, 800-3900 MHz, steps ran at 2987-3012 MHz\n"
	       "kernel: clocksource tsc, scheduler sched_ext:rusty, boot "
	       "34673e70-3f48-40bb-930c-2fa84aaf27c4\n"
	       "cmdline: root=/dev/sda1 ro isolcpus=15\n"
	       "mitigations: 1 mitigated, 1 not affected, 1 vulnerable (mds)\n",
	       "show: the fingerprint in six lines");
	session_free(&s);
}

int
main(void)
{
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp: cannot make a temporary folder\n");
		return 1;
	}
	test_round_trips();
	test_not_utf8();
	test_refused();
	test_older_files();
	test_warnings();
	test_show();
	remove_tree(tmpdir);
	return done_testing();
}

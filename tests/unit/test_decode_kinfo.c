/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kinfo_proc decoders (decode_kinfo.c) over fixtures: FreeBSD's and
 * DragonFly's thread records to states and wait channels, process records
 * to the pids of a command name, and the buffers they must refuse.
 * The fixtures (tests/fixtures/{freebsd,dragonfly}/threads_*, procs) are
 * synthetic, not recorded: there is no FreeBSD or DragonFly machine here.
 * Each line is one record as FIELD=VALUE pairs, then "=>" and what it must
 * decode to.  A record is built at the amd64 offsets decode_bsd.h lists
 * (which proctable_bsd.c asserts against the real headers when make
 * check-bsd compiles it), every byte the layout does not name full of
 * noise, so a decoder reading anywhere else reads garbage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "../../src/platform/decode_bsd.h"
#include "../tap.h"

#define MAX_RECS 32
#define NOISE 0xa5

struct want {
	char expect[2][THREAD_CHANNEL_LEN]; /* the words after "=>" */
	uint64_t cpu_us;                    /* the CPU fields given, summed */
};

struct fixture {
	struct bsd_kinfo_layout lay;
	unsigned char *buf;
	size_t len;
	size_t n;
	struct want want[MAX_RECS];
};

/* The member names (after the last '.') of each layout field, from decode_bsd.h's lists. */
static const char *member_names[2][BSD_KI_NFIELDS];

#define NAME_FB(f, m, off, len) member_names[BSD_FREEBSD][BSD_KI_##f] = #m;
#define NAME_DF(f, m, off, len) member_names[BSD_DRAGONFLY][BSD_KI_##f] = #m;
#define AT(fld, m, off, len) lay->f[BSD_KI_##fld] = (struct bsd_field){ off, len };

static void
layout_freebsd(struct bsd_kinfo_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	lay->os = BSD_FREEBSD;
	lay->size = BSD_FREEBSD14_AMD64_SIZE;
	BSD_FREEBSD14_FIELDS(AT)
	BSD_FREEBSD14_FIELDS(NAME_FB)
}

static void
layout_dragonfly(struct bsd_kinfo_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	lay->os = BSD_DRAGONFLY;
	lay->size = BSD_DRAGONFLY6_X86_64_SIZE;
	BSD_DRAGONFLY6_FIELDS(AT)
	BSD_DRAGONFLY6_FIELDS(NAME_DF)
}

static int
field_by_name(enum bsd_os os, const char *name)
{
	const char *m, *dot;
	int i;

	for (i = 0; i < BSD_KI_NFIELDS; i++) {
		if ((m = member_names[os][i]) == NULL)
			continue;
		dot = strrchr(m, '.');
		if (strcmp(dot != NULL ? dot + 1 : m, name) == 0)
			return i;
	}
	return -1;
}

/* "-" is the empty string; \NNN an octal byte (a space is \040). */
static void
unescape(const char *in, char *out, size_t cap)
{
	size_t k = 0;

	if (strcmp(in, "-") == 0)
		in = "";
	while (*in != '\0' && k + 1 < cap) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] != '\0' &&
		    in[3] != '\0') {
			out[k++] = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 4;
		} else {
			out[k++] = *in++;
		}
	}
	out[k] = '\0';
}

static void
put_number(unsigned char *rec, const struct bsd_field *f, long long v)
{
	int8_t v8 = (int8_t)v;
	int16_t v16 = (int16_t)v;
	int32_t v32 = (int32_t)v;
	int64_t v64 = v;
	const void *src = f->len == 1   ? (const void *)&v8
			  : f->len == 2 ? (const void *)&v16
			  : f->len == 4 ? (const void *)&v32
					: (const void *)&v64;

	memcpy(rec + f->off, src, f->len);
}

static bool
is_string_field(int i)
{
	return i == BSD_KI_WMESG || i == BSD_KI_LOCKNAME || i == BSD_KI_COMM;
}

/* One FIELD=VALUE into the record; a value for a CPU field also adds to the want. */
static void
put_pair(struct fixture *fx, unsigned char *rec, const char *tok, const char *rel)
{
	char name[64], value[128];
	const char *eq = strchr(tok, '=');
	const struct bsd_field *f;
	int i;

	if (eq == NULL || (size_t)(eq - tok) >= sizeof(name)) {
		printf("Bail out! %s: \"%s\" is not FIELD=VALUE\n", rel, tok);
		exit(1);
	}
	memcpy(name, tok, (size_t)(eq - tok));
	name[eq - tok] = '\0';
	if ((i = field_by_name(fx->lay.os, name)) < 0) {
		printf("Bail out! %s: no field %s in this layout\n", rel, name);
		exit(1);
	}
	f = &fx->lay.f[i];
	if (is_string_field(i)) {
		unescape(eq + 1, value, sizeof(value));
		memset(rec + f->off, 0, f->len);
		memcpy(rec + f->off, value, strlen(value) < f->len ? strlen(value) : f->len - 1);
		return;
	}
	put_number(rec, f, strtoll(eq + 1, NULL, 0));
	if (i == BSD_KI_CPU_US || i == BSD_KI_CPU_US2 || i == BSD_KI_CPU_US3)
		fx->want[fx->n].cpu_us += strtoull(eq + 1, NULL, 0);
}

/* A record of noise, every named field zero, ki_structsize the layout's size. */
static void
record_blank(const struct bsd_kinfo_layout *lay, unsigned char *rec)
{
	int i;

	memset(rec, NOISE, lay->size);
	for (i = 0; i < BSD_KI_NFIELDS; i++)
		memset(rec + lay->f[i].off, 0, lay->f[i].len);
	if (lay->f[BSD_KI_STRUCTSIZE].len != 0)
		put_number(rec, &lay->f[BSD_KI_STRUCTSIZE], (long long)lay->size);
}

static void
fixture_line(struct fixture *fx, char *line, const char *rel)
{
	unsigned char *rec = fx->buf + fx->n * fx->lay.size;
	char *tok, *save = NULL;
	int after = 0;

	record_blank(&fx->lay, rec);
	memset(&fx->want[fx->n], 0, sizeof(fx->want[fx->n]));
	for (tok = strtok_r(line, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if (strcmp(tok, "=>") == 0)
			after = 1;
		else if (after > 0 && after <= 2)
			unescape(tok, fx->want[fx->n].expect[after++ - 1], THREAD_CHANNEL_LEN);
		else
			put_pair(fx, rec, tok, rel);
	}
	if (after < 2) {
		printf("Bail out! %s: record %zu has nothing after =>\n", rel, fx->n + 1);
		exit(1);
	}
	fx->n++;
}

static void
fixture_load(struct fixture *fx, enum bsd_os os, const char *rel)
{
	char *text = fixture_read(rel, NULL), *line, *save = NULL;

	memset(fx, 0, sizeof(*fx));
	if (os == BSD_FREEBSD)
		layout_freebsd(&fx->lay);
	else
		layout_dragonfly(&fx->lay);
	fx->buf = calloc(MAX_RECS, fx->lay.size);
	if (fx->buf == NULL)
		abort();
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (fx->n == MAX_RECS) {
			printf("Bail out! %s: more than %d records\n", rel, MAX_RECS);
			exit(1);
		}
		fixture_line(fx, line, rel);
	}
	fx->len = fx->n * fx->lay.size;
	free(text);
}

/* --- the callback's collection --------------------------------------------- */

struct got {
	struct thread_sample t[MAX_RECS];
	size_t n;
};

static void
collect(const struct thread_sample *t, void *arg)
{
	struct got *g = arg;

	if (g->n < MAX_RECS)
		g->t[g->n] = *t;
	g->n++;
}

static const char *const state_names[] = {
	[THREAD_RUNNING] = "running",   [THREAD_RUNNABLE] = "runnable",
	[THREAD_SLEEPING] = "sleeping", [THREAD_DISK] = "disk",
	[THREAD_LOCK] = "lock",         [THREAD_STOPPED] = "stopped",
	[THREAD_ZOMBIE] = "zombie",     [THREAD_IDLE] = "idle",
	[THREAD_OTHER] = "other",
};

static const char *
state_name(enum thread_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0]) ? state_names[s] : "?";
}

/* Decodes a threads fixture and checks every record's state, channel, ids and CPU time. */
static void
check_threads(enum bsd_os os, const char *rel, pid_t pid, size_t want_n)
{
	struct fixture fx;
	struct got g;
	char err[ST_ERRLEN], name[160];
	size_t i;
	int rc;

	fixture_load(&fx, os, rel);
	memset(&g, 0, sizeof(g));
	err[0] = '\0';
	rc = bsd_threads_decode(&fx.lay, fx.buf, fx.len, pid, collect, &g, err, sizeof(err));
	if (!is_int(rc, (long long)want_n, rel) ||
	    !is_int((long long)g.n, (long long)want_n, rel)) {
		diag("%s", err);
		free(fx.buf);
		return;
	}
	for (i = 0; i < g.n; i++) {
		const struct thread_sample *t = &g.t[i];
		const struct want *w = &fx.want[i];

		snprintf(name, sizeof(name), "%s record %zu: state %s", rel, i + 1, w->expect[0]);
		is_str(state_name(t->state), w->expect[0], name);
		snprintf(name, sizeof(name), "%s record %zu: channel \"%s\"", rel, i + 1,
			 w->expect[1]);
		is_str(t->channel, w->expect[1], name);
		snprintf(name, sizeof(name), "%s record %zu: pid, and cpu_ns from microseconds",
			 rel, i + 1);
		ok(t->pid == pid && t->cpu_ns == w->cpu_us * 1000 && t->have == 0, "%s", name);
	}
	free(fx.buf);
}

static void
test_threads(void)
{
	struct fixture fx;
	struct got g;
	char err[ST_ERRLEN];
	int32_t tid;

	check_threads(BSD_FREEBSD, "freebsd/threads_server", 4242, 16);
	check_threads(BSD_FREEBSD, "freebsd/threads_zombie", 5150, 1);
	check_threads(BSD_DRAGONFLY, "dragonfly/threads_server", 3131, 11);
	check_threads(BSD_DRAGONFLY, "dragonfly/threads_zombie", 3200, 1);

	/* the tids come from the records, in the kernel's order */
	fixture_load(&fx, BSD_FREEBSD, "freebsd/threads_server");
	memset(&g, 0, sizeof(g));
	bsd_threads_decode(&fx.lay, fx.buf, fx.len, 4242, collect, &g, err, sizeof(err));
	memcpy(&tid, fx.buf + 15 * fx.lay.size + fx.lay.f[BSD_KI_TID].off, sizeof(tid));
	ok(g.n == 16 && g.t[0].tid == 100731 && g.t[15].tid == tid && tid == 100745,
	   "freebsd threads: tids 100731 ... 100745 in order");
	is_int(bsd_threads_decode(&fx.lay, fx.buf, 0, 4242, collect, &g, err, sizeof(err)), 0,
	       "an empty answer is no threads (the backend says ESRCH)");
	free(fx.buf);
}

/* --- what must be refused ----------------------------------------------------- */

/* -1, EINVAL, a message holding want, and no sample handed out. */
static void
is_refused(const struct fixture *fx, size_t len, pid_t pid, const char *want, const char *what)
{
	struct got g;
	char err[ST_ERRLEN];
	int rc;

	memset(&g, 0, sizeof(g));
	err[0] = '\0';
	errno = 0;
	rc = bsd_threads_decode(&fx->lay, fx->buf, len, pid, collect, &g, err, sizeof(err));
	ok(rc == -1 && errno == EINVAL && g.n == 0, "%s: refused, no samples", what);
	if (!ok(strstr(err, want) != NULL, "%s: the message says \"%s\"", what, want))
		diag("got: %s", err);
}

static void
test_refusals(void)
{
	struct fixture fx;
	struct bsd_field *ss, *wm;
	unsigned char *rec;

	fixture_load(&fx, BSD_FREEBSD, "freebsd/threads_server");
	is_refused(&fx, fx.len - 1, 4242,
		   "17407 bytes are not whole kinfo_proc records of 1088 (1087 left over)",
		   "a truncated buffer");
	is_refused(&fx, fx.len + 8, 4242, "not whole kinfo_proc records", "a buffer with a tail");
	is_refused(&fx, fx.len, 4243, "record 1 of 16: ki_pid is 4242, not the 4243 asked for",
		   "another process's records");

	/* record 3 says the kernel's struct is bigger than this build's */
	ss = &fx.lay.f[BSD_KI_STRUCTSIZE];
	rec = fx.buf + 2 * fx.lay.size;
	put_number(rec, ss, 1096);
	is_refused(&fx, fx.len, 4242,
		   "FreeBSD kern.proc: record 3 of 16: ki_structsize is 1096 bytes, this build "
		   "reads 1088",
		   "a record of another kinfo_proc size");
	put_number(rec, ss, 1088);

	/* record 2's wait message runs to the end of its field */
	wm = &fx.lay.f[BSD_KI_WMESG];
	memset(fx.buf + fx.lay.size + wm->off, 'x', wm->len);
	is_refused(&fx, fx.len, 4242, "record 2 of 16: ki_wmesg has no terminating NUL",
		   "a wait message with no NUL");
	memset(fx.buf + fx.lay.size + wm->off, 0, wm->len);

	/* the last record's comm too: the check covers every record before any sample */
	memset(fx.buf + 15 * fx.lay.size + fx.lay.f[BSD_KI_COMM].off, 'y',
	       fx.lay.f[BSD_KI_COMM].len);
	is_refused(&fx, fx.len, 4242, "record 16 of 16: ki_comm has no terminating NUL",
		   "a bad last record");
	free(fx.buf);

	/* a layout whose field leaves the record is refused before any byte is read */
	fixture_load(&fx, BSD_DRAGONFLY, "dragonfly/threads_server");
	fx.lay.f[BSD_KI_WMESG].off = fx.lay.size - 4;
	is_refused(&fx, fx.len, 3131, "does not fit a 992-byte record", "a layout out of bounds");
	layout_dragonfly(&fx.lay);
	fx.lay.f[BSD_KI_TID].len = 3;
	is_refused(&fx, fx.len, 3131, "field 2 (3 bytes at 668)", "a 3-byte number");
	layout_dragonfly(&fx.lay);
	is_refused(&fx, fx.len - 992, 3132, "DragonFly kern.proc: record 1 of 10: kp_pid is 3131",
		   "DragonFly records of another pid");
	free(fx.buf);
}

/* --- processes by name -------------------------------------------------------- */

static void
check_comm(enum bsd_os os, const char *rel, const char *comm)
{
	struct fixture fx;
	char err[ST_ERRLEN], name[160];
	pid_t *pids, want[MAX_RECS];
	size_t n, nwant = 0, i;
	int32_t pid;
	int same;

	fixture_load(&fx, os, rel);
	for (i = 0; i < fx.n; i++) {
		if (strcmp(fx.want[i].expect[0], "yes") != 0)
			continue;
		memcpy(&pid, fx.buf + i * fx.lay.size + fx.lay.f[BSD_KI_PID].off, sizeof(pid));
		want[nwant++] = pid;
	}
	snprintf(name, sizeof(name), "%s: comm %s finds %zu processes", rel, comm, nwant);
	if (!is_int(bsd_comm_find(&fx.lay, fx.buf, fx.len, comm, &pids, &n, err, sizeof(err)), 0,
		    name)) {
		diag("%s", err);
		free(fx.buf);
		return;
	}
	same = n == nwant;
	for (i = 0; same && i < n; i++)
		same = pids[i] == want[i];
	ok(same && nwant > 0, "%s: exactly the records marked yes, in order", name);
	free(pids);
	free(fx.buf);
}

static void
test_comm(void)
{
	struct fixture fx;
	char err[ST_ERRLEN];
	pid_t *pids;
	size_t n;
	unsigned char *c;

	check_comm(BSD_FREEBSD, "freebsd/procs", "postgres");
	check_comm(BSD_DRAGONFLY, "dragonfly/procs", "mariadbd");

	/* a name longer than ki_comm's 19 characters matches what the kernel kept of it */
	fixture_load(&fx, BSD_FREEBSD, "freebsd/procs");
	c = fx.buf + 5 * fx.lay.size + fx.lay.f[BSD_KI_COMM].off;
	memcpy(c, "abcdefghijklmnopqrs", 20);
	ok(bsd_comm_find(&fx.lay, fx.buf, fx.len, "abcdefghijklmnopqrstuvwxyz", &pids, &n, err,
			 sizeof(err)) == 0 &&
		   n == 1 && pids[0] == 900,
	   "a comm longer than ki_comm matches its first 19 characters");
	free(pids);
	ok(bsd_comm_find(&fx.lay, fx.buf, fx.len, "nosuchcommand", &pids, &n, err, sizeof(err)) ==
			   0 &&
		   n == 0 && pids != NULL,
	   "no match is 0 processes, not an error");
	free(pids);
	errno = 0;
	ok(bsd_comm_find(&fx.lay, fx.buf, fx.len, "", &pids, &n, err, sizeof(err)) == -1 &&
		   errno == EINVAL && pids == NULL && strstr(err, "empty command name") != NULL,
	   "an empty comm is refused with a message");
	errno = 0;
	memset(c, 'z', 20);
	ok(bsd_comm_find(&fx.lay, fx.buf, fx.len, "postgres", &pids, &n, err, sizeof(err)) == -1 &&
		   errno == EINVAL && pids == NULL &&
		   strstr(err, "record 6 of 10: ki_comm has no terminating NUL") != NULL,
	   "a comm with no NUL is refused, naming the record");
	ok(bsd_comm_find(&fx.lay, fx.buf, fx.len - 100, "postgres", &pids, &n, err, sizeof(err)) ==
			   -1 &&
		   strstr(err, "not whole kinfo_proc records") != NULL,
	   "a truncated process table is refused");
	free(fx.buf);
}

/* --- every process's CPU time --------------------------------------------------- */

static void
test_proc_cpu(void)
{
	struct fixture fx;
	char err[ST_ERRLEN];
	struct proc_cpu *t;
	size_t n;
	unsigned char *rec;

	/* FreeBSD: ki_runtime, ki_ppid and ki_start (seconds, microseconds) of record 3 */
	fixture_load(&fx, BSD_FREEBSD, "freebsd/procs");
	rec = fx.buf + 2 * fx.lay.size;
	put_number(rec, &fx.lay.f[BSD_KI_CPU_US], 2500000);
	put_number(rec, &fx.lay.f[BSD_KI_PPID], 1);
	put_number(rec, &fx.lay.f[BSD_KI_START], 1700000000);
	put_number(rec, &fx.lay.f[BSD_KI_START_US], 250);
	if (!is_int(bsd_proc_cpu_decode(&fx.lay, fx.buf, fx.len, &t, &n, err, sizeof(err)), 0,
		    "FreeBSD: the process table decodes"))
		diag("%s", err);
	else {
		is_int((long long)n, 10, "FreeBSD: one line a process");
		ok(n > 2 && t[2].pid == 812 && t[2].ppid == 1 && strcmp(t[2].comm, "postgres") == 0,
		   "FreeBSD: pid, parent and comm from their fields");
		ok(n > 2 && t[2].cpu_ns == 2500000000ull, "FreeBSD: ki_runtime in ns");
		ok(n > 2 && t[2].start == 1700000000ull * 1000000 + 250,
		   "FreeBSD: ki_start in microseconds");
		free(t);
	}
	errno = 0;
	ok(bsd_proc_cpu_decode(&fx.lay, fx.buf, fx.len - 100, &t, &n, err, sizeof(err)) == -1 &&
		   errno == EINVAL && t == NULL,
	   "FreeBSD: a truncated table is refused");
	free(fx.buf);

	/* DragonFly: kernel threads (pid -1) left out, a repeated pid listed once */
	fixture_load(&fx, BSD_DRAGONFLY, "dragonfly/procs");
	rec = fx.buf + 3 * fx.lay.size;
	put_number(rec, &fx.lay.f[BSD_KI_CPU_US], 1000);
	put_number(rec, &fx.lay.f[BSD_KI_CPU_US2], 2000);
	put_number(rec, &fx.lay.f[BSD_KI_PPID], 3140);
	if (!is_int(bsd_proc_cpu_decode(&fx.lay, fx.buf, fx.len, &t, &n, err, sizeof(err)), 0,
		    "DragonFly: the process table decodes"))
		diag("%s", err);
	else {
		is_int((long long)n, 4, "DragonFly: kernel threads and a repeated pid left out");
		ok(n > 1 && t[1].pid == 3131 && t[1].ppid == 3140 && t[1].cpu_ns == 3000000 &&
			   strcmp(t[1].comm, "mariadbd") == 0,
		   "DragonFly: kl_uticks and kl_sticks summed, the parent and comm");
		free(t);
	}
	free(fx.buf);
}

int
main(void)
{
	test_threads();
	test_refusals();
	test_comm();
	test_proc_cpu();
	return done_testing();
}

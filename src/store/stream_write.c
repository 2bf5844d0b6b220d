/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON Lines recorder.  Each line is encoded whole, then leaves in one
 * write(2): a reader on the other end of ssh never waits for a buffer to fill,
 * and a run killed mid-way leaves at most its last line cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/format.h"
#include "scaletop/sample_json.h"
#include "scaletop/session_json.h"
#include "scaletop/stream.h"
#include "snapshot_priv.h"

/* 15 significant digits: 33.33 stays "33.33", and a long run keeps its microseconds. */
#define RECORDER_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

struct recorder {
	int fd;
	bool own_fd;    /* opened here, so closed here; standard output is not */
	char *name;     /* for messages */
	uint64_t lines; /* written whole, for the end line */
	bool failed;
	char err[ST_ERRLEN];
};

struct recorder *
recorder_open(const char *path, unsigned flags, char *err, size_t errlen)
{
	int oflags = O_WRONLY | O_CREAT | O_CLOEXEC;
	struct recorder *rec = calloc(1, sizeof(*rec));

	oflags |= (flags & RECORDER_FORCE) ? O_TRUNC : O_EXCL;
	if (rec == NULL || (rec->name = strdup(path)) == NULL) {
		free(rec);
		st_error(err, errlen, "cannot record to %s: out of memory", path);
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		rec->fd = STDOUT_FILENO;
		return rec;
	}
	rec->fd = open(path, oflags, 0666);
	if (rec->fd == -1) {
		if (errno == EEXIST)
			st_error(err, errlen,
				 "cannot record to %s: it already exists; remove it "
				 "or choose another name",
				 path);
		else
			st_error(err, errlen, "cannot record to %s: %s", path, strerror(errno));
		free(rec->name);
		free(rec);
		return NULL;
	}
	rec->own_fd = true;
	return rec;
}

const char *
recorder_error(const struct recorder *rec)
{
	return rec->failed ? rec->err : NULL;
}

static int recorder_fail(struct recorder *rec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records the first failure; from then on the recorder is quiet. */
static int
recorder_fail(struct recorder *rec, const char *fmt, ...)
{
	char why[ST_ERRLEN / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(rec->err, sizeof(rec->err), "recording to %s stopped: %s",
		 strcmp(rec->name, "-") == 0 ? "standard output" : rec->name, why);
	rec->failed = true;
	return -1;
}

/* A non-blocking descriptor (one inherited as stdout can be) is waited for, not dropped. */
static int
recorder_wait(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	while (poll(&p, 1, -1) == -1) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

static int
recorder_write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n >= 0) {
			p += n;
			len -= (size_t)n;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (recorder_wait(fd) != 0)
				return -1;
		} else if (errno != EINTR) {
			return -1;
		}
	}
	return 0;
}

/* {"type": type, ...body}: the type first, so a reader (or a person) sees it at once. */
static json_t *
recorder_typed(const char *type, json_t *body)
{
	json_t *o;

	if (body == NULL)
		return NULL;
	o = json_pack("{s:s}", "type", type);
	if (o != NULL && json_object_update(o, body) != 0) {
		json_decref(o);
		o = NULL;
	}
	json_decref(body);
	return o;
}

/* Encodes body (a reference it takes) as one line of the given type and writes it. */
static int
recorder_emit(struct recorder *rec, const char *type, json_t *body)
{
	json_t *line;
	char *text;
	size_t len;
	int rc, saved;

	if (rec->failed) {
		json_decref(body);
		return 0;
	}
	line = recorder_typed(type, body);
	text = line != NULL ? json_dumps(line, RECORDER_JSON_FLAGS) : NULL;
	json_decref(line);
	if (text == NULL)
		return recorder_fail(rec, "cannot encode a %s line (out of memory?)", type);
	/* The string's NUL becomes the newline, so the line goes out in one piece. */
	len = strlen(text);
	text[len] = '\n';
	rc = recorder_write_all(rec->fd, text, len + 1);
	saved = errno;
	free(text);
	if (rc != 0)
		return recorder_fail(rec, "%s", strerror(saved));
	rec->lines++;
	return 0;
}

static json_t *
num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* argv with every string scrubbed; NULL-terminated, the strings and array owned. */
static char **
recorder_scrub_argv(char **argv)
{
	char **out;
	int i, n;

	for (n = 0; argv[n] != NULL; n++)
		;
	out = calloc((size_t)n + 1, sizeof(*out));
	for (i = 0; out != NULL && i < n; i++) {
		if ((out[i] = strdup(argv[i])) == NULL) {
			while (i-- > 0)
				free(out[i]);
			free(out);
			return NULL;
		}
		utf8_scrub(out[i]);
	}
	return out;
}

static void
recorder_free_argv(char **argv)
{
	int i;

	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

int
recorder_header(struct recorder *rec, const struct session *s)
{
	struct session c = *s; /* shallow: only its text is changed, in the copy */
	char *text[] = { c.host.os_name,  c.host.os_release, c.host.os_version, c.host.platform,
			 c.host.hostname, c.host.cpu_model,  c.sampler_note,    c.started_utc,
			 c.wl.name,       c.wl.unit,         c.wl.n_unit,       c.wl.parser };
	json_t *h = NULL;
	size_t i;

	if (rec->failed)
		return 0;
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		utf8_scrub(text[i]);
	for (i = 0; i < (size_t)c.wl.nparams && i < SESSION_MAX_PARAMS; i++) {
		utf8_scrub(c.wl.key[i]);
		utf8_scrub(c.wl.value[i]);
	}
	c.wl.argv = s->wl.argv != NULL ? recorder_scrub_argv(s->wl.argv) : NULL;
	if (s->wl.argv == NULL || c.wl.argv != NULL)
		h = session_json_header(&c);
	recorder_free_argv(c.wl.argv);
	/* The snapshot's format and version name a snapshot; a stream names itself. */
	if (h != NULL && (json_object_set_new(h, "format", json_string(STREAM_FORMAT)) != 0 ||
			  json_object_set_new(h, "version", json_integer(STREAM_VERSION)) != 0)) {
		json_decref(h);
		h = NULL;
	}
	return recorder_emit(rec, "header", h);
}

/* The per-CPU rows, the "all" row, the system rates and the interval they span. */
static int
recorder_tick_cpu(json_t *o, const struct sweep_live *lv)
{
	const struct sample_delta *d = &lv->cpu;
	json_t *cpus = json_array(), *row;
	int i, rc = 0;

	if (cpus == NULL)
		return -1;
	for (i = 0; lv->have_cpu && i < d->ncpu; i++) {
		row = sample_json_cpu(&d->cpu[i]);
		if (row == NULL || json_array_append_new(cpus, row) != 0) {
			json_decref(cpus);
			return -1;
		}
	}
	rc |= json_object_set_new(o, "interval",
				  lv->have_cpu ? num_or_null(d->seconds) : json_null());
	rc |= json_object_set_new(o, "all", lv->have_cpu ? sample_json_cpu(&d->all) : json_null());
	rc |= json_object_set_new(o, "cpus", cpus);
	rc |= json_object_set_new(o, "sys", lv->have_cpu ? sample_json_sys(d) : json_null());
	return rc;
}

static json_t *
recorder_contention(const struct contention *c)
{
	json_t *o = json_object();
	double v;
	int i;

	for (i = 0; o != NULL && i < STREAM_NCT_KEYS; i++) {
		memcpy(&v, (const char *)c + stream_ct_keys[i].off, sizeof(v));
		if (json_object_set_new(o, stream_ct_keys[i].key,
					(c->have & stream_ct_keys[i].have) ? num_or_null(v)
									   : json_null()) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/*
 * The window so far, as the live view has it: the target's figures
 * (--target) and the wait profile, whose families include the target's
 * threads and the probes' labels (--probe).  Each only when there is one,
 * and only while the window is open.
 */
static int
recorder_tick_window(json_t *o, const struct sweep_live *lv)
{
	json_t *tg;

	if (lv->phase != PHASE_MEASURING)
		return 0;
	if (lv->have_tg && lv->tg.present) {
		if ((tg = session_json_target(&lv->tg)) == NULL ||
		    json_object_set_new(o, "target", tg) != 0)
			return -1;
	}
	if (lv->have_ct && lv->nwaits > 0 &&
	    json_object_set_new(o, "waits", session_json_wait_list(lv->waits, lv->nwaits)) != 0)
		return -1;
	return 0;
}

/* The tick just added to the session's series; or, before the series exists, now. */
static void
recorder_tick_now(const struct session *s, const struct sweep_live *lv, struct tick *out)
{
	const struct tick *t = series_at(&s->ticks, series_len(&s->ticks) - 1);
	struct timespec ts;

	if (t != NULL) {
		*out = *t;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	out->t = session_time(s, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	out->step = lv->step;
	out->phase = (int)lv->phase;
	out->rate = lv->have_rate ? lv->rate : NAN;
}

int
recorder_tick(struct recorder *rec, const struct session *s, const struct sweep_live *lv,
	      const struct contention *ct)
{
	const struct step *st;
	struct tick now;
	json_t *o;

	if (rec->failed)
		return 0;
	recorder_tick_now(s, lv, &now);
	st = now.step >= 0 && now.step < s->nsteps ? &s->steps[now.step] : NULL;
	if (now.phase < 0 || now.phase > PHASE_DONE)
		now.phase = PHASE_IDLE;
	o = json_pack("{s:f, s:s, s:o, s:o, s:o, s:o, s:i, s:o}", "t", now.t, "phase",
		      stream_phase_names[now.phase], "phase_s", num_or_null(lv->phase_s), "step",
		      st != NULL ? json_integer(now.step) : json_null(), "n",
		      st != NULL ? json_integer(st->n) : json_null(), "rep",
		      st != NULL ? json_integer(st->rep) : json_null(), "steps_total",
		      lv->steps_total, "rate", num_or_null(now.rate));
	if (o != NULL &&
	    (recorder_tick_cpu(o, lv) != 0 ||
	     json_object_set_new(o, "contention",
				 ct != NULL ? recorder_contention(ct) : json_null()) != 0 ||
	     recorder_tick_window(o, lv) != 0)) {
		json_decref(o);
		o = NULL;
	}
	return recorder_emit(rec, "tick", o);
}

int
recorder_step(struct recorder *rec, const struct session *s, int idx)
{
	struct step st;
	json_t *o = NULL;

	if (rec->failed)
		return 0;
	if (idx < 0 || idx >= s->nsteps)
		return recorder_fail(rec, "step %d does not exist (the session has %d)", idx,
				     s->nsteps);
	st = s->steps[idx];
	utf8_scrub(st.reason);
	o = session_json_step(s, &st);
	if (o != NULL && json_object_set_new(o, "index", json_integer(idx)) != 0) {
		json_decref(o);
		o = NULL;
	}
	return recorder_emit(rec, "step", o);
}

int
recorder_event(struct recorder *rec, const struct event *e)
{
	struct event c;

	if (rec->failed)
		return 0;
	c = *e;
	utf8_scrub(c.text);
	return recorder_emit(rec, "event", session_json_event(&c));
}

int
recorder_analysis(struct recorder *rec, const struct analysis *a, const struct analysis_opts *o)
{
	struct analysis_opts dflt;
	struct analysis c;

	if (rec->failed)
		return 0;
	if (o == NULL) {
		analysis_opts_default(&dflt);
		o = &dflt;
	}
	c = *a;
	utf8_scrub(c.verdict);
	utf8_scrub(c.usl.why);
	return recorder_emit(rec, "analysis", snapshot_analysis_json(&c, o));
}

int
recorder_close(struct recorder *rec, char *err, size_t errlen)
{
	bool failed_before;
	int rc = 0;

	if (rec == NULL)
		return 0;
	failed_before = rec->failed;
	if (!rec->failed)
		recorder_emit(rec, "end", json_pack("{s:I}", "lines", (json_int_t)rec->lines));
	if (rec->own_fd && close(rec->fd) == -1 && !rec->failed)
		recorder_fail(rec, "%s", strerror(errno));
	if (rec->failed && !failed_before)
		rc = st_error(err, errlen, "%s", rec->err);
	free(rec->name);
	free(rec);
	return rc;
}

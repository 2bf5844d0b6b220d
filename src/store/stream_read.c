/*
 * The JSON Lines reader: rebuilds a session, and every tick for scrubbing,
 * from a stream fed in chunks of any size.  Nothing in the input is trusted:
 * every index and count is range-checked, a line is at most STREAM_MAX_LINE
 * bytes, and what is kept is capped, so a hostile file costs bounded memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/stream.h"
#include "snapshot_priv.h"

const char *const stream_phase_names[PHASE_DONE + 1] = {
	"idle", "starting", "warm-up", "measuring", "stopping", "done",
};

#define CT_KEY(k, bit, field) { k, bit, offsetof(struct contention, field) }
const struct stream_ct_key stream_ct_keys[STREAM_NCT_KEYS] = {
	CT_KEY("vcsw_s", CT_HAVE_CSW, vcsw_s),
	CT_KEY("ivcsw_s", CT_HAVE_CSW, ivcsw_s),
	CT_KEY("vcsw_per_kop", CT_HAVE_CSW, vcsw_kop),
	CT_KEY("ivcsw_per_kop", CT_HAVE_CSW, ivcsw_kop),
	CT_KEY("run_delay_pct", CT_HAVE_RUN_DELAY, run_delay_pct),
	CT_KEY("kernel_pct", CT_HAVE_KERNEL, kernel_pct),
	CT_KEY("cpu_used", CT_HAVE_KERNEL, cpu_used),
	CT_KEY("ops_per_cpu_s", CT_HAVE_OPS_CPU, ops_per_cpu_s),
	CT_KEY("sys_ctxsw_s", CT_HAVE_SYS_CTXSW, sys_ctxsw_s),
	CT_KEY("psi_some_pct", CT_HAVE_PSI, psi_some_pct),
	CT_KEY("lock_wait_pct", CT_HAVE_LOCK_WAIT, lock_wait_pct),
};

/* The words of a CPU row's "flags", as `scaletop sample --json` writes them. */
static const struct {
	const char *word;
	unsigned bit;
} stream_flag_words[] = {
	{ "offline", CPU_USAGE_OFFLINE },
	{ "new", CPU_USAGE_NEW },
	{ "gone", CPU_USAGE_GONE },
	{ "no_ticks", CPU_USAGE_NO_TICKS },
	{ "backwards", CPU_USAGE_BACKWARDS },
};

#define STREAM_MAX_NOTES 16
#define STREAM_SERIES_FLOATS (16 * 1024 * 1024) /* bounds the recent series' busy store */
#define STREAM_READ_CHUNK 65536

struct stream_reader {
	char *name;                 /* starts every message; NULL for none */
	char *buf;                  /* the line not yet ended */
	size_t len, cap;
	uint64_t line;              /* whole lines read */
	bool failed, finished, have_header, ended, ticks_full;
	bool noted_unknown, noted_steps, noted_events;
	char err[ST_ERRLEN];
	char *notes[STREAM_MAX_NOTES];
	int nnotes;
	unsigned changes;
	struct session s;
	struct analysis an;
	struct analysis_opts an_opts;
	bool have_an;
	struct stream_tick *ticks;
	size_t nticks, capticks, max_ticks;
	struct stream_cpu *cells;   /* every kept tick's rows, back to back */
	size_t ncells, capcells, max_cells;
	struct contention *cts;     /* the kept ticks' live contention */
	size_t ncts, capcts;
	struct stream_cpu *row;     /* one tick's rows while it is decoded */
	size_t caprow;
	float *busy;                /* one tick's busy % by CPU id, for the series */
};

/* --- messages ------------------------------------------------------------- */

static int
stream_fail(struct stream_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
stream_note(struct stream_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The reader's error, about the line being read; -1 for `return stream_fail(...)`. */
static int
stream_fail(struct stream_reader *r, const char *fmt, ...)
{
	char why[ST_ERRLEN / 2];
	va_list ap;

	if (r->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%s%sline %llu: %s", r->name ? r->name : "",
		 r->name ? ": " : "", (unsigned long long)r->line, why);
	st_printable(r->err);
	r->failed = true;
	return -1;
}

static void
stream_note(struct stream_reader *r, const char *fmt, ...)
{
	char text[ST_ERRLEN];
	int n = 0;
	va_list ap;

	if (r->nnotes == STREAM_MAX_NOTES)
		return;
	if (r->name != NULL)
		n = snprintf(text, sizeof(text), "%s: ", r->name);
	if (n < 0 || (size_t)n >= sizeof(text))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	st_printable(text);
	if ((r->notes[r->nnotes] = strdup(text)) != NULL)
		r->nnotes++;
}

/* --- growing arrays ------------------------------------------------------- */

/* Grows *p (of *cap elements of size) to hold need; -1 on overflow or ENOMEM. */
static int
stream_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size || (np = realloc(*p, ncap * size)) == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

/* --- reading fields ------------------------------------------------------- */

/*
 * Field readers for one line.  The first problem becomes the reader's error
 * (naming the line, the part and the key) and later ones are ignored, so a
 * decoder reads every field and checks once at the end.  A NULL object reads
 * as one whose keys are all missing.
 */
struct jget {
	struct stream_reader *r;
	const char *where;
	bool bad;
};

static void
jbad(struct jget *g, const char *key, const char *why)
{
	if (!g->bad)
		stream_fail(g->r, "%s: \"%s\" %s", g->where, key, why);
	g->bad = true;
}

/* The value at key; NULL (after an error unless nullable) when missing or null. */
static json_t *
jval(struct jget *g, json_t *o, const char *key, bool nullable)
{
	json_t *v = json_object_get(o, key);

	if (v != NULL && !json_is_null(v))
		return v;
	if (!nullable)
		jbad(g, key, v == NULL ? "is missing" : "is null");
	return NULL;
}

static double
jnum(struct jget *g, json_t *o, const char *key, bool nullable)
{
	json_t *v = jval(g, o, key, nullable);

	if (v == NULL)
		return NAN;
	if (!json_is_number(v)) {
		jbad(g, key, "is not a number");
		return NAN;
	}
	return json_number_value(v);
}

/* An integer in [lo, hi]; dflt when null and nullable, or after an error. */
static long long
jint(struct jget *g, json_t *o, const char *key, long long lo, long long hi, bool nullable,
     long long dflt)
{
	json_t *v = jval(g, o, key, nullable);
	long long i;

	if (v == NULL)
		return dflt;
	if (!json_is_integer(v)) {
		jbad(g, key, "is not an integer");
		return dflt;
	}
	i = json_integer_value(v);
	if (i < lo || i > hi) {
		jbad(g, key, "is out of range");
		return dflt;
	}
	return i;
}

static bool
jbool(struct jget *g, json_t *o, const char *key)
{
	json_t *v = jval(g, o, key, false);

	if (v != NULL && !json_is_boolean(v))
		jbad(g, key, "is not true or false");
	return v != NULL && json_is_true(v);
}

/* A string, or "" when null and nullable. */
static const char *
jstr(struct jget *g, json_t *o, const char *key, bool nullable)
{
	json_t *v = jval(g, o, key, nullable);

	if (v == NULL)
		return "";
	if (!json_is_string(v)) {
		jbad(g, key, "is not a string");
		return "";
	}
	return json_string_value(v);
}

static json_t *
jtyped(struct jget *g, json_t *o, const char *key, bool nullable, bool array)
{
	json_t *v = jval(g, o, key, nullable);

	if (v != NULL && (array ? !json_is_array(v) : !json_is_object(v))) {
		jbad(g, key, array ? "is not an array" : "is not an object");
		return NULL;
	}
	return v;
}

static json_t *
jobj(struct jget *g, json_t *o, const char *key, bool nullable)
{
	return jtyped(g, o, key, nullable, false);
}

static json_t *
jarr(struct jget *g, json_t *o, const char *key, bool nullable)
{
	return jtyped(g, o, key, nullable, true);
}

/* The index of the string at key in words[]; unknown is dflt, or an error when dflt < 0. */
static int
jword(struct jget *g, json_t *o, const char *key, const char *const *words, int nwords, int dflt)
{
	const char *w = jstr(g, o, key, false);
	int i;

	for (i = 0; i < nwords; i++) {
		if (strcmp(w, words[i]) == 0)
			return i;
	}
	if (dflt < 0 && !g->bad)
		jbad(g, key, "is not a word this scaletop knows");
	return dflt < 0 ? 0 : dflt;
}

/* A percentage: NaN for null, and an error outside [0, 100]. */
static double
jpct(struct jget *g, json_t *o, const char *key)
{
	double v = jnum(g, o, key, true);

	if (v < 0 || v > 100) {
		jbad(g, key, "is not a percentage in [0, 100]");
		return NAN;
	}
	return v;
}

static void
jcopy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* --- the header ----------------------------------------------------------- */

static void
stream_read_host(struct jget *g, json_t *o, struct session *s)
{
	struct host_info *h = &s->host;

	jcopy(h->os_name, sizeof(h->os_name), jstr(g, o, "os_name", false));
	jcopy(h->os_release, sizeof(h->os_release), jstr(g, o, "os_release", false));
	jcopy(h->os_version, sizeof(h->os_version), jstr(g, o, "os_version", false));
	jcopy(h->platform, sizeof(h->platform), jstr(g, o, "platform", false));
	jcopy(h->hostname, sizeof(h->hostname), jstr(g, o, "hostname", false));
	jcopy(h->cpu_model, sizeof(h->cpu_model), jstr(g, o, "cpu_model", false));
	h->ncpus = (int)jint(g, o, "ncpus", 0, INT_MAX, false, 0);
	h->mem_total = (uint64_t)jint(g, o, "mem_total", 0, LLONG_MAX, false, 0);
	jcopy(s->sampler_note, sizeof(s->sampler_note), jstr(g, o, "sampler_note", true));
}

static void
stream_read_params(struct jget *g, json_t *o, struct workload_desc *w)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		if (w->nparams == SESSION_MAX_PARAMS) {
			jbad(g, "params", "has more parameters than a workload can have");
			return;
		}
		if (!json_is_string(v)) {
			jbad(g, key, "is not a string");
			return;
		}
		jcopy(w->key[w->nparams], sizeof(w->key[0]), key);
		jcopy(w->value[w->nparams], sizeof(w->value[0]), json_string_value(v));
		w->nparams++;
	}
}

/* The command template; its strings and array go to the session. */
static void
stream_read_argv(struct jget *g, json_t *a, struct workload_desc *w)
{
	size_t i, n = json_array_size(a);

	if ((w->argv = calloc(n + 1, sizeof(*w->argv))) == NULL) {
		jbad(g, "argv", "does not fit in memory");
		return;
	}
	for (i = 0; i < n; i++) {
		if (!json_is_string(json_array_get(a, i))) {
			jbad(g, "argv", "holds something that is not a string");
			return;
		}
		if ((w->argv[i] = strdup(json_string_value(json_array_get(a, i)))) == NULL) {
			jbad(g, "argv", "does not fit in memory");
			return;
		}
	}
}

static void
stream_read_workload(struct jget *g, json_t *o, struct session *s)
{
	static const char *const modes[] = { "threads", "processes" };
	struct workload_desc *w = &s->wl;
	json_t *argv;

	jcopy(w->name, sizeof(w->name), jstr(g, o, "name", false));
	jcopy(w->unit, sizeof(w->unit), jstr(g, o, "unit", false));
	jcopy(w->n_unit, sizeof(w->n_unit), jstr(g, o, "n_unit", false));
	jcopy(w->parser, sizeof(w->parser), jstr(g, o, "parser", true));
	s->set.mode = jword(g, o, "mode", modes, 2, -1) == 1 ? MODE_PROCESSES : MODE_THREADS;
	stream_read_params(g, jobj(g, o, "params", false), w);
	if ((argv = jarr(g, o, "argv", true)) != NULL && !g->bad)
		stream_read_argv(g, argv, w);
}

static void
stream_read_settings(struct jget *g, json_t *o, struct sweep_settings *set)
{
	json_t *n = jarr(g, o, "n", false), *v;
	size_t i;

	if (n != NULL && json_array_size(n) > 0 &&
	    (set->n = calloc(json_array_size(n), sizeof(*set->n))) == NULL)
		jbad(g, "n", "does not fit in memory");
	json_array_foreach(n, i, v) {
		if (set->n == NULL)
			break;
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > INT_MAX) {
			jbad(g, "n", "holds something that is not a count of 1 or more");
			break;
		}
		set->n[set->nn++] = (int)json_integer_value(v);
	}
	set->duration_s = jnum(g, o, "duration_s", true);
	set->warmup_s = jnum(g, o, "warmup_s", true);
	set->stable_pct = jnum(g, o, "stable_pct", true);
	if (isnan(set->stable_pct))
		set->stable_pct = 0;
	set->min_measure_s = jnum(g, o, "min_measure_s", true);
	set->interval_s = jnum(g, o, "interval_s", true);
	set->repeat = (int)jint(g, o, "repeat", 1, INT_MAX, false, 1);
	set->stall_s = jnum(g, o, "stall_s", true);
	set->stop_on_failure = jbool(g, o, "stop_on_failure");
	/* The analysis thresholds; absent or null is 0, the default. */
	set->efficiency_min = jnum(g, o, "efficiency_min", true);
	set->collapse_theta = jnum(g, o, "collapse_theta", true);
	set->efficiency_min = isnan(set->efficiency_min) ? 0 : set->efficiency_min;
	set->collapse_theta = isnan(set->collapse_theta) ? 0 : set->collapse_theta;
}

static int
stream_read_header(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "header", false };
	const char *format;
	long long version;

	if (r->have_header)
		return stream_fail(r, "a second header: a stream holds one run");
	format = jstr(&g, o, "format", false);
	version = jint(&g, o, "version", 1, INT_MAX, false, 1);
	if (!g.bad && strcmp(format, STREAM_FORMAT) != 0)
		return stream_fail(r, "header: the format is \"%s\", not \"%s\": this is not a "
				      "scaletop stream", format, STREAM_FORMAT);
	if (!g.bad && version > STREAM_VERSION)
		return stream_fail(r, "header: stream version %lld is newer than this scaletop "
				      "reads (%d): use a newer scaletop", version, STREAM_VERSION);
	/* "started" is when the run began; older writers had only "taken", written then too. */
	jcopy(r->s.started_utc, sizeof(r->s.started_utc),
	      json_object_get(o, "started") != NULL ? jstr(&g, o, "started", true)
						     : jstr(&g, o, "taken", false));
	stream_read_host(&g, jobj(&g, o, "host", false), &r->s);
	stream_read_workload(&g, jobj(&g, o, "workload", false), &r->s);
	stream_read_settings(&g, jobj(&g, o, "settings", false), &r->s.set);
	if (g.bad)
		return -1;
	r->have_header = true;
	r->changes |= STREAM_GOT_HEADER;
	return 0;
}

/* --- CPU rows and contention ---------------------------------------------- */

static unsigned
stream_read_flags(struct jget *g, json_t *o)
{
	json_t *a = jarr(g, o, "flags", true), *v;
	unsigned flags = 0;
	size_t i, k;

	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			jbad(g, "flags", "holds something that is not a word");
			return 0;
		}
		/* A word from a newer scaletop is not an error: it only adds a mark. */
		for (k = 0; k < sizeof(stream_flag_words) / sizeof(stream_flag_words[0]); k++) {
			if (strcmp(json_string_value(v), stream_flag_words[k].word) == 0)
				flags |= stream_flag_words[k].bit;
		}
	}
	return flags;
}

/* One row as sample_json_cpu writes it; NaN where it has null.  id -1: the "all" row. */
static void
stream_read_cpu(struct jget *g, json_t *o, bool want_id, struct cpu_usage *u)
{
	int i;

	if (!json_is_object(o)) {
		jbad(g, "cpus", "holds something that is not an object");
		return;
	}
	u->id = want_id ? (int)jint(g, o, "cpu", 0, STREAM_MAX_CPU_ID, false, 0) : -1;
	for (i = 0; i < CPU_NSTATES; i++)
		u->pct[i] = jpct(g, o, cpu_state_names[i]);
	u->busy = jpct(g, o, "busy");
	u->flags = stream_read_flags(g, o);
}

static uint16_t
stream_pct_pack(double v)
{
	return isnan(v) ? STREAM_PCT_NONE : (uint16_t)lround(v * 100);
}

static void
stream_cpu_pack(const struct cpu_usage *u, struct stream_cpu *c)
{
	int i;

	c->id = u->id;
	c->flags = (uint16_t)u->flags;
	for (i = 0; i < CPU_NSTATES; i++)
		c->pct[i] = stream_pct_pack(u->pct[i]);
	c->busy = stream_pct_pack(u->busy);
}

/* The model keeps 0, not NaN, for the figures of a CPU without data. */
static void
stream_cpu_zero_nan(struct cpu_usage *u)
{
	int i;

	for (i = 0; i < CPU_NSTATES; i++)
		u->pct[i] = isnan(u->pct[i]) ? 0 : u->pct[i];
	u->busy = isnan(u->busy) ? 0 : u->busy;
}

static void
stream_read_contention(struct jget *g, json_t *o, struct contention *c)
{
	double v;
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < STREAM_NCT_KEYS; i++) {
		v = jnum(g, o, stream_ct_keys[i].key, true);
		if (isnan(v))
			continue;
		memcpy((char *)c + stream_ct_keys[i].off, &v, sizeof(v));
		c->have |= stream_ct_keys[i].have;
	}
}

/* --- steps ---------------------------------------------------------------- */

/*
 * A statistic: null is 0 where stats.h defines it so (no samples, or fewer
 * than two for a spread), and unknown (NaN) where the figure should exist.
 */
static double
jstat(struct jget *g, json_t *o, const char *key, bool defined)
{
	double v = jnum(g, o, key, true);

	return isnan(v) && !defined ? 0 : v;
}

static void
stream_read_intervals(struct jget *g, json_t *o, struct step *st)
{
	json_t *samples = jarr(g, o, "samples", false), *v;
	size_t i;

	st->st.n = (size_t)jint(g, o, "count", 0, INT_MAX, false, 0);
	st->st.mean = jstat(g, o, "mean", st->st.n > 0);
	st->st.median = jstat(g, o, "median", st->st.n > 0);
	st->st.min = jstat(g, o, "min", st->st.n > 0);
	st->st.max = jstat(g, o, "max", st->st.n > 0);
	st->st.stddev = jstat(g, o, "stddev", st->st.n > 1);
	st->st.ci95 = jstat(g, o, "ci95", st->st.n > 1);
	st->st.have_spread = st->st.n > 1 && isfinite(st->st.stddev) && isfinite(st->st.ci95);
	if (samples != NULL && json_array_size(samples) > 0 &&
	    (st->iv = calloc(json_array_size(samples), sizeof(*st->iv))) == NULL)
		jbad(g, "samples", "does not fit in memory");
	json_array_foreach(samples, i, v) {
		if (st->iv == NULL || !(json_is_number(v) || json_is_null(v))) {
			jbad(g, "samples", "holds something that is not a number");
			return;
		}
		st->iv[st->niv++] = json_is_null(v) ? NAN : json_number_value(v);
	}
	st->capiv = st->niv;
	if (json_object_get(o, "ci95_ac") == NULL)
		stats_fill_ci95_ac(&st->st, st->iv, (size_t)st->niv);
	else
		st->st.ci95_ac = jstat(g, o, "ci95_ac", st->st.n > 1);
}

static void
stream_read_step_cpu(struct jget *g, json_t *o, struct step *st)
{
	json_t *per, *v;
	size_t i;

	if (o == NULL)
		return;
	stream_read_cpu(g, jobj(g, o, "all", false), false, &st->all);
	stream_cpu_zero_nan(&st->all);
	per = jarr(g, o, "per_cpu", false);
	if (per != NULL && json_array_size(per) > 0 &&
	    (st->cpu = calloc(json_array_size(per), sizeof(*st->cpu))) == NULL)
		jbad(g, "per_cpu", "does not fit in memory");
	json_array_foreach(per, i, v) {
		if (st->cpu == NULL || g->bad)
			return;
		stream_read_cpu(g, v, true, &st->cpu[st->ncpu]);
		stream_cpu_zero_nan(&st->cpu[st->ncpu++]);
	}
}

/* fairness: the snapshot's own reader, so the two agree on what is valid. */
static void
stream_read_fairness(struct jget *g, json_t *o, struct fairness *f)
{
	char why[ST_ERRLEN];
	struct field_ctx c = { .name = g->where, .err = why, .errlen = sizeof(why) };

	if (!g->bad && snapshot_fairness_read(&c, o, "", f) != 0) {
		stream_fail(g->r, "%s", why);
		g->bad = true;
	}
}

/* A step as session_json_step writes it; speedup and efficiency are derived, so not read. */
static void
stream_read_step_body(struct jget *g, json_t *o, struct step *st)
{
	st->n = (int)jint(g, o, "n", 0, INT_MAX, false, 0);
	st->rep = (int)jint(g, o, "rep", 0, INT_MAX, false, 0);
	st->status = jword(g, o, "status", step_status_names, STEP_INTERRUPTED + 1, -1);
	jcopy(st->reason, sizeof(st->reason), jstr(g, o, "reason", true));
	st->start_s = jnum(g, o, "start_s", true);
	st->warmup_s = jnum(g, o, "warmup_s", true);
	st->window_s = jnum(g, o, "window_s", true);
	st->ops = (uint64_t)jint(g, o, "ops", 0, LLONG_MAX, true, 0);
	st->ops_s = jnum(g, o, "ops_s", true);
	if (isnan(st->ops_s))
		st->ops_s = 0;
	st->no_intervals = jbool(g, o, "no_intervals");
	stream_read_intervals(g, jobj(g, o, "intervals", false), st);
	stream_read_step_cpu(g, jobj(g, o, "cpu", true), st);
	stream_read_contention(g, jobj(g, o, "contention", false), &st->ct);
	stream_read_fairness(g, o, &st->fair);
}

static void
stream_step_free(struct step *st)
{
	free(st->iv);
	free(st->cpu);
}

static int
stream_read_step(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "step", false };
	long long idx = jint(&g, o, "index", 0, INT_MAX, false, 0);
	struct step st, *slot;

	memset(&st, 0, sizeof(st));
	st.all.id = -1;
	stream_read_step_body(&g, o, &st);
	if (g.bad) {
		stream_step_free(&st);
		return -1;
	}
	if (idx >= r->s.nsteps && r->s.nsteps >= STREAM_MAX_STEPS) {
		if (!r->noted_steps)
			stream_note(r, "kept the first %d steps; later ones are skipped",
				    STREAM_MAX_STEPS);
		r->noted_steps = true;
		stream_step_free(&st);
		return 0;
	}
	if (idx > r->s.nsteps) {
		stream_step_free(&st);
		return stream_fail(r, "step: index %lld skips step %d: steps are written in order",
				   idx, r->s.nsteps);
	}
	slot = idx < r->s.nsteps ? &r->s.steps[idx] : session_add_step(&r->s, st.n, st.rep);
	if (slot == NULL) {
		stream_step_free(&st);
		return stream_fail(r, "step: out of memory");
	}
	/* A step written again (a newer scaletop may send running steps) replaces it. */
	stream_step_free(slot);
	*slot = st;
	r->changes |= STREAM_GOT_STEP;
	return 0;
}

/* --- events, analysis, end ------------------------------------------------ */

static int
stream_read_event(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "event", false };
	double t = jnum(&g, o, "t", true);
	int step = (int)jint(&g, o, "step", 0, INT_MAX, true, -1);
	/* An unknown kind is only a way of showing the text: show it as info. */
	int kind = jword(&g, o, "kind", event_kind_names, EV_COLLAPSE + 1, EV_INFO);
	const char *text = jstr(&g, o, "text", false);

	if (g.bad)
		return -1;
	if (r->s.nevents >= STREAM_MAX_EVENTS) {
		if (!r->noted_events)
			stream_note(r, "kept the first %d events; later ones are skipped",
				    STREAM_MAX_EVENTS);
		r->noted_events = true;
		return 0;
	}
	if (session_add_event(&r->s, step, (enum event_kind)kind, t, "%s", text) != 0)
		return stream_fail(r, "event: out of memory");
	r->changes |= STREAM_GOT_EVENT;
	return 0;
}

/* The analysis object is the snapshot's "analysis" member, read by the snapshot's own code. */
static int
stream_read_analysis(struct stream_reader *r, json_t *o)
{
	char where[ST_ERRLEN], err[ST_ERRLEN];
	struct field_ctx c = { .name = where, .err = err, .errlen = sizeof(err) };
	struct analysis_opts opts;
	struct analysis an;

	/* The snapshot's messages start "name: "; the reader adds its own. */
	snprintf(where, sizeof(where), "@");
	err[0] = '\0';
	if (snapshot_analysis_parse(&c, o, &an, &opts) != 0) {
		free(an.pts);
		return stream_fail(r, "%s", strncmp(err, "@: ", 3) == 0 ? err + 3 : err);
	}
	free(r->an.pts);
	r->an = an;
	r->an_opts = opts;
	/* As a loaded snapshot does: the thresholds it was judged by become the settings. */
	r->s.set.efficiency_min = opts.efficiency_min;
	r->s.set.collapse_theta = opts.collapse_theta;
	r->have_an = true;
	r->changes |= STREAM_GOT_ANALYSIS;
	return 0;
}

static int
stream_read_end(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "end", false };
	long long lines = jint(&g, o, "lines", 0, LLONG_MAX, false, 0);

	if (g.bad)
		return -1;
	/* The recorder writes no blank lines, so a difference means lines were lost or added. */
	if ((uint64_t)lines != r->line - 1)
		stream_note(r, "the end line counts %lld lines before it, but %llu were read",
			    lines, (unsigned long long)(r->line - 1));
	r->ended = true;
	r->changes |= STREAM_GOT_END;
	return 0;
}

/* --- ticks ---------------------------------------------------------------- */

/* A number as a float, NaN for null; clamped, since converting beyond FLT_MAX is undefined. */
static float
jfloat(struct jget *g, json_t *o, const char *key)
{
	double v = jnum(g, o, key, true);

	if (v > FLT_MAX)
		return FLT_MAX;
	if (v < -FLT_MAX)
		return -FLT_MAX;
	return (float)v;
}

static void
stream_read_sys(struct jget *g, json_t *o, struct stream_sys *y)
{
	y->ctxsw_s = jfloat(g, o, "ctxsw_s");
	y->intr_s = jfloat(g, o, "intr_s");
	y->softirq_s = jfloat(g, o, "softirq_s");
	y->syscall_s = jfloat(g, o, "syscall_s");
	y->fork_s = jfloat(g, o, "fork_s");
	y->running = jfloat(g, o, "running");
	y->blocked = jfloat(g, o, "blocked");
	y->psi_some_pct = jfloat(g, o, "psi_some_pct");
	y->psi_full_pct = jfloat(g, o, "psi_full_pct");
}

/* The tick's rows into r->row; their number, or -1. */
static int
stream_read_rows(struct jget *g, json_t *a, struct stream_reader *r)
{
	struct cpu_usage u;
	json_t *v;
	size_t i;

	if (stream_grow((void **)&r->row, &r->caprow, json_array_size(a), sizeof(*r->row)) != 0) {
		jbad(g, "cpus", "does not fit in memory");
		return -1;
	}
	json_array_foreach(a, i, v) {
		stream_read_cpu(g, v, true, &u);
		if (g->bad)
			return -1;
		stream_cpu_pack(&u, &r->row[i]);
	}
	return (int)json_array_size(a);
}

/*
 * The recent series, as the live engine keeps it.  Its width is fixed at the
 * first tick: CPU ids beyond it stay out of the series (they are in the
 * ticks), and the ring is shortened for very wide machines to bound memory.
 */
static int
stream_series_add(struct stream_reader *r, const struct stream_tick *t, int nrows)
{
	struct series *ser = &r->s.ticks;
	struct tick k = { .t = t->t, .step = t->step, .phase = (int)t->phase, .rate = t->rate };
	int i, ncpu = r->s.host.ncpus, cap = SERIES_DEFAULT_CAP;

	if (ser->cap == 0) {
		for (i = 0; i < nrows; i++)
			ncpu = r->row[i].id >= ncpu ? r->row[i].id + 1 : ncpu;
		ncpu = ncpu > STREAM_MAX_CPU_ID + 1 ? STREAM_MAX_CPU_ID + 1 : ncpu;
		if (ncpu > 0 && cap > STREAM_SERIES_FLOATS / ncpu)
			cap = STREAM_SERIES_FLOATS / ncpu;
		r->busy = calloc(ncpu > 0 ? (size_t)ncpu : 1, sizeof(*r->busy));
		if (r->busy == NULL || session_start_series(&r->s, ncpu, cap) != 0)
			return stream_fail(r, "tick: out of memory");
	}
	for (i = 0; i < ser->ncpu; i++)
		r->busy[i] = NAN;
	for (i = 0; i < nrows; i++) {
		if (r->row[i].id < ser->ncpu && !(r->row[i].flags & CPU_USAGE_NO_DATA))
			r->busy[r->row[i].id] = (float)stream_pct(r->row[i].busy);
	}
	k.busy_all = t->have_cpu ? (float)stream_pct(t->all.busy) : NAN;
	series_add(ser, &k, r->busy);
	return 0;
}

/* Keeps the tick for scrubbing, until a limit: then the kept ticks stay one unbroken run. */
static int
stream_keep_tick(struct stream_reader *r, struct stream_tick *t, int nrows,
		 const struct contention *ct)
{
	if (!r->ticks_full &&
	    (r->nticks >= r->max_ticks || r->ncells + (size_t)nrows > r->max_cells)) {
		stream_note(r, "kept the first %zu ticks (at most %zu ticks and %zu CPU rows); "
			       "later ones are only in the recent series", r->nticks, r->max_ticks,
			    r->max_cells);
		r->ticks_full = true;
	}
	if (r->ticks_full)
		return 0;
	if (stream_grow((void **)&r->ticks, &r->capticks, r->nticks + 1, sizeof(*r->ticks)) ||
	    stream_grow((void **)&r->cells, &r->capcells, r->ncells + (size_t)nrows,
			sizeof(*r->cells)) ||
	    (ct != NULL &&
	     stream_grow((void **)&r->cts, &r->capcts, r->ncts + 1, sizeof(*r->cts))))
		return stream_fail(r, "tick: out of memory");
	t->cpu_off = r->ncells;
	t->ncpu = nrows;
	if (nrows > 0)
		memcpy(r->cells + r->ncells, r->row, (size_t)nrows * sizeof(*r->cells));
	r->ncells += (size_t)nrows;
	t->ct_idx = ct != NULL ? (int64_t)r->ncts : -1;
	if (ct != NULL)
		r->cts[r->ncts++] = *ct;
	r->ticks[r->nticks++] = *t;
	return 0;
}

static int
stream_read_tick(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "tick", false };
	json_t *all, *cpus, *ctj;
	struct stream_tick t;
	struct contention ct;
	struct cpu_usage u;
	int nrows = 0;

	memset(&t, 0, sizeof(t));
	t.t = jnum(&g, o, "t", false);
	t.phase = jword(&g, o, "phase", stream_phase_names, PHASE_DONE + 1, -1);
	t.phase_s = jnum(&g, o, "phase_s", true);
	t.step = (int)jint(&g, o, "step", 0, INT_MAX, true, -1);
	t.n = (int)jint(&g, o, "n", 0, INT_MAX, true, 0);
	t.rep = (int)jint(&g, o, "rep", 0, INT_MAX, true, 0);
	t.steps_total = (int)jint(&g, o, "steps_total", 0, INT_MAX, false, 0);
	t.rate = jnum(&g, o, "rate", true);
	t.interval = jnum(&g, o, "interval", true);
	if ((all = jobj(&g, o, "all", true)) != NULL) {
		stream_read_cpu(&g, all, false, &u);
		stream_cpu_pack(&u, &t.all);
		t.have_cpu = true;
	}
	stream_read_sys(&g, jobj(&g, o, "sys", true), &t.sys);
	if ((cpus = jarr(&g, o, "cpus", true)) != NULL && !g.bad)
		nrows = stream_read_rows(&g, cpus, r);
	if ((ctj = jobj(&g, o, "contention", true)) != NULL)
		stream_read_contention(&g, ctj, &ct);
	if (g.bad)
		return -1;
	if (stream_series_add(r, &t, nrows) != 0 ||
	    stream_keep_tick(r, &t, nrows, ctj != NULL ? &ct : NULL) != 0)
		return -1;
	r->changes |= STREAM_GOT_TICK;
	return 0;
}

/* --- lines ---------------------------------------------------------------- */

static const struct {
	const char *type;
	int (*read)(struct stream_reader *, json_t *);
} stream_types[] = {
	{ "header", stream_read_header },
	{ "tick", stream_read_tick },
	{ "step", stream_read_step },
	{ "event", stream_read_event },
	{ "analysis", stream_read_analysis },
	{ "end", stream_read_end },
};

static int
stream_dispatch(struct stream_reader *r, json_t *o, const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(stream_types) / sizeof(stream_types[0]); i++) {
		if (strcmp(type, stream_types[i].type) != 0)
			continue;
		if (!r->have_header && stream_types[i].read != stream_read_header)
			return stream_fail(r, "\"%s\" before the header: a stream starts "
					      "with its header line", type);
		return stream_types[i].read(r, o);
	}
	if (!r->noted_unknown)
		stream_note(r, "line %llu: skipped a line of unknown type \"%.40s\" (and any "
			       "more like it): written by a newer scaletop?",
			    (unsigned long long)r->line, type);
	r->noted_unknown = true;
	return 0;
}

static bool
stream_blank(const char *p, size_t len)
{
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	return len == 0;
}

static int
stream_apply_line(struct stream_reader *r, const char *p, size_t len)
{
	json_error_t je;
	json_t *o, *type;
	int rc;

	if (stream_blank(p, len))
		return 0;
	if (r->ended)
		return stream_fail(r, "a line after the end line");
	if ((o = json_loadb(p, len, 0, &je)) == NULL)
		return stream_fail(r, "column %d: not JSON: %s", je.column, je.text);
	type = json_object_get(o, "type");
	if (!json_is_object(o))
		rc = stream_fail(r, "not a JSON object");
	else if (!json_is_string(type))
		rc = stream_fail(r, "no \"type\": every line says what it is");
	else
		rc = stream_dispatch(r, o, json_string_value(type));
	json_decref(o);
	return rc;
}

int
stream_reader_feed(struct stream_reader *r, const void *data, size_t len)
{
	const char *p = data, *nl;
	size_t take;

	if (r->failed)
		return -1;
	if (r->finished)
		return stream_fail(r, "more input after its end");
	while (len > 0) {
		nl = memchr(p, '\n', len);
		take = nl != NULL ? (size_t)(nl - p) : len;
		if (take > STREAM_MAX_LINE - r->len) {
			r->line++;
			return stream_fail(r, "longer than %d bytes: not a scaletop stream",
					   STREAM_MAX_LINE);
		}
		if (stream_grow((void **)&r->buf, &r->cap, r->len + take, 1) != 0)
			return stream_fail(r, "out of memory");
		if (take > 0)
			memcpy(r->buf + r->len, p, take);
		r->len += take;
		if (nl == NULL)
			break;
		r->line++;
		if (stream_apply_line(r, r->buf, r->len) != 0)
			return -1;
		r->len = 0;
		p = nl + 1;
		len -= take + 1;
	}
	return 0;
}

int
stream_reader_finish(struct stream_reader *r)
{
	bool cut = r->len > 0 && !stream_blank(r->buf, r->len);

	if (r->finished || r->failed) {
		r->finished = true;
		return r->failed ? -1 : 0;
	}
	r->finished = true;
	if (cut)
		stream_note(r, "truncated: last line incomplete, replayed up to line %llu",
			    (unsigned long long)r->line);
	r->len = 0;
	if (!r->have_header) {
		snprintf(r->err, sizeof(r->err), "%s%s%s", r->name ? r->name : "",
			 r->name ? ": " : "",
			 r->line == 0 && !cut ? "empty: no header line, so not a scaletop stream"
					      : "no header line: not a scaletop stream");
		r->failed = true;
		return -1;
	}
	if (!cut && !r->ended)
		stream_note(r, "no end line: the recording stopped before the run finished");
	return 0;
}

int
stream_reader_load(struct stream_reader *r, const char *path)
{
	bool std = strcmp(path, "-") == 0;
	int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *chunk = malloc(STREAM_READ_CHUNK);
	ssize_t n = 0;

	if (fd == -1 || chunk == NULL) {
		snprintf(r->err, sizeof(r->err), "cannot open %s: %s", path,
			 fd == -1 ? strerror(errno) : "out of memory");
		r->failed = r->finished = true;
		free(chunk);
		return -1;
	}
	while ((n = read(fd, chunk, STREAM_READ_CHUNK)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(r->err, sizeof(r->err), "cannot read %s: %s", path,
				 strerror(errno));
			r->failed = true;
			break;
		}
		if (stream_reader_feed(r, chunk, (size_t)n) != 0)
			break;
	}
	free(chunk);
	if (!std)
		close(fd);
	return stream_reader_finish(r);
}

/* --- the reader's life and accessors -------------------------------------- */

struct stream_reader *
stream_reader_new(const char *name)
{
	struct stream_reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	if (name != NULL && (r->name = strdup(name)) == NULL) {
		free(r);
		return NULL;
	}
	session_init(&r->s);
	r->max_ticks = STREAM_MAX_TICKS;
	r->max_cells = STREAM_MAX_CELLS;
	return r;
}

void
stream_reader_free(struct stream_reader *r)
{
	int i;

	if (r == NULL)
		return;
	session_free(&r->s);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->an.pts);
	free(r->name);
	free(r->buf);
	free(r->ticks);
	free(r->cells);
	free(r->cts);
	free(r->row);
	free(r->busy);
	free(r);
}

void
stream_reader_set_limits(struct stream_reader *r, size_t max_ticks, size_t max_cells)
{
	if (max_ticks > 0)
		r->max_ticks = max_ticks;
	if (max_cells > 0)
		r->max_cells = max_cells;
}

const char *
stream_reader_error(const struct stream_reader *r)
{
	return r->failed ? r->err : "";
}

int
stream_reader_nnotes(const struct stream_reader *r)
{
	return r->nnotes;
}

const char *
stream_reader_note(const struct stream_reader *r, int i)
{
	return i >= 0 && i < r->nnotes ? r->notes[i] : NULL;
}

unsigned
stream_reader_changes(struct stream_reader *r)
{
	unsigned c = r->changes;

	r->changes = 0;
	return c;
}

uint64_t
stream_reader_lines(const struct stream_reader *r)
{
	return r->line;
}

bool
stream_reader_have_header(const struct stream_reader *r)
{
	return r->have_header;
}

bool
stream_reader_ended(const struct stream_reader *r)
{
	return r->ended;
}

struct session *
stream_reader_session(struct stream_reader *r)
{
	return &r->s;
}

const struct analysis *
stream_reader_analysis(const struct stream_reader *r, struct analysis_opts *o)
{
	if (r->have_an && o != NULL)
		*o = r->an_opts;
	return r->have_an ? &r->an : NULL;
}

size_t
stream_reader_nticks(const struct stream_reader *r)
{
	return r->nticks;
}

const struct stream_tick *
stream_reader_tick(const struct stream_reader *r, size_t i)
{
	return i < r->nticks ? &r->ticks[i] : NULL;
}

const struct stream_cpu *
stream_reader_tick_cpus(const struct stream_reader *r, const struct stream_tick *t)
{
	return t->ncpu > 0 ? r->cells + t->cpu_off : NULL;
}

const struct contention *
stream_reader_tick_contention(const struct stream_reader *r, const struct stream_tick *t)
{
	return t->ct_idx >= 0 ? &r->cts[t->ct_idx] : NULL;
}

double
stream_pct(uint16_t v)
{
	return v == STREAM_PCT_NONE ? NAN : v / 100.0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tick lines: one engine tick each, kept for scrubbing (up to the reader's
 * limits) and added to the session's recent series, as the live engine
 * keeps it.  Also the stream's words for phases, CPU flags and the
 * contention figures, which the recorder writes with.
 */
#include <float.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/contention.h"
#include "scaletop/grow.h"
#include "session_read.h"
#include "stream_priv.h"

#define STREAM_SERIES_FLOATS (16 * 1024 * 1024) /* bounds the recent series' busy store */

const char *const stream_phase_names[PHASE_DONE + 1] = {
	"idle", "starting", "warm-up", "measuring", "stopping", "done",
};

#define CT_KEY(k, bit, field)                              \
	{                                                  \
		k, bit, offsetof(struct contention, field) \
	}
const struct stream_ct_key stream_ct_keys[STREAM_NCT_KEYS] = {
	CT_KEY("vcsw_s", CT_HAVE_CSW, vcsw_s),
	CT_KEY("ivcsw_s", CT_HAVE_CSW, ivcsw_s),
	CT_KEY("vcsw_per_kop", CT_HAVE_CSW_KOP, vcsw_kop),
	CT_KEY("ivcsw_per_kop", CT_HAVE_CSW_KOP, ivcsw_kop),
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
	{ "offline", CPU_USAGE_OFFLINE },     { "new", CPU_USAGE_NEW },
	{ "gone", CPU_USAGE_GONE },           { "no_ticks", CPU_USAGE_NO_TICKS },
	{ "backwards", CPU_USAGE_BACKWARDS },
};

/* --- reading a tick's fields ---------------------------------------------- */

/*
 * Field readers for a tick line, the stream's own record: its shape is the
 * live engine's, not the session's, so it has its own (lenient where a
 * newer scaletop may add to it: a CPU flag word it does not know only adds
 * a mark).  The first problem becomes the reader's error (naming the line,
 * the part and the key) and later ones are ignored, so a decoder reads every
 * field and checks once at the end.  A NULL object reads as one whose keys
 * are all missing.
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

/* --- CPU rows and contention ---------------------------------------------- */

static unsigned
stream_read_flags(struct jget *g, json_t *o)
{
	json_t *a = jarr(g, o, "flags", true), *v;
	unsigned flags = 0;
	size_t i, k;

	json_array_foreach(a, i, v)
	{
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
	contention_forget_old_zeros(c); /* an older recorder's 0 for no operation counted */
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

	if (grow_array(&r->row, &r->caprow, json_array_size(a), sizeof(*r->row), 16) != 0) {
		jbad(g, "cpus", "does not fit in memory");
		return -1;
	}
	json_array_foreach(a, i, v)
	{
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

/*
 * The window so far: "target" and "waits", read as a step's are (one rule for
 * both); absent in older streams and where there is none.  The profile goes
 * into w->waits (free it); 0, or -1 after stream_fail.
 */
static int
stream_read_window(struct stream_reader *r, json_t *o, int n, struct target_figures *tg,
		   struct step *w)
{
	char why[ST_ERRLEN];
	struct field_ctx c = { .name = "tick", .err = why, .errlen = sizeof(why), .record = true };

	memset(w, 0, sizeof(*w));
	w->n = n;
	if (session_read_target(&c, o, "", tg) != 0 || session_read_waits(&c, o, "", w) != 0)
		return stream_fail(r, "%s", why);
	return 0;
}

/* The tick's target figures, kept once however many ticks repeat them. */
static int
stream_keep_target(struct stream_reader *r, struct stream_tick *t, const struct target_figures *tg)
{
	t->tg_idx = -1;
	if (!tg->present)
		return 0;
	if (r->ntgs > 0 && memcmp(&r->tgs[r->ntgs - 1], tg, sizeof(*tg)) == 0) {
		t->tg_idx = (int64_t)r->ntgs - 1;
		return 0;
	}
	if (grow_array(&r->tgs, &r->captgs, r->ntgs + 1, sizeof(*r->tgs), 16) != 0)
		return stream_fail(r, "tick: out of memory");
	r->tgs[r->ntgs] = *tg;
	t->tg_idx = (int64_t)r->ntgs++;
	return 0;
}

/*
 * The tick's wait profile, kept once while ticks repeat it (it is refreshed
 * about once a second), up to STREAM_MAX_WAIT_CELLS lines: later ticks go
 * without, with a note.
 */
static int
stream_keep_waits(struct stream_reader *r, struct stream_tick *t, const struct step *w)
{
	const struct stream_tick *prev = r->nticks > 0 ? &r->ticks[r->nticks - 1] : NULL;

	t->nwaits = 0;
	t->waits_off = 0;
	if (w->nwaits == 0)
		return 0;
	if (prev != NULL && prev->nwaits == w->nwaits &&
	    memcmp(r->wcells + prev->waits_off, w->waits, (size_t)w->nwaits * sizeof(*w->waits)) ==
		    0) {
		t->waits_off = prev->waits_off;
		t->nwaits = prev->nwaits;
		return 0;
	}
	if (r->waits_full || r->nwcells + (size_t)w->nwaits > STREAM_MAX_WAIT_CELLS) {
		if (!r->waits_full)
			stream_note(r,
				    "kept the wait profiles of the first %zu ticks; later ticks "
				    "have none",
				    r->nticks);
		r->waits_full = true;
		return 0;
	}
	if (grow_array(&r->wcells, &r->capwcells, r->nwcells + (size_t)w->nwaits,
		       sizeof(*r->wcells), 16) != 0)
		return stream_fail(r, "tick: out of memory");
	memcpy(r->wcells + r->nwcells, w->waits, (size_t)w->nwaits * sizeof(*w->waits));
	t->waits_off = r->nwcells;
	t->nwaits = w->nwaits;
	r->nwcells += (size_t)w->nwaits;
	return 0;
}

/* Keeps the tick for scrubbing, until a limit: then the kept ticks stay one unbroken run. */
static int
stream_keep_tick(struct stream_reader *r, struct stream_tick *t, int nrows,
		 const struct contention *ct, const struct target_figures *tg, const struct step *w)
{
	if (!r->ticks_full &&
	    (r->nticks >= r->max_ticks || r->ncells + (size_t)nrows > r->max_cells)) {
		stream_note(r,
			    "kept the first %zu ticks (at most %zu ticks and %zu CPU rows); "
			    "later ones are only in the recent series",
			    r->nticks, r->max_ticks, r->max_cells);
		r->ticks_full = true;
	}
	if (r->ticks_full)
		return 0;
	if (grow_array(&r->ticks, &r->capticks, r->nticks + 1, sizeof(*r->ticks), 16) ||
	    grow_array(&r->cells, &r->capcells, r->ncells + (size_t)nrows, sizeof(*r->cells), 16) ||
	    (ct != NULL && grow_array(&r->cts, &r->capcts, r->ncts + 1, sizeof(*r->cts), 16)))
		return stream_fail(r, "tick: out of memory");
	t->cpu_off = r->ncells;
	t->ncpu = nrows;
	if (nrows > 0)
		memcpy(r->cells + r->ncells, r->row, (size_t)nrows * sizeof(*r->cells));
	r->ncells += (size_t)nrows;
	t->ct_idx = ct != NULL ? (int64_t)r->ncts : -1;
	if (ct != NULL)
		r->cts[r->ncts++] = *ct;
	if (stream_keep_target(r, t, tg) != 0 || stream_keep_waits(r, t, w) != 0)
		return -1;
	r->ticks[r->nticks++] = *t;
	return 0;
}

int
stream_read_tick(struct stream_reader *r, json_t *o)
{
	struct jget g = { r, "tick", false };
	json_t *all, *cpus, *ctj;
	struct stream_tick t;
	struct target_figures tg;
	struct contention ct;
	struct cpu_usage u;
	struct step w;
	int nrows = 0, rc;

	memset(&t, 0, sizeof(t));
	memset(&w, 0, sizeof(w));
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
	if (g.bad || stream_read_window(r, o, t.n, &tg, &w) != 0) {
		free(w.waits);
		return -1;
	}
	rc = stream_series_add(r, &t, nrows) != 0 ||
	     stream_keep_tick(r, &t, nrows, ctj != NULL ? &ct : NULL, &tg, &w) != 0;
	free(w.waits);
	if (rc)
		return -1;
	r->changes |= STREAM_GOT_TICK;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Encoding the session model as JSON: the body of a snapshot and of
 * `run --json`.  A missing figure is null, never NaN, and every null has one
 * meaning the loaders (session_read.c, shared by snapshot_read.c and the
 * stream's reader) turn back into the same value, so a saved session loads
 * back equal.  docs/snapshot-format.md is the contract.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "scaletop/analysis.h"
#include "scaletop/measures.h"
#include "scaletop/phase.h"
#include "scaletop/sample_json.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "snapshot_priv.h"

static json_t *
num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL && s[0] != '\0' ? json_string(s) : json_null();
}

/* Percentages as the CPU figures carry them: two decimals. */
static json_t *
pct2_or_null(double v)
{
	return isfinite(v) ? json_real(round(v * 100.0) / 100.0) : json_null();
}

static json_t *
host_json(const struct session *s)
{
	const struct host_info *h = &s->host;
	json_t *j = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:o}", "os_name", h->os_name,
		"os_release", h->os_release, "os_version", h->os_version, "platform", h->platform,
		"hostname", h->hostname, "cpu_model", h->cpu_model, "ncpus", h->ncpus, "mem_total",
		(json_int_t)h->mem_total, "sampler_note", str_or_null(s->sampler_note));

	if (j != NULL && session_json_fingerprint(j, h) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *
workload_params(const struct workload_desc *w)
{
	json_t *params = json_object();
	int i;

	for (i = 0; params != NULL && i < w->nparams; i++) {
		if (json_object_set_new(params, w->key[i], json_string(w->value[i])) != 0) {
			json_decref(params);
			return NULL;
		}
	}
	return params;
}

static json_t *
workload_argv(const struct workload_desc *w)
{
	json_t *argv;
	int i;

	if (w->argv == NULL)
		return json_null();
	if ((argv = json_array()) == NULL)
		return NULL;
	for (i = 0; w->argv[i] != NULL; i++) {
		if (json_array_append_new(argv, json_string(w->argv[i])) != 0) {
			json_decref(argv);
			return NULL;
		}
	}
	return argv;
}

static json_t *
workload_json(const struct session *s)
{
	const struct workload_desc *w = &s->wl;

	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "name", w->name, "unit", w->unit,
			 "n_unit", w->n_unit, "mode",
			 s->set.mode == MODE_PROCESSES ? "processes" : "threads", "params",
			 workload_params(w), "argv", workload_argv(w), "parser",
			 str_or_null(w->parser));
}

static json_t *
settings_json(const struct sweep_settings *set)
{
	json_t *n = json_array(), *j;
	int i;

	for (i = 0; n != NULL && i < set->nn; i++) {
		if (json_array_append_new(n, json_integer(set->n[i])) != 0) {
			json_decref(n);
			n = NULL;
		}
	}
	j = json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:i, s:o, s:b}", "n", n, "duration_s",
		num_or_null(set->duration_s), "warmup_s", num_or_null(set->warmup_s), "stable_pct",
		set->stable_pct > 0 ? num_or_null(set->stable_pct) : json_null(), "min_measure_s",
		num_or_null(set->min_measure_s), "interval_s", num_or_null(set->interval_s),
		"repeat", set->repeat, "trials", set->trials > 1 ? set->trials : 1, "stall_s",
		num_or_null(set->stall_s), "stop_on_failure", set->stop_on_failure);
	if (j != NULL && set->refine > 0)
		json_object_set_new(j, "refine", json_integer(set->refine));
	if (j != NULL && session_json_settings_specs(j, set) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* A location figure: null when there are no samples (then it is 0) or it is unknown. */
static json_t *
stats_loc(const struct stats *t, double v)
{
	return t->n == 0 && v == 0 ? json_null() : num_or_null(v);
}

/* A spread figure: null below two samples (then it is 0) or when unknown. */
static json_t *
stats_spread(const struct stats *t, double v)
{
	return t->n < 2 && v == 0 ? json_null() : num_or_null(v);
}

static json_t *
stats_json(const struct step *st)
{
	const struct stats *t = &st->st;
	json_t *samples = json_array();
	int i;

	for (i = 0; samples != NULL && i < st->niv; i++) {
		if (json_array_append_new(samples, num_or_null(st->iv[i])) != 0) {
			json_decref(samples);
			samples = NULL;
		}
	}
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "count", (json_int_t)t->n,
			 "mean", stats_loc(t, t->mean), "median", stats_loc(t, t->median), "min",
			 stats_loc(t, t->min), "max", stats_loc(t, t->max), "stddev",
			 stats_spread(t, t->stddev), "ci95", stats_spread(t, t->ci95), "ci95_ac",
			 stats_spread(t, stats_ci(t)), "samples", samples);
}

static json_t *
cpu_json(const struct step *st)
{
	json_t *per;
	int i;

	if (st->ncpu == 0)
		return json_null();
	if ((per = json_array()) == NULL)
		return NULL;
	for (i = 0; i < st->ncpu; i++) {
		if (json_array_append_new(per, sample_json_cpu(&st->cpu[i])) != 0) {
			json_decref(per);
			return NULL;
		}
	}
	return json_pack("{s:o, s:o}", "all", sample_json_cpu(&st->all), "per_cpu", per);
}

/* A figure when its have-bit is set, else null. */
static json_t *
ct_fig(const struct contention *c, unsigned bit, double v)
{
	return (c->have & bit) ? num_or_null(v) : json_null();
}

static json_t *
contention_json(const struct contention *c)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "vcsw_s",
			 ct_fig(c, CT_HAVE_CSW, c->vcsw_s), "ivcsw_s",
			 ct_fig(c, CT_HAVE_CSW, c->ivcsw_s), "vcsw_per_kop",
			 ct_fig(c, CT_HAVE_CSW_KOP, c->vcsw_kop), "ivcsw_per_kop",
			 ct_fig(c, CT_HAVE_CSW_KOP, c->ivcsw_kop), "run_delay_pct",
			 ct_fig(c, CT_HAVE_RUN_DELAY, c->run_delay_pct), "kernel_pct",
			 ct_fig(c, CT_HAVE_KERNEL, c->kernel_pct), "cpu_used",
			 ct_fig(c, CT_HAVE_KERNEL, c->cpu_used), "ops_per_cpu_s",
			 ct_fig(c, CT_HAVE_OPS_CPU, c->ops_per_cpu_s), "sys_ctxsw_s",
			 ct_fig(c, CT_HAVE_SYS_CTXSW, c->sys_ctxsw_s), "psi_some_pct",
			 ct_fig(c, CT_HAVE_PSI, c->psi_some_pct), "lock_wait_pct",
			 ct_fig(c, CT_HAVE_LOCK_WAIT, c->lock_wait_pct), "threads",
			 (c->have & CT_HAVE_THREADS) ? json_integer(c->threads) : json_null());
}

static json_t *session_json_step_figures(const struct session *s, const struct step *st);

static int
set_new(json_t *obj, const char *key, json_t *v)
{
	return v == NULL ? -1 : json_object_set_new(obj, key, v);
}

/* The kernel's most contended locks in the window; [] where it keeps no profile. */
static json_t *
locks_json(const struct step *st)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < st->nlocks; i++) {
		const struct lockprof_entry *l = &st->locks[i];

		json_array_append_new(a,
				      json_pack("{s:s, s:I, s:o, s:o, s:I, s:o}", "name", l->name,
						"contentions", (json_int_t)l->contentions,
						"wait_total_us", num_or_null(l->wait_total_us),
						"wait_max_us", num_or_null(l->wait_max_us),
						"acquisitions", (json_int_t)l->acquisitions,
						"hold_total_us", num_or_null(l->hold_total_us)));
	}
	return a;
}

/* The sections the collector table writes (measures.h), in its order, after the rest. */
static int
session_json_collectors(json_t *j, const struct step *st)
{
	json_t *v;
	int i;

	for (i = 0; i < ncollectors; i++) {
		if (collectors[i]->write == NULL)
			continue;
		if ((v = collectors[i]->write(st, &st->slot[i])) != NULL &&
		    json_object_set_new(j, collectors[i]->key, v) != 0)
			return -1;
	}
	return 0;
}

json_t *
session_json_step(const struct session *s, const struct step *st)
{
	json_t *j = session_json_step_figures(s, st);

	if (j == NULL)
		return NULL;
	json_object_set_new(j, "refined", json_boolean(st->refined));
	json_object_set_new(j, "kernel_locks", locks_json(st));
	json_object_set_new(j, "fairness", snapshot_fairness_json(&st->fair));
	if (st->tg.present && set_new(j, "target", session_json_target(&st->tg)) != 0) {
		json_decref(j);
		return NULL;
	}
	if (st->pjoin.lines > 0 &&
	    set_new(j, "probe_join", session_json_probe_join(&st->pjoin)) != 0) {
		json_decref(j);
		return NULL;
	}
	if (set_new(j, "waits", session_json_waits(st)) != 0 ||
	    set_new(j, "freq_mhz", session_json_freq(st)) != 0 ||
	    set_new(j, "tick_late_ms",
		    st->tick_late_ms >= 0 ? json_real(st->tick_late_ms) : json_null()) != 0 ||
	    set_new(j, "tick_busy_ms",
		    st->tick_busy_ms >= 0 ? json_real(st->tick_busy_ms) : json_null()) != 0 ||
	    set_new(j, "wait_read_ms",
		    st->wait_read_ms >= 0 ? json_real(st->wait_read_ms) : json_null()) != 0 ||
	    set_new(j, "wait_reads",
		    st->wait_reads >= 0 ? json_integer(st->wait_reads) : json_null()) != 0 ||
	    (st->hot.present && set_new(j, "hot", session_json_hot(&st->hot)) != 0) ||
	    session_json_collectors(j, st) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *
session_json_step_figures(const struct session *s, const struct step *st)
{
	bool use = step_usable(st);

	/* The operation count means nothing without the window it was counted in. */
	return json_pack("{s:i, s:i, s:i, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, "
			 "s:o, s:o, s:o}",
			 "n", st->n, "rep", st->rep, "trial", st->trial, "status",
			 step_status_names[st->status], "noisy", step_noisy(st), "reason",
			 str_or_null(st->reason), "start_s", num_or_null(st->start_s), "warmup_s",
			 num_or_null(st->warmup_s), "window_s", num_or_null(st->window_s), "ops",
			 isfinite(st->window_s) ? json_integer((json_int_t)st->ops) : json_null(),
			 "ops_s", use ? num_or_null(st->ops_s) : json_null(), "no_intervals",
			 st->no_intervals, "intervals", stats_json(st), "cpu", cpu_json(st),
			 "contention", contention_json(&st->ct), "speedup",
			 use ? num_or_null(analysis_speedup(s, st->n)) : json_null(), "efficiency",
			 use ? num_or_null(analysis_efficiency(s, st->n)) : json_null());
}

json_t *
session_json_event(const struct event *e)
{
	return json_pack("{s:o, s:o, s:s, s:s}", "t", num_or_null(e->t), "step",
			 e->step >= 0 ? json_integer(e->step) : json_null(), "kind",
			 event_kind_names[e->kind], "text", e->text);
}

void
session_json_label(const struct session *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", s->host.hostname, s->host.os_name, s->host.os_release);
}

static json_t *
header_json(const struct session *s, const char *label, const char *taken)
{
	return json_pack("{s:s, s:i, s:s, s:s, s:o, s:{s:s, s:s}, s:o, s:o, s:o}", "format",
			 SNAPSHOT_FORMAT, "version", SNAPSHOT_VERSION, "label", label, "taken",
			 taken, "started", str_or_null(s->started_utc), "tool", "name",
			 PACKAGE_NAME, "version", PACKAGE_VERSION, "host", host_json(s), "workload",
			 workload_json(s), "settings", settings_json(&s->set));
}

static void
now_utc(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *
session_json_header(const struct session *s)
{
	char label[512], taken[32];

	session_json_label(s, label, sizeof(label));
	now_utc(taken, sizeof(taken));
	return header_json(s, label, taken);
}

/*
 * [t, step, phase, rate, busy_all, [busy per CPU id]]: one line per tick in
 * the file.  A step s does not hold (a replay saved mid-step) is null.
 */
static json_t *
series_row(const struct session *s, const struct tick *tk, int ncpu)
{
	json_t *row, *busy;
	int i;

	row = json_pack(
		"[o, o, s, o, o]", num_or_null(tk->t),
		tk->step >= 0 && tk->step < s->nsteps ? json_integer(tk->step) : json_null(),
		tk->phase >= 0 && tk->phase <= PHASE_DONE ? sweep_phase_names[tk->phase] : "idle",
		num_or_null(tk->rate), pct2_or_null(tk->busy_all));
	if (row == NULL || ncpu == 0)
		return row;
	busy = json_array();
	for (i = 0; busy != NULL && i < ncpu; i++) {
		if (json_array_append_new(busy, pct2_or_null(tk->busy[i])) != 0) {
			json_decref(busy);
			busy = NULL;
		}
	}
	if (json_array_append_new(row, busy) != 0) {
		json_decref(row);
		return NULL;
	}
	return row;
}

/*
 * The ring's ticks that are s's own, oldest first: the TUI's ring also holds
 * the ticks of the sessions before s (session_take_series), whose steps are
 * not s's.  *first: the index of the oldest; *dropped: how many of s's the
 * ring no longer holds (at most).
 */
static int
series_own(const struct session *s, int *first, int64_t *dropped)
{
	const struct series *ser = &s->ticks;
	int len = series_len(ser), i, n = 0;

	*first = len;
	for (i = 0; i < len; i++) {
		if (session_owns_tick(s, series_at(ser, i))) {
			if (n++ == 0)
				*first = i;
		}
	}
	*dropped = 0;
	if (*first == 0 && ser->count - len > s->series_from)
		*dropped = ser->count - len - s->series_from;
	return n;
}

json_t *
session_json_series(const struct session *s)
{
	const struct series *ser = &s->ticks;
	int len = series_len(ser), first, own, i;
	int64_t dropped;
	int ncpu;
	json_t *ticks;

	own = series_own(s, &first, &dropped);
	if (own == 0)
		return json_null();
	/* A big machine's long run keeps its totals; the per-CPU heatmap is what is dropped. */
	ncpu = (double)own * ser->ncpu > SNAPSHOT_SERIES_MAX_VALUES ? 0 : ser->ncpu;
	if ((ticks = json_array()) == NULL)
		return NULL;
	for (i = first; i < len; i++) {
		const struct tick *tk = series_at(ser, i);

		if (session_owns_tick(s, tk) &&
		    json_array_append_new(ticks, series_row(s, tk, ncpu)) != 0) {
			json_decref(ticks);
			return NULL;
		}
	}
	return json_pack("{s:i, s:i, s:I, s:o}", "ncpu", ncpu, "ncpu_dropped",
			 ncpu == ser->ncpu ? 0 : ser->ncpu, "dropped", (json_int_t)dropped, "ticks",
			 ticks);
}

/* The analysis of s, as saved. */
static json_t *
analysis_json(const struct session *s)
{
	struct analysis_opts o;
	struct analysis a;
	json_t *j;

	analysis_opts_for(s, &o);
	if (analysis_run(s, &o, &a) != 0)
		return NULL;
	j = snapshot_analysis_json(&a, &o);
	analysis_free(&a);
	return j;
}

json_t *
session_json_labelled(const struct session *s, const char *label, const char *taken)
{
	char dlabel[512], dtaken[32];
	json_t *j, *steps, *events;
	int i, rc = 0;

	if (label == NULL) {
		session_json_label(s, dlabel, sizeof(dlabel));
		label = dlabel;
	}
	if (taken == NULL) {
		now_utc(dtaken, sizeof(dtaken));
		taken = dtaken;
	}
	if ((j = header_json(s, label, taken)) == NULL)
		return NULL;
	steps = json_array();
	events = json_array();
	rc |= set_new(j, "steps", steps);
	rc |= set_new(j, "events", events);
	for (i = 0; rc == 0 && i < s->nsteps; i++)
		rc |= json_array_append_new(steps, session_json_step(s, &s->steps[i]));
	for (i = 0; rc == 0 && i < s->nevents; i++) {
		struct event e = s->events[i];

		if (e.step >= s->nsteps) /* a replay saved mid-step: its step is not in the file */
			e.step = -1;
		rc |= json_array_append_new(events, session_json_event(&e));
	}
	if (rc == 0)
		rc |= set_new(j, "analysis", analysis_json(s));
	if (rc == 0)
		rc |= set_new(j, "series", session_json_series(s));
	if (rc != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

json_t *
session_json(const struct session *s)
{
	return session_json_labelled(s, NULL, NULL);
}

int
session_json_write(FILE *f, const struct session *s)
{
	json_t *j = session_json(s);
	int rc;

	if (j == NULL)
		return -1;
	rc = snapshot_text_write(f, j);
	json_decref(j);
	return rc;
}

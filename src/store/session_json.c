/* Encoding the session model as JSON.  Missing figures are null, never NaN. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "scaletop/analysis.h"
#include "scaletop/sample_json.h"
#include "scaletop/session_json.h"

static json_t *
num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
host_json(const struct session *s)
{
	const struct host_info *h = &s->host;

	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:o}", "os_name", h->os_name,
			 "os_release", h->os_release, "os_version", h->os_version, "platform",
			 h->platform, "hostname", h->hostname, "cpu_model", h->cpu_model, "ncpus",
			 h->ncpus, "mem_total", (json_int_t)h->mem_total, "sampler_note",
			 s->sampler_note[0] ? json_string(s->sampler_note) : json_null());
}

static json_t *
workload_json(const struct session *s)
{
	const struct workload_desc *w = &s->wl;
	json_t *params = json_object(), *argv = json_null();
	int i;

	for (i = 0; i < w->nparams; i++)
		json_object_set_new(params, w->key[i], json_string(w->value[i]));
	if (w->argv != NULL) {
		argv = json_array();
		for (i = 0; w->argv[i] != NULL; i++)
			json_array_append_new(argv, json_string(w->argv[i]));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "name", w->name, "unit", w->unit,
			 "n_unit", w->n_unit, "mode", s->set.mode == MODE_PROCESSES ? "processes" : "threads", "params",
			 params, "argv", argv, "parser",
			 w->parser[0] ? json_string(w->parser) : json_null());
}

static json_t *
settings_json(const struct sweep_settings *set)
{
	json_t *n = json_array();
	int i;

	for (i = 0; i < set->nn; i++)
		json_array_append_new(n, json_integer(set->n[i]));
	return json_pack("{s:o, s:f, s:f, s:o, s:f, s:f, s:i, s:f, s:b}", "n", n, "duration_s",
			 set->duration_s, "warmup_s", set->warmup_s, "stable_pct",
			 set->stable_pct > 0 ? json_real(set->stable_pct) : json_null(),
			 "min_measure_s", set->min_measure_s, "interval_s", set->interval_s,
			 "repeat", set->repeat, "stall_s", set->stall_s, "stop_on_failure",
			 set->stop_on_failure);
}

static json_t *
stats_json(const struct step *st)
{
	const struct stats *t = &st->st;
	json_t *samples = json_array();
	int i;

	for (i = 0; i < st->niv; i++)
		json_array_append_new(samples, json_real(st->iv[i]));
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "count", (int)t->n, "mean",
			 t->n ? num_or_null(t->mean) : json_null(), "median",
			 t->n ? num_or_null(t->median) : json_null(), "min",
			 t->n ? num_or_null(t->min) : json_null(), "max",
			 t->n ? num_or_null(t->max) : json_null(), "stddev",
			 t->have_spread ? num_or_null(t->stddev) : json_null(), "ci95",
			 t->have_spread ? num_or_null(t->ci95) : json_null(), "samples", samples);
}

static json_t *
cpu_json(const struct step *st)
{
	json_t *per = json_array();
	int i;

	if (st->ncpu == 0)
		return json_null();
	for (i = 0; i < st->ncpu; i++)
		json_array_append_new(per, sample_json_cpu(&st->cpu[i]));
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
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "vcsw_s", ct_fig(c, CT_HAVE_CSW, c->vcsw_s),
			 "ivcsw_s", ct_fig(c, CT_HAVE_CSW, c->ivcsw_s),
			 "vcsw_per_kop", ct_fig(c, CT_HAVE_CSW, c->vcsw_kop),
			 "ivcsw_per_kop", ct_fig(c, CT_HAVE_CSW, c->ivcsw_kop),
			 "run_delay_pct", ct_fig(c, CT_HAVE_RUN_DELAY, c->run_delay_pct),
			 "kernel_pct", ct_fig(c, CT_HAVE_KERNEL, c->kernel_pct),
			 "cpu_used", ct_fig(c, CT_HAVE_KERNEL, c->cpu_used),
			 "ops_per_cpu_s", ct_fig(c, CT_HAVE_OPS_CPU, c->ops_per_cpu_s),
			 "sys_ctxsw_s", ct_fig(c, CT_HAVE_SYS_CTXSW, c->sys_ctxsw_s),
			 "psi_some_pct", ct_fig(c, CT_HAVE_PSI, c->psi_some_pct),
			 "lock_wait_pct", ct_fig(c, CT_HAVE_LOCK_WAIT, c->lock_wait_pct));
}

json_t *
session_json_step(const struct session *s, const struct step *st)
{
	return json_pack("{s:i, s:i, s:s, s:o, s:f, s:f, s:f, s:I, s:o, s:b, s:o, s:o, s:o, s:o, "
			 "s:o}",
			 "n", st->n, "rep", st->rep, "status", step_status_names[st->status],
			 "reason", st->reason[0] ? json_string(st->reason) : json_null(),
			 "start_s", st->start_s, "warmup_s", st->warmup_s, "window_s",
			 st->window_s, "ops", (json_int_t)st->ops, "ops_s",
			 step_usable(st) ? num_or_null(st->ops_s) : json_null(), "no_intervals",
			 st->no_intervals, "intervals", stats_json(st), "cpu", cpu_json(st),
			 "contention", contention_json(&st->ct), "speedup",
			 step_usable(st) ? num_or_null(analysis_speedup(s, st->n)) : json_null(),
			 "efficiency",
			 step_usable(st) ? num_or_null(analysis_efficiency(s, st->n)) : json_null());
}

json_t *
session_json_event(const struct event *e)
{
	return json_pack("{s:f, s:o, s:s, s:s}", "t", e->t, "step",
			 e->step >= 0 ? json_integer(e->step) : json_null(), "kind",
			 event_kind_names[e->kind], "text", e->text);
}

json_t *
session_json_header(const struct session *s)
{
	char label[512];

	snprintf(label, sizeof(label), "%s %s %s", s->host.hostname, s->host.os_name,
		 s->host.os_release);
	return json_pack("{s:s, s:i, s:s, s:s, s:{s:s, s:s}, s:o, s:o, s:o}", "format",
			 SNAPSHOT_FORMAT, "version", SNAPSHOT_VERSION, "label", label, "taken",
			 s->started_utc, "tool", "name", PACKAGE_NAME, "version", PACKAGE_VERSION,
			 "host", host_json(s), "workload", workload_json(s), "settings",
			 settings_json(&s->set));
}

json_t *
session_json(const struct session *s)
{
	json_t *j = session_json_header(s), *steps = json_array(), *events = json_array();
	int i;

	for (i = 0; i < s->nsteps; i++)
		json_array_append_new(steps, session_json_step(s, &s->steps[i]));
	for (i = 0; i < s->nevents; i++)
		json_array_append_new(events, session_json_event(&s->events[i]));
	json_object_set_new(j, "steps", steps);
	json_object_set_new(j, "events", events);
	return j;
}

int
session_json_write(FILE *f, const struct session *s)
{
	json_t *j = session_json(s);
	int rc;

	if (j == NULL)
		return -1;
	rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(j);
	if (rc == 0 && fputc('\n', f) == EOF)
		rc = -1;
	return rc;
}

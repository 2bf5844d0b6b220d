/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The session's host, workload, settings and events, read back with every
 * field's type and range checked: the views and the analysis trust the
 * model's invariants (ascending N, strings that fit, no NaN where a count is
 * meant), and the file may come from anyone's mailing-list post.  Steps are
 * in session_read_step.c.  See session_read.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/nlist.h"
#include "session_read.h"

#define READ_MAX_ARGV 4096

static const char *const read_mode_names[] = { "threads", "processes" };

int
session_read_host(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct host_info *h = &s->host;
	const char *P = "host";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	long long ncpus, mem;

	if (j == NULL || field_str(c, j, P, "os_name", 0, h->os_name, sizeof(h->os_name)) != 0 ||
	    field_str(c, j, P, "os_release", 0, h->os_release, sizeof(h->os_release)) != 0 ||
	    field_str(c, j, P, "os_version", 0, h->os_version, sizeof(h->os_version)) != 0 ||
	    field_str(c, j, P, "platform", 0, h->platform, sizeof(h->platform)) != 0 ||
	    field_str(c, j, P, "hostname", 0, h->hostname, sizeof(h->hostname)) != 0 ||
	    field_str(c, j, P, "cpu_model", 0, h->cpu_model, sizeof(h->cpu_model)) != 0 ||
	    field_int(c, j, P, "ncpus", 0, SESSION_READ_MAX_CPUS, 0, 0, &ncpus) != 0 ||
	    field_int(c, j, P, "mem_total", 0, INT64_MAX, 0, 0, &mem) != 0 ||
	    field_str(c, j, P, "sampler_note", F_NULL, s->sampler_note, sizeof(s->sampler_note)) !=
		    0)
		return -1;
	h->ncpus = (int)ncpus;
	h->mem_total = (uint64_t)mem;
	return session_read_fingerprint(c, j, P, h);
}

static int
read_params(struct field_ctx *c, const json_t *wl, struct workload_desc *w)
{
	char p[128];
	json_t *params = field_get(c, wl, "workload", "params", F_OBJ), *v;
	const char *key;

	if (params == NULL)
		return -1;
	if (json_object_size(params) > SESSION_MAX_PARAMS)
		return field_fail(c, "workload.params", "%zu parameters; expected at most %d",
				  json_object_size(params), SESSION_MAX_PARAMS);
	json_object_foreach(params, key, v)
	{
		field_path(p, sizeof(p), "workload.params", key);
		if (strlen(key) == 0 || strlen(key) >= sizeof(w->key[0]))
			return field_fail(c, p, "expected a name of 1 to %zu bytes",
					  sizeof(w->key[0]) - 1);
		snprintf(w->key[w->nparams], sizeof(w->key[0]), "%s", key);
		if (field_str(c, params, "workload.params", key, 0, w->value[w->nparams],
			      sizeof(w->value[0])) != 0)
			return -1;
		w->nparams++;
	}
	return 0;
}

static int
read_argv(struct field_ctx *c, const json_t *wl, struct workload_desc *w)
{
	char p[64];
	json_t *argv = field_get(c, wl, "workload", "argv", F_ARR | F_NULL), *v;
	size_t i, n;

	if (argv == NULL)
		return -1;
	if (json_is_null(argv))
		return 0;
	n = json_array_size(argv);
	if (n == 0 || n > READ_MAX_ARGV)
		return field_fail(c, "workload.argv", "%zu words; expected 1 to %d, or null", n,
				  READ_MAX_ARGV);
	if ((w->argv = calloc(n + 1, sizeof(*w->argv))) == NULL)
		return field_fail(c, "workload.argv", "out of memory");
	json_array_foreach(argv, i, v)
	{
		field_index(p, sizeof(p), "workload.argv", i);
		if (field_type(c, v, p, F_STR) != 0)
			return -1;
		if (memchr(json_string_value(v), '\0', json_string_length(v)) != NULL)
			return field_fail(c, p, "contains a NUL character; expected plain text");
		if ((w->argv[i] = strdup(json_string_value(v))) == NULL)
			return field_fail(c, p, "out of memory");
	}
	return 0;
}

int
session_read_workload(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct workload_desc *w = &s->wl;
	const char *P = "workload";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	int mode;

	if (j == NULL || field_str(c, j, P, "name", 0, w->name, sizeof(w->name)) != 0 ||
	    field_str(c, j, P, "unit", 0, w->unit, sizeof(w->unit)) != 0 ||
	    field_str(c, j, P, "n_unit", 0, w->n_unit, sizeof(w->n_unit)) != 0 ||
	    field_enum(c, j, P, "mode", read_mode_names, 2, &mode) != 0 ||
	    read_params(c, j, w) != 0 || read_argv(c, j, w) != 0 ||
	    field_str(c, j, P, "parser", F_NULL, w->parser, sizeof(w->parser)) != 0)
		return -1;
	if (w->name[0] == '\0' || w->unit[0] == '\0' || w->n_unit[0] == '\0')
		return field_fail(c, P, "name, unit and n_unit must not be empty");
	s->set.mode = mode == 1 ? MODE_PROCESSES : MODE_THREADS;
	return 0;
}

static int
read_nlist(struct field_ctx *c, const json_t *set, struct sweep_settings *ss)
{
	char p[64];
	json_t *n = field_array(c, set, "settings", "n", 1, NLIST_MAX, "values"), *v;
	size_t i;

	if (n == NULL)
		return -1;
	if ((ss->n = calloc(json_array_size(n), sizeof(*ss->n))) == NULL)
		return field_fail(c, "settings.n", "out of memory");
	json_array_foreach(n, i, v)
	{
		field_index(p, sizeof(p), "settings.n", i);
		if (field_type(c, v, p, F_INT) != 0)
			return -1;
		if (json_integer_value(v) < NLIST_MIN || json_integer_value(v) > NLIST_MAX)
			return field_fail(c, p,
					  "%" JSON_INTEGER_FORMAT " is out of range; "
					  "expected an integer from %d to %d",
					  json_integer_value(v), NLIST_MIN, NLIST_MAX);
		ss->n[i] = (int)json_integer_value(v);
		if (i > 0 && ss->n[i] <= ss->n[i - 1])
			return field_fail(c, p, "%d after %d; expected ascending values", ss->n[i],
					  ss->n[i - 1]);
		ss->nn = (int)i + 1;
	}
	return 0;
}

int
session_read_settings(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct sweep_settings *ss = &s->set;
	const char *P = "settings";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	long long repeat, trials = 1, refine = 0;

	if (j == NULL || read_nlist(c, j, ss) != 0 ||
	    field_num(c, j, P, "duration_s", 0, INFINITY, F_NULL, &ss->duration_s) != 0 ||
	    field_num(c, j, P, "warmup_s", 0, INFINITY, F_NULL, &ss->warmup_s) != 0 ||
	    field_num(c, j, P, "stable_pct", 0, 100, F_NULL, &ss->stable_pct) != 0 ||
	    field_num(c, j, P, "min_measure_s", 0, INFINITY, F_NULL, &ss->min_measure_s) != 0 ||
	    field_num(c, j, P, "interval_s", 0, INFINITY, F_NULL, &ss->interval_s) != 0 ||
	    field_int(c, j, P, "repeat", 1, 1000000, 0, 0, &repeat) != 0 ||
	    (json_object_get(j, "trials") != NULL &&
	     field_int(c, j, P, "trials", 1, 1000000, 0, 0, &trials) != 0) ||
	    (json_object_get(j, "refine") != NULL &&
	     field_int(c, j, P, "refine", 1, NLIST_MAX, 0, 0, &refine) != 0) ||
	    field_num(c, j, P, "stall_s", 0, INFINITY, F_NULL, &ss->stall_s) != 0 ||
	    field_bool(c, j, P, "stop_on_failure", &ss->stop_on_failure) != 0 ||
	    session_read_specs(c, j, ss) != 0)
		return -1;
	/* null: a fixed measurement time, which the model writes as 0. */
	if (isnan(ss->stable_pct))
		ss->stable_pct = 0;
	ss->repeat = (int)repeat;
	ss->trials = (int)trials; /* absent: a file from before --trials, one trial */
	ss->refine = (int)refine; /* absent: no --refine */
	return 0;
}

int
session_read_event(struct field_ctx *c, const json_t *j, const char *path, int max_step,
		   bool any_kind, struct event *e)
{
	long long step;
	json_t *kind;
	int k;

	memset(e, 0, sizeof(*e));
	if (field_type(c, j, path, F_OBJ) != 0 ||
	    field_num(c, j, path, "t", 0, INFINITY, F_NULL, &e->t) != 0 ||
	    field_int(c, j, path, "step", 0, max_step, F_NULL, -1, &step) != 0)
		return -1;
	e->step = (int)step;
	if (!any_kind) {
		if (field_enum(c, j, path, "kind", event_kind_names, EV_COLLAPSE + 1, &k) != 0)
			return -1;
	} else {
		if ((kind = field_get(c, j, path, "kind", F_STR)) == NULL)
			return -1;
		for (k = EV_COLLAPSE; k > EV_INFO; k--) {
			if (strcmp(json_string_value(kind), event_kind_names[k]) == 0)
				break;
		}
	}
	e->kind = (enum event_kind)k;
	return field_str(c, j, path, "text", 0, e->text, sizeof(e->text));
}

/*
 * The snapshot loader: from a buffer to a struct session, refusing anything
 * that is not what session_json.c writes.  Every field's type and range is
 * checked, because the views and the analysis trust the model's invariants
 * (ascending N, percentages within 0..100, no NaN where a count is meant)
 * and a snapshot may come from anyone's mailing-list post.  No I/O here, so
 * a fuzzer can drive it.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/nlist.h"
#include "scaletop/session_json.h"
#include "scaletop/snapshot.h"
#include "scaletop/sweep.h"
#include "snapshot_priv.h"

#define READ_MAX_STEPS 100000   /* far more than any sweep makes */
#define READ_MAX_CPUS 65536
#define READ_MAX_SAMPLES (1 << 24)
#define READ_MAX_ARGV 4096

static const char *const read_mode_names[] = { "threads", "processes" };

static const struct {
	unsigned bit;
	const char *word;
} read_cpu_flags[] = {
	{ CPU_USAGE_OFFLINE, "offline" }, { CPU_USAGE_NEW, "new" }, { CPU_USAGE_GONE, "gone" },
	{ CPU_USAGE_NO_TICKS, "no_ticks" }, { CPU_USAGE_BACKWARDS, "backwards" },
};

/* "2026-11-29T23:21:35Z", with optional fractional seconds: what the writer makes. */
static bool
read_is_utc(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	int mon, day, hour, min, sec;
	size_t i;

	for (i = 0; shape[i] != '\0'; i++) {
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return false;
	}
	if (s[i] == '.') {
		if (s[++i] < '0' || s[i] > '9')
			return false;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (strcmp(s + i, "Z") != 0)
		return false;
	mon = atoi(s + 5);
	day = atoi(s + 8);
	hour = atoi(s + 11);
	min = atoi(s + 14);
	sec = atoi(s + 17);
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hour <= 23 && min <= 59 &&
	       sec <= 60;
}

static int
read_time(struct field_ctx *c, const json_t *obj, const char *key, unsigned nullable, char *buf,
	  size_t size)
{
	if (field_str(c, obj, "", key, nullable, buf, size) != 0)
		return -1;
	if (buf[0] != '\0' && !read_is_utc(buf))
		return field_fail(c, key, "'%s' is not a UTC time; expected ISO-8601 such as "
				  "2026-01-31T12:00:00Z", buf);
	return 0;
}

static int
read_meta(struct field_ctx *c, const json_t *root, struct session *s, struct snapshot_meta *m)
{
	json_t *tool;

	memset(m, 0, sizeof(*m));
	if (field_str(c, root, "", "label", 0, m->label, sizeof(m->label)) != 0 ||
	    read_time(c, root, "taken", 0, m->taken, sizeof(m->taken)) != 0 ||
	    read_time(c, root, "started", F_NULL, s->started_utc, sizeof(s->started_utc)) != 0 ||
	    (tool = field_get(c, root, "", "tool", F_OBJ)) == NULL ||
	    field_str(c, tool, "tool", "name", 0, m->tool_name, sizeof(m->tool_name)) != 0 ||
	    field_str(c, tool, "tool", "version", 0, m->tool_version, sizeof(m->tool_version)) != 0)
		return -1;
	return 0;
}

static int
read_host(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct host_info *h = &s->host;
	const char *P = "host";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	long long ncpus, mem;

	if (j == NULL ||
	    field_str(c, j, P, "os_name", 0, h->os_name, sizeof(h->os_name)) != 0 ||
	    field_str(c, j, P, "os_release", 0, h->os_release, sizeof(h->os_release)) != 0 ||
	    field_str(c, j, P, "os_version", 0, h->os_version, sizeof(h->os_version)) != 0 ||
	    field_str(c, j, P, "platform", 0, h->platform, sizeof(h->platform)) != 0 ||
	    field_str(c, j, P, "hostname", 0, h->hostname, sizeof(h->hostname)) != 0 ||
	    field_str(c, j, P, "cpu_model", 0, h->cpu_model, sizeof(h->cpu_model)) != 0 ||
	    field_int(c, j, P, "ncpus", 0, READ_MAX_CPUS, 0, 0, &ncpus) != 0 ||
	    field_int(c, j, P, "mem_total", 0, INT64_MAX, 0, 0, &mem) != 0 ||
	    field_str(c, j, P, "sampler_note", F_NULL, s->sampler_note,
		      sizeof(s->sampler_note)) != 0)
		return -1;
	h->ncpus = (int)ncpus;
	h->mem_total = (uint64_t)mem;
	return 0;
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
	json_object_foreach(params, key, v) {
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
	json_array_foreach(argv, i, v) {
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

static int
read_workload(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct workload_desc *w = &s->wl;
	const char *P = "workload";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	int mode;

	if (j == NULL ||
	    field_str(c, j, P, "name", 0, w->name, sizeof(w->name)) != 0 ||
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
	json_t *n = field_get(c, set, "settings", "n", F_ARR), *v;
	size_t i;

	if (n == NULL)
		return -1;
	if (json_array_size(n) == 0 || json_array_size(n) > NLIST_MAX)
		return field_fail(c, "settings.n", "%zu values; expected 1 to %d",
				  json_array_size(n), NLIST_MAX);
	if ((ss->n = calloc(json_array_size(n), sizeof(*ss->n))) == NULL)
		return field_fail(c, "settings.n", "out of memory");
	json_array_foreach(n, i, v) {
		field_index(p, sizeof(p), "settings.n", i);
		if (field_type(c, v, p, F_INT) != 0)
			return -1;
		if (json_integer_value(v) < NLIST_MIN || json_integer_value(v) > NLIST_MAX)
			return field_fail(c, p, "%" JSON_INTEGER_FORMAT " is out of range; "
					  "expected an integer from %d to %d",
					  json_integer_value(v), NLIST_MIN, NLIST_MAX);
		ss->n[i] = (int)json_integer_value(v);
		if (i > 0 && ss->n[i] <= ss->n[i - 1])
			return field_fail(c, p, "%d after %d; expected ascending values",
					  ss->n[i], ss->n[i - 1]);
		ss->nn = (int)i + 1;
	}
	return 0;
}

static int
read_settings(struct field_ctx *c, const json_t *root, struct session *s)
{
	struct sweep_settings *ss = &s->set;
	const char *P = "settings";
	json_t *j = field_get(c, root, "", P, F_OBJ);
	long long repeat;

	if (j == NULL || read_nlist(c, j, ss) != 0 ||
	    field_num(c, j, P, "duration_s", 0, INFINITY, F_NULL, &ss->duration_s) != 0 ||
	    field_num(c, j, P, "warmup_s", 0, INFINITY, F_NULL, &ss->warmup_s) != 0 ||
	    field_num(c, j, P, "stable_pct", 0, 100, F_NULL, &ss->stable_pct) != 0 ||
	    field_num(c, j, P, "min_measure_s", 0, INFINITY, F_NULL, &ss->min_measure_s) != 0 ||
	    field_num(c, j, P, "interval_s", 0, INFINITY, F_NULL, &ss->interval_s) != 0 ||
	    field_int(c, j, P, "repeat", 1, 1000000, 0, 0, &repeat) != 0 ||
	    field_num(c, j, P, "stall_s", 0, INFINITY, F_NULL, &ss->stall_s) != 0 ||
	    field_bool(c, j, P, "stop_on_failure", &ss->stop_on_failure) != 0)
		return -1;
	/* null: a fixed measurement time, which the model writes as 0. */
	if (isnan(ss->stable_pct))
		ss->stable_pct = 0;
	ss->repeat = (int)repeat;
	return 0;
}

/* A location figure: null is 0 without samples, unknown otherwise. */
static int
read_loc(struct field_ctx *c, const json_t *j, const char *path, const char *key, size_t n,
	 double *out)
{
	if (field_num(c, j, path, key, 0, INFINITY, F_NULL, out) != 0)
		return -1;
	if (isnan(*out) && n == 0)
		*out = 0;
	return 0;
}

/* A spread figure: null is 0 below two samples, unknown otherwise. */
static int
read_spread(struct field_ctx *c, const json_t *j, const char *path, const char *key, size_t n,
	    double *out)
{
	if (field_num(c, j, path, key, 0, INFINITY, F_NULL, out) != 0)
		return -1;
	if (isnan(*out) && n < 2)
		*out = 0;
	return 0;
}

/* a > b beyond rounding (a mean of equal samples may differ from them in the last bit). */
static bool
read_above(double a, double b)
{
	return a > b + 1e-9 * fmax(fabs(a), fabs(b));
}

static int
read_samples(struct field_ctx *c, const json_t *j, const char *path, struct step *st)
{
	char p[128], q[160];
	json_t *arr = field_get(c, j, path, "samples", F_ARR), *v;
	size_t i, n;

	if (arr == NULL)
		return -1;
	field_path(p, sizeof(p), path, "samples");
	n = json_array_size(arr);
	if (n > READ_MAX_SAMPLES)
		return field_fail(c, p, "%zu samples; expected at most %d", n, READ_MAX_SAMPLES);
	if (st->no_intervals && n > 0)
		return field_fail(c, p, "%zu samples, but no_intervals is true; expected none", n);
	if (!st->no_intervals && n != st->st.n)
		return field_fail(c, p, "%zu samples, but count is %zu; expected as many", n,
				  st->st.n);
	if (n > 0 && (st->iv = calloc(n, sizeof(*st->iv))) == NULL)
		return field_fail(c, p, "out of memory");
	st->capiv = (int)n;
	json_array_foreach(arr, i, v) {
		field_index(q, sizeof(q), p, i);
		if (field_num_of(c, v, q, 0, INFINITY, 0, &st->iv[i]) != 0)
			return -1;
		st->niv = (int)i + 1;
	}
	return 0;
}

static int
read_stats(struct field_ctx *c, const json_t *step, const char *spath, struct step *st)
{
	struct stats *t = &st->st;
	char P[96];
	json_t *j;
	long long n;

	field_path(P, sizeof(P), spath, "intervals");
	if ((j = field_get(c, step, spath, "intervals", F_OBJ)) == NULL ||
	    field_int(c, j, P, "count", 0, READ_MAX_SAMPLES, 0, 0, &n) != 0)
		return -1;
	t->n = (size_t)n;
	if (read_loc(c, j, P, "mean", t->n, &t->mean) != 0 ||
	    read_loc(c, j, P, "median", t->n, &t->median) != 0 ||
	    read_loc(c, j, P, "min", t->n, &t->min) != 0 ||
	    read_loc(c, j, P, "max", t->n, &t->max) != 0 ||
	    read_spread(c, j, P, "stddev", t->n, &t->stddev) != 0 ||
	    read_spread(c, j, P, "ci95", t->n, &t->ci95) != 0 || read_samples(c, j, P, st) != 0)
		return -1;
	t->have_spread = t->n >= 2 && isfinite(t->stddev) && isfinite(t->ci95);
	/* Optional: files from before it was written get it from their samples. */
	if (json_object_get(j, "ci95_ac") == NULL)
		stats_fill_ci95_ac(t, st->iv, (size_t)st->niv);
	else if (read_spread(c, j, P, "ci95_ac", t->n, &t->ci95_ac) != 0)
		return -1;
	if (t->n > 0 && (read_above(t->min, t->max) || read_above(t->min, t->median) ||
			 read_above(t->median, t->max) || read_above(t->min, t->mean) ||
			 read_above(t->mean, t->max)))
		return field_fail(c, P, "min %g, median %g, mean %g, max %g; expected min <= "
				  "median, mean <= max", t->min, t->median, t->mean, t->max);
	return 0;
}

static int
read_cpu_flags_of(struct field_ctx *c, const json_t *j, const char *path, unsigned *flags)
{
	char p[128], q[160];
	json_t *arr = field_get(c, j, path, "flags", F_ARR), *v;
	size_t i, k;

	if (arr == NULL)
		return -1;
	field_path(p, sizeof(p), path, "flags");
	json_array_foreach(arr, i, v) {
		field_index(q, sizeof(q), p, i);
		if (field_type(c, v, q, F_STR) != 0)
			return -1;
		for (k = 0; k < sizeof(read_cpu_flags) / sizeof(read_cpu_flags[0]); k++) {
			if (strcmp(json_string_value(v), read_cpu_flags[k].word) == 0)
				break;
		}
		if (k == sizeof(read_cpu_flags) / sizeof(read_cpu_flags[0]))
			return field_fail(c, q, "'%s' is not known; expected offline, new, gone, "
					  "no_ticks or backwards", json_string_value(v));
		*flags |= read_cpu_flags[k].bit;
	}
	return 0;
}

/* One CPU's breakdown: percentages, or nulls when its flags say it has no data. */
static int
read_cpu(struct field_ctx *c, const json_t *j, const char *path, int id, struct cpu_usage *u)
{
	unsigned want;
	bool data;
	int i;

	memset(u, 0, sizeof(*u));
	u->id = id;
	if (field_type(c, j, path, F_OBJ) != 0 || read_cpu_flags_of(c, j, path, &u->flags) != 0)
		return -1;
	data = !(u->flags & CPU_USAGE_NO_DATA);
	want = data ? 0 : F_NULL;
	for (i = 0; i <= CPU_NSTATES; i++) {
		const char *key = i < CPU_NSTATES ? cpu_state_names[i] : "busy";
		double *out = i < CPU_NSTATES ? &u->pct[i] : &u->busy;
		json_t *v = field_get(c, j, path, key, data ? F_NUM : F_NULL);
		char p[160];

		if (v == NULL)
			return -1;
		field_path(p, sizeof(p), path, key);
		if (field_num_of(c, v, p, 0, 100, want, out) != 0)
			return -1;
		if (!data)
			*out = 0;
	}
	return 0;
}

static int
read_cpus(struct field_ctx *c, const json_t *step, const char *spath, struct step *st)
{
	char P[96], p[128], q[160];
	json_t *j = field_get(c, step, spath, "cpu", F_OBJ | F_NULL), *per, *v;
	long long id;
	size_t i;

	st->all.id = -1;
	if (j == NULL)
		return -1;
	if (json_is_null(j))
		return 0;
	field_path(P, sizeof(P), spath, "cpu");
	field_path(p, sizeof(p), P, "all");
	if (field_get(c, j, P, "all", F_OBJ) == NULL ||
	    read_cpu(c, json_object_get(j, "all"), p, -1, &st->all) != 0 ||
	    (per = field_get(c, j, P, "per_cpu", F_ARR)) == NULL)
		return -1;
	field_path(p, sizeof(p), P, "per_cpu");
	if (json_array_size(per) == 0 || json_array_size(per) > READ_MAX_CPUS)
		return field_fail(c, p, "%zu CPUs; expected 1 to %d", json_array_size(per),
				  READ_MAX_CPUS);
	if ((st->cpu = calloc(json_array_size(per), sizeof(*st->cpu))) == NULL)
		return field_fail(c, p, "out of memory");
	json_array_foreach(per, i, v) {
		field_index(q, sizeof(q), p, i);
		if (field_type(c, v, q, F_OBJ) != 0 ||
		    field_int(c, v, q, "cpu", 0, READ_MAX_CPUS - 1, 0, 0, &id) != 0)
			return -1;
		if (i > 0 && id <= st->cpu[i - 1].id)
			return field_fail(c, q, "cpu %lld after %d; expected ascending ids", id,
					  st->cpu[i - 1].id);
		if (read_cpu(c, v, q, (int)id, &st->cpu[i]) != 0)
			return -1;
		st->ncpu = (int)i + 1;
	}
	return 0;
}

/* Contention figures come in groups sharing one have-bit: all numbers, or all null. */
static const struct {
	unsigned bit;
	const char *key;
	size_t off;
	double max;
} read_ct_figs[] = {
	{ CT_HAVE_CSW, "vcsw_s", offsetof(struct contention, vcsw_s), INFINITY },
	{ CT_HAVE_CSW, "ivcsw_s", offsetof(struct contention, ivcsw_s), INFINITY },
	{ CT_HAVE_CSW, "vcsw_per_kop", offsetof(struct contention, vcsw_kop), INFINITY },
	{ CT_HAVE_CSW, "ivcsw_per_kop", offsetof(struct contention, ivcsw_kop), INFINITY },
	{ CT_HAVE_RUN_DELAY, "run_delay_pct", offsetof(struct contention, run_delay_pct), 100 },
	{ CT_HAVE_KERNEL, "kernel_pct", offsetof(struct contention, kernel_pct), 100 },
	{ CT_HAVE_KERNEL, "cpu_used", offsetof(struct contention, cpu_used), INFINITY },
	{ CT_HAVE_OPS_CPU, "ops_per_cpu_s", offsetof(struct contention, ops_per_cpu_s), INFINITY },
	{ CT_HAVE_SYS_CTXSW, "sys_ctxsw_s", offsetof(struct contention, sys_ctxsw_s), INFINITY },
	{ CT_HAVE_PSI, "psi_some_pct", offsetof(struct contention, psi_some_pct), 100 },
	{ CT_HAVE_LOCK_WAIT, "lock_wait_pct", offsetof(struct contention, lock_wait_pct), 100 },
};

static int
read_contention(struct field_ctx *c, const json_t *step, const char *spath, struct contention *ct)
{
	char P[96], p[128];
	json_t *j = field_get(c, step, spath, "contention", F_OBJ);
	unsigned seen = 0;
	size_t i;
	double v;

	if (j == NULL)
		return -1;
	field_path(P, sizeof(P), spath, "contention");
	memset(ct, 0, sizeof(*ct));
	for (i = 0; i < sizeof(read_ct_figs) / sizeof(read_ct_figs[0]); i++) {
		if (field_num(c, j, P, read_ct_figs[i].key, 0, read_ct_figs[i].max, F_NULL,
			      &v) != 0)
			return -1;
		field_path(p, sizeof(p), P, read_ct_figs[i].key);
		if ((seen & read_ct_figs[i].bit) && isnan(v) != !(ct->have & read_ct_figs[i].bit))
			return field_fail(c, p, "%s; expected the same as the figures measured "
					  "with it (%s)", isnan(v) ? "null" : "a number",
					  isnan(v) ? "numbers" : "null");
		seen |= read_ct_figs[i].bit;
		if (isnan(v))
			continue;
		ct->have |= read_ct_figs[i].bit;
		*(double *)((char *)ct + read_ct_figs[i].off) = v;
	}
	return 0;
}

/* kernel_locks: optional (older snapshots lack it), at most STEP_TOP_LOCKS entries. */
static int
read_locks(struct field_ctx *c, const json_t *step, const char *spath, struct step *st)
{
	json_t *arr = json_object_get(step, "kernel_locks"), *v;
	char P[96], p[128];
	long long cont, acq;
	size_t i;

	if (arr == NULL)
		return 0;
	field_path(P, sizeof(P), spath, "kernel_locks");
	if (field_type(c, arr, P, F_ARR) != 0)
		return -1;
	if (json_array_size(arr) > STEP_TOP_LOCKS)
		return field_fail(c, P, "%zu entries; expected at most %d", json_array_size(arr),
				  STEP_TOP_LOCKS);
	json_array_foreach(arr, i, v) {
		struct lockprof_entry *l = &st->locks[i];

		field_index(p, sizeof(p), P, i);
		if (field_type(c, v, p, F_OBJ) != 0 ||
		    field_str(c, v, p, "name", 0, l->name, sizeof(l->name)) != 0 ||
		    field_int(c, v, p, "contentions", 0, INT64_MAX, 0, 0, &cont) != 0 ||
		    field_num(c, v, p, "wait_total_us", 0, INFINITY, F_NULL, &l->wait_total_us) != 0 ||
		    field_num(c, v, p, "wait_max_us", 0, INFINITY, F_NULL, &l->wait_max_us) != 0 ||
		    field_int(c, v, p, "acquisitions", 0, INT64_MAX, 0, 0, &acq) != 0 ||
		    field_num(c, v, p, "hold_total_us", 0, INFINITY, F_NULL, &l->hold_total_us) != 0)
			return -1;
		l->contentions = (uint64_t)cont;
		l->acquisitions = (uint64_t)acq;
		st->nlocks = (int)i + 1;
	}
	return 0;
}

static int
read_step_figures(struct field_ctx *c, const json_t *j, const char *P, struct step *st)
{
	long long ops;
	double dummy;

	if (field_num(c, j, P, "start_s", 0, INFINITY, F_NULL, &st->start_s) != 0 ||
	    field_num(c, j, P, "warmup_s", 0, INFINITY, F_NULL, &st->warmup_s) != 0 ||
	    field_num(c, j, P, "window_s", 0, INFINITY, F_NULL, &st->window_s) != 0 ||
	    field_int(c, j, P, "ops", 0, INT64_MAX, F_NULL, 0, &ops) != 0 ||
	    field_num(c, j, P, "ops_s", 0, INFINITY, F_NULL, &st->ops_s) != 0 ||
	    field_bool(c, j, P, "no_intervals", &st->no_intervals) != 0 ||
	    field_num(c, j, P, "speedup", 0, INFINITY, F_NULL, &dummy) != 0 ||
	    field_num(c, j, P, "efficiency", 0, INFINITY, F_NULL, &dummy) != 0)
		return -1;
	st->ops = (uint64_t)ops;
	/* null: the step has no usable throughput, which step_usable reads from 0. */
	if (isnan(st->ops_s))
		st->ops_s = 0;
	return 0;
}

static int
read_step(struct field_ctx *c, const json_t *j, const char *P, struct session *s)
{
	struct step *st;
	long long n, rep;
	int status;

	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_int(c, j, P, "n", NLIST_MIN, NLIST_MAX, 0, 0, &n) != 0 ||
	    field_int(c, j, P, "rep", 0, 1000000, 0, 0, &rep) != 0 ||
	    field_enum(c, j, P, "status", step_status_names, STEP_INTERRUPTED + 1, &status) != 0)
		return -1;
	if ((st = session_add_step(s, (int)n, (int)rep)) == NULL)
		return field_fail(c, P, "out of memory");
	st->status = (enum step_status)status;
	if (field_str(c, j, P, "reason", F_NULL, st->reason, sizeof(st->reason)) != 0 ||
	    read_step_figures(c, j, P, st) != 0 || read_stats(c, j, P, st) != 0 ||
	    read_cpus(c, j, P, st) != 0 || read_contention(c, j, P, &st->ct) != 0 ||
	    read_locks(c, j, P, st) != 0 || snapshot_fairness_read(c, j, P, &st->fair) != 0)
		return -1;
	return 0;
}

static int
read_steps(struct field_ctx *c, const json_t *root, struct session *s)
{
	char p[64];
	json_t *arr = field_get(c, root, "", "steps", F_ARR), *v;
	size_t i;

	if (arr == NULL)
		return -1;
	if (json_array_size(arr) > READ_MAX_STEPS)
		return field_fail(c, "steps", "%zu steps; expected at most %d",
				  json_array_size(arr), READ_MAX_STEPS);
	json_array_foreach(arr, i, v) {
		field_index(p, sizeof(p), "steps", i);
		if (read_step(c, v, p, s) != 0)
			return -1;
	}
	return 0;
}

static int
read_events(struct field_ctx *c, const json_t *root, struct session *s)
{
	char p[64];
	json_t *arr = field_get(c, root, "", "events", F_ARR), *v;
	char text[sizeof(s->events[0].text)];
	long long step;
	double t;
	size_t i;
	int kind;

	if (arr == NULL)
		return -1;
	json_array_foreach(arr, i, v) {
		field_index(p, sizeof(p), "events", i);
		if (field_type(c, v, p, F_OBJ) != 0 ||
		    field_num(c, v, p, "t", 0, INFINITY, F_NULL, &t) != 0 ||
		    field_int(c, v, p, "step", 0, s->nsteps - 1, F_NULL, -1, &step) != 0 ||
		    field_enum(c, v, p, "kind", event_kind_names, EV_COLLAPSE + 1, &kind) != 0 ||
		    field_str(c, v, p, "text", 0, text, sizeof(text)) != 0)
			return -1;
		if (session_add_event(s, (int)step, (enum event_kind)kind, t, "%s", text) != 0)
			return field_fail(c, p, "out of memory");
	}
	return 0;
}

/* One tick: [t, step, phase, rate, busy_all] and, when ncpu > 0, [busy per CPU]. */
static int
read_tick(struct field_ctx *c, const json_t *row, const char *p, const struct session *s,
	  int ncpu, struct tick *tk)
{
	char q[128], r0[128];
	double busy_all;
	size_t i, want = ncpu > 0 ? 6 : 5;
	json_t *v;
	int k;

	if (field_type(c, row, p, F_ARR) != 0)
		return -1;
	if (json_array_size(row) != want)
		return field_fail(c, p, "%zu elements; expected %zu (t, step, phase, rate, "
				  "busy_all%s)", json_array_size(row), want,
				  ncpu > 0 ? ", busy" : "");
	v = json_array_get(row, 1);
	field_index(q, sizeof(q), p, 1);
	field_index(r0, sizeof(r0), p, 0);
	if (field_num_of(c, json_array_get(row, 0), r0, 0, INFINITY, F_NULL, &tk->t) != 0 ||
	    field_type(c, v, q, F_INT | F_NULL) != 0)
		return -1;
	if (json_is_integer(v) && (json_integer_value(v) < 0 || json_integer_value(v) >= s->nsteps))
		return field_fail(c, q, "step %" JSON_INTEGER_FORMAT " does not exist; expected "
				  "0 to %d or null", json_integer_value(v), s->nsteps - 1);
	tk->step = json_is_integer(v) ? (int)json_integer_value(v) : -1;
	v = json_array_get(row, 2);
	field_index(q, sizeof(q), p, 2);
	if (field_type(c, v, q, F_STR) != 0)
		return -1;
	for (k = 0; k <= PHASE_DONE && strcmp(json_string_value(v), sweep_phase_names[k]); k++)
		;
	if (k > PHASE_DONE)
		return field_fail(c, q, "'%s' is not a phase; expected idle, starting, warm-up, "
				  "measuring, stopping or done", json_string_value(v));
	tk->phase = k;
	field_index(q, sizeof(q), p, 3);
	if (field_num_of(c, json_array_get(row, 3), q, 0, INFINITY, F_NULL, &tk->rate) != 0)
		return -1;
	field_index(q, sizeof(q), p, 4);
	if (field_num_of(c, json_array_get(row, 4), q, 0, 100, F_NULL, &busy_all) != 0)
		return -1;
	tk->busy_all = (float)busy_all;
	if (ncpu == 0)
		return 0;
	v = json_array_get(row, 5);
	field_index(q, sizeof(q), p, 5);
	if (field_type(c, v, q, F_ARR) != 0)
		return -1;
	if (json_array_size(v) != (size_t)ncpu)
		return field_fail(c, q, "%zu CPUs; expected %d (series.ncpu)", json_array_size(v),
				  ncpu);
	for (i = 0; i < (size_t)ncpu; i++) {
		char r[160];
		double b;

		field_index(r, sizeof(r), q, i);
		if (field_num_of(c, json_array_get(v, i), r, 0, 100, F_NULL, &b) != 0)
			return -1;
		tk->busy[i] = (float)b;
	}
	return 0;
}

/* The ring is refilled as it was: the oldest held tick first, count as before. */
static int
read_series(struct field_ctx *c, const json_t *root, struct session *s)
{
	const char *P = "series";
	json_t *j = field_get(c, root, "", P, F_OBJ | F_NULL), *ticks, *row;
	long long ncpu, dropped, ncpu_dropped;
	char p[64];
	size_t i, len;

	if (j == NULL)
		return -1;
	if (json_is_null(j))
		return 0;
	if (field_int(c, j, P, "ncpu", 0, READ_MAX_CPUS, 0, 0, &ncpu) != 0 ||
	    field_int(c, j, P, "ncpu_dropped", 0, READ_MAX_CPUS, 0, 0, &ncpu_dropped) != 0 ||
	    field_int(c, j, P, "dropped", 0, INT64_MAX / 2, 0, 0, &dropped) != 0 ||
	    (ticks = field_get(c, j, P, "ticks", F_ARR)) == NULL)
		return -1;
	len = json_array_size(ticks);
	if (len == 0 || len > READ_MAX_SAMPLES || len * (size_t)ncpu > SNAPSHOT_SERIES_MAX_VALUES)
		return field_fail(c, "series.ticks", "%zu ticks of %lld CPUs; expected 1 to %d "
				  "ticks and at most %d values", len, ncpu, READ_MAX_SAMPLES,
				  SNAPSHOT_SERIES_MAX_VALUES);
	if (series_init(&s->ticks, (int)ncpu, (int)len) != 0)
		return field_fail(c, P, "out of memory");
	s->ticks.count = dropped + (int64_t)len;
	json_array_foreach(ticks, i, row) {
		struct tick *tk = &s->ticks.ring[(dropped + (int64_t)i) % (int64_t)len];

		field_index(p, sizeof(p), "series.ticks", i);
		if (read_tick(c, row, p, s, (int)ncpu, tk) != 0)
			return -1;
	}
	return 0;
}

/* The text to a JSON object, or NULL after "name:LINE:COLUMN: why". */
static json_t *
read_decode(struct field_ctx *c, const char *buf, size_t len)
{
	json_error_t je;
	json_t *root;

	if (len > SNAPSHOT_MAX_BYTES) {
		field_fail(c, "", "%zu bytes is over the %zu MiB a snapshot may have; not a "
			   "snapshot, or a damaged one", len, SNAPSHOT_MAX_BYTES >> 20);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL) {
		if (c->err != NULL)
			snprintf(c->err, c->errlen, "%s:%d:%d: %s: %s; expected a JSON snapshot",
				 c->name, je.line, je.column,
				 json_error_code(&je) == json_error_premature_end_of_input
					 ? "truncated"
					 : "not JSON",
				 je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		field_type(c, root, "", F_OBJ);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* What a file must say first: which format and version, before its contents are judged. */
static int
read_format(struct field_ctx *c, const json_t *root)
{
	char format[64];
	long long version;

	if (field_str(c, root, "", "format", 0, format, sizeof(format)) != 0)
		return -1;
	if (strcmp(format, SNAPSHOT_FORMAT) != 0)
		return field_fail(c, "format", "'%s' is not a scaletop snapshot; expected '%s'",
				  format, SNAPSHOT_FORMAT);
	if (field_int(c, root, "", "version", 1, INT32_MAX, 0, 0, &version) != 0)
		return -1;
	if (version > SNAPSHOT_VERSION)
		return field_fail(c, "version", "%lld is newer than this scaletop reads (%d); "
				  "use a newer scaletop", version, SNAPSHOT_VERSION);
	return 0;
}

static int
read_all(struct field_ctx *c, const char *buf, size_t len, struct session *s,
	 struct snapshot_meta *m, struct analysis *a, struct analysis_opts *o)
{
	json_t *root = read_decode(c, buf, len);
	int rc = -1;

	if (root == NULL)
		return -1;
	if (read_format(c, root) == 0 && read_meta(c, root, s, m) == 0 &&
	    read_host(c, root, s) == 0 && read_workload(c, root, s) == 0 &&
	    read_settings(c, root, s) == 0 && read_steps(c, root, s) == 0 &&
	    read_events(c, root, s) == 0 &&
	    field_get(c, root, "", "analysis", F_OBJ) != NULL &&
	    snapshot_analysis_parse(c, json_object_get(root, "analysis"), a, o) == 0 &&
	    read_series(c, root, s) == 0)
		rc = 0;
	json_decref(root);
	return rc;
}

int
snapshot_parse(const char *buf, size_t len, const char *name, struct session *s, char *err,
	       size_t errlen)
{
	struct field_ctx c = { name, err, errlen };
	struct snapshot_meta m;
	struct analysis_opts o;
	struct analysis a;
	int rc;

	session_init(s);
	memset(&a, 0, sizeof(a));
	rc = read_all(&c, buf, len, s, &m, &a, &o);
	analysis_free(&a);
	return rc;
}

void
snapshot_init(struct snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	session_init(&snap->s);
}

void
snapshot_free(struct snapshot *snap)
{
	session_free(&snap->s);
	analysis_free(&snap->saved);
	analysis_free(&snap->now);
	snapshot_init(snap);
}

int
snapshot_read(const char *buf, size_t len, const char *name, struct snapshot *snap, char *err,
	      size_t errlen)
{
	struct field_ctx c = { name, err, errlen };
	struct analysis_opts o;
	char why[256];

	snapshot_init(snap);
	snprintf(snap->name, sizeof(snap->name), "%s", name);
	if (read_all(&c, buf, len, &snap->s, &snap->meta, &snap->saved, &o) != 0)
		return -1;
	/* The thresholds the snapshot was judged by are its settings from now on. */
	snap->s.set.efficiency_min = o.efficiency_min;
	snap->s.set.collapse_theta = o.collapse_theta;
	analysis_opts_for(&snap->s, &o);
	if (analysis_run(&snap->s, &o, &snap->now) != 0)
		return field_fail(&c, "analysis", "out of memory recomputing it");
	snapshot_analysis_diff(&snap->saved, &snap->now, why, sizeof(why));
	if (why[0] != '\0')
		snprintf(snap->warning, sizeof(snap->warning),
			 "%s: the saved analysis (scaletop %s) differs from the one recomputed "
			 "now: %s; showing the recomputed one", name, snap->meta.tool_version, why);
	return 0;
}

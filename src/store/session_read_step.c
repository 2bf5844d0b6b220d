/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One step read back: its figures, its interval statistics and samples, its
 * CPU breakdown, contention, kernel locks and fairness.  The figures must
 * agree with each other (as many samples as the count, min <= mean <= max,
 * ascending CPU ids), since the analysis is recomputed from them.  Shared by
 * the snapshot loader and the stream reader; see session_read.h.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/contention.h"
#include "scaletop/latency.h"
#include "scaletop/measures.h"
#include "scaletop/nlist.h"
#include "scaletop/platform.h"
#include "session_read.h"

/* A tick a day late is an error in the file, not a measurement. */
#define READ_MAX_LATE_MS 86400000.0

static const struct {
	unsigned bit;
	const char *word;
} read_cpu_flags[] = {
	{ CPU_USAGE_OFFLINE, "offline" },     { CPU_USAGE_NEW, "new" },
	{ CPU_USAGE_GONE, "gone" },           { CPU_USAGE_NO_TICKS, "no_ticks" },
	{ CPU_USAGE_BACKWARDS, "backwards" },
};

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
	if (n > SESSION_READ_MAX_SAMPLES)
		return field_fail(c, p, "%zu samples; expected at most %d", n,
				  SESSION_READ_MAX_SAMPLES);
	if (st->no_intervals && n > 0)
		return field_fail(c, p, "%zu samples, but no_intervals is true; expected none", n);
	if (!st->no_intervals && n != st->st.n)
		return field_fail(c, p, "%zu samples, but count is %zu; expected as many", n,
				  st->st.n);
	if (n > 0 && (st->iv = calloc(n, sizeof(*st->iv))) == NULL)
		return field_fail(c, p, "out of memory");
	st->capiv = (int)n;
	json_array_foreach(arr, i, v)
	{
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
	    field_int(c, j, P, "count", 0, SESSION_READ_MAX_SAMPLES, 0, 0, &n) != 0)
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
		return field_fail(c, P,
				  "min %g, median %g, mean %g, max %g; expected min <= "
				  "median, mean <= max",
				  t->min, t->median, t->mean, t->max);
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
	json_array_foreach(arr, i, v)
	{
		field_index(q, sizeof(q), p, i);
		if (field_type(c, v, q, F_STR) != 0)
			return -1;
		for (k = 0; k < sizeof(read_cpu_flags) / sizeof(read_cpu_flags[0]); k++) {
			if (strcmp(json_string_value(v), read_cpu_flags[k].word) == 0)
				break;
		}
		if (k == sizeof(read_cpu_flags) / sizeof(read_cpu_flags[0]))
			return field_fail(c, q,
					  "'%s' is not known; expected offline, new, gone, "
					  "no_ticks or backwards",
					  json_string_value(v));
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
	    (per = field_array_at(c, j, P, "per_cpu", 1, SESSION_READ_MAX_CPUS, "CPUs", p,
				  sizeof(p))) == NULL)
		return -1;
	if ((st->cpu = calloc(json_array_size(per), sizeof(*st->cpu))) == NULL)
		return field_fail(c, p, "out of memory");
	json_array_foreach(per, i, v)
	{
		field_index(q, sizeof(q), p, i);
		if (field_type(c, v, q, F_OBJ) != 0 ||
		    field_int(c, v, q, "cpu", 0, SESSION_READ_MAX_CPUS - 1, 0, 0, &id) != 0)
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
	{ CT_HAVE_CSW_KOP, "vcsw_per_kop", offsetof(struct contention, vcsw_kop), INFINITY },
	{ CT_HAVE_CSW_KOP, "ivcsw_per_kop", offsetof(struct contention, ivcsw_kop), INFINITY },
	{ CT_HAVE_RUN_DELAY, "run_delay_pct", offsetof(struct contention, run_delay_pct), 100 },
	{ CT_HAVE_KERNEL, "kernel_pct", offsetof(struct contention, kernel_pct), 100 },
	{ CT_HAVE_KERNEL, "cpu_used", offsetof(struct contention, cpu_used), INFINITY },
	{ CT_HAVE_OPS_CPU, "ops_per_cpu_s", offsetof(struct contention, ops_per_cpu_s), INFINITY },
	{ CT_HAVE_SYS_CTXSW, "sys_ctxsw_s", offsetof(struct contention, sys_ctxsw_s), INFINITY },
	{ CT_HAVE_PSI, "psi_some_pct", offsetof(struct contention, psi_some_pct), 100 },
	{ CT_HAVE_LOCK_WAIT, "lock_wait_pct", offsetof(struct contention, lock_wait_pct), 100 },
};

/* "threads": optional (older files lack it); null or absent when not counted. */
static int
read_ct_threads(struct field_ctx *c, const json_t *j, const char *P, struct contention *ct)
{
	long long threads;

	if (json_object_get(j, "threads") == NULL)
		return 0;
	if (field_int(c, j, P, "threads", 0, INT_MAX, F_NULL, -1, &threads) != 0)
		return -1;
	if (threads >= 0) {
		ct->threads = (int)threads;
		ct->have |= CT_HAVE_THREADS;
	}
	return 0;
}

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
		if (field_num(c, j, P, read_ct_figs[i].key, 0, read_ct_figs[i].max, F_NULL, &v) !=
		    0)
			return -1;
		field_path(p, sizeof(p), P, read_ct_figs[i].key);
		if ((seen & read_ct_figs[i].bit) && isnan(v) != !(ct->have & read_ct_figs[i].bit))
			return field_fail(c, p,
					  "%s; expected the same as the figures measured "
					  "with it (%s)",
					  isnan(v) ? "null" : "a number",
					  isnan(v) ? "numbers" : "null");
		seen |= read_ct_figs[i].bit;
		if (isnan(v))
			continue;
		ct->have |= read_ct_figs[i].bit;
		*(double *)((char *)ct + read_ct_figs[i].off) = v;
	}
	return read_ct_threads(c, j, P, ct);
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
	if (field_count(c, arr, P, 0, STEP_TOP_LOCKS, "entries") != 0)
		return -1;
	json_array_foreach(arr, i, v)
	{
		struct lockprof_entry *l = &st->locks[i];

		field_index(p, sizeof(p), P, i);
		if (field_type(c, v, p, F_OBJ) != 0 ||
		    field_str(c, v, p, "name", 0, l->name, sizeof(l->name)) != 0 ||
		    field_int(c, v, p, "contentions", 0, INT64_MAX, 0, 0, &cont) != 0 ||
		    field_num(c, v, p, "wait_total_us", 0, INFINITY, F_NULL, &l->wait_total_us) !=
			    0 ||
		    field_num(c, v, p, "wait_max_us", 0, INFINITY, F_NULL, &l->wait_max_us) != 0 ||
		    field_int(c, v, p, "acquisitions", 0, INT64_MAX, 0, 0, &acq) != 0 ||
		    field_num(c, v, p, "hold_total_us", 0, INFINITY, F_NULL, &l->hold_total_us) !=
			    0)
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

/*
 * Figures per operation that an older scaletop wrote without operations to
 * divide by: 0 switches per 1000 operations beside switches counted, 0
 * operations per CPU-second, any of them for a failed step.  They are read
 * as what they are, unknown, as this scaletop writes them.
 */
static void
read_step_per_op(struct step *st)
{
	struct contention *ct = &st->ct;

	if (st->status == STEP_FAILED) {
		contention_forget_per_op(ct, &st->tg);
		return;
	}
	contention_forget_old_zeros(ct);
	if ((st->tg.have & TG_HAVE_OPS_CPU) && st->tg.ops_per_cpu_s == 0)
		st->tg.have &= ~(unsigned)TG_HAVE_OPS_CPU;
}

/* A time in ms of the step's loop; older files have none (< 0: not known). */
static int
read_loop_ms(struct field_ctx *c, const json_t *j, const char *P, const char *key, double *out)
{
	double v;

	*out = -1;
	if (json_object_get(j, key) == NULL)
		return 0;
	if (field_num(c, j, P, key, 0, READ_MAX_LATE_MS, F_NULL, &v) != 0)
		return -1;
	*out = isnan(v) ? -1 : v;
	return 0;
}

/* Threads read in the window; older files have none (-1). */
static int
read_wait_reads(struct field_ctx *c, const json_t *j, const char *P, struct step *st)
{
	long long v;

	st->wait_reads = -1;
	if (json_object_get(j, "wait_reads") == NULL)
		return 0;
	if (field_int(c, j, P, "wait_reads", 0, INT64_MAX, F_NULL, -1, &v) != 0)
		return -1;
	st->wait_reads = v;
	return 0;
}

/*
 * The noisy mark is written for the file's other readers; scaletop takes it
 * from the step's CI (step_noisy), so it is only checked, and older files
 * without it read the same.
 */
static int
read_noisy(struct field_ctx *c, const json_t *j, const char *P)
{
	bool noisy;

	if (json_object_get(j, "noisy") == NULL)
		return 0;
	return field_bool(c, j, P, "noisy", &noisy);
}

/*
 * The sections the collector table reads (measures.h), each from its key
 * (NULL when absent).  A key no collector and no reader here knows is left
 * alone, so a newer file's sections load.
 */
static int
read_collectors(struct field_ctx *c, const json_t *j, const char *P, struct step *st)
{
	char p[256];
	int i;

	for (i = 0; i < ncollectors; i++) {
		if (collectors[i]->read == NULL)
			continue;
		field_path(p, sizeof(p), P, collectors[i]->key);
		if (collectors[i]->read(c, json_object_get(j, collectors[i]->key), p, st,
					&st->slot[i]) != 0)
			return -1;
	}
	return 0;
}

int
session_read_step(struct field_ctx *c, const json_t *j, const char *P, struct step *st)
{
	long long n, rep, trial = 0;
	int status;

	memset(st, 0, sizeof(*st));
	st->all.id = -1;
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_int(c, j, P, "n", NLIST_MIN, NLIST_MAX, 0, 0, &n) != 0 ||
	    field_int(c, j, P, "rep", 0, 1000000, 0, 0, &rep) != 0 ||
	    (json_object_get(j, "trial") != NULL &&
	     field_int(c, j, P, "trial", 0, 1000000, 0, 0, &trial) != 0) ||
	    field_enum(c, j, P, "status", step_status_names, STEP_INTERRUPTED + 1, &status) != 0 ||
	    read_noisy(c, j, P) != 0 ||
	    (json_object_get(j, "refined") != NULL &&
	     field_bool(c, j, P, "refined", &st->refined) != 0))
		return -1;
	st->n = (int)n;
	st->rep = (int)rep;
	st->trial = (int)trial; /* absent: a file from before --trials, one trial */
	st->status = (enum step_status)status;
	if (field_str(c, j, P, "reason", F_NULL, st->reason, sizeof(st->reason)) != 0 ||
	    read_step_figures(c, j, P, st) != 0 || read_stats(c, j, P, st) != 0 ||
	    read_cpus(c, j, P, st) != 0 || read_contention(c, j, P, &st->ct) != 0 ||
	    read_locks(c, j, P, st) != 0 || snapshot_fairness_read(c, j, P, &st->fair) != 0 ||
	    session_read_target(c, j, P, &st->tg) != 0 || session_read_waits(c, j, P, st) != 0 ||
	    session_read_probe_join(c, j, P, st) != 0 || session_read_freq(c, j, P, st) != 0 ||
	    read_loop_ms(c, j, P, "tick_late_ms", &st->tick_late_ms) != 0 ||
	    read_loop_ms(c, j, P, "tick_busy_ms", &st->tick_busy_ms) != 0 ||
	    read_loop_ms(c, j, P, "wait_read_ms", &st->wait_read_ms) != 0 ||
	    read_wait_reads(c, j, P, st) != 0 || session_read_hot(c, j, P, &st->hot) != 0 ||
	    read_collectors(c, j, P, st) != 0)
		return -1;
	read_step_per_op(st);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* Sample deltas as JSON Lines: the encoding shared by `scaletop sample --json` and recorders. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/platform.h"
#include "scaletop/sample_json.h"

/*
 * 15 significant digits print 33.33 as "33.33" rather than the 17-digit
 * "33.329999999999998", and still keep microseconds of a monotonic clock
 * with years of uptime.
 */
#define SAMPLE_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

static const struct {
	unsigned bit;
	const char *word;
} sample_json_flag_words[] = {
	{ CPU_USAGE_OFFLINE, "offline" },     { CPU_USAGE_NEW, "new" },
	{ CPU_USAGE_GONE, "gone" },           { CPU_USAGE_NO_TICKS, "no_ticks" },
	{ CPU_USAGE_BACKWARDS, "backwards" },
};

/* A real rounded to `decimals` places, or null for what cannot be shown as a number. */
static json_t *
sample_json_real(double v, int decimals)
{
	double scale = pow(10.0, decimals);

	if (!isfinite(v))
		return json_null();
	return json_real(round(v * scale) / scale);
}

/* json_object_set_new that reports failure, including a NULL value from ENOMEM. */
static int
sample_json_set(json_t *obj, const char *key, json_t *v)
{
	if (v == NULL)
		return -1;
	return json_object_set_new(obj, key, v);
}

static json_t *
sample_json_flags(unsigned flags)
{
	json_t *a = json_array();
	size_t i;

	if (a == NULL)
		return NULL;
	for (i = 0; i < sizeof(sample_json_flag_words) / sizeof(sample_json_flag_words[0]); i++) {
		if (!(flags & sample_json_flag_words[i].bit))
			continue;
		if (json_array_append_new(a, json_string(sample_json_flag_words[i].word)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *
sample_json_cpu(const struct cpu_usage *u)
{
	bool data = !(u->flags & CPU_USAGE_NO_DATA);
	json_t *o = json_object();
	int i, rc = 0;

	if (o == NULL)
		return NULL;
	if (u->id >= 0)
		rc |= sample_json_set(o, "cpu", json_integer(u->id));
	for (i = 0; i < CPU_NSTATES; i++)
		rc |= sample_json_set(o, cpu_state_names[i],
				      data ? sample_json_real(u->pct[i], 2) : json_null());
	rc |= sample_json_set(o, "busy", data ? sample_json_real(u->busy, 2) : json_null());
	rc |= sample_json_set(o, "flags", sample_json_flags(u->flags));
	if (rc != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
sample_json_rate(const struct sample_delta *d, enum sys_counter c)
{
	if (!(d->have_rate & (1u << c)))
		return json_null();
	return sample_json_real(d->rate[c], 2);
}

json_t *
sample_json_sys(const struct sample_delta *d)
{
	bool runq = d->flags & SYS_HAVE_RUNQ;
	json_t *o = json_object();
	int rc = 0;

	if (o == NULL)
		return NULL;
	rc |= sample_json_set(o, "ctxsw_s", sample_json_rate(d, SYS_CTXSW));
	rc |= sample_json_set(o, "intr_s", sample_json_rate(d, SYS_INTR));
	rc |= sample_json_set(o, "softirq_s", sample_json_rate(d, SYS_SOFTIRQ));
	rc |= sample_json_set(o, "syscall_s", sample_json_rate(d, SYS_SYSCALL));
	rc |= sample_json_set(o, "fork_s", sample_json_rate(d, SYS_FORK));
	rc |= sample_json_set(o, "running", runq ? json_integer(d->running) : json_null());
	rc |= sample_json_set(o, "blocked", runq ? json_integer(d->blocked) : json_null());
	rc |= sample_json_set(o, "psi_some_pct",
			      (d->flags & SYS_HAVE_PSI_SOME) ? sample_json_real(d->psi_some_pct, 2)
							     : json_null());
	rc |= sample_json_set(o, "psi_full_pct",
			      (d->flags & SYS_HAVE_PSI_FULL) ? sample_json_real(d->psi_full_pct, 2)
							     : json_null());
	if (rc != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int
sample_json_time(char *buf, size_t len, const struct timespec *ts)
{
	struct tm tm;
	char day[32];
	time_t t = ts->tv_sec;

	if (gmtime_r(&t, &tm) == NULL || strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return -1;
	if ((size_t)snprintf(buf, len, "%s.%03ldZ", day, ts->tv_nsec / 1000000) >= len)
		return -1;
	return 0;
}

static json_t *
sample_json_cpus(const struct sample_delta *d)
{
	json_t *a = json_array();
	int i;

	if (a == NULL)
		return NULL;
	for (i = 0; i < d->ncpu; i++) {
		json_t *c = sample_json_cpu(&d->cpu[i]);

		if (c == NULL || json_array_append_new(a, c) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The "all" row, plus how many CPUs it sums: fewer than the rows when some came or went. */
static json_t *
sample_json_all(const struct sample_delta *d)
{
	json_t *o = sample_json_cpu(&d->all);

	if (o != NULL && sample_json_set(o, "ncpu", json_integer(d->ncpu_with_data)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
sample_json_interval(const struct sample_delta *d, const struct sample_json_stamp *st)
{
	char when[64];
	json_t *o = json_object();
	int rc = 0;

	if (o == NULL)
		return NULL;
	rc |= sample_json_set(o, "type", json_string("sample"));
	rc |= sample_json_set(o, "time",
			      sample_json_time(when, sizeof(when), &st->wall) == 0
				      ? json_string(when)
				      : json_null());
	rc |= sample_json_set(o, "mono", sample_json_real((double)st->mono_ns / 1e9, 6));
	rc |= sample_json_set(o, "interval", sample_json_real(d->seconds, 6));
	rc |= sample_json_set(o, "cpus", sample_json_cpus(d));
	rc |= sample_json_set(o, "all", sample_json_all(d));
	rc |= sample_json_set(o, "sys", sample_json_sys(d));
	rc |= sample_json_set(o, "note", st->note != NULL ? json_string(st->note) : json_null());
	if (rc != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int
sample_json_write(FILE *f, const struct sample_delta *d, const struct sample_json_stamp *st)
{
	json_t *o = sample_json_interval(d, st);
	char *line;
	size_t len;
	int rc = 0;

	if (o == NULL) {
		errno = ENOMEM;
		return -1;
	}
	line = json_dumps(o, SAMPLE_JSON_FLAGS);
	json_decref(o);
	if (line == NULL) {
		errno = ENOMEM;
		return -1;
	}
	/* Replace the terminating NUL by the newline, so the line goes out in one piece. */
	len = strlen(line);
	line[len] = '\n';
	if (fwrite(line, 1, len + 1, f) != len + 1)
		rc = -1;
	free(line);
	return rc;
}

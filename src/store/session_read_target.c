/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading back what session_json_target.c writes: a step's "target" and
 * "waits", and the settings' "target" and "probe" lists.  Each is optional,
 * since files from before --target lack them.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "session_read.h"

/*
 * The waits are checked as the views and the verdict use them: known
 * families and states, channels that fit, no line twice, and each family's
 * shares summing to 1, so a profile drawn as stacked shares is whole.
 * Shared by snapshots and streams; see session_read.h.
 */

/* Target figures come in groups sharing one have-bit: all numbers, or all null. */
static const struct {
	unsigned bit;
	const char *key;
	size_t off;
	double max;
} read_tg_figs[] = {
	{ TG_HAVE_CPU, "cpu_used", offsetof(struct target_figures, cpu_used), INFINITY },
	{ TG_HAVE_CPU, "user_cpu", offsetof(struct target_figures, user_cpu), INFINITY },
	{ TG_HAVE_CPU, "sys_cpu", offsetof(struct target_figures, sys_cpu), INFINITY },
	{ TG_HAVE_CSW, "vcsw_kop", offsetof(struct target_figures, vcsw_kop), INFINITY },
	{ TG_HAVE_CSW, "ivcsw_kop", offsetof(struct target_figures, ivcsw_kop), INFINITY },
	{ TG_HAVE_RUN_DELAY, "run_delay_pct", offsetof(struct target_figures, run_delay_pct), 100 },
	{ TG_HAVE_CPU, "machine_pct", offsetof(struct target_figures, machine_pct), 100 },
	{ TG_HAVE_OPS_CPU, "ops_per_cpu_s", offsetof(struct target_figures, ops_per_cpu_s),
	  INFINITY },
	{ TG_HAVE_PSI, "psi_some_pct", offsetof(struct target_figures, psi_some_pct), 100 },
};

static int
read_tg_figures(struct field_ctx *c, const json_t *j, const char *P, struct target_figures *tg)
{
	unsigned seen = 0;
	char p[160];
	size_t i;
	double v;

	for (i = 0; i < sizeof(read_tg_figs) / sizeof(read_tg_figs[0]); i++) {
		if (field_num(c, j, P, read_tg_figs[i].key, 0, read_tg_figs[i].max, F_NULL, &v) !=
		    0)
			return -1;
		field_path(p, sizeof(p), P, read_tg_figs[i].key);
		if ((seen & read_tg_figs[i].bit) && isnan(v) != !(tg->have & read_tg_figs[i].bit))
			return field_fail(c, p,
					  "%s; expected the same as the figures measured "
					  "with it (%s)",
					  isnan(v) ? "null" : "a number",
					  isnan(v) ? "numbers" : "null");
		seen |= read_tg_figs[i].bit;
		if (isnan(v))
			continue;
		tg->have |= read_tg_figs[i].bit;
		*(double *)((char *)tg + read_tg_figs[i].off) = v;
	}
	return 0;
}

int
session_read_target(struct field_ctx *c, const json_t *step, const char *spath,
		    struct target_figures *tg)
{
	json_t *j = json_object_get(step, "target");
	long long procs, threads;
	char P[96];

	memset(tg, 0, sizeof(*tg));
	/* Absent (or null): no --target, or a file from before it existed. */
	if (j == NULL || json_is_null(j))
		return 0;
	field_path(P, sizeof(P), spath, "target");
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_int(c, j, P, "procs", 0, INT_MAX, 0, 0, &procs) != 0 ||
	    field_int(c, j, P, "threads", 0, INT_MAX, 0, 0, &threads) != 0 ||
	    read_tg_figures(c, j, P, tg) != 0)
		return -1;
	tg->present = true;
	tg->procs = (int)procs;
	tg->threads = (int)threads;
	return 0;
}

/* One line of the profile at path p. */
static int
read_wait(struct field_ctx *c, const json_t *v, const char *p, struct wait_share *w)
{
	long long readings = 0;
	int family, state;

	memset(w, 0, sizeof(*w));
	if (field_type(c, v, p, F_OBJ) != 0 ||
	    field_enum(c, v, p, "family", wait_family_names, WAIT_NFAMILIES, &family) != 0 ||
	    field_enum(c, v, p, "state", wait_state_names, WS_NSTATES, &state) != 0 ||
	    field_str(c, v, p, "channel", F_NULL, w->channel, sizeof(w->channel)) != 0 ||
	    field_num(c, v, p, "share", 0, 1, 0, &w->share) != 0)
		return -1;
	/* older files have no readings: 0, not known */
	if (json_object_get(v, "readings") != NULL &&
	    field_int(c, v, p, "readings", 1, INT_MAX, F_NULL, 0, &readings) != 0)
		return -1;
	w->readings = (int)readings;
	w->family = (enum wait_family)family;
	w->state = (enum wait_state)state;
	return 0;
}

/* A second line of the same family, state and channel as an earlier one, or -1. */
static int
read_wait_twin(const struct wait_share *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].family == w[n].family && w[i].state == w[n].state &&
		    strcmp(w[i].channel, w[n].channel) == 0)
			return i;
	}
	return -1;
}

/* Each family present sums to 1, within SESSION_READ_WAIT_SUM_TOL. */
static int
read_wait_sums(struct field_ctx *c, const char *P, const struct step *st)
{
	double sum[WAIT_NFAMILIES] = { 0 };
	bool have[WAIT_NFAMILIES] = { false };
	int i;

	for (i = 0; i < st->nwaits; i++) {
		sum[st->waits[i].family] += st->waits[i].share;
		have[st->waits[i].family] = true;
	}
	for (i = 0; i < WAIT_NFAMILIES; i++) {
		if (have[i] && !(fabs(sum[i] - 1) <= SESSION_READ_WAIT_SUM_TOL))
			return field_fail(c, P,
					  "the %s family's shares at N=%d sum to %g; expected 1 "
					  "(within %g)",
					  wait_family_names[i], st->n, sum[i],
					  SESSION_READ_WAIT_SUM_TOL);
	}
	return 0;
}

int
session_read_waits(struct field_ctx *c, const json_t *step, const char *spath, struct step *st)
{
	json_t *arr = json_object_get(step, "waits"), *v;
	char P[96], p[128];
	size_t i, n;
	int twin;

	/* Absent: a file from before the wait profile existed. */
	if (arr == NULL)
		return 0;
	field_path(P, sizeof(P), spath, "waits");
	if (field_type(c, arr, P, F_ARR) != 0)
		return -1;
	n = json_array_size(arr);
	if (n > SESSION_READ_MAX_WAITS)
		return field_fail(c, P, "%zu lines; expected at most %d", n,
				  SESSION_READ_MAX_WAITS);
	if (n > 0 && (st->waits = calloc(n, sizeof(*st->waits))) == NULL)
		return field_fail(c, P, "out of memory");
	json_array_foreach(arr, i, v)
	{
		field_index(p, sizeof(p), P, i);
		if (read_wait(c, v, p, &st->waits[i]) != 0)
			return -1;
		st->nwaits = (int)i + 1;
		if ((twin = read_wait_twin(st->waits, (int)i)) >= 0)
			return field_fail(c, p,
					  "%s %s '%s' again (as in waits[%d]); expected each "
					  "line once",
					  wait_family_names[st->waits[i].family],
					  wait_state_names[st->waits[i].state],
					  st->waits[i].channel, twin);
	}
	return read_wait_sums(c, P, st);
}

int
session_read_probe_join(struct field_ctx *c, const json_t *step, const char *spath, struct step *st)
{
	json_t *j = json_object_get(step, "probe_join");
	long long lines, joined, unjoined, threads;
	char P[96];
	double s;

	memset(&st->pjoin, 0, sizeof(st->pjoin));
	/* Absent: no probe printed a TID, or a file from before the join existed. */
	if (j == NULL || json_is_null(j))
		return 0;
	field_path(P, sizeof(P), spath, "probe_join");
	if (field_type(c, j, P, F_OBJ) != 0 ||
	    field_int(c, j, P, "lines", 1, INT_MAX, 0, 0, &lines) != 0 ||
	    field_int(c, j, P, "joined", 0, lines, 0, 0, &joined) != 0 ||
	    field_int(c, j, P, "unjoined", 0, lines, 0, 0, &unjoined) != 0 ||
	    field_int(c, j, P, "threads", 0, joined, 0, 0, &threads) != 0 ||
	    field_num(c, j, P, "thread_s", 0, INFINITY, 0, &s) != 0)
		return -1;
	if (joined + unjoined != lines)
		return field_fail(
			c, P,
			"joined %lld and unjoined %lld lines of %lld; expected them to add "
			"up",
			joined, unjoined, lines);
	if ((joined == 0) != (threads == 0))
		return field_fail(c, P,
				  "%lld lines joined %lld threads; expected both 0 or neither",
				  joined, threads);
	st->pjoin.lines = (int)lines;
	st->pjoin.joined = (int)joined;
	st->pjoin.threads = (int)threads;
	st->pjoin.thread_s = s;
	return 0;
}

/* settings' "target" or "probe": absent (none), or 0 to max strings of 1 to 255 bytes. */
static int
read_specs(struct field_ctx *c, const json_t *set, const char *key, char (*out)[TARGET_SPEC_LEN],
	   int max, int *n)
{
	json_t *arr = json_object_get(set, key);
	char P[64], p[80];
	size_t i;

	*n = 0;
	if (arr == NULL)
		return 0;
	field_path(P, sizeof(P), "settings", key);
	if (field_type(c, arr, P, F_ARR) != 0)
		return -1;
	if (field_count(c, arr, P, 0, (size_t)max, "entries") != 0)
		return -1;
	for (i = 0; i < json_array_size(arr); i++) {
		field_index(p, sizeof(p), P, i);
		if (field_str_of(c, json_array_get(arr, i), p, 0, out[i], TARGET_SPEC_LEN) != 0)
			return -1;
		if (out[i][0] == '\0')
			return field_fail(c, p, "empty; expected 1 to %d bytes",
					  TARGET_SPEC_LEN - 1);
		*n = (int)i + 1;
	}
	return 0;
}

int
session_read_specs(struct field_ctx *c, const json_t *set, struct sweep_settings *ss)
{
	if (read_specs(c, set, "target", ss->target, SESSION_MAX_TARGETS, &ss->ntargets) != 0 ||
	    read_specs(c, set, "probe", ss->probe, SESSION_MAX_PROBES, &ss->nprobes) != 0)
		return -1;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The system under test and the wait profile as JSON: a step's "target"
 * (the --target's figures, measured like the workload's contention) and
 * "waits" (shares of thread-time by family, state and channel), and the
 * settings' "target" and "probe" lists (the specs and commands as given).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "scaletop/format.h"
#include "scaletop/session.h"
#include "scaletop/waits.h"
#include "snapshot_priv.h"

/*
 * session_json.c puts them in place; session_read_target.c reads them back.
 * A figure the step could not measure is null, as in "contention".
 */

/* A figure when its have-bit is set (and it is finite), else null. */
static json_t *
tg_fig(const struct target_figures *tg, unsigned bit, double v)
{
	return (tg->have & bit) && isfinite(v) ? json_real(v) : json_null();
}

json_t *
session_json_target(const struct target_figures *tg)
{
	if (!tg->present)
		return NULL;
	return json_pack("{s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "procs",
			 tg->procs, "threads", tg->threads, "cpu_used",
			 tg_fig(tg, TG_HAVE_CPU, tg->cpu_used), "user_cpu",
			 tg_fig(tg, TG_HAVE_CPU, tg->user_cpu), "sys_cpu",
			 tg_fig(tg, TG_HAVE_CPU, tg->sys_cpu), "vcsw_kop",
			 tg_fig(tg, TG_HAVE_CSW, tg->vcsw_kop), "ivcsw_kop",
			 tg_fig(tg, TG_HAVE_CSW, tg->ivcsw_kop), "run_delay_pct",
			 tg_fig(tg, TG_HAVE_RUN_DELAY, tg->run_delay_pct), "machine_pct",
			 tg_fig(tg, TG_HAVE_CPU, tg->machine_pct), "ops_per_cpu_s",
			 tg_fig(tg, TG_HAVE_OPS_CPU, tg->ops_per_cpu_s), "psi_some_pct",
			 tg_fig(tg, TG_HAVE_PSI, tg->psi_some_pct));
}

/* Text as JSON can hold it: a probe's label or a spec may be in any encoding. */
static json_t *
text_json(const char *s, size_t size)
{
	char buf[TARGET_SPEC_LEN];
	size_t max = size < sizeof(buf) ? size : sizeof(buf);

	snprintf(buf, max, "%.*s", (int)(max - 1), s);
	utf8_scrub(buf);
	return json_string(buf);
}

/* One line of the profile; a line of an unknown family or state is the model's bug. */
static json_t *
wait_json(const struct wait_share *w)
{
	if ((unsigned)w->family >= WAIT_NFAMILIES || (unsigned)w->state >= WS_NSTATES)
		return NULL;
	return json_pack("{s:s, s:s, s:o, s:o, s:o}", "family", wait_family_names[w->family],
			 "state", wait_state_names[w->state], "channel",
			 w->channel[0] != '\0' ? text_json(w->channel, sizeof(w->channel))
					       : json_null(),
			 "share", isfinite(w->share) ? json_real(w->share) : json_null(),
			 "readings", w->readings > 0 ? json_integer(w->readings) : json_null());
}

json_t *
session_json_waits(const struct step *st)
{
	return session_json_wait_list(st->waits, st->nwaits);
}

json_t *
session_json_wait_list(const struct wait_share *w, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a != NULL && i < n; i++) {
		if (json_array_append_new(a, wait_json(&w[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* A list of strings, or NULL when it is empty (the member is then left out). */
json_t *
session_json_probe_join(const struct probe_join *j)
{
	if (j->lines <= 0)
		return NULL;
	return json_pack("{s:i, s:i, s:i, s:i, s:f}", "lines", j->lines, "joined", j->joined,
			 "unjoined", j->lines - j->joined, "threads", j->threads, "thread_s",
			 j->thread_s);
}

static json_t *
spec_list(const char (*spec)[TARGET_SPEC_LEN], int n)
{
	json_t *a;
	int i;

	if (n <= 0 || (a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (json_array_append_new(a, text_json(spec[i], TARGET_SPEC_LEN)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int
session_json_settings_specs(json_t *settings, const struct sweep_settings *set)
{
	json_t *v;

	if (settings == NULL)
		return -1;
	if (set->ntargets > 0) {
		if ((v = spec_list(set->target, set->ntargets)) == NULL ||
		    json_object_set_new(settings, "target", v) != 0)
			return -1;
	}
	if (set->nprobes > 0) {
		if ((v = spec_list(set->probe, set->nprobes)) == NULL ||
		    json_object_set_new(settings, "probe", v) != 0)
			return -1;
	}
	return 0;
}

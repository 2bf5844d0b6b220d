/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The few operations on the app state that several layers share: the
 * one-line message, saving the preferences, the analysis of the sweep, and
 * which session is on screen.  They change only what they name.
 */
#include <stdarg.h>
#include <stdio.h>

#include "scaletop/error.h"
#include "app.h"
#include "prefs.h"
#include "replay.h"

void
app_message(struct app *a, bool bad, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->ui.msg, sizeof(a->ui.msg), fmt, ap);
	va_end(ap);
	a->ui.msg_bad = bad;
	a->ui.msg_until = ui_now() + 6;
}

void
app_save_prefs(struct app *a)
{
	struct prefs p;
	char err[ST_ERRLEN];

	prefs_load(&p, err, sizeof(err)); /* what the TUI does not change (autosave) stays */
	snprintf(p.theme, sizeof(p.theme), "%s", a->ui.theme);
	p.interval_s = a->ui.refresh_s;
	if (a->s != NULL && workload_find(a->s->wl.name) != NULL) /* none in a replay */
		snprintf(p.workload, sizeof(p.workload), "%s", a->s->wl.name);
	if (prefs_save(&p, err, sizeof(err)) != 0)
		app_message(a, true, "%s", err);
}

void
app_analyse(struct app *a)
{
	struct analysis_opts o;

	if (a->have_an)
		analysis_free(&a->an);
	analysis_opts_for(a->s, &o); /* as the table at q judges it: one verdict */
	a->have_an = analysis_run(a->s, &o, &a->an) == 0;
	if (a->have_an && a->an.collapse && !a->collapse_seen) {
		a->collapse_seen = true;
		a->flash_until = ui_now() + 10;
		session_add_event(a->s, -1, EV_COLLAPSE, session_time(a->s, mono_now_ns()), "%s",
				  a->an.verdict);
	}
}

struct session *
app_tick_session(struct app *a)
{
	return a->live_s != NULL ? a->live_s : a->s;
}

const struct session *
app_shown_session(const struct app *a)
{
	return a->rp != NULL ? replay_view(a->rp) : a->s;
}

bool
app_sweeping(const struct app *a)
{
	return a->sw != NULL && a->live_s == NULL && !sweep_finished(a->sw);
}

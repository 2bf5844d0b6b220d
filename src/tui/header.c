/* SPDX-License-Identifier: BSD-2-Clause */
/* The header: what machine, what workload, where the sweep is, how often we redraw. */
#include <stdio.h>
#include <string.h>

#include "ui.h"

/* "kind=ticket hold=100", or the external command line. */
static void
header_workload(const struct session *s, char *buf, size_t len)
{
	int i;
	size_t off = 0;

	buf[0] = '\0';
	if (s->wl.name[0] == '\0') {
		snprintf(buf, len, "no workload (monitoring)");
		return;
	}
	off += (size_t)snprintf(buf, len, "%s", s->wl.name);
	for (i = 0; s->wl.argv != NULL && s->wl.argv[i] != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : ": ",
					s->wl.argv[i]);
	for (i = 0; i < s->wl.nparams && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %s=%s", s->wl.key[i],
					s->wl.value[i]);
}

/* The steps a stopped sweep cut short (the last one's N in *n): done steps are the rest. */
static int
header_cut_steps(const struct session *s, int *n)
{
	int i, k = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].status == STEP_INTERRUPTED)
			k++, *n = s->steps[i].n;
	}
	return k;
}

/*
 * " trial 2/3" while a sweep of several trials runs a step, and " refined"
 * while the step's N is one --refine chose; else "".
 */
static void
header_trial(const struct frame *f, char *buf, size_t len)
{
	const struct step *st;
	char tr[32] = "";

	buf[0] = '\0';
	if (f->step < 0 || f->phase == PHASE_DONE || f->step >= f->s->nsteps)
		return;
	st = &f->s->steps[f->step];
	if (f->s->set.trials > 1)
		snprintf(tr, sizeof(tr), " trial %d/%d", st->trial + 1, f->s->set.trials);
	snprintf(buf, len, "%s%s", tr, st->refined ? " refined" : "");
}

static void
header_state(const struct frame *f, char *buf, size_t len)
{
	int el = (int)f->t, cut, cut_n = 0, done;
	char trial[48];

	header_trial(f, trial, sizeof(trial));
	if (f->live_n)
		snprintf(buf, len, "live N=%d %s %.1fs (outside a sweep: +/- N, x stop)", f->run_n,
			 sweep_phase_names[f->phase], f->phase_s);
	else if (f->step >= 0 && f->step_held) /* stopped: its time is not measured time */
		snprintf(buf, len, "step %d/%d N=%d%s paused after %s %.1fs", f->step + 1,
			 f->steps_total, f->run_n, trial, sweep_phase_names[f->phase], f->phase_s);
	else if (f->step >= 0 && f->phase != PHASE_DONE)
		snprintf(buf, len, "step %d/%d N=%d%s %s %.1fs", f->step + 1, f->steps_total,
			 f->run_n, trial, sweep_phase_names[f->phase], f->phase_s);
	else if (f->held && f->phase != PHASE_DONE)
		snprintf(buf, len, "paused before step %d/%d", f->s->nsteps + 1, f->steps_total);
	else if (f->s->nsteps > 0 && (cut = header_cut_steps(f->s, &cut_n)) > 0) {
		done = f->s->nsteps - cut;
		snprintf(buf, len, "sweep stopped: %d step%s done, N=%d interrupted", done,
			 done == 1 ? "" : "s", cut_n);
	} else if (f->s->nsteps > 0)
		snprintf(buf, len, "sweep done: %d step%s", f->s->nsteps,
			 f->s->nsteps == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s", f->replay ? "no step yet" : "idle: r runs the sweep");
	len -= strlen(buf);
	snprintf(buf + strlen(buf), len, "  elapsed %d:%02d", el / 60, el % 60);
}

void
header_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct session *s = f->s;
	const struct host_info *h = &s->host;
	char wl[512], st[160];
	int x = r.x;

	ui_fill((struct rect){ r.y, r.x, 1, r.w }, theme_attr(ROLE_TITLE) | A_REVERSE);
	x += ui_put(r.y, x, r.w, theme_attr(ROLE_TITLE) | A_REVERSE, " scaletop ");
	x += ui_putf(r.y, x, r.x + r.w - x, theme_attr(ROLE_MAIN) | A_REVERSE,
		     " %s  %s %s %s  %s  %d CPUs  refresh %gs ", h->hostname, h->os_name,
		     h->os_release, h->os_version, h->platform, h->ncpus, u->refresh_s);
	if (u->paused || f->held)
		ui_put(r.y, r.x + r.w - 8, 8, theme_attr(ROLE_WARNING) | A_REVERSE, " PAUSED ");
	if (u->recording) /* before PAUSED's place, so both show */
		ui_put(r.y, r.x + r.w - 14, 5, theme_attr(ROLE_VERDICT_BAD) | A_REVERSE, " REC ");
	if (r.h < 2)
		return;
	header_workload(s, wl, sizeof(wl));
	header_state(f, st, sizeof(st));
	x = r.x + ui_putf(r.y + 1, r.x, r.w, theme_attr(ROLE_HI), " %s", wl);
	if (s->wl.name[0] != '\0')
		x += ui_putf(r.y + 1, x, r.x + r.w - x, theme_attr(ROLE_INACTIVE), "  %s",
			     s->set.mode == MODE_PROCESSES ? "processes" : "threads");
	x += ui_putf(r.y + 1, x, r.x + r.w - x, theme_attr(ROLE_MAIN), "  %s", st);
	if (u->src_label[0] != '\0')
		ui_putf(r.y + 1, x, r.x + r.w - x, theme_attr(ROLE_INACTIVE), "  %s", u->src_label);
}

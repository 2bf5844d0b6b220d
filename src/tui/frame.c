/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The model at this moment as the views want it (struct frame), from the
 * running sweep, the idle sampler or the replay, and the one place a frame
 * is drawn.  Nothing here changes what runs.
 */
#include <string.h>

#include "app.h"
#include "replay.h"

static const struct tick *
frame_hist_at(void *ctx, int i)
{
	return series_at(ctx, i);
}

static void
frame_sweep(struct app *a, struct frame *f)
{
	const struct sweep_live *lv = sweep_live(a->sw);
	const struct session *ts = app_tick_session(a);

	f->sweeping = true;
	f->live_n = a->live_s != NULL;
	f->phase = lv->phase;
	f->held = lv->paused;
	f->step_held = lv->held;
	f->live_ct = lv->have_ct ? &lv->ct : NULL;
	f->live_waits = lv->waits;
	f->nlive_waits = lv->nwaits;
	f->step = lv->step;
	f->steps_total = lv->steps_total;
	f->phase_s = lv->phase_s;
	f->rate = lv->rate;
	f->have_rate = lv->have_rate;
	f->run_n = lv->step >= 0 && lv->step < ts->nsteps ? ts->steps[lv->step].n : 0;
	if (lv->have_cpu) {
		f->cpu = lv->cpu.cpu;
		f->ncpu = lv->cpu.ncpu;
		f->all = lv->cpu.all;
		f->have_cpu = true;
	}
}

static void
frame_build(struct app *a, struct frame *f)
{
	struct session *ts = app_tick_session(a);

	memset(f, 0, sizeof(*f));
	if (a->rp != NULL) {
		replay_frame(a->rp, f, a->ui.src_label, sizeof(a->ui.src_label));
		return;
	}
	f->s = a->s;
	f->an = a->have_an ? &a->an : NULL;
	f->step = -1;
	f->phase = a->s->nsteps > 0 ? PHASE_DONE : PHASE_IDLE;
	f->t = a->s->t0_ns != 0 ? session_time(a->s, mono_now_ns()) : 0;
	f->hist_len = series_len(&ts->ticks);
	f->hist_at = frame_hist_at;
	f->hist_ctx = &ts->ticks;
	if (a->sw != NULL && !sweep_finished(a->sw)) {
		frame_sweep(a, f);
	} else if (a->idle.have) {
		f->cpu = a->idle.d.cpu;
		f->ncpu = a->idle.d.ncpu;
		f->all = a->idle.d.all;
		f->have_cpu = true;
	}
}

void
app_redraw(struct app *a)
{
	struct frame f;

	a->ui.collapse_flash = ui_now() < a->flash_until;
	/* the rows this frame shows: the title, a header, then them */
	if (ui_view(&a->ui) == &view_history && a->ui.hist != NULL)
		history_fill(a->ui.hist, LINES - 6);
	frame_build(a, &f);
	ui_draw(&a->ui, &f, &a->hits);
	a->last_draw = ui_now();
}

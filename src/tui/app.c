/*
 * The TUI's loop glue.  One event loop (the engine's) carries everything:
 * the terminal's input fd, the sweep's tick (or, with no sweep, an idle
 * tick at the refresh interval), and signals.  Nothing polls: the screen
 * is redrawn when a tick or a key says something changed, so an idle TUI
 * sleeps in poll(2) and a key is answered as soon as it arrives.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/crash_guard.h"
#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/pgroup.h"
#include "scaletop/prefs.h"
#include "scaletop/step_table.h"
#include "scaletop/workload.h"
#include "app.h"

static const struct tick *
app_hist_at(void *ctx, int i)
{
	return series_at(ctx, i);
}

/* The session that holds the tick series: the live run's while one runs. */
static struct session *
app_tick_session(struct app *a)
{
	return a->live_s != NULL ? a->live_s : a->s;
}

static void
app_frame_sweep(struct app *a, struct frame *f)
{
	const struct sweep_live *lv = sweep_live(a->sw);
	const struct session *ts = app_tick_session(a);

	f->sweeping = true;
	f->live_n = a->live_s != NULL;
	f->phase = lv->phase;
	f->held = lv->paused;
	f->live_ct = lv->have_ct ? &lv->ct : NULL;
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
app_frame(struct app *a, struct frame *f)
{
	struct session *ts = app_tick_session(a);

	memset(f, 0, sizeof(*f));
	if (a->rp != NULL) {
		replay_frame(a, f);
		return;
	}
	f->s = a->s;
	f->an = a->have_an ? &a->an : NULL;
	f->step = -1;
	f->phase = a->s->nsteps > 0 ? PHASE_DONE : PHASE_IDLE;
	f->t = a->s->t0_ns != 0 ? session_time(a->s, mono_now_ns()) : 0;
	f->hist_len = series_len(&ts->ticks);
	f->hist_at = app_hist_at;
	f->hist_ctx = &ts->ticks;
	if (a->sw != NULL && !sweep_finished(a->sw)) {
		app_frame_sweep(a, f);
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
	app_frame(a, &f);
	ui_draw(&a->ui, &f);
	a->last_draw = ui_now();
}

/* Theme, refresh and workload are kept for the next start; a failure is only a message. */
void
app_save_prefs(struct app *a)
{
	struct prefs p;
	char err[ST_ERRLEN];

	prefs_defaults(&p);
	snprintf(p.theme, sizeof(p.theme), "%s", a->ui.theme);
	p.interval_s = a->ui.refresh_s;
	if (workload_find(a->s->wl.name) != NULL)
		snprintf(p.workload, sizeof(p.workload), "%s", a->s->wl.name);
	if (prefs_save(&p, err, sizeof(err)) != 0)
		app_message(a, true, "%s", err);
}

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

/* Re-analyses the sweep; the first collapse is highlighted and logged. */
void
app_analyse(struct app *a)
{
	struct analysis_opts o;

	if (a->have_an)
		analysis_free(&a->an);
	analysis_opts_default(&o);
	o.n_unit = a->s->wl.n_unit[0] ? a->s->wl.n_unit : NULL;
	a->have_an = analysis_run(a->s, &o, &a->an) == 0;
	if (a->have_an && a->an.collapse && !a->collapse_seen) {
		a->collapse_seen = true;
		a->flash_until = ui_now() + 10;
		session_add_event(a->s, -1, EV_COLLAPSE, session_time(a->s, mono_now_ns()), "%s",
				  a->an.verdict);
	}
}

static void
app_idle_tick(struct loop *l, uint64_t now, uint64_t missed, void *arg)
{
	struct app *a = arg;

	control_reap(a);
	idle_tick(&a->idle, app_tick_session(a), now);
	if (!a->ui.paused)
		app_redraw(a);
}

/* The refresh interval drives the idle tick; a sweep ticks at its own interval. */
void
app_set_refresh(struct app *a, double s)
{
	a->ui.refresh_s = s;
	if (a->rp == NULL && (a->sw == NULL || sweep_finished(a->sw)))
		loop_set_tick(a->loop, (uint64_t)(s * 1e9), app_idle_tick, a);
}

/* The sweep's observer: analysis when a step ends, a redraw at most once per refresh. */
void
app_observe(void *arg, enum sweep_note note, int step)
{
	struct app *a = arg;

	if (note == SWEEP_STEP_DONE && a->live_s == NULL)
		app_analyse(a);
	if (note == SWEEP_FINISHED && !a->quit && !a->switching) {
		if (sweep_live(a->sw)->have_cpu)
			idle_adopt(&a->idle, &sweep_live(a->sw)->cpu);
		else
			idle_reset(&a->idle);
		app_set_refresh(a, a->ui.refresh_s);
		if (a->live_s == NULL)
			app_message(a, false, "sweep finished: r runs it again, s saves a snapshot");
	}
	if (a->quit || a->ui.paused || (note == SWEEP_TICK && ui_now() - a->last_draw < a->ui.refresh_s - 0.02))
		return;
	app_redraw(a);
}

static void
app_on_signal(struct loop *l, int signo, void *arg)
{
	struct app *a = arg;
	struct winsize ws;

	if (signo == SIGWINCH) {
		/* Resize from the real size; a storm just redraws a few extra times. */
		if (ioctl(a->tty != NULL ? fileno(a->tty) : STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
		    ws.ws_row > 0 && ws.ws_col > 0)
			resizeterm(ws.ws_row, ws.ws_col);
		app_redraw(a);
		return;
	}
	a->status = 128 + signo;
	a->quit = true;
	loop_quit(l);
}

/* Keys and mouse; a closed terminal (hang-up, EOF, EIO) ends the TUI like SIGHUP. */
static void
app_on_input(struct loop *l, int fd, short revents, void *arg)
{
	struct app *a = arg;
	int ch, got = 0;

	while (!a->quit && (ch = getch()) != ERR) {
		input_key(a, ch);
		got++;
	}
	if (got == 0 && (revents & (POLLHUP | POLLERR | POLLNVAL | POLLIN))) {
		a->status = 128 + SIGHUP;
		a->quit = true;
	}
	if (a->quit)
		loop_quit(l);
	else
		app_redraw(a);
}

/* --- start and end --------------------------------------------------------- */

static SCREEN *app_screen;

/* On a crash of the monitor itself: give the terminal back before dying. */
static void
app_crash_restore(void)
{
	if (app_screen != NULL)
		endwin();
}

static int
app_term_open(struct app *a, char *err, size_t errlen)
{
	FILE *in = stdin, *out = stdout;

	if (a->opts.replay != NULL && strcmp(a->opts.replay, "-") == 0) {
		a->tty = fopen("/dev/tty", "r+");
		if (a->tty == NULL)
			return st_error(err, errlen, "cannot open /dev/tty for the keyboard: %s",
					strerror(errno));
		in = out = a->tty;
	}
	app_screen = newterm(NULL, out, in);
	if (app_screen == NULL)
		return st_error(err, errlen, "terminal type '%s' is unknown to ncurses: set TERM, "
				"or use 'scaletop run' for a headless sweep",
				getenv("TERM") ? getenv("TERM") : "");
	crash_guard_hook = app_crash_restore;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	return 0;
}

static int
app_theme(struct app *a, char *err, size_t errlen)
{
	const char *name = a->opts.theme != NULL ? a->opts.theme : "default";

	snprintf(a->ui.theme, sizeof(a->ui.theme), "%s", name);
	return theme_use(name, err, errlen);
}

static int
app_init(struct app *a, char *err, size_t errlen)
{
	if (app_term_open(a, err, errlen) != 0 || app_theme(a, err, errlen) != 0)
		return -1;
	a->loop = loop_new(err, errlen);
	if (a->loop == NULL)
		return -1;
	if (a->opts.fake_cpus == 0 && (a->smp = sampler_open(err, errlen)) == NULL)
		return -1;
	idle_init(&a->idle, a->smp, a->opts.fake_cpus);
	a->ui.note = a->smp != NULL ? sampler_note(a->smp) : NULL;
	loop_catch_signal(a->loop, SIGINT, app_on_signal, a);
	loop_catch_signal(a->loop, SIGTERM, app_on_signal, a);
	loop_catch_signal(a->loop, SIGHUP, app_on_signal, a);
	loop_catch_signal(a->loop, SIGWINCH, app_on_signal, a);
	return loop_add_fd(a->loop, a->tty != NULL ? fileno(a->tty) : STDIN_FILENO, POLLIN,
			   app_on_input, a);
}

/* What the user chose to start with: a replay, a sweep, or monitoring. */
static int
app_begin(struct app *a, char *err, size_t errlen)
{
	if (a->opts.replay != NULL)
		return replay_open(a, a->opts.replay, err, errlen);
	if (control_new_session(a) != 0)
		return st_error(err, errlen, "out of memory");
	if (host_info_read(&a->s->host, err, errlen) != 0)
		return -1;
	for (int i = 0; i < a->opts.noverlay; i++)
		snap_open(a, a->opts.overlay[i]);
	app_set_refresh(a, a->ui.refresh_s);
	if (!a->opts.monitor && control_start_sweep(a) != 0)
		return -1;
	return 0;
}

/* After the screen is gone: the results stay in the scrollback. */
static void
app_summary(struct app *a)
{
	if (a->rp != NULL || a->s == NULL || a->s->nsteps == 0)
		return;
	step_table_print(stdout, a->s);
	if (a->have_an && a->an.verdict[0] != '\0')
		printf("verdict: %s\n", a->an.verdict);
	fflush(stdout);
}

static void
app_end(struct app *a)
{
	a->quit = true;
	control_stop(a, "the TUI was closed");
	control_reap(a);
	pgroup_kill_all(SIGKILL);
	if (app_screen != NULL) {
		endwin();
		delscreen(app_screen);
		app_screen = NULL;
	}
	crash_guard_hook = NULL;
	if (a->tty != NULL)
		fclose(a->tty);
	app_summary(a);
	snap_clear(a);
	replay_free(a);
	if (a->have_an)
		analysis_free(&a->an);
	if (a->s != NULL) {
		session_free(a->s);
		free(a->s);
	}
	idle_free(&a->idle);
	loop_free(a->loop);
	sampler_close(a->smp);
}

int
tui_main(struct run_args *args, const struct tui_opts *o)
{
	struct app a;
	char err[ST_ERRLEN] = "";
	int rc;

	memset(&a, 0, sizeof(a));
	a.opts = *o;
	a.args = *args;
	a.ui.sel_step = -1;
	a.ui.refresh_s = o->refresh_s > 0 ? o->refresh_s : 1.0;
	setlocale(LC_ALL, "");
	glyph_init(!o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	rc = app_init(&a, err, sizeof(err));
	if (rc == 0)
		rc = app_begin(&a, err, sizeof(err));
	if (rc == 0) {
		app_redraw(&a);
		rc = loop_run(a.loop, err, sizeof(err));
	}
	app_end(&a);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return EXIT_RUNTIME;
	}
	return a.status;
}

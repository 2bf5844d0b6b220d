/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TUI's loop glue: start, end, the terminal, signals and the input fd.
 * One event loop (the engine's) carries everything: the terminal's input
 * fd, the sweep's tick (or, with no sweep, an idle tick at the refresh
 * interval: sweeps.c), the replay's (playback.c), and signals.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
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
#include "scaletop/step_table.h"
#include "app.h"

/*
 * Nothing polls: the screen is redrawn when a tick or a key says something
 * changed, so an idle TUI sleeps in poll(2) and a key is answered as soon as
 * it arrives. app.h says how the rest of the TUI is layered.
 */

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
		return st_error(err, errlen,
				"terminal type '%s' is unknown to ncurses: set TERM, "
				"or use 'scaletop run' for a headless sweep",
				getenv("TERM") ? getenv("TERM") : "");
	crash_guard_hook = app_crash_restore;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* Clicks and the wheel (buttons 4 and 5 pressed); no motion reports. */
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	return 0;
}

/*
 * A theme never stops the start, as btop falls back to its default: a bad
 * line costs its key, a theme that cannot be found or read costs the
 * theme, and either is said on the message line (with the config file's
 * own warning, if it had one).
 */
static void
app_theme(struct app *a)
{
	const char *name = a->opts.theme != NULL ? a->opts.theme : "default";
	const char *cfg = a->opts.warn != NULL ? a->opts.warn : "";
	char err[ST_ERRLEN];
	int rc = theme_use(name, err, sizeof(err));

	if (rc < 0) {
		theme_use("default", NULL, 0);
		app_message(a, true, "using the default theme: %s%s%s", err, *cfg ? " | " : "",
			    cfg);
		name = "default";
	} else if (rc > 0)
		app_message(a, true, "%s%s%s", err, *cfg ? " | " : "", cfg);
	else if (*cfg)
		app_message(a, true, "%s", cfg);
	snprintf(a->ui.theme, sizeof(a->ui.theme), "%s", name);
}

static int
app_init(struct app *a, char *err, size_t errlen)
{
	if (app_term_open(a, err, errlen) != 0)
		return -1;
	app_theme(a);
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
	int i;

	if (a->opts.replay != NULL)
		return playback_open(a, a->opts.replay, err, errlen);
	if (sweeps_new_session(a) != 0)
		return st_error(err, errlen, "out of memory");
	/* the fingerprint (15 kB, some 40 files) is read when the first sweep starts */
	if (host_info_read_id(&a->s->host, err, errlen) != 0)
		return -1;
	a->host = a->s->host;
	for (i = 0; i < a->opts.noverlay; i++)
		snap_open(a, a->opts.overlay[i]);
	sweeps_set_refresh(a, a->ui.refresh_s);
	if (a->args.view.record != NULL &&
	    record_open(a, a->args.view.record, a->args.view.record_force, err, errlen) != 0)
		return -1;
	if (!a->opts.monitor && sweeps_start(a) != 0)
		return -1;
	return 0;
}

/* After the screen is gone: the results stay in the scrollback. */
static void
app_summary(struct app *a)
{
	if (a->rp != NULL || a->s == NULL || a->s->nsteps == 0)
		return;
	step_table_print(stdout, a->s); /* with the verdict, once, above the fit */
	fflush(stdout);
}

static void
app_end(struct app *a)
{
	a->quit = true;
	sweeps_stop(a, "the TUI was closed");
	sweeps_reap(a);
	keep_run(a); /* a finished sweep whose keep failed is tried once more */
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
	record_at_exit(a);
	if (snap_save_at_exit(a) != 0 && a->status == 0)
		a->status = EXIT_RUNTIME;
	if (a->keep.failed) { /* the last word, after the screen's last bytes and the table */
		fflush(stdout);
		fprintf(stderr, "%s: %s; its results are printed above\n", progname, a->keep.err);
	}
	if (a->ui.hist != NULL)
		history_free(a->ui.hist);
	free(a->ui.hist);
	free(a->ui.tp);
	snap_clear(a);
	playback_free(a);
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
	a.ui.autosave = !o->no_autosave;
	setlocale(LC_ALL, "");
	glyph_init(!o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0 &&
		   glyph_term_unicode(getenv("TERM")));
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

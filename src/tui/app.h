/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: the application state, and who may change what.
 */
#ifndef SCALETOP_TUI_APP_H
#define SCALETOP_TUI_APP_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "scaletop/error.h"
#include "scaletop/host.h"

#include "scaletop/loop.h"
#include "scaletop/platform.h"
#include "scaletop/run_args.h"
#include "scaletop/sweep.h"
#include "scaletop/tui.h"
#include "scaletop/workload.h"
#include "commands.h"
#include "idle.h"
#include "ui.h"
#include "views.h"

/*
 * The TUI is layered, and calls only go down this list:
 *   args.c       the command lines: `scaletop tui`, replay, view (options only)
 *   app.c        the loop glue: start, end, terminal, signals, the input fd
 *   input.c      a key or click -> a command (commands.h), from keymap.c's
 *                table and the view's own keys; reads the state only
 *   commands.c   runs one command by its handler (commands_prompts.c: the
 *                prompts' answers and the runs view's commands)
 *   sweeps.c     what runs (the sweep, the live N), its ticks and observer;
 *   rerun.c      an opened kept run's options become what r runs;
 *   playback.c   the replay's place in the loop; snapshots.c: s and o
 *   keep.c       keeps the sweep in the runs directory before it can be lost
 *   record.c     --record and W: the sweep into a stream
 *   frame.c      the frame the views draw, and when to draw it
 *   state.c      the small shared operations on the state (messages, prefs,
 *                analysis)
 *   replay.c     a recorded run (knows nothing of struct app)
 *   the views    (layout.c, views.c's table, a file per view and per panel)
 *                read a frame and struct ui; a view's enter op alone writes
 *                its own state (the runs view's list)
 *
 * Ownership of the fields: sweeps.c writes s, sw, live_s, live_n, switching
 * and args' strings (nspec, wl_name, params), which rerun.c also writes
 * (with args and rerun) when a kept run is opened; state.c writes an, have_an,
 * collapse_seen, flash_until and the message; playback.c sets rp; commands*.c
 * writes the view state in ui (view, help, sel_step, detail, theme, prompt,
 * and the history list through history.c, which frame.c also fills) and
 * quit; keep.c writes keep; record.c writes rec, rec_* and ui.recording;
 * app.c everything else (loop, smp, tty, status, host).  Everyone else
 * reads.
 */

struct replay;

struct app {
	struct ui ui;
	struct ui_hits hits; /* where the last frame put clickable things */
	struct tui_opts opts;
	struct loop *loop;
	struct sampler *smp;
	struct idle idle;
	struct session *s;      /* the sweep's session (what snapshots save); owned */
	struct sweep *sw;       /* the running sweep or live run, NULL if none */
	struct session *live_s; /* +/-: the live run's own session, or NULL */
	int live_n;             /* its N */
	bool switching;         /* a sweep is being replaced: its end is not an idle start */
	bool have_fp;           /* host has its fingerprint (read when the first sweep starts) */
	struct analysis an;
	bool have_an;
	bool collapse_seen;
	double flash_until;
	double last_draw;
	bool quit;
	int status; /* exit status */

	/* What r runs: run-style options, with editable copies the strings point into. */
	struct run_args args;
	char nspec[256];
	char wl_name[64];
	char params[2048]; /* "k=v k=v", split into param_ptr */
	char *param_ptr[WL_MAX_PARAMS];
	/* rerun.c: the rest of an opened kept run's options, and why r cannot run it. */
	struct {
		char cmd[4096], parse[32], ops[256];
		char probe[SESSION_MAX_PROBES][TARGET_SPEC_LEN];
		char target[SESSION_MAX_TARGETS][TARGET_SPEC_LEN];
		char why[ST_ERRLEN]; /* "" when r can run the session on screen again */
		bool told;           /* r said why once: the next r runs the options as they are */
	} rerun;

	struct replay *rp;    /* replay source, or NULL */
	char snap_path[1024]; /* s: the name awaiting an overwrite answer */
	/* record.c: --record and W, the sweep's session into a stream. */
	struct recorder *rec;  /* NULL when not recording */
	char rec_path[1024];   /* its file (or the name awaiting an overwrite answer) */
	bool rec_attached;     /* its header is written: it follows a->s */
	int rec_steps;         /* steps of a->s written */
	int rec_events;        /* events of a->s written */
	size_t snap_tick;      /* s in a replay: the tick it saves up to */
	FILE *tty;             /* /dev/tty when standard input carries a stream */
	struct host_info host; /* this machine, for the sessions r starts */

	/* keep.c: where s is kept, and what of it was (so a keep is redone only for news). */
	struct {
		const struct session *s; /* the session kept; another one is not kept yet */
		time_t born;             /* when it began: the file's name */
		char path[4096];         /* "" until its first keep */
		int nsteps, nevents;     /* what it held when kept */
		bool failed;             /* the last keep failed; err says why */
		bool may_drop; /* ... and the user was told so by keep_holds, or saved it */
		char err[ST_ERRLEN];
	} keep;
};

/* input.c: one key (or KEY_MOUSE) from the terminal. */
void input_key(struct app *a, int ch);
/* What a mouse event means where the last frame drew things. */
struct command input_mouse_event(const struct app *a, const MEVENT *ev);
/* Every key code the tables bind (repeats included) into out; how many. */
int input_bound_keys(int *out, int max);

/* commands.c: runs one command, by its handler in the command table. */
void command_run(struct app *a, const struct command *c);
/* The command table has a handler for id. */
bool command_known(enum command_id id);
/* commands_prompts.c: a key for the open prompt; the runs view's commands. */
void commands_prompt_key(struct app *a, const struct command *c);
void commands_hist(struct app *a, const struct command *c);

/* sweeps.c: sweeps, the live N, and the session they write. */
int sweeps_start(struct app *a);
void sweeps_stop(struct app *a, const char *why);
void sweeps_live(struct app *a, int n);
/* Frees a sweep that has finished (at idle ticks, and at the end). */
void sweeps_reap(struct app *a);
int sweeps_set_nlist(struct app *a, const char *spec);
int sweeps_set_workload(struct app *a, const char *name, const char *params);
/* A fresh session with the current settings (keeps the tick series); 0 or -1. */
int sweeps_new_session(struct app *a);
/* The refresh interval; with nothing running it drives the idle tick. */
void sweeps_set_refresh(struct app *a, double s);

/* playback.c: replay FILE.jsonl and view -. */
int playback_open(struct app *a, const char *path, char *err, size_t errlen);
void playback_free(struct app *a);

/* snapshots.c: s and o. */
void snap_save_prompt(struct app *a);
void snap_save(struct app *a, const char *path, bool overwrite);
void snap_open(struct app *a, const char *path);
void snap_clear(struct app *a);
/* -o FILE: the sweep's session at exit, after the screen is gone; 0, or -1 said on stderr. */
int snap_save_at_exit(struct app *a);

/* record.c: --record and W. */
/* Opens path (replacing it only with force); follows the sweep now, or the next one. */
int record_open(struct app *a, const char *path, bool force, char *err, size_t errlen);
/* A sweep started on a->s: a recording waiting for one follows it. */
void record_sweep_started(struct app *a);
/* From the sweep's observer: ticks, finished steps with the analysis, events. */
void record_observe(struct app *a, enum sweep_note note, int step);
/* a->s is about to be replaced: a recording that follows it ends. */
void record_session_ends(struct app *a);
/* Ends the recording (the end line), saying so in the message line. */
void record_stop(struct app *a, const char *why);
/* At exit, after the screen is gone: ends it and says so on stderr. */
void record_at_exit(struct app *a);
/* W: stops the recording, or asks for a file name. */
void record_prompt(struct app *a);
void record_prompt_done(struct app *a, const char *path, bool overwrite);

/*
 * Enter in the history view: the kept run becomes the session on screen,
 * and its options what r runs; msg says what r runs, or why it cannot.
 */
int sweeps_open_run(struct app *a, const char *path, char *msg, size_t len);

/*
 * rerun.c: s's workload, parameters, N list and settings into a->args (0),
 * or why not into a->rerun.why, the options left as they were (-1); msg
 * says which for the message line.
 */
int rerun_adopt(struct app *a, const struct session *s, char *msg, size_t len);
/* r on a session that cannot run again: true (and a message) the first time. */
bool rerun_holds(struct app *a);
/* A new session: nothing is held. */
void rerun_forget(struct app *a);
/* What the options run, for a message: "spinlock kind=ticket N=1,2". */
void rerun_describe(const struct run_args *ra, char *out, size_t len);

/*
 * keep.c: a new session starts unkept; keep_run saves it in the runs
 * directory when it holds a finished step and something new (0), and says
 * on the message line when it cannot (-1; a->keep.err).  Off with
 * --no-autosave or autosave = off: then it does nothing.
 */
void keep_reset(struct app *a);
int keep_run(struct app *a);
/* The session on screen came from path: it is kept as it is. */
void keep_adopt(struct app *a, const char *path);
/*
 * Before r, n or w drop a session that could not be kept: true (and a
 * message) the first time, so the user can save it with s; false when it
 * is kept now, was saved, or the user was told.
 */
bool keep_holds(struct app *a);

/* frame.c */
void app_redraw(struct app *a);

/* state.c */
void app_message(struct app *a, bool bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Theme, refresh and workload are kept for the next start; a failure is only a message. */
void app_save_prefs(struct app *a);
/* Re-analyses the sweep; the first collapse is highlighted and logged. */
void app_analyse(struct app *a);
/* The session that holds the tick series: the live run's while one runs. */
struct session *app_tick_session(struct app *a);
/* The steps on screen: the sweep's, or in a replay the recorded ones so far. */
const struct session *app_shown_session(const struct app *a);
/* A sweep (not a live N) is running. */
bool app_sweeping(const struct app *a);

#endif

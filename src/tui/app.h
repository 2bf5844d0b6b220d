/* Private to the TUI: the application state that app.c, input.c and control.c share. */
#ifndef SCALETOP_TUI_APP_H
#define SCALETOP_TUI_APP_H

#include <stdbool.h>

#include "scaletop/loop.h"
#include "scaletop/platform.h"
#include "scaletop/run_args.h"
#include "scaletop/sweep.h"
#include "scaletop/tui.h"
#include "scaletop/workload.h"
#include "idle.h"
#include "ui.h"

struct replay;

struct app {
	struct ui ui;
	struct tui_opts opts;
	struct loop *loop;
	struct sampler *smp;
	struct idle idle;
	struct session *s;        /* the sweep's session (what snapshots save); owned */
	struct sweep *sw;         /* the running sweep or live run, NULL if none */
	struct session *live_s;   /* +/-: the live run's own session, or NULL */
	int live_n;               /* its N */
	bool switching;           /* a sweep is being replaced: its end is not an idle start */
	struct analysis an;
	bool have_an;
	bool collapse_seen;
	double flash_until;
	double last_draw;
	bool quit;
	int status;               /* exit status */

	/* What r runs: run-style options, with editable copies the strings point into. */
	struct run_args args;
	char nspec[256];
	char wl_name[64];
	char params[512];         /* "k=v k=v", split into param_ptr */
	char *param_ptr[WL_MAX_PARAMS];

	struct replay *rp;        /* replay source, or NULL */
	char snap_path[1024];     /* s: the name awaiting an overwrite answer */
	FILE *tty;                /* /dev/tty when standard input carries a stream */
};

/* app.c */
void app_redraw(struct app *a);
void app_save_prefs(struct app *a);
void app_message(struct app *a, bool bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void app_analyse(struct app *a);
void app_set_refresh(struct app *a, double s);
/* The sweep observer, for every sweep the TUI starts. */
void app_observe(void *arg, enum sweep_note note, int step);

/* control.c: sweeps, the live N, and the session they write. */
int control_start_sweep(struct app *a);
void control_stop(struct app *a, const char *why);
void control_live(struct app *a, int n);
/* Called at idle ticks: frees a sweep that has finished. */
void control_reap(struct app *a);
int control_set_nlist(struct app *a, const char *spec);
int control_set_workload(struct app *a, const char *name, const char *params);
/* A fresh session with the current settings (keeps the tick series); 0 or -1. */
int control_new_session(struct app *a);

/* input.c */
void input_key(struct app *a, int ch);

/* snapshots.c: s and o, when the snapshot module is there. */
void snap_save_prompt(struct app *a);
void snap_save(struct app *a, const char *path, bool overwrite);
void snap_open(struct app *a, const char *path);
void snap_clear(struct app *a);

/* replay.c */
int replay_open(struct app *a, const char *path, char *err, size_t errlen);
void replay_free(struct app *a);
void replay_frame(struct app *a, struct frame *f);
void replay_key(struct app *a, int ch);
bool replay_active(const struct app *a);
/* The recorded session as far as the replay has got: what the views show. */
const struct session *replay_view(const struct app *a);

#endif

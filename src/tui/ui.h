/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: what every panel draws from.
 */
#ifndef SCALETOP_TUI_UI_H
#define SCALETOP_TUI_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/analysis.h"
#include "scaletop/runs.h"
#include "scaletop/session.h"
#include "scaletop/sweep.h"
#include "paint.h"
#include "theme_pick.h"

/*
 * A panel reads one frame (the model at one moment, live or replayed) and
 * the view state (const: views never change it), and draws into its rectangle of stdscr; the only
 * thing a panel writes is where it put clickable things (struct ui_hits).
 * frame.c builds the frame and decides when to draw; views.h lists the
 * views, each a layout of panels.
 */

struct rect {
	int y, x, h, w;
};

/* The model at one moment: everything a panel may show. */
struct frame {
	const struct session *s;   /* steps finished by this moment */
	const struct analysis *an; /* of s; NULL before the first step */
	bool sweeping;             /* a workload runs (a sweep or a live N) */
	bool live_n;               /* ... at one N outside a sweep (+/-) */
	bool replay;               /* a recorded run */
	bool held;                 /* the sweep is paused (space): its workload is stopped */
	bool step_held;            /* ... and the running step with it: phase_s stands still */
	enum sweep_phase phase;
	int step;  /* the running step's index in s, -1 if none */
	int run_n; /* its N (live_n: the live N), 0 if none */
	int steps_total;
	double phase_s, t; /* seconds into the phase; session seconds */
	double rate;       /* last interval's throughput */
	bool have_rate;
	const struct cpu_usage *cpu; /* this tick's per-CPU figures, ncpu of them */
	int ncpu;
	struct cpu_usage all;
	bool have_cpu;
	const struct contention *live_ct;    /* the running step's, NULL if not known */
	const struct wait_share *live_waits; /* its wait profile so far (waits.h) */
	int nlive_waits;
	/* The ticks up to this moment, 0 = oldest; at() returns NULL out of range. */
	int hist_len;
	const struct tick *(*hist_at)(void *ctx, int i);
	void *hist_ctx;
};

/* The live run is ROLE_OVERLAY1; snapshots take ROLE_OVERLAY2 .. 6. */
#define UI_MAX_OVERLAYS 5
/* A loaded snapshot's throughput curve, drawn under the live one. */
struct overlay {
	char label[64];
	int npts;
	int *n;    /* ascending; owned */
	double *x; /* pooled throughput at n[i]; owned */
};

/* Where the last frame put clickable things, for the mouse (input.c reads them). */
#define UI_MAX_HITS 256
struct ui_hit {
	int y, x0, x1; /* a row span */
	int step;      /* session step index; <= -2: the view tab -2 - step */
};
struct ui_hits {
	struct ui_hit hit[UI_MAX_HITS];
	int n;
	int list_rows;      /* the steps table's rows on screen (PgUp, PgDn), 0 none */
	int ev_y0, ev_rows; /* the event log's rows on screen (the wheel), 0 none */
	int help_pages;     /* the open help's pages */
};

/* An open one-line prompt (prompt.c). */
enum prompt_kind {
	PR_NONE,
	PR_NLIST,
	PR_WORKLOAD,
	PR_PARAMS,
	PR_SNAPSHOT,
	PR_OPEN,
	PR_CONFIRM_OVERWRITE,
	PR_CONFIRM_DELETE, /* the history view's D: y deletes the selected run */
	PR_RECORD,         /* W: the stream's file name */
	PR_CONFIRM_RECORD  /* ... which exists: y replaces it */
};
#define PR_IS_CONFIRM(k) \
	((k) == PR_CONFIRM_OVERWRITE || (k) == PR_CONFIRM_RECORD || (k) == PR_CONFIRM_DELETE)
struct prompt {
	enum prompt_kind kind;
	char label[96];
	char text[512];
	int len, cur;
	int pick; /* PR_WORKLOAD: highlighted row */
};

/* The history view's list of kept runs (history.c). */
enum history_move { HM_UP, HM_DOWN, HM_PGUP, HM_PGDN, HM_HOME, HM_END };
struct history {
	struct run_list l;
	char dir[4096];
	char err[ST_ERRLEN]; /* the directory could not be listed */
	int sel, top;        /* the selected row; the first row shown */
	int rows;            /* how many rows the last frame showed */
	int back;            /* where Esc and q go (a view's index, views.h) */
};

/* View state: what the user chose to look at. */
struct ui {
	int view; /* the view on screen: its index in views.h's table */
	bool help;
	int help_page; /* the help's page on screen (space turns it) */
	bool paused;   /* the display is frozen; the model keeps going */
	double refresh_s;
	char theme[64];
	int sel_step;   /* selected step (steps view, mouse), -1 none */
	int ev_back;    /* the event log scrolled back by this many from the newest */
	bool detail;    /* show the selected step's detail */
	bool chart_lat; /* the chart shows latency against N (L), not throughput */
	struct overlay ov[UI_MAX_OVERLAYS];
	int nov;
	char msg[256]; /* a one-line message under the verdict */
	bool msg_bad;
	double msg_until; /* monotonic seconds */
	struct prompt pr;
	bool collapse_flash; /* the verdict line is highlighted: a collapse was just found */
	const char *note;    /* sampler note, or NULL */
	char src_label[160]; /* replay: the file; an opened run: its file; live: "" */
	bool recording;      /* --record or W: the sweep goes into a stream (the header says so) */
	/* The theme picker (T), theme_pick.h: allocated when first opened (21 kB). */
	struct theme_pick *tp;
	bool autosave;        /* sweeps are kept (for the history view's note) */
	struct history *hist; /* the runs view's list: allocated when the view first opens */
};

/* Panels: each draws into r, which may be any size >= 1x1; those given h add hits. */
void header_draw(const struct ui *u, const struct frame *f, struct rect r);
void cpus_draw(const struct ui *u, const struct frame *f, struct rect r, bool with_heatmap);
int cpus_rows_wanted(const struct frame *f, int w);
void heatmap_draw(const struct ui *u, const struct frame *f, struct rect r);
void chart_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h);
/* N's place across dw dots from nmin to nmax, on a log2 scale when logx (the middle if one N). */
double chart_npos(double n, double nmin, double nmax, bool logx, int dw);
/* A plot's left edge: its top, middle (with a row for it) and bottom labels, and the axis. */
void chart_yaxis(struct rect plot, char lab[3][16]);
/* N's label centred at x under the plot, whole inside it and clear of the last (*lastx). */
void chart_xlabel(struct rect plot, int x, int n, int *lastx);
/* The chart in latency mode (chart_latency.c): p50 and p99 (or the tool's percentile) against N. */
void chart_latency_draw(const struct ui *u, const struct frame *f, struct rect r,
			struct ui_hits *h);
/* The chart's legend (chart_legend.c): the rows it needs at w, at most max; drawn in r. */
int chart_legend_rows(const struct ui *u, const struct frame *f, int w, int max);
void chart_legend_draw(const struct ui *u, const struct frame *f, struct rect r);
void sparkline_draw(const struct ui *u, const struct frame *f, struct rect r);
void contention_draw(const struct ui *u, const struct frame *f, struct rect r);
void verdict_draw(const struct ui *u, const struct frame *f, struct rect r);
void events_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h);
void steps_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h);
/* The selected step's detail's height: a title, five lines of figures and its reason. */
#define STEP_DETAIL_H 7
void step_detail_draw(const struct ui *u, const struct frame *f, struct rect r);
/* The detail's height over a view of body rows: STEP_DETAIL_H, and the latency's rows that fit. */
int step_detail_h(const struct ui *u, const struct frame *f, int body);
/*
 * A step's latency in its detail (step_latency.c): the rows it wants (a line
 * of figures, and the histogram's bars with their labels when it has
 * buckets; 0 when not measured), and drawn in r, whatever its height.
 */
int step_latency_rows(const struct step *st);
void step_latency_draw(const struct step *st, struct rect r);
void help_draw(const struct ui *u, struct rect screen, struct ui_hits *h);
/* The help has a line for this key code (the bound keys are held to it). */
bool help_lists_key(int key);
/* The first help line wider than its column at 80x24 (it would be cut), or NULL. */
const char *help_too_wide(void);
/* A heading whose column at w x h ends before two of its lines, or NULL (none may). */
const char *help_heading_cut(int w, int h);
void prompt_open(struct ui *u, enum prompt_kind kind, const char *label, const char *text);
/* 1: submitted, -1: cancelled, 0: still editing. */
int prompt_key(struct ui *u, int ch);
/* The workload picker, on current (a built-in's name; else the first). */
void prompt_pick_open(struct ui *u, const char *current);
void prompt_draw(const struct ui *u, struct rect screen);
void theme_pick_draw(const struct ui *u, struct rect screen);
void waits_draw(const struct ui *u, const struct frame *f, struct rect r);
/* history.c: the list's operations (commands_prompts.c, frame.c) and its view. */
void history_scan(struct history *h);
void history_fill(struct history *h, int rows);
void history_move(struct history *h, enum history_move m);
const struct run_entry *history_selected(const struct history *h);
int history_delete(struct history *h, char *err, size_t errlen);
void history_free(struct history *h);
void history_draw(const struct ui *u, const struct frame *f, struct rect r);
void footer_draw(const struct ui *u, const struct frame *f, struct rect r, struct ui_hits *h);

/*
 * The waits view's why panel (waits_why.c): at each N, the share of the
 * target's (else the workload's) CPU that spun in a lock and by whose
 * caller, and the hottest path; the rows it wants (0: no step was sampled).
 */
int waits_why_rows(const struct frame *f);
void waits_why_draw(const struct frame *f, struct rect r);

/*
 * The waits view's locks (waits_locks.c), from the lock census: whether any
 * step took one; at N, fam's top lock as "big_lock 87% 7w" in w columns
 * ('-': the census saw none; nothing: none ran); and a panel listing the
 * selected step's (else the last censused step's) locks with their holders,
 * with the rows it wants at width w (0: no census at all).
 */
bool waits_locks_any(const struct session *s);
void waits_locks_cell(const struct session *s, int n, enum wait_family fam, int y, int x, int w);
int waits_locks_rows(const struct ui *u, const struct frame *f, int w);
void waits_locks_draw(const struct ui *u, const struct frame *f, struct rect r);

/* Lays out and draws one whole frame (layout.c).  Minimum size below. */
#define UI_MIN_W 60
#define UI_MIN_H 16
void ui_draw(const struct ui *u, const struct frame *f, struct ui_hits *hits);

/* Small drawing helpers (paint.c). */
void ui_fill(struct rect r, attr_t a);
/* Draws at most maxw columns of s (UTF-8 allowed) at y,x with a. Returns columns used. */
int ui_put(int y, int x, int maxw, attr_t a, const char *s);
int ui_putf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Display columns of s, as ui_put counts them. */
int ui_cols(const char *s);
/* ui_put, but a text too long ends at a word, with an ellipsis; columns used. */
int ui_put_cut(int y, int x, int maxw, attr_t a, const char *s);
/* A horizontal rule of w columns (the theme's line glyph) at y,x with a. */
void ui_hrule(int y, int x, int w, attr_t a);
/* A panel's title on its first row, and the rect below it. */
struct rect ui_titled(struct rect r, const char *title);
void ui_hit_add(struct ui_hits *h, int y, int x0, int x1, int step);

/* The running step, or the last finished one the contention panel shows. */
const struct step *ui_last_done(const struct frame *f);
double ui_now(void);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: what a key or a click asks for (a command), and the
 * tables that say so.  keymap.c binds keys to commands, each with its line
 * of help; a view (views.h) may bind keys of its own; commands.c runs a
 * command through its entry in the command table.
 */
#ifndef SCALETOP_TUI_COMMANDS_H
#define SCALETOP_TUI_COMMANDS_H

#include <stdbool.h>

enum command_id {
	CMD_NONE,
	CMD_QUIT,
	CMD_HELP,
	CMD_HELP_CLOSE,
	CMD_PAUSE, /* the sweep (its workload stops) or, with none, the display */
	CMD_VIEW_NEXT,
	CMD_VIEW_PREV,
	CMD_VIEW, /* arg: the view */
	CMD_THEME_NEXT,
	CMD_THEME_PICK,     /* T: open the theme picker */
	CMD_THEME_PICK_KEY, /* arg: the key, for the open picker */
	CMD_REFRESH_NEXT,
	CMD_SWEEP, /* r */
	CMD_STOP,  /* x */
	CMD_LIVE,  /* arg: +1 or -1 */
	CMD_PICK_WORKLOAD,
	CMD_EDIT_NLIST,
	CMD_SAVE,
	CMD_RECORD, /* W: start or stop recording the sweep */
	CMD_OPEN,
	CMD_CLEAR_OVERLAYS,
	CMD_SELECT_MOVE,   /* arg: -1 up, +1 down */
	CMD_SELECT_STEP,   /* arg: the step (a click) */
	CMD_SELECT_PAGE,   /* arg: -1 a page up, +1 down (PgUp, PgDn) */
	CMD_SELECT_EDGE,   /* arg: -1 the first step, +1 the last (Home, End) */
	CMD_EVENTS_SCROLL, /* arg: events towards the older (<0) or newer (>0) */
	CMD_EVENTS_PAGE,   /* arg: -1 older by a page, +1 newer */
	CMD_EVENTS_EDGE,   /* arg: -1 the oldest, +1 the newest */
	CMD_REDRAW,        /* Ctrl-L: the whole screen again */
	CMD_HELP_PAGE,     /* the help's next page */
	CMD_DETAIL_TOGGLE,
	CMD_DETAIL_CLOSE,
	CMD_CHART_MODE,    /* L: the chart between throughput and latency against N */
	CMD_PROMPT_KEY,    /* arg: the key, for the open prompt */
	CMD_REPLAY,        /* arg: an enum replay_move */
	CMD_NOT_IN_REPLAY, /* a key that runs something, pressed in a replay */
	CMD_HIST_MOVE,     /* the history view: arg an enum history_move */
	CMD_HIST_OPEN,     /* Enter: the kept run on screen */
	CMD_HIST_OVERLAY,  /* o: it as an overlay */
	CMD_HIST_DELETE,   /* D, Delete: asks, then deletes it */
	CMD_HIST_BACK,     /* Esc, q: the view before */
	CMD_COUNT
};

struct command {
	enum command_id id;
	int arg;
};

/* A key and the command it gives (a view's own keys, struct view). */
struct binding {
	int key;
	enum command_id id;
	int arg;
};

/*
 * Where a binding of the keymap holds.  input.c looks in this order, after
 * the view's own keys: a replay's (only in a replay), everywhere's, then
 * the event log's and the screen's; the views' tabs come last.
 */
enum key_context { KC_REPLAY, KC_ANY, KC_LOG };

struct key_bind {
	enum key_context ctx;
	int key; /* 0 ends a line's bindings */
	enum command_id id;
	int arg;
};

#define KEY_MAX_BINDS 8
/*
 * One line of the help and the keys it describes (keymap.c).  keys NULL:
 * a heading (what is its title); views: the views' lines go here (views.c
 * makes them).  A binding without a line of its own is one of another
 * line's keys in another context, as r in a replay is in "r  x".
 */
struct key_entry {
	const char *keys;  /* the key column as the help shows it */
	const char *ascii; /* the same in ASCII, when keys is not */
	const char *what;  /* what they do, in a few words */
	struct key_bind bind[KEY_MAX_BINDS];
	bool views;
};
extern const struct key_entry keymap[];
extern const int nkeymap;

#define KEY_CTRL_L ('L' & 0x1f)
#define KEY_ESC 27

#endif

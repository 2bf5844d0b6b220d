/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the TUI: what a key or a click asks for.  input.c maps keys to
 * these; control.c runs them.  A new key is a line in input.c's table and,
 * if it does something new, a command here and a case in control.c.
 */
#ifndef SCALETOP_TUI_COMMAND_H
#define SCALETOP_TUI_COMMAND_H

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
	CMD_PROMPT_KEY, /* arg: the key, for the open prompt */
	CMD_REPLAY_PLAY,
	CMD_REPLAY_BACK,
	CMD_REPLAY_ON,
	CMD_REPLAY_START,
	CMD_REPLAY_END,
	CMD_NOT_IN_REPLAY, /* a key that runs something, pressed in a replay */
	CMD_HIST_MOVE,     /* the history view: arg an enum history_move */
	CMD_HIST_OPEN,     /* Enter: the kept run on screen */
	CMD_HIST_OVERLAY,  /* o: it as an overlay */
	CMD_HIST_DELETE,   /* D, Delete: asks, then deletes it */
	CMD_HIST_BACK,     /* Esc, q: the view before */
};

struct command {
	enum command_id id;
	int arg;
};

#endif

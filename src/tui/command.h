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
	CMD_SELECT_MOVE, /* arg: -1 up, +1 down */
	CMD_SELECT_STEP, /* arg: the step (a click) */
	CMD_DETAIL_TOGGLE,
	CMD_DETAIL_CLOSE,
	CMD_PROMPT_KEY, /* arg: the key, for the open prompt */
	CMD_REPLAY_PLAY,
	CMD_REPLAY_BACK,
	CMD_REPLAY_ON,
	CMD_REPLAY_START,
	CMD_REPLAY_END,
	CMD_NOT_IN_REPLAY, /* a key that runs something, pressed in a replay */
};

struct command {
	enum command_id id;
	int arg;
};

#endif

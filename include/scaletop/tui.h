/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interactive monitor: the same sweep as `scaletop run`, drawn live with
 * ncursesw (src/tui/).  It reads the session model and never measures.
 */
#ifndef SCALETOP_TUI_H
#define SCALETOP_TUI_H

#include <stdbool.h>
#include <stddef.h>

#define TUI_MAX_OVERLAYS 6

struct tui_opts {
	double refresh_s;  /* screen refresh; 0: the saved preference, else 1 s */
	const char *theme; /* NULL: the saved preference, else "default" */
	bool ascii;        /* no braille or blocks, whatever the locale */
	bool monitor;      /* start without a sweep: CPU monitoring only */
	int fake_cpus;     /* test hook: synthetic figures for this many CPUs */
	const char *overlay[TUI_MAX_OVERLAYS]; /* snapshots to overlay (--compare) */
	int noverlay;
	const char *replay; /* a recorded .jsonl to replay, "-" for standard input */
	const char *warn;   /* for the message line at the start (the config file's), or NULL */
	bool no_autosave; /* keep no sweep in the runs directory (--no-autosave, autosave = off) */
	/*
	 * replay: the recording, read whole before the screen opened (a pipe
	 * cannot be read twice); NULL for view -, which follows standard input.
	 * The caller keeps it and frees it after tui_main.
	 */
	struct stream_reader *replay_stream;
};

struct run_args;

/*
 * Checks that a terminal can be drawn on: a tty for input (or /dev/tty when
 * standard input carries data) and output, and a TERM that is not dumb.
 * 0, or -1 with a one-line message that suggests `scaletop run`.
 */
int tui_check_terminal(bool input_is_data, char *err, size_t errlen);

/*
 * Runs the TUI until the user quits or a signal ends it; a = the run-style
 * options (what r runs), o = the TUI's own.  Returns the exit status.
 */
int tui_main(struct run_args *a, const struct tui_opts *o);

/*
 * The subcommands the TUI answers (src/tui/args.c): `scaletop tui` (and a
 * bare `scaletop` or one with only options), `replay FILE.jsonl` and
 * `view -`.  Each parses its own arguments and returns an exit status.
 */
int cmd_tui(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_view(int argc, char **argv);

#endif

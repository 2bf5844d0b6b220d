/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kept runs: every sweep the TUI runs is saved as a snapshot in one
 * directory, $XDG_DATA_HOME/scaletop/runs (default
 * ~/.local/share/scaletop/runs, made 0700), so that no key can throw a
 * measurement away.
 */
#ifndef SCALETOP_RUNS_H
#define SCALETOP_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "scaletop/error.h"
#include "scaletop/session.h"

/*
 * The TUI's history view and `scaletop runs` list them from here, newest
 * first by the file's modification time (when the run was last kept), and
 * prune them by the same age.
 *
 * Listing only stats the files; a run's summary (workload, its parameters
 * or command, label, host, N range, steps, verdict) is read when asked for, one file at a time, so
 * a list of hundreds of runs costs one readdir until its rows are shown.
 */

/* One kept run: its file, and once runs_entry_load has read it, its summary. */
struct run_entry {
	char path[4096];
	time_t mtime;
	bool loaded; /* runs_entry_load has been called (err says whether it read) */
	char err[ST_ERRLEN];
	char workload[64];
	char params[512]; /* "hold=300 think=100", or the external command; "" for none */
	bool command;     /* params is the external command line */
	char label[256];  /* the snapshot's label unless it is the default (host, OS, release) */
	char host[256];
	int n_min, n_max, nsteps;
	bool interrupted; /* a step was cut short: the sweep was stopped */
	char verdict[256];
	char repair[ST_ERRLEN]; /* "" or what the reader set aside (snapshot.repair), unnamed */
};

struct run_list {
	struct run_entry *v; /* newest first; owned */
	int n;
};

/* The runs directory's path (not made).  0, or -1 with err set. */
int runs_dir(char *buf, size_t len, char *err, size_t errlen);

/*
 * The snapshot name `s` offers and autosave uses: scaletop-WORKLOAD-HOST-
 * YYYYmmdd-HHMMSS.json, in local time t; characters a file name should not
 * have become '_'.
 */
void runs_name(const struct session *s, time_t t, char *buf, size_t len);

/* True if the session holds a step that finished (one cut short does not count). */
bool runs_worth_keeping(const struct session *s);

/*
 * Keeps s in the runs directory dir, made as needed.  *path "" on the first
 * call: a new file named by runs_name(s, t) (with -2, -3 ... when taken) is
 * made, and its path put in path; later calls replace that file atomically.
 * 0, or -1 with "DIR: reason" in err (the directory, or the file, and
 * strerror) and errno set; the old file, if any, is untouched.
 */
int runs_keep(const char *dir, const struct session *s, time_t t, char *path, size_t pathlen,
	      char *err, size_t errlen);

/*
 * The *.json files of dir, newest first, unread.  A missing dir is an empty
 * list.  0, or -1 with err set ("DIR: reason").  Free with runs_list_free.
 */
int runs_list(const char *dir, struct run_list *l, char *err, size_t errlen);
void runs_list_free(struct run_list *l);

/* Reads e's file into its summary (or e->err); marks it loaded either way. */
void runs_entry_load(struct run_entry *e);

/* "1-64" or "4" into buf: the N range of a loaded entry. */
void runs_entry_nrange(const struct run_entry *e, char *buf, size_t len);

/*
 * What ran, in at most width columns (0: no limit): the workload's name,
 * its parameters or ": " and its command, and its label in quotes.  What
 * does not fit is cut with "...": the parameters and the label, never the
 * name.
 */
void runs_entry_what(const struct run_entry *e, int width, char *buf, size_t len);

/*
 * Removes the runs in dir whose files are older than days (before now -
 * days * 86400).  0 with the count in *removed, or -1 with err set (the
 * files removed so far stay counted).
 */
int runs_prune(const char *dir, double days, time_t now, int *removed, char *err, size_t errlen);

#endif

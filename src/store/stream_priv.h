/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the stream reader's files in src/store/: the reader's state,
 * its messages, and one decoder per line type.
 */
#ifndef SCALETOP_STREAM_PRIV_H
#define SCALETOP_STREAM_PRIV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scaletop/analysis.h"
#include "scaletop/error.h"
#include "scaletop/session.h"
#include "scaletop/stream.h"

#define STREAM_MAX_NOTES 16

/*
 * The layers, lowest first: stream_reader.c (state, messages, accessors),
 * stream_tick.c (tick lines), stream_records.c (header, step, event,
 * analysis and end lines, read with the snapshot's own session_read.h),
 * stream_read.c (the line framing that dispatches to them).  Nothing outside
 * src/store/ includes it.
 */

struct stream_reader {
	char *name; /* starts every message; NULL for none */
	char *buf;  /* the line not yet ended */
	size_t len, cap;
	uint64_t line; /* whole lines read */
	bool failed, finished, have_header, ended, ticks_full;
	bool noted_unknown, noted_steps, noted_events;
	/* The header's own words, for a recording loaded as a snapshot ("" if absent). */
	char label[256], taken[32], tool_name[64], tool_version[64];
	char err[ST_ERRLEN];
	char *notes[STREAM_MAX_NOTES];
	int nnotes;
	unsigned changes;
	struct session s;
	struct analysis an;
	struct analysis_opts an_opts;
	bool have_an;
	struct stream_tick *ticks;
	size_t nticks, capticks, max_ticks;
	struct stream_cpu *cells; /* every kept tick's rows, back to back */
	size_t ncells, capcells, max_cells;
	struct contention *cts; /* the kept ticks' live contention */
	size_t ncts, capcts;
	struct target_figures *tgs; /* the kept ticks' target figures, a repeat kept once */
	size_t ntgs, captgs;
	struct wait_share *wcells; /* the kept ticks' wait lines, a repeated profile kept once */
	size_t nwcells, capwcells;
	bool waits_full;
	struct stream_cpu *row; /* one tick's rows while it is decoded */
	size_t caprow;
	float *busy; /* one tick's busy % by CPU id, for the series */
};

/* --- stream_reader.c ------------------------------------------------------ */

/*
 * The reader's error, "name: line N: why" about the line being read; only
 * the first counts.  Always -1, for `return stream_fail(...)`.
 */
int stream_fail(struct stream_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One more note, "name: why" (at most STREAM_MAX_NOTES). */
void stream_note(struct stream_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* --- one decoder per line type: 0, or -1 after stream_fail ---------------- */

int stream_read_tick(struct stream_reader *r, json_t *o);   /* stream_tick.c */
int stream_read_header(struct stream_reader *r, json_t *o); /* stream_records.c */
int stream_read_step(struct stream_reader *r, json_t *o);
int stream_read_event(struct stream_reader *r, json_t *o);
int stream_read_analysis(struct stream_reader *r, json_t *o);
int stream_read_end(struct stream_reader *r, json_t *o);

/* --- stream_snapshot.c: a recording loaded as a snapshot (snapshot_load) -- */

struct snapshot;
/*
 * Reads the rest of fd as a stream whose first len bytes are head, and
 * rebuilds snap from it: the finished steps, the events, the recent tick
 * series, the header's label.  The notes (a cut-off last line, no end
 * line) become snap->warning.  name starts every message.  0, or -1 with
 * the reader's one line ("name: line N: why").
 */
int stream_snapshot_read(int fd, const char *head, size_t len, const char *name,
			 struct snapshot *snap, char *err, size_t errlen);

#endif

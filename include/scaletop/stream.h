/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON Lines stream: `scaletop run --record FILE` writes one line per
 * tick, finished step, event and analysis update, so a run on a headless
 * machine can be watched or replayed elsewhere.  docs/stream-format.md
 * documents every line.
 */
#ifndef SCALETOP_STREAM_H
#define SCALETOP_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scaletop/analysis.h"
#include "scaletop/session.h"
#include "scaletop/sweep.h"

#define STREAM_FORMAT "scaletop-stream"
#define STREAM_VERSION 1 /* bumped only for changes an older reader would misread */

/*
 * The recorder (src/store/stream_write.c) writes the lines; the reader
 * (src/store/stream_read.c and the stream_*.c files beside it) rebuilds a
 * session from them, fed in chunks of any size, so it serves a whole file
 * and a live pipe alike.  It reads the session's objects with the snapshot
 * loader's own code, so both refuse the same data in the same words.
 */

/* The stream's words for enum sweep_phase, indexed by it. */
extern const char *const stream_phase_names[PHASE_DONE + 1];

/* The contention figures' keys (those of a snapshot's steps), shared by writer and reader. */
struct stream_ct_key {
	const char *key;
	unsigned have; /* the CT_HAVE_* bit that makes it valid */
	size_t off;    /* offsetof(struct contention, the figure) */
};
#define STREAM_NCT_KEYS 11
extern const struct stream_ct_key stream_ct_keys[STREAM_NCT_KEYS];

/* --- the recorder --------------------------------------------------------- */

struct recorder;

#define RECORDER_FORCE 0x1 /* replace an existing file instead of refusing */

/*
 * Opens path for writing, or standard output for "-".  A file that exists is
 * refused unless flags has RECORDER_FORCE.  NULL with a one-line message.
 * Writing to a closed pipe must give EPIPE rather than kill the process: the
 * caller ignores SIGPIPE (cli_guard_crashes does).
 */
struct recorder *recorder_open(const char *path, unsigned flags, char *err, size_t errlen);

/*
 * Each call writes one line with one write(2), so every line leaves the
 * process whole and at once; nothing is buffered.  They return 0, or -1 the
 * first time a line cannot be encoded or written (ENOSPC, EPIPE when the
 * reader went away); recorder_error() then says why, and every later call
 * does nothing and returns 0, so one message is printed and the run goes on.
 */

/* The first line: host, workload and settings.  Call once s->started_utc is set. */
int recorder_header(struct recorder *rec, const struct session *s);
/*
 * One engine tick.  Call from the SWEEP_TICK observer: the time, step and
 * rate come from the newest tick of s->ticks (added just before observers
 * are told), the phase and CPU figures from lv.  ct is the running step's
 * live contention, or NULL when there is none.
 */
int recorder_tick(struct recorder *rec, const struct session *s, const struct sweep_live *lv,
		  const struct contention *ct);
/* A finished step, s->steps[idx].  Steps go out in index order. */
int recorder_step(struct recorder *rec, const struct session *s, int idx);
int recorder_event(struct recorder *rec, const struct event *e);
/*
 * The analysis as it stands, as a snapshot holds it, with the options it was
 * made with (NULL: the defaults); each analysis line replaces the one before.
 */
int recorder_analysis(struct recorder *rec, const struct analysis *a,
		      const struct analysis_opts *o);
/* The reason recording stopped, or NULL while it works. */
const char *recorder_error(const struct recorder *rec);
/*
 * Writes the end line (unless recording already failed), closes the file and
 * frees rec.  0, or -1 with a message if that last write or close failed and
 * no error was reported before.
 */
int recorder_close(struct recorder *rec, char *err, size_t errlen);

/* --- the reader ----------------------------------------------------------- */

#define STREAM_MAX_LINE (1024 * 1024) /* longer lines are an error */
#define STREAM_MAX_TICKS 2000000      /* ticks kept for scrubbing; ~5.8 days at 4 Hz */
#define STREAM_MAX_CELLS 16000000     /* per-CPU rows kept over all ticks (24 bytes each) */
#define STREAM_MAX_WAIT_CELLS 1000000 /* wait lines kept over all ticks (80 bytes each) */
#define STREAM_MAX_STEPS 100000
#define STREAM_MAX_EVENTS 1000000
#define STREAM_MAX_CPU_ID 65535

/*
 * One CPU in one tick.  Percentages are kept as the stream writes them, in
 * hundredths (0..10000), so a long replay stays small; STREAM_PCT_NONE is a
 * figure the stream left null.  stream_pct() turns one into a percentage.
 */
#define STREAM_PCT_NONE 0xffffu
struct stream_cpu {
	int32_t id;                /* OS CPU id; -1 for the "all" row */
	uint16_t flags;            /* CPU_USAGE_* */
	uint16_t pct[CPU_NSTATES]; /* indexed by enum cpu_state */
	uint16_t busy;
};

/* System-wide rates of one tick; NaN where the stream has null. */
struct stream_sys {
	float ctxsw_s, intr_s, softirq_s, syscall_s, fork_s;
	float running, blocked;
	float psi_some_pct, psi_full_pct;
};

/* One tick, everything the TUI draws for that moment. */
struct stream_tick {
	double t;        /* session seconds */
	double phase_s;  /* seconds into the phase */
	double rate;     /* throughput over the last interval; NaN if none */
	double interval; /* measured length of the CPU interval; NaN if no CPU data */
	int step;        /* session step index, -1 when none runs */
	int n, rep;      /* the running step's N and repeat; 0 when none */
	int steps_total;
	enum sweep_phase phase;
	bool have_cpu; /* all, sys and the rows below are valid */
	struct stream_cpu all;
	struct stream_sys sys;
	int ncpu; /* rows: stream_reader_tick_cpus */
	/* private to the reader */
	size_t cpu_off;
	int64_t ct_idx, tg_idx;
	size_t waits_off;
	int nwaits;
};

/* stream_reader_changes() bits: what arrived since the last call. */
#define STREAM_GOT_HEADER 0x01
#define STREAM_GOT_TICK 0x02
#define STREAM_GOT_STEP 0x04
#define STREAM_GOT_EVENT 0x08
#define STREAM_GOT_ANALYSIS 0x10
#define STREAM_GOT_END 0x20

struct stream_reader;

/* name (a file name, or NULL) starts every message.  NULL on ENOMEM. */
struct stream_reader *stream_reader_new(const char *name);
void stream_reader_free(struct stream_reader *r);
/* Lowers the memory limits (for tests); 0 keeps a limit as it is. */
void stream_reader_set_limits(struct stream_reader *r, size_t max_ticks, size_t max_cells);

/*
 * Feeds the next len bytes, split anywhere.  Every whole line is applied at
 * once.  0, or -1 when a line is bad: stream_reader_error() names the line
 * and what was wrong, what came before stays readable, and later feeds are
 * refused.  Lines of an unknown "type" are skipped, with one note.
 */
int stream_reader_feed(struct stream_reader *r, const void *buf, size_t len);
/*
 * End of input.  A last line without its newline is dropped with a note
 * ("truncated: last line incomplete, replayed up to line N").  -1 when no
 * header was read, or after an error.
 */
int stream_reader_finish(struct stream_reader *r);
/* Reads a whole file ("-": standard input), then finishes.  0 or -1. */
int stream_reader_load(struct stream_reader *r, const char *path);

/* The error, "" if none. */
const char *stream_reader_error(const struct stream_reader *r);
/* Notes: truncation, limits reached, unknown lines skipped.  Owned by r. */
int stream_reader_nnotes(const struct stream_reader *r);
const char *stream_reader_note(const struct stream_reader *r, int i);
/* STREAM_GOT_* since the previous call; clears them. */
unsigned stream_reader_changes(struct stream_reader *r);
/* Whole lines read so far. */
uint64_t stream_reader_lines(const struct stream_reader *r);
bool stream_reader_have_header(const struct stream_reader *r);
/* The end line was read: the run finished and recording was not cut short. */
bool stream_reader_ended(const struct stream_reader *r);

/*
 * The session rebuilt so far: host, workload, settings, finished steps,
 * events, and s->ticks (the recent series, busy % per CPU).  Owned by r,
 * valid until stream_reader_free; it grows as lines are fed.
 */
struct session *stream_reader_session(struct stream_reader *r);
/*
 * The newest analysis, or NULL before one; its options into o unless o is
 * NULL.  Owned by r; replaced by the next analysis line.
 */
const struct analysis *stream_reader_analysis(const struct stream_reader *r,
					      struct analysis_opts *o);

/* Every tick kept, in order (up to STREAM_MAX_TICKS, with a note past it). */
size_t stream_reader_nticks(const struct stream_reader *r);
/* The i-th tick, or NULL out of range.  Valid until the next feed. */
const struct stream_tick *stream_reader_tick(const struct stream_reader *r, size_t i);
/* A tick's t->ncpu CPU rows, by ascending id.  Valid until the next feed. */
const struct stream_cpu *stream_reader_tick_cpus(const struct stream_reader *r,
						 const struct stream_tick *t);
/* A tick's live contention, or NULL if it has none.  Valid until the next feed. */
const struct contention *stream_reader_tick_contention(const struct stream_reader *r,
						       const struct stream_tick *t);
/*
 * The window so far at a tick: the target's figures (NULL without), and the
 * wait profile's *n lines (NULL and 0 without; the target's and the probes'
 * families among them).  Older streams have neither.  Valid until the next
 * feed.
 */
const struct target_figures *stream_reader_tick_target(const struct stream_reader *r,
						       const struct stream_tick *t);
const struct wait_share *stream_reader_tick_waits(const struct stream_reader *r,
						  const struct stream_tick *t, int *n);

/* A stored percentage as a number; NaN for STREAM_PCT_NONE. */
double stream_pct(uint16_t v);

#endif

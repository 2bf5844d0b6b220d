/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parsers of an external command's output: they turn the periodic lines a
 * benchmark prints (sysbench --report-interval, pgbench -P, or any line a
 * user's --parse-regex matches) into throughput samples, and its closing
 * report into a summary.
 */
#ifndef SCALETOP_PARSE_H
#define SCALETOP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARSE_LINE_MAX 4096   /* longest line parsed, without its terminator */
#define PARSE_QUEUE_MAX 65536 /* events held when the caller does not drain them */
#define PARSE_UNIT_MAX 16

/*
 * A parser is fed whatever a read() from the command's pipe returned: chunks
 * of any size, split anywhere, even mid-line or between '\r' and '\n'.  It
 * keeps the partial line until its end arrives.  Either '\n' or '\r' ends a
 * line, so CRLF output and '\r'-redrawn progress lines both work; empty lines
 * are skipped.  A line longer than PARSE_LINE_MAX bytes is dropped whole and
 * counted, rather than parsed from a truncated prefix, because a number cut in
 * half would be read as a wrong rate.  Numbers are read with '.' as the decimal
 * point whatever the locale, as the tools print them.
 *
 * Pure code: no I/O.  The caller owns the parser and the events it copies out.
 */

/* parse_interval.have and parse_summary.have: which optional fields are valid */
#define PARSE_HAVE_T 0x01        /* t_end */
#define PARSE_HAVE_THREADS 0x02  /* threads */
#define PARSE_HAVE_LAT 0x04      /* lat_ms, lat_pct */
#define PARSE_HAVE_OPS 0x08      /* ops */
#define PARSE_HAVE_DURATION 0x10 /* duration */
#define PARSE_HAVE_HIST 0x20     /* the output held a latency histogram: parser_histogram */

/* One periodic line. */
struct parse_interval {
	unsigned have;
	double t_end;              /* seconds since the tool's start, as it prints them */
	double rate;               /* per second, in unit; never negative */
	char unit[PARSE_UNIT_MAX]; /* "eps", "tps", "writes/s", "MiB/s", ... */
	int threads;               /* threads or clients the tool says were running */
	double lat_ms;             /* latency the tool printed, in milliseconds */
	int lat_pct;               /* the percentile lat_ms is; 0 means it is the mean */
};

/* The tool's closing report, delivered by parser_finish(). */
struct parse_summary {
	unsigned have;
	double rate; /* per second over the whole run, same unit as the intervals */
	char unit[PARSE_UNIT_MAX];
	uint64_t ops;     /* operations the tool counted in the run */
	double duration;  /* seconds the tool says the run took */
	int threads;      /* threads or clients the run used */
	size_t intervals; /* interval samples before it: 0 = the step has no interval data */
};

enum parse_event_type {
	PARSE_INTERVAL = 1,
	PARSE_SUMMARY,
};

struct parse_event {
	enum parse_event_type type;
	union {
		struct parse_interval interval;
		struct parse_summary summary;
	};
};

/* What the parser saw but could not use; for diagnostics, never silently lost. */
struct parse_counters {
	uint64_t lines;      /* complete, non-empty lines looked at */
	uint64_t samples;    /* interval events produced */
	uint64_t long_lines; /* dropped: longer than PARSE_LINE_MAX or containing NUL */
	uint64_t bad_lines;  /* had the shape of a sample but no usable number */
	uint64_t dropped;    /* events lost: queue full or out of memory */
};

struct parser;

/*
 * Makes a parser by name: "sysbench", "pgbench" or "regex" (arg is then the
 * POSIX extended regex whose first group is the rate; arg is ignored
 * otherwise).  On failure returns NULL with a one-line message in err.
 * The caller owns the result and frees it with parser_free().
 */
struct parser *parser_new(const char *name, const char *arg, char *err, size_t errlen);
void parser_free(struct parser *p);

/* The registry's names, NULL-terminated; static storage. */
const char *const *parser_names(void);
/* Whether the named parser reads its lines with a pattern (regex), given apart from its name. */
bool parser_takes_pattern(const char *name);
const char *parser_name(const struct parser *p);

/* Feeds len bytes.  Events become available through parser_next(). */
void parser_feed(struct parser *p, const char *buf, size_t len);

/*
 * The command has exited: parses an unterminated last line, then queues the
 * summary if the output held one.  Feeding after this is ignored.
 */
void parser_finish(struct parser *p);

/* Copies the oldest queued event into ev and returns true, or returns false. */
bool parser_next(struct parser *p, struct parse_event *ev);

const struct parse_counters *parser_counters(const struct parser *p);

struct lathist;
/* The latency histogram the output printed (sysbench --histogram), in ns; NULL when none. */
const struct lathist *parser_histogram(const struct parser *p);

/*
 * For the parser implementations (parse_*.c) only: the registry calls init,
 * which sets the three hooks and its own state.
 */
struct parser_impl {
	void (*line)(struct parser *, char *line, size_t len);
	void (*finish)(struct parser *);
	void (*free)(void *state);
	void *state;
};

int parse_sysbench_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen);
int parse_pgbench_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen);
int parse_regex_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen);

void *parser_state(struct parser *p);
/* Queue an event; one whose rate is not a finite number >= 0 is counted as a bad line instead. */
void parser_emit_interval(struct parser *p, const struct parse_interval *iv);
void parser_emit_summary(struct parser *p, const struct parse_summary *sum);
void parser_count_bad(struct parser *p);
/* Adds n values of ns nanoseconds to the output's histogram (made on the first); false on ENOMEM.
 */
bool parser_histogram_add(struct parser *p, uint64_t ns, uint64_t n);

/*
 * Reads an unsigned decimal number ("12", "0.37", "1.5e3") at s, whatever
 * the locale.  Returns the character after it, or NULL if s does not start
 * with one.
 */
const char *parse_number(const char *s, double *out);
/* An unsigned integer; NULL if none, or if it overflows uint64_t. */
const char *parse_count(const char *s, uint64_t *out);
/* Skips spaces and tabs. */
const char *parse_skip_blanks(const char *s);
/*
 * Finds key at s or later, at the start of a word (start of line or after a
 * blank), and returns the character after it; NULL if absent.
 */
const char *parse_find_word(const char *s, const char *key);

/*
 * --parse-lat for a "regex" parser: spec is RE, RE:UNIT or RE:UNIT:STAT,
 * the suffixes read off the end (UNIT ns, us, ms or s, default ms; STAT mean,
 * the default, or pN, the Nth percentile).  Each line RE matches gives the
 * latency of the interval its rate line makes: the same line, or the next
 * one the rate regex matches.  0, or -1 with a one-line message in err
 * (also for a parser of another kind).
 */
int parser_set_latency(struct parser *p, const char *spec, char *err, size_t errlen);

/*
 * pgbench --log: its transaction log, one line a transaction, or with
 * --aggregate-interval one line an interval (PostgreSQL's pgbench docs,
 * "Per-Transaction Logging").  Pure code: the caller reads the files.
 */
enum pglog_kind {
	PGLOG_TXN = 1, /* a transaction, timed */
	PGLOG_SKIPPED, /* skipped (--rate with --latency-limit): no latency */
	PGLOG_FAILED,  /* failed, serialization or deadlock: no latency */
	PGLOG_AGG,     /* an aggregate interval */
};

struct pglog_line {
	enum pglog_kind kind;
	double t;        /* Unix seconds: when the transaction ended, or when the interval began */
	double lat_us;   /* PGLOG_TXN: its latency */
	uint64_t count;  /* PGLOG_AGG: transactions in the interval */
	double sum_us;   /* PGLOG_AGG: the sum of their latencies */
	double max_us;   /* PGLOG_AGG: the longest */
	uint64_t failed; /* PGLOG_AGG: skipped and failed transactions, when the line has them */
};

/* One line, len bytes, no terminator needed: 0, or -1 when it is no log line. */
int pglog_parse_line(const char *line, size_t len, struct pglog_line *out);

/* A transaction or interval against a window: what the step gets of one or more log files. */
struct pglog_tally {
	double w0, w1;        /* the window, Unix seconds: an end in [w0, w1] counts */
	struct lathist *hist; /* the window's transactions' latencies (ns); NULL before the first */
	uint64_t timed;       /* transactions recorded into hist */
	uint64_t outside;     /* transactions (or intervals) that ended outside the window */
	uint64_t skipped;     /* skipped transactions, anywhere in the log */
	uint64_t failed;      /* failed ones */
	uint64_t lines;       /* lines looked at */
	uint64_t bad;         /* lines that were none of the above */
	uint64_t first_bad;   /* the first bad line's number in its file, 1-based; 0: none */
	uint64_t truncated;   /* a last line without its newline, left out */
	uint64_t line_no;     /* lines of the current file so far */
	bool nomem;           /* memory ran out: the tally is incomplete */
	struct pglog_agg {
		double start, sum_us, max_us;
		uint64_t count;
	} * agg; /* aggregate intervals, merged by start across files */
	int nagg, capagg;
};

void pglog_tally_init(struct pglog_tally *t, double w0, double w1);
/* A new file starts: its lines are numbered from 1. */
void pglog_tally_file(struct pglog_tally *t);
/* One line as read, with its '\n' if it had one (a last line without is left out). */
void pglog_tally_line(struct pglog_tally *t, const char *line, size_t len);
/* A whole file's bytes: pglog_tally_file, then each line. */
void pglog_tally_feed(struct pglog_tally *t, const char *buf, size_t len);
/*
 * The aggregate intervals whose middle lies in the window, their lengths
 * the shortest step between starts (1 s when a log has one interval): each
 * one's mean in ms into mean_ms[] (up to max), and their longest into
 * *max_ms (NAN if none).  Returns how many there were.
 */
int pglog_tally_intervals(struct pglog_tally *t, double *mean_ms, int max, double *max_ms);
void pglog_tally_free(struct pglog_tally *t);

#endif

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

#endif

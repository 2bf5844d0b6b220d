/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The parser of sysbench 1.0/1.1 output: its --report-interval lines and
 * its closing report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"

/*
 * sysbench 1.0/1.1 output.  Interval lines (--report-interval) look like
 *
 *   [ 1s ] thds: 2 eps: 5790.62 lat (ms,95%): 0.37                 cpu, threads, mutex
 *   [ 1s ] thds: 4 tps: 1286.16 qps: 25881.86 (r/w/o: ...) ...      OLTP scripts
 *   [ 1s ] reads: 0.00 MiB/s writes: 725.13 MiB/s fsyncs: ...       fileio
 *   [ 1s ] 3130.72 MiB/sec                                          memory
 *
 * fileio and memory print bytes per second, not operations.  Both print the
 * block size in their header ("Block size 16KiB", "block size: 1KiB"), and
 * every operation moves exactly one block, so operations per second is
 * MiB/s * 2^20 / block.  That is the honest rate: the same operations the
 * closing report's "writes/s:" (or memory's "per second") counts, losing only
 * the line's rounding to 0.01 MiB/s (at most 0.32 writes/s at 16KiB).  fileio's rate follows the
 * test mode: "writes/s" for the write modes, "reads/s" for the read modes, "io/s" (reads + writes)
 * for r/w or when the mode is not known; fsyncs are left out, as sysbench's own reads/s and
 * writes/s leave them out.  Without the header the block size is unknown and the rate stays in
 * "MiB/s".
 *
 * The closing report gives the run's rate: "transactions: N (X per sec.)"
 * for OLTP, fileio's "writes/s:" (1.0) or "write: IOPS=" (1.1), memory's
 * "Total operations: N (X per second)", or "events per second:"; threads
 * and mutex print none, so their rate is total events / total time, both as
 * sysbench counted them.
 *
 * --histogram=on prints, after the intervals, every latency bucket sysbench
 * counted in (its own, about 1.8% wide), a row each:
 *
 *   Latency histogram (values are in milliseconds)
 *          value  ------------- distribution ------------- count
 *          3.885 |****************************************  20
 *
 * Each row's count is recorded at its value into the parser's histogram
 * (parser_histogram), and the summary says it has one.
 */

enum sb_mode {
	SB_IO_UNKNOWN,
	SB_IO_WRITE,
	SB_IO_READ,
	SB_IO_RW,
};

/* sysbench.seen: which closing-report figures were read */
#define SB_TX 0x001
#define SB_EPS 0x002
#define SB_TIME 0x004
#define SB_EVENTS 0x008
#define SB_READS 0x010
#define SB_WRITES 0x020
#define SB_MEMOPS 0x040
#define SB_MEMMIB 0x080
#define SB_THREADS 0x100

#define SB_THREADS_MAX 1000000

struct sysbench {
	enum sb_mode mode;
	double io_block;  /* fileio block size in bytes; 0 = unknown */
	double mem_block; /* memory block size in bytes; 0 = unknown */
	size_t intervals;
	unsigned seen;
	int threads;
	bool in_hist; /* inside the latency histogram's rows */
	double tx_rate, eps, total_time, reads_s, writes_s, mem_rate, mem_mib_rate;
	uint64_t tx, events, mem_ops;
};

/* "16KiB", "1MiB", "512B": sysbench's binary size suffixes. */
static bool
sb_parse_size(const char *s, double *bytes)
{
	double v, mul = 1;

	if ((s = parse_number(parse_skip_blanks(s), &v)) == NULL)
		return false;
	if (*s == 'K' || *s == 'k')
		mul = 1024.0;
	else if (*s == 'M')
		mul = 1024.0 * 1024;
	else if (*s == 'G')
		mul = 1024.0 * 1024 * 1024;
	else if (*s == 'T')
		mul = 1024.0 * 1024 * 1024 * 1024;
	if (mul > 1)
		s++;
	if (mul > 1 && *s == 'i')
		s++;
	/* A block smaller than a byte would turn any MiB/s into an overflowing rate. */
	if (*s != 'B' || v * mul < 1 || !isfinite(v * mul))
		return false;
	*bytes = v * mul;
	return true;
}

/* The value after "key" (and blanks), or false. */
static bool
sb_value(const char *line, const char *key, double *v)
{
	const char *s;

	if ((s = parse_find_word(line, key)) == NULL)
		return false;
	return parse_number(parse_skip_blanks(s), v) != NULL;
}

/* "lat (ms,95%): 0.37" or "latency (ms,95%): 0.011" */
static void
sb_latency(const char *s, struct parse_interval *iv)
{
	uint64_t pct;
	double v;

	if ((s = strstr(s, "(ms,")) == NULL)
		return;
	if ((s = parse_count(s + 4, &pct)) == NULL || strncmp(s, "%):", 3) != 0)
		return;
	if (parse_number(parse_skip_blanks(s + 3), &v) == NULL || pct > 100)
		return;
	iv->lat_ms = v;
	iv->lat_pct = (int)pct;
	iv->have |= PARSE_HAVE_LAT;
}

static void
sb_set_unit(struct parse_interval *iv, const char *unit)
{
	snprintf(iv->unit, sizeof(iv->unit), "%s", unit);
}

/* The unit of fileio's rate, which follows the test mode. */
static const char *
sb_mode_unit(enum sb_mode mode)
{
	switch (mode) {
	case SB_IO_WRITE:
		return "writes/s";
	case SB_IO_READ:
		return "reads/s";
	default:
		return "io/s";
	}
}

/* Of a read and a write figure, the one (or the sum) the test mode measures. */
static double
sb_mode_pick(enum sb_mode mode, double reads, double writes)
{
	switch (mode) {
	case SB_IO_WRITE:
		return writes;
	case SB_IO_READ:
		return reads;
	default:
		return reads + writes;
	}
}

/* fileio: the MiB/s of the mode's direction, turned into operations if the block is known. */
static bool
sb_fileio_rate(struct sysbench *sb, const char *rest, struct parse_interval *iv)
{
	double r, w, mib;

	if (!sb_value(rest, "reads:", &r) || !sb_value(rest, "writes:", &w))
		return false;
	mib = sb_mode_pick(sb->mode, r, w);
	if (sb->io_block > 0) {
		iv->rate = mib * 1048576.0 / sb->io_block;
		sb_set_unit(iv, sb_mode_unit(sb->mode));
	} else {
		iv->rate = mib;
		sb_set_unit(iv, "MiB/s");
	}
	return true;
}

/* memory: "3130.72 MiB/sec" right after the timestamp */
static bool
sb_memory_rate(struct sysbench *sb, const char *rest, struct parse_interval *iv)
{
	const char *s;
	double mib;

	if ((s = parse_number(rest, &mib)) == NULL || strncmp(parse_skip_blanks(s), "MiB/sec", 7))
		return false;
	if (sb->mem_block > 0) {
		iv->rate = mib * 1048576.0 / sb->mem_block;
		sb_set_unit(iv, "ops/s");
	} else {
		iv->rate = mib;
		sb_set_unit(iv, "MiB/s");
	}
	return true;
}

/* The rest of "[ 1s ] ..." after the timestamp; returns false if it is no sample. */
static bool
sb_interval_rate(struct parser *p, struct sysbench *sb, const char *rest, struct parse_interval *iv)
{
	bool shaped = false;

	if (parse_find_word(rest, "tps:") != NULL) {
		shaped = true;
		if (sb_value(rest, "tps:", &iv->rate)) {
			sb_set_unit(iv, "tps");
			return true;
		}
	} else if (parse_find_word(rest, "eps:") != NULL) {
		shaped = true;
		if (sb_value(rest, "eps:", &iv->rate)) {
			sb_set_unit(iv, "eps");
			return true;
		}
	} else if (parse_find_word(rest, "writes:") != NULL) {
		shaped = true;
		if (sb_fileio_rate(sb, rest, iv))
			return true;
	} else if (strstr(rest, "MiB/sec") != NULL) {
		shaped = true;
		if (sb_memory_rate(sb, rest, iv))
			return true;
	}
	if (shaped)
		parser_count_bad(p);
	return false;
}

/* "[ 12s ] ..." */
static bool
sb_interval(struct parser *p, struct sysbench *sb, const char *line)
{
	struct parse_interval iv;
	const char *s = line + 1;
	double t, thds;

	if ((s = parse_number(parse_skip_blanks(s), &t)) == NULL || *s++ != 's')
		return false;
	s = parse_skip_blanks(s);
	if (*s++ != ']')
		return false;
	s = parse_skip_blanks(s);
	memset(&iv, 0, sizeof(iv));
	if (!sb_interval_rate(p, sb, s, &iv))
		return true;
	iv.t_end = t;
	iv.have |= PARSE_HAVE_T;
	/* A thread count beyond any machine's is not one (and would not fit an int). */
	if (sb_value(s, "thds:", &thds) && thds <= SB_THREADS_MAX) {
		iv.threads = (int)thds;
		iv.have |= PARSE_HAVE_THREADS;
	}
	sb_latency(s, &iv);
	sb->intervals++;
	parser_emit_interval(p, &iv);
	return true;
}

/* "Doing random write test" and the like, from the fileio header */
static void
sb_header_mode(struct sysbench *sb, const char *s)
{
	if (strstr(s, "r/w") != NULL || strstr(s, "mixed") != NULL)
		sb->mode = SB_IO_RW;
	else if (strstr(s, "write") != NULL)
		sb->mode = SB_IO_WRITE;
	else if (strstr(s, "read") != NULL)
		sb->mode = SB_IO_READ;
}

/* "transactions:  3826   (1271.46 per sec.)" and "Total operations: N (X per second)" */
static bool
sb_count_and_rate(const char *s, uint64_t *n, double *rate)
{
	if ((s = parse_count(parse_skip_blanks(s), n)) == NULL)
		return false;
	s = parse_skip_blanks(s);
	if (*s++ != '(')
		return false;
	return parse_number(s, rate) != NULL;
}

static bool
sb_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* Header lines this parser needs to read the intervals right. */
static bool
sb_header(struct sysbench *sb, const char *s)
{
	const char *r;
	uint64_t n;

	if (sb_prefix(s, "Number of threads:", &r)) {
		if (parse_count(parse_skip_blanks(r), &n) != NULL && n <= SB_THREADS_MAX) {
			sb->threads = (int)n;
			sb->seen |= SB_THREADS;
		}
	} else if (sb_prefix(s, "Block size ", &r))
		sb_parse_size(r, &sb->io_block);
	else if (sb_prefix(s, "block size:", &r))
		sb_parse_size(r, &sb->mem_block);
	else if (sb_prefix(s, "Doing ", &r))
		sb_header_mode(sb, r);
	else
		return false;
	return true;
}

static void
sb_number(const char *s, unsigned bit, double *v, struct sysbench *sb)
{
	if (parse_number(parse_skip_blanks(s), v) != NULL)
		sb->seen |= bit;
}

static void
sb_total(const char *s, unsigned bit, uint64_t *v, struct sysbench *sb)
{
	if (parse_count(parse_skip_blanks(s), v) != NULL)
		sb->seen |= bit;
}

/* The closing report's figures. */
static void
sb_report(struct sysbench *sb, const char *s)
{
	const char *r;

	if (sb_prefix(s, "transactions:", &r)) {
		if (sb_count_and_rate(r, &sb->tx, &sb->tx_rate))
			sb->seen |= SB_TX;
	} else if (sb_prefix(s, "Total operations:", &r)) {
		if (sb_count_and_rate(r, &sb->mem_ops, &sb->mem_rate))
			sb->seen |= SB_MEMOPS;
	} else if ((r = strstr(s, "MiB transferred (")) != NULL)
		sb_number(r + 17, SB_MEMMIB, &sb->mem_mib_rate, sb);
	else if (sb_prefix(s, "events per second:", &r))
		sb_number(r, SB_EPS, &sb->eps, sb);
	else if (sb_prefix(s, "total time:", &r))
		sb_number(r, SB_TIME, &sb->total_time, sb);
	else if (sb_prefix(s, "total number of events:", &r))
		sb_total(r, SB_EVENTS, &sb->events, sb);
	else if (sb_prefix(s, "reads/s:", &r) || sb_prefix(s, "read:  IOPS=", &r))
		sb_number(r, SB_READS, &sb->reads_s, sb);
	else if (sb_prefix(s, "writes/s:", &r) || sb_prefix(s, "write: IOPS=", &r))
		sb_number(r, SB_WRITES, &sb->writes_s, sb);
}

/*
 * A row of the latency histogram, "3.885 |*****  20", recorded; or the
 * column heading; false for any other line, which ends the histogram.
 */
static bool
sb_hist_row(struct parser *p, const char *s)
{
	const char *r;
	uint64_t n;
	double ms;

	if (strncmp(s, "value ", 6) == 0 && strstr(s, "distribution") != NULL)
		return true;
	if ((r = parse_number(s, &ms)) == NULL || *(r = parse_skip_blanks(r)) != '|')
		return false;
	for (r++; *r == '*' || *r == ' ' || *r == '\t'; r++)
		;
	if (parse_count(r, &n) == NULL || !(ms * 1e6 < 1.8e19))
		parser_count_bad(p);
	else if (!parser_histogram_add(p, (uint64_t)llround(ms * 1e6), n))
		parser_count_bad(p);
	return true;
}

static void
sb_line(struct parser *p, char *line, size_t len)
{
	struct sysbench *sb = parser_state(p);
	const char *s = parse_skip_blanks(line);

	if (sb->in_hist && sb_hist_row(p, s))
		return;
	sb->in_hist = strncmp(s, "Latency histogram (values are in milliseconds)", 46) == 0;
	if (sb->in_hist)
		return;
	if (*s == '[' && sb_interval(p, sb, s))
		return;
	if (!sb_header(sb, s))
		sb_report(sb, s);
}

/* fileio's closing rate, in the unit its intervals used when the block was known. */
static bool
sb_fileio_summary(struct sysbench *sb, struct parse_summary *sum)
{
	if ((sb->seen & (SB_READS | SB_WRITES)) != (SB_READS | SB_WRITES))
		return false;
	sum->rate = sb_mode_pick(sb->mode, sb->reads_s, sb->writes_s);
	snprintf(sum->unit, sizeof(sum->unit), "%s", sb_mode_unit(sb->mode));
	return true;
}

static bool
sb_memory_summary(struct sysbench *sb, struct parse_summary *sum)
{
	if (!(sb->seen & SB_MEMOPS))
		return false;
	sum->ops = sb->mem_ops;
	sum->have |= PARSE_HAVE_OPS;
	if (sb->mem_block > 0 || !(sb->seen & SB_MEMMIB)) {
		sum->rate = sb->mem_rate;
		snprintf(sum->unit, sizeof(sum->unit), "ops/s");
	} else {
		sum->rate = sb->mem_mib_rate;
		snprintf(sum->unit, sizeof(sum->unit), "MiB/s");
	}
	return true;
}

/* Events and their rate, for the tests that count events: cpu, threads, mutex. */
static bool
sb_event_summary(struct sysbench *sb, struct parse_summary *sum)
{
	if (sb->seen & SB_EVENTS) {
		sum->ops = sb->events;
		sum->have |= PARSE_HAVE_OPS;
	}
	if (sb->seen & SB_EPS)
		sum->rate = sb->eps;
	else if ((sb->seen & (SB_EVENTS | SB_TIME)) == (SB_EVENTS | SB_TIME) && sb->total_time > 0)
		sum->rate = (double)sb->events / sb->total_time;
	else
		return false;
	snprintf(sum->unit, sizeof(sum->unit), "eps");
	return true;
}

static bool
sb_summary_rate(struct sysbench *sb, struct parse_summary *sum)
{
	if (sb->seen & SB_TX) {
		sum->rate = sb->tx_rate;
		sum->ops = sb->tx;
		sum->have |= PARSE_HAVE_OPS;
		snprintf(sum->unit, sizeof(sum->unit), "tps");
		return true;
	}
	return sb_fileio_summary(sb, sum) || sb_memory_summary(sb, sum) ||
	       sb_event_summary(sb, sum);
}

static void
sb_finish(struct parser *p)
{
	struct sysbench *sb = parser_state(p);
	struct parse_summary sum;

	memset(&sum, 0, sizeof(sum));
	if (!sb_summary_rate(sb, &sum))
		return;
	if (sb->seen & SB_TIME) {
		sum.duration = sb->total_time;
		sum.have |= PARSE_HAVE_DURATION;
	}
	if (sb->seen & SB_THREADS) {
		sum.threads = sb->threads;
		sum.have |= PARSE_HAVE_THREADS;
	}
	sum.intervals = sb->intervals;
	if (parser_histogram(p) != NULL)
		sum.have |= PARSE_HAVE_HIST;
	parser_emit_summary(p, &sum);
}

int
parse_sysbench_init(struct parser_impl *impl, const char *arg, char *err, size_t errlen)
{
	if ((impl->state = calloc(1, sizeof(struct sysbench))) == NULL)
		return st_error(err, errlen, "sysbench output parser: out of memory");
	impl->line = sb_line;
	impl->finish = sb_finish;
	impl->free = free;
	return 0;
}

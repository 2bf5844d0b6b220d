/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The parser object every kind shares: it splits the byte stream into
 * lines (a line too long or holding a NUL is skipped and counted), hands
 * each to its kind's hook, and queues the events the kind emits.  The kinds
 * are in parse_*.c, the registry that names them in parse.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/lathist.h"
#include "parser.h"

struct parser {
	const char *name;
	struct parser_impl impl;
	char line[PARSE_LINE_MAX + 1];
	size_t len;
	bool discard; /* the current line is too long or binary: skip to its end */
	bool finished;
	struct parse_event *q; /* queue: q[head .. head+count) */
	size_t head, count, cap;
	struct parse_counters counters;
	struct lathist *hist; /* the latency histogram the output printed, if it did */
};

struct parser *
parser_create(const char *name, parser_init_fn init, const char *arg, char *err, size_t errlen)
{
	struct parser *p;

	if ((p = calloc(1, sizeof(*p))) == NULL) {
		st_error(err, errlen, "output parser '%s': out of memory", name);
		return NULL;
	}
	p->name = name;
	if (init(&p->impl, arg, err, errlen) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void
parser_free(struct parser *p)
{
	if (p == NULL)
		return;
	if (p->impl.free != NULL)
		p->impl.free(p->impl.state);
	free(p->q);
	free(p->hist);
	free(p);
}

const struct lathist *
parser_histogram(const struct parser *p)
{
	return p->hist;
}

bool
parser_histogram_add(struct parser *p, uint64_t ns, uint64_t n)
{
	if (p->hist == NULL) {
		if ((p->hist = malloc(sizeof(*p->hist))) == NULL)
			return false;
		lathist_init(p->hist);
	}
	lathist_record_n(p->hist, ns, n);
	return true;
}

const char *
parser_name(const struct parser *p)
{
	return p->name;
}

void *
parser_state(struct parser *p)
{
	return p->impl.state;
}

const struct parse_counters *
parser_counters(const struct parser *p)
{
	return &p->counters;
}

void
parser_count_bad(struct parser *p)
{
	p->counters.bad_lines++;
}

/* Makes room for one more event at the tail; false when the queue is full. */
static bool
parser_queue_room(struct parser *p)
{
	struct parse_event *nq;
	size_t ncap;

	if (p->head + p->count < p->cap)
		return true;
	if (p->head > 0) {
		memmove(p->q, p->q + p->head, p->count * sizeof(*p->q));
		p->head = 0;
		return true;
	}
	if (p->cap >= PARSE_QUEUE_MAX)
		return false;
	ncap = p->cap == 0 ? 16 : p->cap * 2;
	if (ncap > PARSE_QUEUE_MAX)
		ncap = PARSE_QUEUE_MAX;
	if ((nq = realloc(p->q, ncap * sizeof(*nq))) == NULL)
		return false;
	p->q = nq;
	p->cap = ncap;
	return true;
}

static void
parser_push(struct parser *p, const struct parse_event *ev)
{
	if (!parser_queue_room(p)) {
		p->counters.dropped++;
		return;
	}
	p->q[p->head + p->count++] = *ev;
}

/*
 * A rate is a finite number >= 0.  Figures that are each finite can still
 * overflow when combined (MiB/s times 2^20 over a block, events over a tiny
 * time), and no such sample may reach the statistics; it is a bad line.
 */
static bool
parser_rate_ok(struct parser *p, double rate)
{
	if (isfinite(rate) && rate >= 0)
		return true;
	p->counters.bad_lines++;
	return false;
}

void
parser_emit_interval(struct parser *p, const struct parse_interval *iv)
{
	struct parse_event ev;

	if (!parser_rate_ok(p, iv->rate))
		return;

	memset(&ev, 0, sizeof(ev));
	ev.type = PARSE_INTERVAL;
	ev.interval = *iv;
	p->counters.samples++;
	parser_push(p, &ev);
}

void
parser_emit_summary(struct parser *p, const struct parse_summary *sum)
{
	struct parse_event ev;

	if (!parser_rate_ok(p, sum->rate))
		return;

	memset(&ev, 0, sizeof(ev));
	ev.type = PARSE_SUMMARY;
	ev.summary = *sum;
	parser_push(p, &ev);
}

bool
parser_next(struct parser *p, struct parse_event *ev)
{
	if (p->count == 0)
		return false;
	*ev = p->q[p->head++];
	if (--p->count == 0)
		p->head = 0;
	return true;
}

static void
parser_append(struct parser *p, const char *s, size_t n)
{
	if (p->discard || n == 0)
		return;
	if (n > PARSE_LINE_MAX - p->len || memchr(s, '\0', n) != NULL) {
		p->discard = true;
		return;
	}
	memcpy(p->line + p->len, s, n);
	p->len += n;
}

static void
parser_end_line(struct parser *p)
{
	if (p->discard)
		p->counters.long_lines++;
	else if (p->len > 0) {
		p->counters.lines++;
		p->line[p->len] = '\0';
		p->impl.line(p, p->line, p->len);
	}
	p->len = 0;
	p->discard = false;
}

void
parser_feed(struct parser *p, const char *buf, size_t len)
{
	size_t i, start = 0;

	if (p->finished)
		return;
	for (i = 0; i < len; i++) {
		if (buf[i] != '\n' && buf[i] != '\r')
			continue;
		parser_append(p, buf + start, i - start);
		parser_end_line(p);
		start = i + 1;
	}
	parser_append(p, buf + start, len - start);
}

void
parser_finish(struct parser *p)
{
	if (p->finished)
		return;
	if (p->len > 0 || p->discard)
		parser_end_line(p);
	if (p->impl.finish != NULL)
		p->impl.finish(p);
	p->finished = true;
}

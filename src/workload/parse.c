/*
 * The parser registry and what every parser shares: splitting the byte
 * stream into lines, the event queue, and locale-proof number reading.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/error.h"
#include "scaletop/parse.h"

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
};

struct parser_entry {
	const char *name;
	int (*init)(struct parser_impl *, const char *, char *, size_t);
};

static const struct parser_entry parser_table[] = {
        {"sysbench", parse_sysbench_init},
        {"pgbench", parse_pgbench_init},
        {"regex", parse_regex_init},
};

static const char *const parser_name_list[] = {"sysbench", "pgbench", "regex", NULL};

const char *const *
parser_names(void)
{
	return parser_name_list;
}

struct parser *
parser_new(const char *name, const char *arg, char *err, size_t errlen)
{
	const struct parser_entry *e = NULL;
	struct parser *p;
	size_t i;

	for (i = 0; i < sizeof(parser_table) / sizeof(parser_table[0]); i++) {
		if (name != NULL && strcmp(name, parser_table[i].name) == 0)
			e = &parser_table[i];
	}
	if (e == NULL) {
		st_error(err, errlen,
		         "output parser '%s' is unknown; use sysbench, pgbench or regex",
		         name != NULL ? name : "");
		return NULL;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		st_error(err, errlen, "output parser '%s': out of memory", name);
		return NULL;
	}
	p->name = e->name;
	if (e->init(&p->impl, arg, err, errlen) != 0) {
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
	free(p);
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

static bool
parse_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

const char *
parse_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

const char *
parse_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned d;

	if (!parse_isdigit(*s))
		return NULL;
	for (; parse_isdigit(*s); s++) {
		d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
	}
	*out = v;
	return s;
}

/* An optional exponent ("e-3"); leaves s alone when no digits follow the 'e'. */
static const char *
parse_exponent(const char *s, int *exp10)
{
	const char *t = s + 1;
	int sign = 1, e = 0;

	if (*s != 'e' && *s != 'E')
		return s;
	if (*t == '+' || *t == '-')
		sign = *t++ == '-' ? -1 : 1;
	if (!parse_isdigit(*t))
		return s;
	for (; parse_isdigit(*t); t++) {
		if (e < 10000)
			e = e * 10 + (*t - '0');
	}
	*exp10 += sign * e;
	return t;
}

/*
 * mant * 10^exp10.  Powers of ten up to 1e22 are exact doubles, so for the
 * few-digit figures tools print, one multiply or divide rounds correctly and
 * "5790.62" reads as exactly the double the C literal 5790.62 is.
 */
static double
parse_scale(uint64_t mant, int exp10)
{
	static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

	if (mant == 0)
		return 0.0;
	if (exp10 >= 0 && exp10 <= 22)
		return (double)mant * p10[exp10];
	if (exp10 < 0 && exp10 >= -22)
		return (double)mant / p10[-exp10];
	return (double)mant * pow(10.0, exp10);
}

const char *
parse_number(const char *s, double *out)
{
	uint64_t mant = 0;
	int exp10 = 0, ndig = 0;
	bool any = false;
	double v;

	for (; parse_isdigit(*s); s++, any = true) {
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(*s - '0');
			ndig += mant != 0;
		} else
			exp10++; /* beyond 19 significant digits: keep the magnitude only */
	}
	if (*s == '.') {
		for (s++; parse_isdigit(*s); s++, any = true) {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(*s - '0');
				ndig += mant != 0;
				exp10--;
			}
		}
	}
	if (!any)
		return NULL;
	s = parse_exponent(s, &exp10);
	v = parse_scale(mant, exp10);
	if (!isfinite(v))
		return NULL;
	*out = v;
	return s;
}

const char *
parse_find_word(const char *s, const char *key)
{
	const char *at = s;
	size_t klen = strlen(key);

	while ((at = strstr(at, key)) != NULL) {
		if (at == s || at[-1] == ' ' || at[-1] == '\t')
			return at + klen;
		at++;
	}
	return NULL;
}

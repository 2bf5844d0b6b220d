/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the three output-parser fuzz targets share.  A parser reads another
 * program's output, so anything may arrive: each input is parsed twice,
 * whole and in chunks whose sizes the input decides (a pipe splits output
 * anywhere), and the two must give the same events, since the parser
 * promises that chunking does not matter.  Every event must also be sane:
 * finite, non-negative rates, terminated units, percentiles in range, and
 * counters that add up.
 */
#ifndef FUZZ_PARSER_H
#define FUZZ_PARSER_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/lathist.h"
#include "scaletop/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "parser invariant broken: %s\n", what);
		abort();
	}
}

static void
fuzz_check_unit(const char *unit)
{
	fuzz_check(memchr(unit, '\0', PARSE_UNIT_MAX) != NULL, "unit is terminated");
}

static void
fuzz_check_event(const struct parse_event *ev)
{
	if (ev->type == PARSE_INTERVAL) {
		const struct parse_interval *iv = &ev->interval;

		fuzz_check(isfinite(iv->rate) && iv->rate >= 0, "interval rate finite, >= 0");
		fuzz_check(!(iv->have & PARSE_HAVE_T) || isfinite(iv->t_end), "t_end finite");
		fuzz_check(!(iv->have & PARSE_HAVE_LAT) ||
				   (isfinite(iv->lat_ms) && iv->lat_ms >= 0 && iv->lat_pct >= 0 &&
				    iv->lat_pct <= 100),
			   "latency finite, percentile 0..100");
		fuzz_check(!(iv->have & PARSE_HAVE_THREADS) || iv->threads >= 0, "threads >= 0");
		fuzz_check_unit(iv->unit);
	} else {
		const struct parse_summary *sm = &ev->summary;

		fuzz_check(ev->type == PARSE_SUMMARY, "event type known");
		fuzz_check(isfinite(sm->rate) && sm->rate >= 0, "summary rate finite, >= 0");
		fuzz_check(!(sm->have & PARSE_HAVE_DURATION) ||
				   (isfinite(sm->duration) && sm->duration >= 0),
			   "duration finite, >= 0");
		fuzz_check(!(sm->have & PARSE_HAVE_THREADS) || sm->threads >= 0, "threads >= 0");
		fuzz_check_unit(sm->unit);
	}
}

/* FNV-1a over the events, each field that is valid, so the two readings can be compared. */
static uint64_t
fuzz_hash(uint64_t h, const void *p, size_t n)
{
	size_t i;
	const unsigned char *b = p;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211u;
	return h;
}

static uint64_t
fuzz_hash_event(uint64_t h, const struct parse_event *ev)
{
	h = fuzz_hash(h, &ev->type, sizeof(ev->type));
	if (ev->type == PARSE_INTERVAL) {
		const struct parse_interval *iv = &ev->interval;

		h = fuzz_hash(h, &iv->have, sizeof(iv->have));
		h = fuzz_hash(h, &iv->rate, sizeof(iv->rate));
		h = fuzz_hash(h, iv->unit, strlen(iv->unit));
		if (iv->have & PARSE_HAVE_T)
			h = fuzz_hash(h, &iv->t_end, sizeof(iv->t_end));
		if (iv->have & PARSE_HAVE_LAT)
			h = fuzz_hash(h, &iv->lat_ms, sizeof(iv->lat_ms));
	} else {
		const struct parse_summary *sm = &ev->summary;

		h = fuzz_hash(h, &sm->have, sizeof(sm->have));
		h = fuzz_hash(h, &sm->rate, sizeof(sm->rate));
		h = fuzz_hash(h, &sm->intervals, sizeof(sm->intervals));
		h = fuzz_hash(h, sm->unit, strlen(sm->unit));
		if (sm->have & PARSE_HAVE_OPS)
			h = fuzz_hash(h, &sm->ops, sizeof(sm->ops));
	}
	return h;
}

struct fuzz_reading {
	uint64_t hash, events, intervals;
	struct parse_counters c;
};

/* A printed histogram's: counts that add up, percentiles within min..max; hashed. */
static void
fuzz_histogram(const struct lathist *h, struct fuzz_reading *r)
{
	uint64_t sum = 0, p;
	uint32_t i;

	if (h == NULL)
		return;
	for (i = h->lo; i < h->hi; i++)
		sum += h->bucket[i];
	fuzz_check(sum + h->overflow == h->count, "the histogram's buckets add up to its count");
	p = lathist_percentile(h, 99);
	fuzz_check(h->count == 0 || (p >= h->min && p <= h->max), "p99 within min..max");
	r->hash = fuzz_hash(r->hash, h, sizeof(*h));
}

/* Drains p's events into the reading, checking each. */
static void
fuzz_drain(struct parser *p, struct fuzz_reading *r)
{
	struct parse_event ev;

	while (parser_next(p, &ev)) {
		fuzz_check_event(&ev);
		r->hash = fuzz_hash_event(r->hash, &ev);
		r->events++;
		r->intervals += ev.type == PARSE_INTERVAL;
	}
}

/* One reading of data, whole or chunked; events are drained as a live step drains them. */
static void
fuzz_read(const char *name, const char *arg, const char *lat, const uint8_t *data, size_t size,
	  int chunked, struct fuzz_reading *out)
{
	char err[256];
	struct parser *p = parser_new(name, arg, err, sizeof(err));
	uint32_t pick = 2166136261u;
	size_t off = 0, n;

	if (p == NULL || (lat != NULL && parser_set_latency(p, lat, err, sizeof(err)) != 0)) {
		fprintf(stderr, "parser_new(%s): %s\n", name, err);
		abort();
	}
	memset(out, 0, sizeof(*out));
	out->hash = 14695981039346656037u;
	while (off < size) {
		n = size - off;
		if (chunked) {
			pick = (pick ^ data[off]) * 16777619u;
			n = 1 + pick % 64 < n ? 1 + pick % 64 : n;
		}
		parser_feed(p, (const char *)data + off, n);
		fuzz_drain(p, out);
		off += n;
	}
	parser_finish(p);
	fuzz_drain(p, out);
	out->c = *parser_counters(p);
	fuzz_histogram(parser_histogram(p), out);
	parser_free(p);
}

/* lat: --parse-lat's spec for a regex parser, or NULL. */
static void
fuzz_parser_lat(const char *name, const char *arg, const char *lat, const uint8_t *data,
		size_t size)
{
	struct fuzz_reading whole, pieces;

	fuzz_read(name, arg, lat, data, size, 0, &whole);
	fuzz_read(name, arg, lat, data, size, 1, &pieces);
	if (whole.hash != pieces.hash || whole.events != pieces.events ||
	    memcmp(&whole.c, &pieces.c, sizeof(whole.c)) != 0) {
		fprintf(stderr, "whole: %llu events, %llu lines; chunks: %llu events, %llu lines\n",
			(unsigned long long)whole.events, (unsigned long long)whole.c.lines,
			(unsigned long long)pieces.events, (unsigned long long)pieces.c.lines);
		abort();
	}
	fuzz_check(whole.c.dropped > 0 || whole.c.samples == whole.intervals,
		   "every interval event was counted as a sample");
	fuzz_check(whole.events - whole.intervals <= 1, "at most one summary");
	fuzz_check(whole.c.samples <= whole.c.lines, "at most one sample per line");
}

static void
fuzz_parser_one(const char *name, const char *arg, const uint8_t *data, size_t size)
{
	fuzz_parser_lat(name, arg, NULL, data, size);
}

#endif

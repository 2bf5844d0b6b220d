/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the JSON Lines stream reader.  Each input is read
 * twice: whole, and in chunks whose sizes the input itself decides.  Beyond
 * not crashing or leaking, the two readings must agree exactly, since a live
 * pipe delivers a stream in whatever pieces the network makes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small limits, so inputs of a few KiB reach the paths that stop keeping ticks. */
#define FUZZ_MAX_TICKS 40
#define FUZZ_MAX_CELLS 300

/* Reads every figure the TUI would, so the sanitizers check each one is in bounds. */
static double
fuzz_walk(struct stream_reader *r)
{
	const struct session *s = stream_reader_session(r);
	const struct analysis *a = stream_reader_analysis(r, NULL);
	const struct stream_tick *t;
	const struct stream_cpu *c;
	const struct contention *ct;
	const struct tick *k;
	double sum = 0;
	size_t i;
	int j, m;

	for (i = 0; i < stream_reader_nticks(r); i++) {
		t = stream_reader_tick(r, i);
		c = stream_reader_tick_cpus(r, t);
		for (j = 0; j < t->ncpu; j++)
			sum += c[j].id + stream_pct(c[j].busy) +
			       stream_pct(c[j].pct[CPU_NSTATES - 1]);
		if ((ct = stream_reader_tick_contention(r, t)) != NULL)
			sum += ct->vcsw_s;
		sum += t->t + t->rate + t->all.busy + t->sys.ctxsw_s;
	}
	for (j = 0; j < series_len(&s->ticks); j++) {
		k = series_at(&s->ticks, j);
		for (m = 0; m < s->ticks.ncpu; m++)
			sum += k->busy[m];
	}
	for (j = 0; j < s->nsteps; j++) {
		for (m = 0; m < s->steps[j].niv; m++)
			sum += s->steps[j].iv[m];
		for (m = 0; m < s->steps[j].ncpu; m++)
			sum += s->steps[j].cpu[m].busy;
	}
	for (j = 0; j < s->nevents; j++)
		sum += strlen(s->events[j].text);
	for (j = 0; a != NULL && j < a->npoints; j++)
		sum += a->pts[j].x;
	for (j = 0; s->wl.argv != NULL && s->wl.argv[j] != NULL; j++)
		sum += strlen(s->wl.argv[j]);
	for (j = 0; j < s->set.nn; j++)
		sum += s->set.n[j];
	return sum;
}

/* Everything the two readings must agree on, as text. */
static void
fuzz_summary(struct stream_reader *r, int rc, char *buf, size_t len)
{
	const struct session *s = stream_reader_session(r);
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len,
			     "rc %d err [%s] lines %llu ticks %zu steps %d events %d "
			     "series %lld ended %d header %d analysis %d notes",
			     rc, stream_reader_error(r), (unsigned long long)stream_reader_lines(r),
			     stream_reader_nticks(r), s->nsteps, s->nevents,
			     (long long)s->ticks.count, stream_reader_ended(r),
			     stream_reader_have_header(r), stream_reader_analysis(r, NULL) != NULL);
	for (i = 0; i < stream_reader_nnotes(r) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " [%s]", stream_reader_note(r, i));
}

static struct stream_reader *
fuzz_read(const uint8_t *data, size_t size, int chunked, int *rc)
{
	struct stream_reader *r = stream_reader_new("fuzz");
	uint32_t h = 2166136261u;
	size_t off = 0, n;

	if (r == NULL)
		abort();
	stream_reader_set_limits(r, FUZZ_MAX_TICKS, FUZZ_MAX_CELLS);
	*rc = 0;
	while (off < size && *rc == 0) {
		n = size - off;
		if (chunked) {
			/* FNV-1a over what came before picks the next chunk: 1 to 64 bytes. */
			h = (h ^ data[off]) * 16777619u;
			n = 1 + h % 64 < n ? 1 + h % 64 : n;
		}
		*rc = stream_reader_feed(r, data + off, n);
		off += n;
	}
	if (*rc == 0)
		*rc = stream_reader_finish(r);
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char whole[4096], pieces[4096];
	static volatile double sink;
	struct stream_reader *r;
	int rc;

	r = fuzz_read(data, size, 0, &rc);
	fuzz_summary(r, rc, whole, sizeof(whole));
	sink = fuzz_walk(r);
	stream_reader_free(r);
	r = fuzz_read(data, size, 1, &rc);
	fuzz_summary(r, rc, pieces, sizeof(pieces));
	sink = fuzz_walk(r);
	stream_reader_free(r);
	if (strcmp(whole, pieces) != 0) {
		fprintf(stderr, "whole:  %s\nchunks: %s\n", whole, pieces);
		abort();
	}
	(void)sink;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stream reader's state: its life, its messages and notes, and what the
 * viewer reads back from it.  The lowest of the reader's files (see
 * stream_priv.h): it calls none of the others.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_priv.h"

/* --- messages ------------------------------------------------------------- */

int
stream_fail(struct stream_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return -1;
	n = snprintf(r->err, sizeof(r->err), "%s%sline %llu: ", r->name ? r->name : "",
		     r->name ? ": " : "", (unsigned long long)r->line);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(r->err))
		n = (int)sizeof(r->err) - 1;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	st_printable(r->err);
	r->failed = true;
	return -1;
}

void
stream_note(struct stream_reader *r, const char *fmt, ...)
{
	char text[ST_ERRLEN];
	int n = 0;
	va_list ap;

	if (r->nnotes == STREAM_MAX_NOTES)
		return;
	if (r->name != NULL)
		n = snprintf(text, sizeof(text), "%s: ", r->name);
	if (n < 0 || (size_t)n >= sizeof(text))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	st_printable(text);
	if ((r->notes[r->nnotes] = strdup(text)) != NULL)
		r->nnotes++;
}

/* --- the reader's life and accessors -------------------------------------- */

struct stream_reader *
stream_reader_new(const char *name)
{
	struct stream_reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	if (name != NULL && (r->name = strdup(name)) == NULL) {
		free(r);
		return NULL;
	}
	session_init(&r->s);
	r->max_ticks = STREAM_MAX_TICKS;
	r->max_cells = STREAM_MAX_CELLS;
	return r;
}

void
stream_reader_free(struct stream_reader *r)
{
	int i;

	if (r == NULL)
		return;
	session_free(&r->s);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->an.pts);
	free(r->name);
	free(r->buf);
	free(r->ticks);
	free(r->cells);
	free(r->cts);
	free(r->tgs);
	free(r->wcells);
	free(r->row);
	free(r->busy);
	free(r);
}

void
stream_reader_set_limits(struct stream_reader *r, size_t max_ticks, size_t max_cells)
{
	if (max_ticks > 0)
		r->max_ticks = max_ticks;
	if (max_cells > 0)
		r->max_cells = max_cells;
}

const char *
stream_reader_error(const struct stream_reader *r)
{
	return r->failed ? r->err : "";
}

int
stream_reader_nnotes(const struct stream_reader *r)
{
	return r->nnotes;
}

const char *
stream_reader_note(const struct stream_reader *r, int i)
{
	return i >= 0 && i < r->nnotes ? r->notes[i] : NULL;
}

unsigned
stream_reader_changes(struct stream_reader *r)
{
	unsigned c = r->changes;

	r->changes = 0;
	return c;
}

uint64_t
stream_reader_lines(const struct stream_reader *r)
{
	return r->line;
}

bool
stream_reader_have_header(const struct stream_reader *r)
{
	return r->have_header;
}

bool
stream_reader_ended(const struct stream_reader *r)
{
	return r->ended;
}

struct session *
stream_reader_session(struct stream_reader *r)
{
	return &r->s;
}

const struct analysis *
stream_reader_analysis(const struct stream_reader *r, struct analysis_opts *o)
{
	if (r->have_an && o != NULL)
		*o = r->an_opts;
	return r->have_an ? &r->an : NULL;
}

size_t
stream_reader_nticks(const struct stream_reader *r)
{
	return r->nticks;
}

const struct stream_tick *
stream_reader_tick(const struct stream_reader *r, size_t i)
{
	return i < r->nticks ? &r->ticks[i] : NULL;
}

const struct stream_cpu *
stream_reader_tick_cpus(const struct stream_reader *r, const struct stream_tick *t)
{
	return t->ncpu > 0 ? r->cells + t->cpu_off : NULL;
}

const struct contention *
stream_reader_tick_contention(const struct stream_reader *r, const struct stream_tick *t)
{
	return t->ct_idx >= 0 ? &r->cts[t->ct_idx] : NULL;
}

const struct target_figures *
stream_reader_tick_target(const struct stream_reader *r, const struct stream_tick *t)
{
	return t->tg_idx >= 0 ? &r->tgs[t->tg_idx] : NULL;
}

const struct wait_share *
stream_reader_tick_waits(const struct stream_reader *r, const struct stream_tick *t, int *n)
{
	*n = t->nwaits;
	return t->nwaits > 0 ? r->wcells + t->waits_off : NULL;
}

double
stream_pct(uint16_t v)
{
	return v == STREAM_PCT_NONE ? NAN : v / 100.0;
}

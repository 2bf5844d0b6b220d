/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON Lines reader's framing: a stream fed in chunks of any size is cut
 * into lines, each at most STREAM_MAX_LINE bytes, each one JSON object whose
 * "type" picks its decoder (stream_tick.c for ticks, stream_records.c for
 * the rest).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/grow.h"
#include "stream_priv.h"

#define STREAM_READ_CHUNK 65536

/*
 * Nothing in the input is trusted: every index and count is range-checked
 * and what is kept is capped, so a hostile file costs bounded memory.
 */

/* --- lines ---------------------------------------------------------------- */

static const struct {
	const char *type;
	int (*read)(struct stream_reader *, json_t *);
} stream_types[] = {
	{ "header", stream_read_header },     { "tick", stream_read_tick },
	{ "step", stream_read_step },         { "event", stream_read_event },
	{ "analysis", stream_read_analysis }, { "end", stream_read_end },
};

static int
stream_dispatch(struct stream_reader *r, json_t *o, const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(stream_types) / sizeof(stream_types[0]); i++) {
		if (strcmp(type, stream_types[i].type) != 0)
			continue;
		if (!r->have_header && stream_types[i].read != stream_read_header)
			return stream_fail(r,
					   "\"%s\" before the header: a stream starts "
					   "with its header line",
					   type);
		return stream_types[i].read(r, o);
	}
	if (!r->noted_unknown)
		stream_note(r,
			    "line %llu: skipped a line of unknown type \"%.40s\" (and any "
			    "more like it): written by a newer scaletop?",
			    (unsigned long long)r->line, type);
	r->noted_unknown = true;
	return 0;
}

static bool
stream_blank(const char *p, size_t len)
{
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	return len == 0;
}

static int
stream_apply_line(struct stream_reader *r, const char *p, size_t len)
{
	json_error_t je;
	json_t *o, *type;
	int rc;

	if (stream_blank(p, len))
		return 0;
	if (r->ended)
		return stream_fail(r, "a line after the end line");
	if ((o = json_loadb(p, len, 0, &je)) == NULL)
		return stream_fail(r, "column %d: not JSON: %s", je.column, je.text);
	type = json_object_get(o, "type");
	if (!json_is_object(o))
		rc = stream_fail(r, "not a JSON object");
	else if (!json_is_string(type))
		rc = stream_fail(r, "no \"type\": every line says what it is");
	else
		rc = stream_dispatch(r, o, json_string_value(type));
	json_decref(o);
	return rc;
}

int
stream_reader_feed(struct stream_reader *r, const void *data, size_t len)
{
	const char *p = data, *nl;
	size_t take;

	if (r->failed)
		return -1;
	if (r->finished)
		return stream_fail(r, "more input after its end");
	while (len > 0) {
		nl = memchr(p, '\n', len);
		take = nl != NULL ? (size_t)(nl - p) : len;
		if (take > STREAM_MAX_LINE - r->len) {
			r->line++;
			return stream_fail(r, "longer than %d bytes: not a scaletop stream",
					   STREAM_MAX_LINE);
		}
		if (grow_array(&r->buf, &r->cap, r->len + take, 1, 16) != 0)
			return stream_fail(r, "out of memory");
		if (take > 0)
			memcpy(r->buf + r->len, p, take);
		r->len += take;
		if (nl == NULL)
			break;
		r->line++;
		if (stream_apply_line(r, r->buf, r->len) != 0)
			return -1;
		r->len = 0;
		p = nl + 1;
		len -= take + 1;
	}
	return 0;
}

int
stream_reader_finish(struct stream_reader *r)
{
	bool cut = r->len > 0 && !stream_blank(r->buf, r->len);

	if (r->finished || r->failed) {
		r->finished = true;
		return r->failed ? -1 : 0;
	}
	r->finished = true;
	if (cut)
		stream_note(r, "truncated: last line incomplete, replayed up to line %llu",
			    (unsigned long long)r->line);
	r->len = 0;
	if (!r->have_header) {
		snprintf(r->err, sizeof(r->err), "%s%s%s", r->name ? r->name : "",
			 r->name ? ": " : "",
			 r->line == 0 && !cut ? "empty: no header line, so not a scaletop stream"
					      : "no header line: not a scaletop stream");
		r->failed = true;
		return -1;
	}
	if (!cut && !r->ended)
		stream_note(r, "no end line: the recording stopped before the run finished");
	return 0;
}

int
stream_reader_load(struct stream_reader *r, const char *path)
{
	bool std = strcmp(path, "-") == 0;
	int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *chunk = malloc(STREAM_READ_CHUNK);
	ssize_t n = 0;

	if (fd == -1 || chunk == NULL) {
		snprintf(r->err, sizeof(r->err), "cannot open %s: %s", path,
			 fd == -1 ? strerror(errno) : "out of memory");
		r->failed = r->finished = true;
		free(chunk);
		return -1;
	}
	while ((n = read(fd, chunk, STREAM_READ_CHUNK)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(r->err, sizeof(r->err), "cannot read %s: %s", path,
				 strerror(errno));
			r->failed = true;
			break;
		}
		if (stream_reader_feed(r, chunk, (size_t)n) != 0)
			break;
	}
	free(chunk);
	if (!std)
		close(fd);
	return stream_reader_finish(r);
}

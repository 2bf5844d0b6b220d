/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A recording loaded as a snapshot, so that show, compare, export and the
 * TUI's overlays take a .jsonl wherever they take a .json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/snapshot.h"
#include "stream_priv.h"

#define STREAM_SNAPSHOT_CHUNK 65536

/*
 * The session is rebuilt by the one stream reader (the replay's), which
 * checks every line by the snapshot's own rules; this file only moves what
 * it rebuilt into a struct snapshot and says, in the snapshot's one warning
 * line, how the recording ended when it did not end well.
 *
 * No tick is kept for scrubbing (only the recent series a snapshot saves),
 * so memory is the reader's other bounds: lines of 1 MiB, 100,000 steps,
 * 1,000,000 events, whatever the file's size.
 */

static int
stream_snapshot_feed(struct stream_reader *r, int fd, const char *head, size_t len,
		     const char *name)
{
	char *chunk = malloc(STREAM_SNAPSHOT_CHUNK);
	ssize_t n;
	int rc = stream_reader_feed(r, head, len);

	while (rc == 0 && chunk != NULL && (n = read(fd, chunk, STREAM_SNAPSHOT_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->err, sizeof(r->err), "cannot read %s: %s", name,
				 strerror(errno));
			r->failed = true;
			rc = -1;
			break;
		}
		rc = stream_reader_feed(r, chunk, (size_t)n);
	}
	if (chunk == NULL) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", name);
		r->failed = true;
	}
	free(chunk);
	return stream_reader_finish(r);
}

/* The notes as one line: the first names the file, the others follow without it. */
static void
stream_snapshot_warning(const struct stream_reader *r, struct snapshot *snap)
{
	size_t off = 0, skip = r->name != NULL ? strlen(r->name) + 2 : 0;
	int i;

	for (i = 0; i < r->nnotes && off < sizeof(snap->warning); i++)
		off += (size_t)snprintf(snap->warning + off, sizeof(snap->warning) - off, "%s%s",
					i == 0 ? "" : "; ",
					r->notes[i] +
						(i == 0 || strlen(r->notes[i]) < skip ? 0 : skip));
	if (r->nnotes > 0 && off < sizeof(snap->warning))
		snprintf(snap->warning + off, sizeof(snap->warning) - off,
			 "; loaded its %d finished step%s", snap->s.nsteps,
			 snap->s.nsteps == 1 ? "" : "s");
}

/* What the reader rebuilt becomes the snapshot's; the reader is left empty. */
static void
stream_snapshot_take(struct stream_reader *r, struct snapshot *snap)
{
	session_free(&snap->s);
	snap->s = r->s;
	session_init(&r->s);
	if (r->have_an) {
		snap->saved = r->an;
		memset(&r->an, 0, sizeof(r->an));
		r->have_an = false;
	}
	snapshot_meta_default(&snap->meta, &snap->s);
	if (r->label[0] != '\0')
		snprintf(snap->meta.label, sizeof(snap->meta.label), "%s", r->label);
	if (r->taken[0] != '\0')
		snprintf(snap->meta.taken, sizeof(snap->meta.taken), "%s", r->taken);
	snprintf(snap->meta.tool_name, sizeof(snap->meta.tool_name), "%s",
		 r->tool_name[0] ? r->tool_name : "scaletop");
	snprintf(snap->meta.tool_version, sizeof(snap->meta.tool_version), "%s",
		 r->tool_version[0] ? r->tool_version : "?");
}

int
stream_snapshot_read(int fd, const char *head, size_t len, const char *name, struct snapshot *snap,
		     char *err, size_t errlen)
{
	struct stream_reader *r = stream_reader_new(name);
	struct analysis_opts o;
	int rc;

	snapshot_init(snap);
	snprintf(snap->name, sizeof(snap->name), "%s", name);
	if (r == NULL)
		return st_error(err, errlen, "%s: out of memory", name);
	r->ticks_full = true; /* no scrubbing here: the recent series is all a snapshot keeps */
	rc = stream_snapshot_feed(r, fd, head, len, name);
	if (rc != 0) {
		st_error(err, errlen, "%s", stream_reader_error(r));
		stream_reader_free(r);
		return -1;
	}
	stream_snapshot_take(r, snap);
	stream_snapshot_warning(r, snap);
	stream_reader_free(r);
	analysis_opts_for(&snap->s, &o);
	if (analysis_run(&snap->s, &o, &snap->now) != 0)
		return st_error(err, errlen, "%s: out of memory analysing it", name);
	return 0;
}

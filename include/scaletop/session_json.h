/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The session as one JSON object: `scaletop run --json` prints it, and it is
 * the body of a snapshot ("format": "scaletop-snapshot"); the loader is in
 * snapshot.h.  docs/snapshot-format.md describes every field.
 */
#ifndef SCALETOP_SESSION_JSON_H
#define SCALETOP_SESSION_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "scaletop/session.h"

#define SNAPSHOT_FORMAT "scaletop-snapshot"
#define SNAPSHOT_VERSION 1

/* The parts, for streams: everything but steps and events; one step; one event. */
struct json_t *session_json_header(const struct session *s);
struct json_t *session_json_step(const struct session *s, const struct step *st);
struct json_t *session_json_event(const struct event *e);
/* The session's own ticks (session_take_series), or null when it has none. */
struct json_t *session_json_series(const struct session *s);
/* New reference to the whole object, with its analysis; NULL on ENOMEM. */
struct json_t *session_json(const struct session *s);
/* The same with a label and time taken (ISO-8601 UTC); NULL for the defaults. */
struct json_t *session_json_labelled(const struct session *s, const char *label, const char *taken);
/* The default label: "hostname OS release". */
void session_json_label(const struct session *s, char *buf, size_t len);
/*
 * Writes it to f with a final newline, indented, each real in the fewest
 * digits that read back exactly; 0 or -1 (errno set).
 */
int session_json_write(FILE *f, const struct session *s);

#endif

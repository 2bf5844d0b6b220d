/*
 * The session as one JSON object: `scaletop run --json` prints it, and it is
 * the body of a snapshot ("format": "scaletop-snapshot").
 */
#ifndef SCALETOP_SESSION_JSON_H
#define SCALETOP_SESSION_JSON_H

#include <stdio.h>

#include "scaletop/session.h"

#define SNAPSHOT_FORMAT "scaletop-snapshot"
#define SNAPSHOT_VERSION 1

/* The parts, for streams: everything but steps and events; one step; one event. */
struct json_t *session_json_header(const struct session *s);
struct json_t *session_json_step(const struct session *s, const struct step *st);
struct json_t *session_json_event(const struct event *e);
/* New reference to the whole object; NULL on ENOMEM. */
struct json_t *session_json(const struct session *s);
/* Writes it to f, indented, with a final newline; 0 or -1 (errno set). */
int session_json_write(FILE *f, const struct session *s);

#endif

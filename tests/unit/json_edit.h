/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * For the tests that refuse a file: the JSON of a session with one member
 * changed, and what the snapshot loader says of it.  Shared by test_stream
 * and test_target_json, which check that a snapshot and a stream carrying
 * the same bad value are refused in the same words.
 */
#ifndef SCALETOP_TEST_JSON_EDIT_H
#define SCALETOP_TEST_JSON_EDIT_H

#include <jansson.h>
#include <stddef.h>

#include "scaletop/session.h"

/* Sets root's member at path ("settings.n.2": a dot between keys and indexes) to v (stolen); NULL
 * deletes it. */
void json_edit(json_t *root, const char *path, json_t *v);
/* The snapshot of s with path set to v: snapshot_parse's error ("" if it loads). */
void snapshot_error(const struct session *s, const char *path, json_t *v, char *err, size_t len);

#endif

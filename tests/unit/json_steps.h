/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The frame of the tests of one per-step JSON object (hot, locks, kstacks):
 * a small session for them to fill, its round trip through a snapshot and
 * a stream, and a refusal of one bad value.  Each test then compares its
 * own object.
 */
#ifndef SCALETOP_TEST_JSON_STEPS_H
#define SCALETOP_TEST_JSON_STEPS_H

#include <jansson.h>

#include "scaletop/session.h"
#include "scaletop/snapshot.h"
#include "scaletop/stream.h"

/* Workload wl with an ok step at each of n[0..nn-1]: two intervals, 1005 ops/s over 2 s. */
void json_steps_session(struct session *s, const char *wl, const int *n, int nn);
/*
 * s saved as dir/a.json and dir/a.jsonl (its header and every step) and both
 * read back, a TAP line each; 0 when both loaded with every step, and then
 * *snap (snapshot_free) and *r (stream_reader_free) are the caller's.
 */
int json_steps_round_trip(const struct session *s, const char *dir, struct snapshot *snap,
			  struct stream_reader **r);
/* The session make() builds, with path set to v (stolen), is refused in words naming want. */
void json_steps_refused(void (*make)(struct session *), const char *path, json_t *v,
			const char *want);

#endif

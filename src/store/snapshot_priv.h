/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the files of src/store/, snapshots' and streams': JSON text,
 * the sections' writers, and the analysis as JSON.  Nothing outside
 * src/store/ includes it.
 */
#ifndef SCALETOP_SNAPSHOT_PRIV_H
#define SCALETOP_SNAPSHOT_PRIV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scaletop/analysis.h"
#include "scaletop/error.h"
#include "scaletop/field_read.h"

/*
 * JSON text of v: indented by two, but an array of plain values, or a small
 * object of them, on one line; every real in the fewest digits that read
 * back as the same double.  Ends with a newline.  0, or -1 (ENOMEM, or the
 * stream's errno).
 */
int snapshot_text_write(FILE *f, const json_t *v);

/* --- reading checked fields (field_read.c) ------------------------------- */

/* The JSON types a field may have, ORed. */
/* --- a step's fairness member (snapshot_fairness.c) ---------------------- */

struct fairness;
/* null when the step has none (f->have false); NULL on ENOMEM. */
json_t *snapshot_fairness_json(const struct fairness *f);
/*
 * step's "fairness" into f: absent or null leaves f->have false (older
 * files, external commands).  0, or -1 with "name: path.fairness: why".
 */
int snapshot_fairness_read(struct field_ctx *c, const json_t *step, const char *spath,
			   struct fairness *f);

/* --- the target, the waits and the specs (session_json_target.c) --------- */

struct target_figures;
struct step;
struct sweep_settings;
/* A step's "target" object, or NULL when it has none (no --target; or ENOMEM). */
json_t *session_json_target(const struct target_figures *tg);
/* A step's "waits": [] when it has none; NULL on ENOMEM. */
json_t *session_json_waits(const struct step *st);
/* The same of any profile's n lines (a tick's, the window so far). */
struct wait_share;
json_t *session_json_wait_list(const struct wait_share *w, int n);
struct probe_join;
/* A step's "probe_join" (its --probe TID lines and how many joined), or NULL when none came. */
json_t *session_json_probe_join(const struct probe_join *j);
/* Adds "target" and "probe" to a settings object, each only when not empty.  0 or -1. */
int session_json_settings_specs(json_t *settings, const struct sweep_settings *set);

/* --- the host's fingerprint and a step's frequency (session_json_host.c) -- */

struct host_info;
/* Adds the fingerprint's members to a host object (null where unknown).  0, or -1 on ENOMEM. */
int session_json_fingerprint(json_t *host, const struct host_info *h);
/* A step's "freq_mhz": its mean CPU frequency, or null. */
json_t *session_json_freq(const struct step *st);

/* --- where the CPUs went (session_json_hot.c) --------------------------- */

struct step_hot;
/* A step's "hot": its sampled families' paths and spin; NULL on ENOMEM. */
json_t *session_json_hot(const struct step_hot *h);

/* --- fairness at an N (snapshot_fairness.c) ------------------------------ */

/* --- the analysis member (snapshot_analysis.c) --------------------------- */

/* The analysis as the "analysis" member of a snapshot; NULL on ENOMEM. */
json_t *snapshot_analysis_json(const struct analysis *a, const struct analysis_opts *o);
/*
 * Reads that member back into a (which it initialises; free it even on
 * failure) and o; 0, or -1 with "name: analysis.FIELD: what was expected".
 */
int snapshot_analysis_parse(struct field_ctx *c, const json_t *j, struct analysis *a,
			    struct analysis_opts *o);
/* "" when they agree; else one line saying what differs. */
void snapshot_analysis_diff(const struct analysis *saved, const struct analysis *now, char *buf,
			    size_t len);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one reader of the session's objects, as session_json.c writes them:
 * host, workload and settings (a snapshot's top level, a stream's header),
 * one step (an element of a snapshot's "steps", a stream's step line) and
 * one event.
 */
#ifndef SCALETOP_SESSION_READ_H
#define SCALETOP_SESSION_READ_H

#include <jansson.h>
#include <stdbool.h>

#include "scaletop/session.h"
#include "snapshot_priv.h"

/*
 * The snapshot loader and the stream reader both call it, so a file is
 * refused for the same reason, in the same words, whichever of the two
 * carries it; they add only their framing.  Messages go through the
 * field_ctx (snapshot_priv.h), which names the file or the stream's record.
 */

/* Most steps a file may hold: far more than any sweep makes. */
#define SESSION_READ_MAX_STEPS 100000
/* Most CPUs a host, a step or a series may have. */
#define SESSION_READ_MAX_CPUS 65536
/* Most samples a step, or ticks a series, may have. */
#define SESSION_READ_MAX_SAMPLES (1 << 24)

/*
 * parent's "host", "workload" and "settings" into s (its host and
 * sampler_note; its wl and set.mode; the rest of its set).  Strings that do
 * not fit are refused, N must ascend within [NLIST_MIN, NLIST_MAX].  0, or
 * -1 with "NAME: host.FIELD: why"; what was read so far stays in s, for
 * session_free.
 */
int session_read_host(struct field_ctx *c, const json_t *parent, struct session *s);
int session_read_workload(struct field_ctx *c, const json_t *parent, struct session *s);
int session_read_settings(struct field_ctx *c, const json_t *parent, struct session *s);

/*
 * One step object j, named path in messages ("steps[2]"; "" for a stream's
 * step line), into st, which it zeroes first.  Its statistics must agree
 * with its samples, its CPU ids ascend, each contention group be all numbers
 * or all null.  0, or -1 with a message; either way st's arrays are owned
 * by the caller (step_free, session.h).
 */
int session_read_step(struct field_ctx *c, const json_t *j, const char *path, struct step *st);
/* Most lines a step's wait profile may have: far more than the engine keeps. */
#define SESSION_READ_MAX_WAITS 256
/* How far each family's shares may sum from 1 (hand-edited files round them). */
#define SESSION_READ_WAIT_SUM_TOL 1e-3

/*
 * A step object's optional "target" (absent or null: none) into tg, and
 * "waits" (absent or []: none) into st->waits (st->n names it in messages;
 * free with step_free); the settings object's optional
 * "target" and "probe" lists into ss.  0, or -1 with a message.  Called by
 * session_read_step and session_read_settings (session_read_target.c).
 */
int session_read_target(struct field_ctx *c, const json_t *step, const char *spath,
			struct target_figures *tg);
int session_read_waits(struct field_ctx *c, const json_t *step, const char *spath, struct step *st);
/* step's "probe_join" into st->pjoin: absent or null is none. */
int session_read_probe_join(struct field_ctx *c, const json_t *step, const char *spath,
			    struct step *st);
int session_read_specs(struct field_ctx *c, const json_t *set, struct sweep_settings *ss);

/*
 * The host object j's fingerprint members (P names it: "host") into h, and a
 * step's optional "freq_mhz" into st->freq_mhz; each absent or null is
 * unknown (0 or "").  0, or -1 with a message (session_read_host.c).
 */
int session_read_fingerprint(struct field_ctx *c, const json_t *j, const char *P,
			     struct host_info *h);
int session_read_freq(struct field_ctx *c, const json_t *step, const char *P, struct step *st);

/*
 * A step's optional "hot" (absent or null: not sampled) into h: known
 * families, frames and names that fit, shares in 0..1 that sum to at most 1
 * a family.  0, or -1 with a message; h's arrays are the caller's either way
 * (step_hot_clear).  session_read_hot.c.
 */
int session_read_hot(struct field_ctx *c, const json_t *step, const char *P, struct step_hot *h);

/*
 * One event object j into e.  Its "step" must be null or 0..max_step.  An
 * unknown "kind" is refused, unless any_kind: then it is EV_INFO (a stream
 * may come from a newer scaletop, and a kind only says how to show the text).
 */
int session_read_event(struct field_ctx *c, const json_t *j, const char *path, int max_step,
		       bool any_kind, struct event *e);

#endif

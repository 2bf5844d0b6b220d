/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON Lines encoding of sample deltas: one compact object per interval,
 * {"type":"sample","time":...,"mono":...,"interval":...,"cpus":[...],
 * "all":{...},"sys":{...},"note":...}.  Figures that are unavailable are
 * null, never NaN.
 */
#ifndef SCALETOP_SAMPLE_JSON_H
#define SCALETOP_SAMPLE_JSON_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "scaletop/delta.h"

/*
 * Callers outside src/store/ see no JSON type: they use sample_json_write;
 * the store's own writers (the JSON Lines recorder, the snapshot) build on
 * the object encoders, which return jansson objects.
 */

struct json_t; /* jansson's json_t, known only inside src/store/ */

/* When and how an interval was measured, beyond the delta itself. */
struct sample_json_stamp {
	struct timespec wall; /* CLOCK_REALTIME when the newer sample was read */
	uint64_t mono_ns;     /* the newer sample's CLOCK_MONOTONIC time */
	const char *note;     /* sampler_note(), or NULL */
};

/*
 * {"cpu":N,"usr":..,"nice":..,"sys":..,"irq":..,"soft":..,"iowait":..,
 * "steal":..,"idle":..,"busy":..,"flags":[..]}; the "all" row (id -1) has no
 * "cpu" key.  Percentages carry two decimals, and are null when the flags say
 * the CPU has no data.  New reference for the caller; NULL on ENOMEM.
 */
struct json_t *sample_json_cpu(const struct cpu_usage *u);

/* {"ctxsw_s":..,"intr_s":..,"softirq_s":..,"syscall_s":..,"fork_s":..,"running":..,
 * "blocked":..,"psi_some_pct":..,"psi_full_pct":..}; null where unavailable. */
struct json_t *sample_json_sys(const struct sample_delta *d);

/* The whole interval object.  New reference; NULL on ENOMEM. */
struct json_t *sample_json_interval(const struct sample_delta *d,
				    const struct sample_json_stamp *st);

/* "2026-11-29T12:34:56.789Z" into buf (at least 32 bytes); 0 or -1. */
int sample_json_time(char *buf, size_t len, const struct timespec *ts);

/*
 * Writes one interval as a single line ending in '\n', with one fwrite so a
 * reader never sees part of an object from this call.  0, or -1 with errno
 * set (ENOMEM, or the stream's error such as EPIPE).
 */
int sample_json_write(FILE *f, const struct sample_delta *d, const struct sample_json_stamp *st);

#endif

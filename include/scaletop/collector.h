/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One per-step measurement as a table of operations: how the step context
 * opens, ticks and closes it over the measurement window, how the store
 * writes and reads its section of a step, and how run, show and compare
 * report it.  The table is src/measure/collectors.c; the engine gets it
 * from the sweep's config, so it never calls up into the measures.
 */
#ifndef SCALETOP_COLLECTOR_H
#define SCALETOP_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scaletop/session.h"

struct field_ctx;
struct step_ctx;
struct json_t;

/* Most collectors a table may hold: one a step's slot (session.h). */
#define COLLECTORS_MAX STEP_SLOTS

/*
 * Any operation may be NULL.  state is the collector's own block of size
 * bytes, allocated zeroed once per step context and kept from step to step
 * (begin starts it afresh); NULL when size is 0.  slot is the step's slot
 * for the collector's own figures (session.h): the i-th of the table's.
 */
struct collector {
	const char *key; /* its name, and its key in a step's JSON ("freq_range") */
	size_t size;     /* of its private state in the step context (0: none) */
	/* The measurement window (engine, step_ctx.c): begun in the table's order, ended in
	 * reverse. */
	void (*begin)(struct step_ctx *c, void *state, uint64_t now);
	void (*tick)(struct step_ctx *c, void *state, uint64_t now);
	void (*end)(struct step_ctx *c, void *state, struct step *st, struct step_slot *slot,
		    uint64_t now);
	void (*release)(struct step_ctx *c, void *state); /* the context is freed */
	/*
	 * The step's section of a snapshot or a stream line (store): write's
	 * NULL result writes nothing; read gets the member (NULL when absent)
	 * and fills the slot, or the step's own field for a measure the rest of
	 * the program reads (st->others); 0 or -1 with a message through f.
	 */
	struct json_t *(*write)(const struct step *st, const struct step_slot *slot);
	int (*read)(struct field_ctx *f, const struct json_t *v, const char *path, struct step *st,
		    struct step_slot *slot);
	/* Reports: lines after run's and show's table; lines in compare of k sessions. */
	void (*table)(FILE *f, const struct session *s, int slot);
	void (*compare)(FILE *f, const struct session *const *v, int k, int slot);
};

#endif

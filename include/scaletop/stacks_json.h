/* SPDX-License-Identifier: BSD-2-Clause */
/* A step's whole stacks in JSON, shared by the hot paths' and the kernel stacks' sections. */
#ifndef SCALETOP_STACKS_JSON_H
#define SCALETOP_STACKS_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "scaletop/field_read.h"
#include "scaletop/waits.h"

struct hot_stacks;

/* A "stacks" object: the frames' names once, each family's stacks; NULL on ENOMEM. */
json_t *stacks_write(const struct hot_stacks *s);

/*
 * parent's optional "stacks" (absent or null: none, *out NULL) into *out
 * (free with hot_stacks_free), with each family's counts and other summed
 * in total[]: names that fit, indices that name one, at most
 * HOT_STACKS_MAX a family.  0, or -1 with a message.
 */
int stacks_read(struct field_ctx *c, const json_t *parent, const char *P, struct hot_stacks **out,
		uint64_t total[WAIT_NFAMILIES]);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/* The results table, one row per step: what `scaletop run` and `show` print and the TUI's steps
 * view shows. */
#ifndef SCALETOP_STEP_TABLE_H
#define SCALETOP_STEP_TABLE_H

#include <stdio.h>

#include "scaletop/session.h"

void step_table_print(FILE *f, const struct session *s);
/*
 * The header and one row per step alone, in width columns (0: every column):
 * the least read columns go first, the status never.
 */
void step_table_steps(FILE *f, const struct session *s, int width);
/* The "hot:" section alone: each step's on-CPU paths and lock spin (step_table_hot.c). */
void step_table_hot(FILE *f, const struct session *s);

#endif

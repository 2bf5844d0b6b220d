/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The per-step measurements (collector.h), one a file in src/measure/, and
 * their table (collectors.c): what run and the TUI give the sweep, and what
 * the store writes, reads and reports a step's sections by.  A step's slot
 * i holds the figures of collectors[i].
 */
#ifndef SCALETOP_MEASURES_H
#define SCALETOP_MEASURES_H

#include "scaletop/collector.h"

extern const struct collector *const collectors[];
extern const int ncollectors;

#endif

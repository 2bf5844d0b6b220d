/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The phases a sweep goes through and their words, which the engine sets,
 * the views show and the snapshot and stream write: model data, so the
 * store reads and writes them without the engine's sweep.h.
 */
#ifndef SCALETOP_PHASE_H
#define SCALETOP_PHASE_H

enum sweep_phase {
	PHASE_IDLE,     /* before the first step */
	PHASE_STARTING, /* the step's child is starting its workers */
	PHASE_WARMUP,
	PHASE_MEASURING,
	PHASE_STOPPING,
	PHASE_DONE /* every step ran, or the sweep was stopped */
};
/* "idle", "starting", "warm-up", "measuring", "stopping", "done", indexed by enum sweep_phase. */
extern const char *const sweep_phase_names[PHASE_DONE + 1];

#endif

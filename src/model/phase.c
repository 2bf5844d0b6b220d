/* SPDX-License-Identifier: BSD-2-Clause */
/* The words for a sweep's phases (phase.h). */
#include "scaletop/phase.h"

const char *const sweep_phase_names[PHASE_DONE + 1] = {
	"idle", "starting", "warm-up", "measuring", "stopping", "done",
};

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU figures while no sweep runs (monitoring, or after a sweep), so the
 * CPU panel stays live.  The sweep samples through the same sampler while
 * it runs; this only fills the gaps.  --fake-cpus makes synthetic figures
 * for N CPUs instead: a test hook for the many-CPU layouts, never used for
 * measurement.
 */
#ifndef SCALETOP_TUI_IDLE_H
#define SCALETOP_TUI_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/delta.h"
#include "scaletop/platform.h"
#include "scaletop/session.h"

struct idle {
	struct sampler *smp; /* borrowed */
	struct raw_sample prev, cur;
	bool have_prev;
	struct sample_delta d; /* the last interval's figures */
	bool have;
	int fake;   /* synthetic CPUs, 0 for real ones */
	uint64_t k; /* ticks so far, for the synthetic pattern */
};

void idle_init(struct idle *id, struct sampler *smp, int fake_cpus);
void idle_free(struct idle *id);
/* Forget the previous sample (a sweep sampled in between). */
void idle_reset(struct idle *id);
/* Keep showing d (the finished sweep's last figures) and start sampling afresh. */
void idle_adopt(struct idle *id, const struct sample_delta *d);
/* Takes a sample, and records a tick (no step) in s->ticks, starting the series if needed. */
void idle_tick(struct idle *id, struct session *s, uint64_t now_ns);

#endif

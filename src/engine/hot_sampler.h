/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine/: where the CPUs went in a step's window.  The
 * on-CPU sampler (oncpu.h) samples every task on every CPU; this keeps the
 * samples of the workload's and the target's processes, by family, in the
 * window's tally (hotpaths.h), and names them at the window's end.
 */
#ifndef SCALETOP_ENGINE_HOT_SAMPLER_H
#define SCALETOP_ENGINE_HOT_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "scaletop/hotpaths.h"
#include "scaletop/oncpu.h"
#include "scaletop/session.h"

/*
 * It opens its events at the first window of a sweep and keeps them for
 * the sweep's life, enabled only while a window is open, so a step's
 * samples are its window's alone.  Where the events cannot be opened (no
 * permission, not Linux) it says why once and samples nothing after.
 */

/* Samples a second on each CPU: not a multiple of the kernel's HZ, so no tick lines up with it. */
#define HOT_SAMPLE_HZ 99
/* Paths, functions and spinning callers kept a family. */
#define HOT_PER_FAMILY 10
/* Processes first sampled whose maps are noted a tick: a read of one costs 0.05-0.2 ms. */
#define HOT_NOTES_PER_TICK 4

/* Called for a process the first time it is sampled (the symboliser reads its maps then). */
typedef void (*hot_note_fn)(void *arg, pid_t pid);

struct hot_sampler {
	struct oncpu *o;
	bool tried;    /* the events were asked for: a refusal is said once a sweep */
	bool counting; /* a window is open */
	struct hot_tally tally;
	pid_t *pids[2]; /* WAIT_WORKLOAD, WAIT_TARGET: sorted */
	size_t npids[2];
	struct perf_decode_stats st; /* this window's */
	pid_t *seen;                 /* processes sampled in the sweep, sorted */
	size_t nseen, capseen;
	pid_t *fresh; /* ... of which not yet noted */
	size_t nfresh, capfresh;
};

void hot_sampler_init(struct hot_sampler *h);
/* Closes the events and frees the tally. */
void hot_sampler_free(struct hot_sampler *h);

/* The processes of family f (WAIT_WORKLOAD or WAIT_TARGET), copied.  0, or -1 (ENOMEM). */
int hot_sampler_set_pids(struct hot_sampler *h, enum wait_family f, const pid_t *pids, size_t n);

/*
 * Opens a window: the events are opened on the first call (why gets the
 * reason when they cannot be, and 1 is returned, once), the tally emptied
 * and sampling enabled.  0 when sampling, 1 when it newly cannot, -1 when
 * it could not before either.
 */
int hot_sampler_begin(struct hot_sampler *h, char *why, size_t whylen);

/*
 * Empties the rings into the tally, on the ticks of a window, and notes up
 * to HOT_NOTES_PER_TICK processes sampled for the first time (note may be
 * NULL): a process that exits before the window ends is still named.
 * Never blocks.
 */
void hot_sampler_tick(struct hot_sampler *h, hot_note_fn note, void *arg);

/* The window's distinct kernel addresses, malloc'ed (NULL when none), *n of them. */
uint64_t *hot_sampler_kernel_addrs(const struct hot_sampler *h, size_t *n);

/*
 * Closes the window: the rings emptied, sampling stopped, and the tally
 * named by namer into out (which it clears first).  Nothing is kept when
 * no window was sampled.  0, or -1 (ENOMEM: out has nothing).
 */
int hot_sampler_end(struct hot_sampler *h, hot_namer namer, void *arg, hot_note_fn note,
		    struct step_hot *out);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where threads wait: a step's profile of thread-time by family (whose
 * threads), state and wait channel.  A collapse is a change in where the
 * threads spend their time (runnable instead of running, futex waits
 * instead of work), so the profile is kept per step and compared across N.
 */
#ifndef SCALETOP_WAITS_H
#define SCALETOP_WAITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The tally is built while a window runs, from whatever the samplers and
 * probes report, weighted by thread-seconds (or by count, for probe labels);
 * the shares it yields sum to 1 within each family.  Pure arithmetic.
 */

/* Whose threads: the workload's (built-in or --cmd), --target's, or a --probe's labels. */
enum wait_family { WAIT_WORKLOAD, WAIT_TARGET, WAIT_PROBE, WAIT_NFAMILIES };
extern const char *const wait_family_names[]; /* "workload", "target", "probe" */

/*
 * running: on a CPU; runnable: waiting for one; sleeping: blocked in the
 * kernel (the channel says where); uninterruptible: disk or similar, shown
 * apart; reported: a probe's label (the channel is the label); other:
 * stopped, traced, idle.
 */
enum wait_state {
	WS_RUNNING,
	WS_RUNNABLE,
	WS_SLEEPING,
	WS_UNINTERRUPTIBLE,
	WS_REPORTED,
	WS_OTHER,
	WS_NSTATES
};
extern const char *const wait_state_names[];

#define WAIT_CHANNEL_LEN 64

/* One line of a step's profile. */
struct wait_share {
	enum wait_family family;
	enum wait_state state;
	char channel[WAIT_CHANNEL_LEN]; /* wchan, wmesg, lock name or probe label; "" if none */
	double share;                   /* of the family's thread-time (or labels), 0..1 */
	int readings;                   /* the readings it rests on; 0: not known (older files) */
};

/*
 * A share resting on fewer readings than this is uncertain: its relative
 * standard error is about 1/sqrt(readings), 18% at 30 (docs/design-notes.md).
 */
#define WAIT_FEW_READINGS 30
/*
 * Whether a line rests on too few readings to be taken at its figure.
 * Running and runnable are schedstat's exact times, not a sampled state:
 * never uncertain.
 */
#define WAIT_UNCERTAIN(w)                                                                      \
	((w)->readings > 0 && (w)->readings < WAIT_FEW_READINGS && (w)->state != WS_RUNNING && \
	 (w)->state != WS_RUNNABLE)

/* A profile being built. */
struct wait_tally {
	struct wait_share *e; /* share holds the weight until wait_tally_shares */
	int n, cap;
};

void wait_tally_init(struct wait_tally *t);
void wait_tally_free(struct wait_tally *t);
/* Empties it, keeping the memory. */
void wait_tally_reset(struct wait_tally *t);
/*
 * Adds weight (> 0) to (family, state, channel), one reading more; channel
 * NULL is "".  0, or -1 (ENOMEM).
 */
int wait_tally_add(struct wait_tally *t, enum wait_family f, enum wait_state s, const char *channel,
		   double weight);
/* The weight tallied for a family. */
double wait_tally_total(const struct wait_tally *t, enum wait_family f);

/*
 * The tally as shares: per family, largest first, at most max_per_family
 * lines (the rest of a family folded into one line of its state "other"
 * with channel "(rest)"), each family's shares summing to 1.  *out is
 * malloc'ed (NULL when the tally is empty).  0, or -1 (ENOMEM).
 */
int wait_tally_shares(const struct wait_tally *t, int max_per_family, struct wait_share **out,
		      int *n);

/* The summed share of family f in state s (and channel, unless NULL) in a profile. */
double wait_share_of(const struct wait_share *w, int n, enum wait_family f, enum wait_state s,
		     const char *channel);

/* Whether a family has any line in a profile. */
bool wait_has_family(const struct wait_share *w, int n, enum wait_family f);

/* The name's enum, or -1 (for readers of files). */
int wait_family_from_name(const char *name);
int wait_state_from_name(const char *name);

#endif

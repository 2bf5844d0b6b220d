/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A histogram of the kernel stacks blocked threads wait in: where in the
 * kernel a family's blocked thread-time goes, beyond the one function its
 * wait channel names.
 */
#ifndef SCALETOP_KSTACKS_H
#define SCALETOP_KSTACKS_H

#include <stddef.h>

#include "scaletop/sample_types.h"
#include "scaletop/session.h"
#include "scaletop/waits.h"

#define KSTACK_KEY_FRAMES 4
#define KSTACK_MAX_KEYS 512   /* distinct stacks a window tallies; the rest count in the total */
#define KSTACK_TICK_MAX 64    /* stacks one tick may add, all families */
#define KSTACK_MAX_WHOLE 4096 /* distinct whole stacks a window tallies, for flame graphs */

/*
 * Pure (model): the caller reads the stacks (platform.h's
 * thread_kstack_read) of a few of each tick's blocked readings and hands
 * them in; a stack is tallied by its first KSTACK_KEY_FRAMES frames after
 * the context switch's own (__schedule, mi_switch, sleepq_switch ...),
 * joined by ';'.
 *
 * Weights: a tick reads the stacks of k of its m blocked readings of a
 * family, the first k in the sampler's random order, so each stands for
 * m / k readings; each counts its reading's blocked time times m / k
 * (closed by kstack_tally_tick), which makes a stack's share an unbiased
 * estimate of its share of the family's blocked thread-time.
 *
 * Feeding it, each tick and family:
 *   kstack_tally_blocked(t, f)            for every blocked reading (m);
 *   kstack_tally_add(t, f, &ks, weight)   for each stack read (k);
 *   kstack_tally_tick(t, f)               after the family's readings.
 */

struct kstack_tally;

struct kstack_tally *kstack_tally_new(void);
void kstack_tally_free(struct kstack_tally *t);
/* Forgets every stack and count: a new window. */
void kstack_tally_reset(struct kstack_tally *t);

/*
 * The key of a stack into out (len bytes): its first KSTACK_KEY_FRAMES
 * frames after the leading context-switch frames, joined by ';' ("" for no
 * frames; the switch's frames themselves when there is nothing else).
 */
void kstack_key(const struct kstack *ks, char *out, size_t len);
/* Whether a frame is the context switch itself, which every blocked stack has. */
bool kstack_frame_is_switch(const char *name);

/* One blocked reading of family f in the open tick, its stack read or not. */
void kstack_tally_blocked(struct kstack_tally *t, enum wait_family f);
/*
 * A stack read of a blocked reading of family f that stands for weight of
 * blocked time.  0, or -1 (ENOSPC: the tick's room is spent; ENOMEM; EINVAL:
 * no frames): the reading is then not counted as read.
 */
int kstack_tally_add(struct kstack_tally *t, enum wait_family f, const struct kstack *ks,
		     double weight);
/* Closes family f's tick: its stacks weighed by its blocked readings over those read. */
void kstack_tally_tick(struct kstack_tally *t, enum wait_family f);

/* Stacks read in the window, all families (the ticks closed). */
unsigned long kstack_tally_reads(const struct kstack_tally *t);
/*
 * Family f's top stacks, most weight first, at most max, into out (family,
 * key, share of the family's weighed stacks, readings).  The count.
 */
int kstack_tally_top(const struct kstack_tally *t, enum wait_family f, struct step_kstack *out,
		     int max);
/*
 * The window's whole stacks (the ticks closed), every frame, root first,
 * each family's counts in milliseconds of weighed blocked thread-time,
 * what lies past KSTACK_MAX_WHOLE or HOT_STACKS_MAX in other[f]; a
 * family's counts and other add up to its weighed time, rounded to the
 * millisecond.  *out is NULL when nothing was weighed.  0, or -1 (ENOMEM).
 */
struct hot_stacks;
int kstack_tally_stacks(const struct kstack_tally *t, struct hot_stacks **out);

#endif

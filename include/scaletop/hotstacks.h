/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A step's whole stacks, for flame graphs (`export --folded`): every
 * distinct stack a window saw, up to HOT_STACKS_MAX a family, each with its
 * count, and what lies past the cap as one count a family ("[other]"), so
 * the counts add up to the family's samples.  The hot paths (hotpaths.h)
 * keep a step's top few paths for the views; these keep them all.
 */
#ifndef SCALETOP_HOTSTACKS_H
#define SCALETOP_HOTSTACKS_H

#include <stdint.h>

#include "scaletop/hotpaths.h"
#include "scaletop/waits.h"

#define HOT_STACKS_MAX 2048    /* distinct stacks kept a family; the rest count as "[other]" */
#define HOT_STACK_NAME_LEN 256 /* a frame's name, cut to fit (C++ names are long) */
#define HOT_STACK_DEPTH 128    /* frames a stack may have */

/*
 * Frames are stored once each in a table of names; a stack is a run of
 * indices into it, root (outermost) first, its last nkernel frames the
 * kernel's (the leaf end).  The on-CPU stacks come from the window's tally
 * and the same namer as the hot paths: a user address the namer answers -2
 * for (in no executable mapping) ends the stack there, that frame and the
 * outer ones dropped; -1 leaves the frame unnamed, printed as its address.
 * Chains whose names are equal are one stack.  Pure code: no I/O.
 */

/* One stack: frame[at .. at + nframes) of its set, root first. */
struct hot_stack {
	enum wait_family family;
	uint32_t at, nframes, nkernel;
	uint64_t count;
};

/* A step's stacks of one kind (on-CPU samples, or blocked milliseconds). */
struct hot_stacks {
	char **name; /* each distinct frame's name, owned */
	int nnames, capnames;
	uint32_t *frame; /* the stacks' frames, indices into name */
	size_t nframe, capframe;
	struct hot_stack *stack;
	int nstacks, capstacks;
	uint64_t other[WAIT_NFAMILIES]; /* what lies past the cap, and samples not kept */
	struct stacks_index *idx;       /* while built: names and stacks hashed */
};

struct hot_stacks *hot_stacks_new(void);
void hot_stacks_free(struct hot_stacks *s);

/* A name's index, added when new (names are kept once): the index, or -1 (ENOMEM). */
int hot_stacks_name_index(struct hot_stacks *s, const char *name);
/*
 * Adds count to family f's stack of frames idx[0 .. n) (name indices, root
 * first, the last nkernel the kernel's), merged with an equal stack already
 * there.  0, or -1 (ENOMEM; EINVAL: an index or nkernel out of range).
 */
int hot_stacks_add(struct hot_stacks *s, enum wait_family f, const uint32_t *idx, int n,
		   int nkernel, uint64_t count);
/* The same for frames given by name. */
int hot_stacks_add_names(struct hot_stacks *s, enum wait_family f, const char *const *names, int n,
			 int nkernel, uint64_t count);
/*
 * Keeps each family's max stacks of most count (max 0: all), the rest added
 * to other[f], orders them by family then count, and drops the building's
 * hashes (no add after it).
 */
void hot_stacks_finish(struct hot_stacks *s, int max);

/*
 * The stacks of a tally named by namer (hotpaths.h), with the tally's own
 * "(other)" in other[f]: each family's counts and other add up to
 * t->samples[f].  *out is NULL when the tally is empty.  0, or -1 (ENOMEM).
 */
int hot_stacks_from_tally(const struct hot_tally *t, hot_namer namer, void *arg, int max,
			  struct hot_stacks **out);

/* Family f's count, its stacks and other together. */
uint64_t hot_stacks_total(const struct hot_stacks *s, enum wait_family f);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The thread/client counts of a sweep (-n): a spec such as "1,2,4",
 * "1-16" or "1-64x2" into a sorted list.
 */
#ifndef SCALETOP_NLIST_H
#define SCALETOP_NLIST_H

#include <stddef.h>

#include "scaletop/topology.h"

#define NLIST_MIN 1
#define NLIST_MAX 4096

/*
 * The thread/client counts of a sweep (-n).  A spec is a comma-separated
 * list of items, blanks around them allowed:
 *
 *   8          one count
 *   1-16       every count from 1 to 16
 *   1-64x2     1, 2, 4 ... 64: start at A, multiply by F while <= B
 *   topo       the machine's boundaries (nlist_parse_topo): 1, 2, every
 *              mark's N (topology_marks), all CPUs, 2x and 4x them, and the
 *              powers of two up to 4x the CPUs
 *
 * A geometric range always ends with B, even when the series steps over it
 * (1-48x2 is 1,2,4,8,16,32,48; 3-20x4 is 3,12,20): the user wrote B as the
 * top, and the sweep should reach it.  Items combine ("1-4,8,16-64x2"); the
 * result is sorted and de-duplicated, each count in [NLIST_MIN, NLIST_MAX].
 *
 * Pure code.  The caller owns the struct; nlist_free releases its array.
 */

struct nlist {
	int *v; /* ascending, no duplicates; owned, malloc'd */
	size_t count;
};

/*
 * Parses spec into nl (which it initialises; free it even on failure).
 * Returns 0, or -1 with a one-line message in err naming the item, its
 * column (1-based) and what to write instead.
 */
int nlist_parse(struct nlist *nl, const char *spec, char *err, size_t errlen);
/*
 * The same with the item topo expanded from t; t NULL or unknown (online 0)
 * refuses topo as nlist_parse does.
 */
int nlist_parse_topo(struct nlist *nl, const char *spec, const struct topology *t, char *err,
		     size_t errlen);
/* -n topo alone: -1 when t is unknown (then use nlist_default) or out of memory. */
int nlist_topo(struct nlist *nl, const struct topology *t);

/*
 * The default sweep for a machine with ncpu CPUs: doubling from 1 up to
 * 2 x ncpu, with ncpu and 2 x ncpu themselves included (6 CPUs: 1,2,4,6,8,12;
 * 2 CPUs: 1,2,4).  ncpu < 1 is taken as 1; the top is capped at NLIST_MAX.
 * Returns -1 only when out of memory.
 */
int nlist_default(struct nlist *nl, int ncpu);

/*
 * Writes the counts as "1,2,4" into buf; a list that does not fit ends
 * with "...".  Returns buf.
 */
char *nlist_format(const struct nlist *nl, char *buf, size_t len);

void nlist_free(struct nlist *nl);

#endif

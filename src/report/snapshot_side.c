/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A side of compare made of several snapshots: an OS comparison is one
 * sweep per boot, so each file's trials join the side as trials of their
 * own (compare_stats.h takes each trial's mean as a sample).  The steps
 * move, not copy; the N lists join; the analysis is recomputed over all the
 * steps, so the table and the verdict are the side's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/report.h"

/*
 * The boots are counted, for the line that says whether a reboot's variation
 * was measured at all.
 */

/* Adds one file's boot id to the side's tally. */
static void
side_boot(struct snapshot *side, const char *id)
{
	int i;

	if (id[0] == '\0') {
		side->boots_unknown++;
		return;
	}
	for (i = 0; i < side->nboots && i < SNAPSHOT_SIDE_BOOTS; i++) {
		if (strcmp(side->boot[i], id) == 0)
			return;
	}
	if (side->nboots < SNAPSHOT_SIDE_BOOTS)
		snprintf(side->boot[side->nboots], sizeof(side->boot[0]), "%s", id);
	side->nboots++;
}

/* The side starts as its first file. */
static void
side_begin(struct snapshot *side)
{
	if (side->files > 0)
		return;
	side->files = 1;
	side_boot(side, side->s.host.boot_id);
}

int
snapshot_side_files(const struct snapshot *sn)
{
	return sn->files > 0 ? sn->files : 1;
}

int
snapshot_side_boots(const struct snapshot *sn, int *unknown)
{
	if (sn->files > 0) {
		*unknown = sn->boots_unknown;
		return sn->nboots;
	}
	*unknown = sn->s.host.boot_id[0] == '\0';
	return !*unknown;
}

/* The union of two ascending N lists into *set (replacing its list). */
static int
side_nlist(struct sweep_settings *set, const struct sweep_settings *more)
{
	int *n = malloc(sizeof(*n) * (size_t)(set->nn + more->nn + 1)), i = 0, j = 0, k = 0;

	if (n == NULL)
		return -1;
	while (i < set->nn || j < more->nn) {
		if (j >= more->nn || (i < set->nn && set->n[i] < more->n[j]))
			n[k++] = set->n[i++];
		else if (i >= set->nn || more->n[j] < set->n[i])
			n[k++] = more->n[j++];
		else {
			n[k++] = set->n[i++];
			j++;
		}
	}
	free(set->n);
	set->n = n;
	set->nn = k;
	return 0;
}

/* Moves more's steps to the end of s's, each trial numbered after s's last. */
static int
side_steps(struct session *s, struct session *more)
{
	struct step *np;
	int i, off = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].trial + 1 > off)
			off = s->steps[i].trial + 1;
	}
	np = realloc(s->steps, sizeof(*np) * (size_t)(s->nsteps + more->nsteps + 1));
	if (np == NULL)
		return -1;
	s->steps = np;
	s->capsteps = s->nsteps + more->nsteps + 1;
	for (i = 0; i < more->nsteps; i++) {
		s->steps[s->nsteps] = more->steps[i];
		s->steps[s->nsteps++].trial += off;
	}
	/* The steps' intervals, CPUs and waits are s's now. */
	more->nsteps = 0;
	s->set.trials += more->set.trials > 1 ? more->set.trials : 1;
	return 0;
}

int
snapshot_side_add(struct snapshot *side, struct snapshot *more, char *err, size_t errlen)
{
	struct analysis_opts o;
	size_t len;

	side_begin(side);
	if (side->s.set.trials < 1)
		side->s.set.trials = 1;
	if (side_nlist(&side->s.set, &more->s.set) != 0 || side_steps(&side->s, &more->s) != 0) {
		snprintf(err, errlen, "%s: out of memory joining it to %s", more->name, side->name);
		errno = ENOMEM;
		return -1;
	}
	side->files++;
	side_boot(side, more->s.host.boot_id);
	if (strcmp(side->s.wl.name, more->s.wl.name) != 0 && side->warning[0] == '\0') {
		len = strlen(side->warning);
		snprintf(side->warning + len, sizeof(side->warning) - len,
			 "%s: workload %s, but %s of the same side ran %s; their trials are "
			 "pooled all the same",
			 more->name, more->s.wl.name, side->name, side->s.wl.name);
	}
	analysis_free(&side->now);
	analysis_opts_for(&side->s, &o);
	if (analysis_run(&side->s, &o, &side->now) != 0) {
		snprintf(err, errlen, "%s: out of memory recomputing the analysis", side->name);
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/model/: the verdict, the one sentence that sums up a
 * scaling analysis.  analysis.c fills a verdict_ctx from the session and
 * the options; analysis_verdict.c writes the sentence from it alone.
 */
#ifndef SCALETOP_MODEL_ANALYSIS_VERDICT_H
#define SCALETOP_MODEL_ANALYSIS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/analysis.h"
#include "scaletop/topology.h"

/* Speedup at the first N above 1 under this: no SMP scaling. */
#define ANALYSIS_NO_SMP_SPEEDUP 1.1

/* What the verdict needs besides the analysis. */
struct verdict_ctx {
	const struct analysis *a;
	double eff_min, theta;
	const char *n_unit; /* plural */
	const char *unit;   /* plural: what an operation is */
	char one[32];       /* n_unit in the singular */
	bool peak_unstable; /* a run pooled into the peak was unstable */
	/* The machine's boundaries (topology_marks), so a peak or a collapse on one is named. */
	struct topo_mark marks[TOPO_MAX_MARKS];
	int nmarks;
	/* Where the sentence's clauses go (the analysis' part and nparts), or NULL. */
	struct verdict_part *part;
	int *nparts;
};

/* "threads" -> "thread", "processes" -> "process", "CPUs" -> "CPU". */
void verdict_singular(const char *plural, char *buf, size_t len);
/* The verdict sentence into buf (always NUL-terminated, cut to len), and its clauses. */
void verdict_build(const struct verdict_ctx *c, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/model/: which of the steps' others served the workload
 * (analysis_serving.c), for the busy machine's rule and the verdict.
 */
#ifndef SCALETOP_MODEL_ANALYSIS_SERVING_H
#define SCALETOP_MODEL_ANALYSIS_SERVING_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/analysis.h"

/* The commands of s's others that served its workload into v (none: v->n 0). */
void analysis_serving_find(const struct session *s, struct analysis_serving *v);
/* Whether comm is one of v's. */
bool analysis_serving_is(const struct analysis_serving *v, const char *comm);
/* The CPUs v's commands used over st's window, as its others name them. */
double analysis_serving_cpus(const struct analysis_serving *v, const struct step *st);

/*
 * "postgres served the workload (0.8 to 1.5 CPUs): --target comm:postgres
 * shows its waits", the verdict's clause, into buf, brief without what
 * follows the ')'; "" when none was found or --target names each.
 */
void analysis_serving_text(const struct analysis_serving *v, bool brief, char *buf, size_t len);

#endif

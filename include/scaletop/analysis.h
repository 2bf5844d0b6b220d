/*
 * Scaling analysis: pure functions of the session's steps.  Repeated runs of
 * one N are pooled (their mean) before anything is compared.
 */
#ifndef SCALETOP_ANALYSIS_H
#define SCALETOP_ANALYSIS_H

#include "scaletop/session.h"

/* Throughput at N: the mean over that N's usable (ok or unstable) steps; NaN if none. */
double analysis_throughput_at(const struct session *s, int n);
/* X(N)/X(1); NaN without a usable N=1 step. */
double analysis_speedup(const struct session *s, int n);
/* X(N)/(N X(1)); NaN without a usable N=1 step. */
double analysis_efficiency(const struct session *s, int n);
/* true for the steps whose figures may be used (ok or unstable). */
bool step_usable(const struct step *st);

#endif

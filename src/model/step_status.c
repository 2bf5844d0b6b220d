/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether a step's figures may be used, and the status it is shown with:
 * how it ended (session.h), except that an
 * ok step whose 95% CI is wider than a quarter of its mean is "noisy"
 * (STATS_NOISY_CI_FRAC), so that "ok" means a figure to rely on.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scaletop/analysis.h"
#include "scaletop/stats.h"

/*
 * It is derived from the step's figures, never stored apart from them, so a
 * file written before the mark existed reads the same; and the N at which a
 * sweep is noisy, which the verdict and compare name.
 */

bool
step_usable(const struct step *st)
{
	return (st->status == STEP_OK || st->status == STEP_UNSTABLE) && st->ops_s > 0;
}

bool
step_noisy(const struct step *st)
{
	return st->status == STEP_OK && step_usable(st) && stats_is_noisy(&st->st);
}

const char *
step_status_word(const struct step *st)
{
	return step_noisy(st) ? "noisy" : step_status_names[st->status];
}

double
step_ci_frac(const struct step *st)
{
	if (!st->st.have_spread || !(st->st.mean > 0))
		return NAN;
	return stats_ci(&st->st) / st->st.mean;
}

double
analysis_noisy_at(const struct session *s, int n)
{
	double worst = 0;
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n && step_noisy(&s->steps[i]))
			worst = fmax(worst, step_ci_frac(&s->steps[i]));
	}
	return worst;
}

void
analysis_noisy(const struct session *s, const struct analysis *a, struct analysis_noisy *z)
{
	double frac;
	int i;

	memset(z, 0, sizeof(*z));
	for (i = 0; i < s->nsteps; i++)
		z->steps += step_noisy(&s->steps[i]);
	for (i = 0; i < a->npoints; i++) {
		if (!((frac = analysis_noisy_at(s, a->pts[i].n)) > 0))
			continue;
		if (z->count < ANALYSIS_NOISY_SHOWN)
			z->n[z->count] = a->pts[i].n;
		z->count++;
		z->ci_frac = fmax(z->ci_frac, frac);
	}
}

void
analysis_noisy_text(const struct analysis_noisy *z, char *buf, size_t len)
{
	size_t k;
	int i;

	buf[0] = '\0';
	if (z->count == 0 || len == 0)
		return;
	snprintf(buf, len, "low confidence: %s at N=", z->steps == 1 ? "the step" : "steps");
	for (i = 0; i < z->count && i < ANALYSIS_NOISY_SHOWN; i++) {
		k = strlen(buf);
		snprintf(buf + k, len - k, "%s%d", i > 0 ? "," : "", z->n[i]);
	}
	k = strlen(buf);
	if (z->count > ANALYSIS_NOISY_SHOWN)
		snprintf(buf + k, len - k, " and %d more", z->count - ANALYSIS_NOISY_SHOWN);
	k = strlen(buf);
	snprintf(buf + k, len - k, " %s noisy (CI %s+-%.0f%%)", z->steps == 1 ? "is" : "are",
		 z->steps == 1 ? "" : "up to ", 100 * z->ci_frac);
}

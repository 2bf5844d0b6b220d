/* Speedup and efficiency against the single-worker step. */
#include <math.h>

#include "scaletop/analysis.h"

bool
step_usable(const struct step *st)
{
	return (st->status == STEP_OK || st->status == STEP_UNSTABLE) && st->ops_s > 0;
}

double
analysis_throughput_at(const struct session *s, int n)
{
	double sum = 0;
	int i, k = 0;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n == n && step_usable(&s->steps[i])) {
			sum += s->steps[i].ops_s;
			k++;
		}
	}
	return k > 0 ? sum / k : NAN;
}

double
analysis_speedup(const struct session *s, int n)
{
	double x1 = analysis_throughput_at(s, 1);

	return isnan(x1) ? NAN : analysis_throughput_at(s, n) / x1;
}

double
analysis_efficiency(const struct session *s, int n)
{
	return analysis_speedup(s, n) / n;
}

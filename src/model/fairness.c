/* SPDX-License-Identifier: BSD-2-Clause */
/* Fairness across a step's workers (fairness.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/fairness.h"

static int
fairness_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Jain's index; in doubles, since the squares of large counts overflow 64 bits. */
static double
fairness_jain(const uint64_t *x, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += (double)x[i];
		sq += (double)x[i] * (double)x[i];
	}
	return sq > 0 ? sum * sum / ((double)n * sq) : NAN;
}

int
fairness_compute(struct fairness *f, const uint64_t *x, int n)
{
	uint64_t *sorted;
	int i;

	memset(f, 0, sizeof(*f));
	if (n < 1 || (sorted = malloc((size_t)n * sizeof(*sorted))) == NULL)
		return -1;
	memcpy(sorted, x, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), fairness_cmp);
	f->workers = n;
	f->min = sorted[0];
	f->max = sorted[n - 1];
	f->median = n % 2 ? (double)sorted[n / 2]
			  : ((double)sorted[n / 2 - 1] + (double)sorted[n / 2]) / 2;
	f->jain = fairness_jain(x, n);
	for (i = 0; i < n && sorted[i] == 0; i++)
		f->starved++;
	f->have = true;
	free(sorted);
	return 0;
}

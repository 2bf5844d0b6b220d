/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing where the CPUs went: at each N that two snapshots or more
 * sampled on-CPU, each one's share of a family's CPU that spun in a lock,
 * in the kernel and in user space, with the caller that spun most, its
 * hottest function (by its own samples) and its hottest path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/report.h"
#include "compare_priv.h"

/*
 * A lock that spins in B and not in A is the kernel or server change a
 * comparison looks for (the seed study's fd table).  Repeats of an N are
 * pooled by their mean; the caller and path are the sampled step's with the
 * most samples.  Called by snapshot_compare.c after the waits.
 */

static char
ch_letter(int i)
{
	return (char)('A' + i);
}

/*
 * The mean spin share of family fam at n over the sampled usable steps
 * (NaN: none), its user part's mean in *user (when not NULL), and the step
 * with the most samples in *best.
 */
static double
ch_spin_at(const struct snapshot *sn, int n, enum wait_family fam, const struct step **best,
	   double *user)
{
	const struct step *st;
	double sum = 0, usum = 0;
	int i, k = 0;

	*best = NULL;
	for (i = 0; i < sn->s.nsteps; i++) {
		st = &sn->s.steps[i];
		if (st->n != n || !step_usable(st) || !st->hot.present || st->hot.samples[fam] == 0)
			continue;
		sum += st->hot.spin_share[fam];
		usum += st->hot.user_spin_share[fam];
		k++;
		if (*best == NULL || st->hot.samples[fam] > (*best)->hot.samples[fam])
			*best = st;
	}
	if (user != NULL)
		*user = k > 0 ? usum / k : NAN;
	return k > 0 ? sum / k : NAN;
}

/* The N (ascending, distinct) of every snapshot's sampled steps; malloc'ed, *nn of them. */
static int *
ch_all_n(struct snapshot *const *v, int k, int *nn)
{
	int i, j, m, total = 0, *n;

	*nn = 0;
	for (i = 0; i < k; i++)
		total += v[i]->s.nsteps;
	if (total == 0 || (n = malloc((size_t)total * sizeof(*n))) == NULL)
		return NULL;
	for (i = 0; i < k; i++) {
		for (j = 0; j < v[i]->s.nsteps; j++) {
			if (!v[i]->s.steps[j].hot.present)
				continue;
			for (m = 0; m < *nn && n[m] != v[i]->s.steps[j].n; m++)
				;
			if (m == *nn)
				n[(*nn)++] = v[i]->s.steps[j].n;
		}
	}
	for (i = 1; i < *nn; i++) /* a few dozen N: insertion sort */
		for (j = i; j > 0 && n[j] < n[j - 1]; j--)
			m = n[j], n[j] = n[j - 1], n[j - 1] = m;
	return n;
}

/*
 * One snapshot's line at n: "  B spin 19.2% (kernel 19.2%, user 0.0%)
 * _raw_spin_lock from file_close_fd  self 30.1% f  hot a < b".
 */
static void
ch_line(FILE *f, const struct snapshot *sn, int i, int n, enum wait_family fam)
{
	const struct step *st;
	double user, sp = ch_spin_at(sn, n, fam, &st, &user);
	int j, m;

	if (st == NULL) {
		fprintf(f, "  %c -\n", ch_letter(i));
		return;
	}
	fprintf(f, "  %c spin %5.1f%% (kernel %.1f%%, user %.1f%%)", ch_letter(i), 100 * sp,
		100 * (sp - user), 100 * user);
	for (j = 0; j < st->hot.nspins; j++)
		if (st->hot.spins[j].family == fam) {
			fprintf(f, " %s%s%s", st->hot.spins[j].spin,
				st->hot.spins[j].caller[0] ? " from " : "",
				st->hot.spins[j].caller);
			break;
		}
	for (j = 0; j < st->hot.nselfs; j++)
		if (st->hot.selfs[j].family == fam) {
			fprintf(f, "  self %.1f%% %s", 100 * st->hot.selfs[j].share,
				st->hot.selfs[j].func);
			break;
		}
	for (j = 0; j < st->hot.npaths; j++)
		if (st->hot.paths[j].family == fam) {
			fprintf(f, "  hot %.1f%%", 100 * st->hot.paths[j].share);
			for (m = 0; m < st->hot.paths[j].nframes && m < 3; m++)
				fprintf(f, "%s%s", m ? " < " : " ", st->hot.paths[j].frame[m]);
			break;
		}
	fputc('\n', f);
}

/* Whether two snapshots or more sampled family fam at n. */
static bool
ch_shared(struct snapshot *const *v, int k, int n, enum wait_family fam)
{
	const struct step *st;
	int i, have = 0;

	for (i = 0; i < k; i++) {
		(void)ch_spin_at(v[i], n, fam, &st, NULL);
		have += st != NULL;
	}
	return have >= 2;
}

void
snapshot_compare_hot_text(FILE *f, struct snapshot *const *v, int k)
{
	static const enum wait_family fams[] = { WAIT_TARGET, WAIT_WORKLOAD };
	bool header = false;
	int nn, *n = ch_all_n(v, k, &nn), i, j, fi;

	for (i = 0; i < nn; i++) {
		for (fi = 0; fi < 2; fi++) {
			if (!ch_shared(v, k, n[i], fams[fi]))
				continue;
			if (!header)
				fprintf(f, "\nhot: the CPU that spun in locks (kernel, user), "
					   "with the caller that spun most, the hottest function "
					   "and the hottest path, at each N\n");
			header = true;
			fprintf(f, "N=%d %s\n", n[i], wait_family_names[fams[fi]]);
			for (j = 0; j < k; j++)
				ch_line(f, v[j], j, n[i], fams[fi]);
		}
	}
	free(n);
}

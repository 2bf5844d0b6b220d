/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * export --folded: a snapshot's whole stacks (hotstacks.h) in the
 * collapsed-stack format flamegraph.pl, inferno and speedscope read, one
 * line a stack: its frames root first joined by ';', a space, its count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/hotstacks.h"
#include "scaletop/report.h"
#include "compare_priv.h"

/*
 * The root frame is the family ("workload" or "target"), as perf's
 * collapsers put the command first; with every N, a frame "N=4" above it
 * keeps the steps apart.  The steps of one N (repeats, trials) are added
 * together, and what lay past a step's cap is one "[other]" frame, so a
 * family's counts add up to its samples at that N (on-CPU), or to its
 * blocked thread-time in milliseconds (--off-cpu).
 */

struct folded_job {
	const struct snapshot *sn;
	int n; /* 0: every N */
	bool offcpu;
};

static const struct hot_stacks *
step_stacks(const struct step *st, bool offcpu)
{
	return offcpu ? st->kstacks.stacks : st->hot.stacks;
}

/* A frame as the format can carry it: no ';' (the separator), no control bytes, not empty. */
static void
frame_put(FILE *f, const char *name)
{
	const unsigned char *p;

	if (name[0] == '\0') {
		fputs("[unknown]", f);
		return;
	}
	for (p = (const unsigned char *)name; *p != '\0'; p++)
		fputc(*p == ';' ? ':' : *p < 0x20 || *p == 0x7f ? '?' : *p, f);
}

/* Every step at N added into one set; other[] the steps' others. */
static struct hot_stacks *
stacks_at(const struct folded_job *j, int n)
{
	const struct hot_stacks *s;
	const struct hot_stack *k;
	struct hot_stacks *all = hot_stacks_new();
	const char *name[HOT_STACK_DEPTH];
	int i, m, f;
	uint32_t x;

	for (i = 0; all != NULL && i < j->sn->s.nsteps; i++) {
		if (j->sn->s.steps[i].n != n ||
		    (s = step_stacks(&j->sn->s.steps[i], j->offcpu)) == NULL)
			continue;
		for (f = 0; f < WAIT_NFAMILIES; f++)
			all->other[f] += s->other[f];
		for (m = 0; m < s->nstacks; m++) {
			k = &s->stack[m];
			for (x = 0; x < k->nframes; x++)
				name[x] = s->name[s->frame[k->at + x]];
			if (hot_stacks_add_names(all, k->family, name, (int)k->nframes,
						 (int)k->nkernel, k->count) != 0) {
				hot_stacks_free(all);
				return NULL;
			}
		}
	}
	if (all != NULL)
		hot_stacks_finish(all, 0);
	return all;
}

static void
line_start(FILE *f, const struct folded_job *j, int n, enum wait_family fam)
{
	if (j->n == 0)
		fprintf(f, "N=%d;", n);
	fputs(wait_family_names[fam], f);
}

static int
folded_n(FILE *f, const struct folded_job *j, int n)
{
	struct hot_stacks *s = stacks_at(j, n);
	const struct hot_stack *k;
	int i, fam;
	uint32_t x;

	if (s == NULL)
		return -1;
	for (i = 0; i < s->nstacks; i++) {
		k = &s->stack[i];
		line_start(f, j, n, k->family);
		for (x = 0; x < k->nframes; x++) {
			fputc(';', f);
			frame_put(f, s->name[s->frame[k->at + x]]);
		}
		fprintf(f, " %llu\n", (unsigned long long)k->count);
	}
	for (fam = 0; fam < WAIT_NFAMILIES; fam++)
		if (s->other[fam] > 0) {
			line_start(f, j, n, (enum wait_family)fam);
			fprintf(f, ";[other] %llu\n", (unsigned long long)s->other[fam]);
		}
	hot_stacks_free(s);
	return 0;
}

/* Whether a step at N (any, with 0) has stacks of the kind asked. */
static bool
have_stacks(const struct folded_job *j, int n)
{
	int i;

	for (i = 0; i < j->sn->s.nsteps; i++)
		if ((n == 0 || j->sn->s.steps[i].n == n) &&
		    step_stacks(&j->sn->s.steps[i], j->offcpu) != NULL)
			return true;
	return false;
}

static int
folded_fill(FILE *f, void *arg)
{
	const struct folded_job *j = arg;
	int i;

	for (i = 0; i < j->sn->s.set.nn; i++)
		if ((j->n == 0 || j->sn->s.set.n[i] == j->n) && have_stacks(j, j->sn->s.set.n[i]) &&
		    folded_n(f, j, j->sn->s.set.n[i]) != 0)
			return -1;
	return ferror(f) ? -1 : 0;
}

static int
folded_check(const struct folded_job *j, char *err, size_t errlen)
{
	const struct session *s = &j->sn->s;
	int i;

	for (i = 0; j->n != 0 && i < s->set.nn && s->set.n[i] != j->n; i++)
		;
	if (j->n != 0 && i == s->set.nn)
		return st_error(err, errlen,
				"%s: no step at N=%d; give an N of its sweep (%d to %d)",
				j->sn->name, j->n, s->set.nn > 0 ? s->set.n[0] : 0,
				s->set.nn > 0 ? s->set.n[s->set.nn - 1] : 0);
	for (i = 0; j->offcpu && i < s->nsteps; i++)
		if ((j->n == 0 || s->steps[i].n == j->n) && s->steps[i].kstacks.present &&
		    !have_stacks(j, j->n))
			return st_error(err, errlen,
					"%s: no blocked thread's kernel stack was read%s (%s); "
					"give an N where threads blocked, or a longer run",
					j->sn->name, j->n != 0 ? " at that N" : "",
					s->steps[i].kstacks.unreadable[0]
						? s->steps[i].kstacks.unreadable
						: "none was found blocked when read");
	if (!have_stacks(j, j->n))
		return st_error(
			err, errlen,
			j->offcpu ? "%s: no kernel stacks of blocked threads%s (a run with "
				    "--no-locks, not as root, or from before flame graphs); "
				    "run it again as root without --no-locks"
				  : "%s: no on-CPU stacks%s (a run with --no-hot, where "
				    "perf_event is not allowed, or from before flame graphs); "
				    "run it again without --no-hot",
			j->sn->name, j->n != 0 ? " at that N" : "");
	return 0;
}

int
snapshot_folded_write(const char *path, bool force, const struct snapshot *sn, int n, bool offcpu,
		      char *err, size_t errlen)
{
	struct folded_job j = { sn, n, offcpu };

	if (folded_check(&j, err, errlen) != 0)
		return -1;
	if (path == NULL || strcmp(path, "-") == 0) {
		errno = 0;
		if (folded_fill(stdout, &j) != 0 || fflush(stdout) != 0)
			return st_error(err, errlen, "standard output: %s",
					errno ? strerror(errno) : "write failed");
		return 0;
	}
	return snapshot_atomic_write(path, force, folded_fill, &j, err, errlen);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results table's "others:" section (step_table.c prints it after the
 * kernel stacks): per step, the CPUs other processes used over its window
 * (st->others) and the busiest commands, with how much of the total the
 * names cover: a build's short-lived compilers are in the total but seldom
 * in a scan.
 */
#include <stdio.h>

#include "scaletop/others.h"
#include "scaletop/step_table.h"

/*
 * "  N=1    1.42 CPUs: cc1 x3 0.90, make 0.20 (names cover 77%)": N= keeps the
 * line apart from the step rows, a number and a rate.
 */
static void
others_line(FILE *f, const struct step *st)
{
	const struct step_others *o = &st->others;
	char names[160];

	others_names_text(o, STEP_OTHERS_TOP, names, sizeof(names));
	fprintf(f, "  N=%-4d %.2f CPUs", st->n, o->cpus);
	if (names[0] != '\0')
		fprintf(f, ": %s", names);
	if (o->cpus >= 0.005)
		fprintf(f, " (names cover %.0f%%)",
			100.0 * (o->named_cpus < o->cpus ? o->named_cpus / o->cpus : 1));
	fputc('\n', f);
}

void
step_table_others(FILE *f, const struct session *s)
{
	int i;
	bool any = false;

	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].others.known;
	if (!any)
		return;
	fprintf(f, "others: the CPUs other processes used over each window, and the busiest by "
		   "name (from scans about a second apart)\n");
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].others.known)
			others_line(f, &s->steps[i]);
	}
}

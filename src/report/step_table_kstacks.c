/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results table's "kernel stacks:" section (step_table.c prints it
 * after the locks): per step and family, the top kernel stacks its blocked
 * threads waited in (st->kstacks), each its first frames and its share of
 * the family's blocked time whose stack was read, with the reads it rests
 * on; or, where none could be read, why, once.
 */
#include <stdio.h>

#include "scaletop/step_table.h"

/* Stacks shown per step and family. */
#define TABLE_KSTACKS_SHOWN 3

/* "     8 workload  71.2% futex_do_wait;__futex_wait;futex_wait;do_futex (38 read)" */
static void
kstacks_line(FILE *f, const struct step *st, const struct step_kstack *k, bool first)
{
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[k->family]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[k->family]);
	fprintf(f, " %5.1f%% %s (%lu read)\n", 100.0 * k->share, k->stack, k->readings);
}

void
step_table_kstacks(FILE *f, const struct session *s)
{
	const struct step_kstacks *k;
	const char *why = NULL;
	enum wait_family fam;
	bool any = false, first;
	int i, j, shown;

	for (i = 0; i < s->nsteps; i++) {
		k = &s->steps[i].kstacks;
		any = any || (k->present && k->n > 0);
		if (k->present && k->unreadable[0] != '\0' && why == NULL)
			why = k->unreadable;
	}
	if (!any) {
		if (why != NULL)
			fprintf(f, "kernel stacks: none read (%s)\n", why);
		return;
	}
	fprintf(f,
		"kernel stacks: the top %d of each family's blocked threads (their first frames), "
		"by share of the blocked time whose stack was read\n",
		TABLE_KSTACKS_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		k = &s->steps[i].kstacks;
		first = true;
		for (fam = WAIT_WORKLOAD; k->present && fam <= WAIT_TARGET; fam++) {
			for (j = shown = 0; j < k->n && shown < TABLE_KSTACKS_SHOWN; j++) {
				if (k->top[j].family != fam)
					continue;
				kstacks_line(f, &s->steps[i], &k->top[j], first);
				first = false;
				shown++;
			}
		}
	}
	if (why != NULL)
		fprintf(f, "kernel stacks: some families' were not read (%s)\n", why);
}

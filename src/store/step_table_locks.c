/*
 * The results table's "locks:" section (step_table.c prints it after the
 * hot paths): per step and family, the top locks its blocked threads
 * waited on (the lock census, st->ulocks), each with its share of the
 * family's blocked time, its name and process, its kind, the most waiters
 * at once, the distinct threads, and its holder where one was read.
 */
#include <stdio.h>

#include "scaletop/step_table.h"

/* Locks shown per step and family. */
#define TABLE_LOCKS_SHOWN 3

/* "N=8 target 41.0% lock_sys+64 (mariadbd) mutex, 7 waiters at once, 12 threads, held by 4711
 * running" */
static void
locks_line(FILE *f, const struct step *st, const struct step_ulock *u, bool first)
{
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[u->family]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[u->family]);
	fprintf(f, " %5.1f%% %s", 100.0 * u->share, u->name);
	if (u->comm[0] != '\0')
		fprintf(f, " (%s)", u->comm);
	fprintf(f, " %s, %u waiter%s at once, %u thread%s", u->kind, u->max_waiters,
		u->max_waiters == 1 ? "" : "s", u->threads, u->threads == 1 ? "" : "s");
	if (u->owner > 0)
		fprintf(f, ", held by %d%s%s", (int)u->owner, u->owner_state[0] ? " " : "",
			u->owner_state);
	fputc('\n', f);
}

void
step_table_locks(FILE *f, const struct session *s)
{
	const struct step_locks *l;
	enum wait_family fam;
	bool any = false, first;
	int i, j, shown;

	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].ulocks.present && s->steps[i].ulocks.n > 0;
	if (!any)
		return;
	fprintf(f,
		"locks: the top %d futexes each family's blocked threads waited on, by share of "
		"its "
		"blocked time\n",
		TABLE_LOCKS_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		l = &s->steps[i].ulocks;
		first = true;
		for (fam = WAIT_WORKLOAD; l->present && fam <= WAIT_TARGET; fam++) {
			for (j = shown = 0; j < l->n && shown < TABLE_LOCKS_SHOWN; j++) {
				if (l->lock[j].family != fam)
					continue;
				locks_line(f, &s->steps[i], &l->lock[j], first);
				first = false;
				shown++;
			}
		}
	}
}

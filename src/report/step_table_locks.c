/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results table's "locks:" section (step_table.c prints it after the
 * hot paths): per step and family, the top locks its blocked threads
 * waited on, then its idle waits.
 */
#include <stdio.h>

#include "scaletop/step_table.h"

/*
 * The results table's "locks:" section (step_table.c prints it after the
 * hot paths): per step and family, the top locks its blocked threads
 * waited on (the lock census, st->ulocks), each with its share of the
 * family's blocked time, its name and process, its kind, the most waiters
 * at once, the distinct threads, where a lock named by its call site lies,
 * and its holder where one was verified, else why not; then the family's
 * idle waits (lock_census.h), apart, marked "idle wait".
 */

/* Locks shown per step and family. */
#define TABLE_LOCKS_SHOWN 3

/*
 * "     8 target    41.0% lock_sys+64 (mariadbd) mutex, 7 waiters at once, 12 threads, held by
 * 4711 running"; an idle wait says "idle wait: " before its name, a lock named by its call site
 * where it lies, and a lock with no verified holder why.
 */
static void
locks_line(FILE *f, const struct step *st, const struct step_ulock *u, bool first)
{
	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[u->family]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[u->family]);
	fprintf(f, " %5.1f%% %s%s", 100.0 * u->share, u->idle ? "idle wait: " : "", u->name);
	if (u->comm[0] != '\0')
		fprintf(f, " (%s)", u->comm);
	fprintf(f, " %s, %u waiter%s at once, %u thread%s", u->kind, u->max_waiters,
		u->max_waiters == 1 ? "" : "s", u->threads, u->threads == 1 ? "" : "s");
	if (u->mapping[0] != '\0')
		fprintf(f, ", at %s", u->mapping);
	if (u->owner > 0)
		fprintf(f, ", held by %d%s%s", (int)u->owner, u->owner_state[0] ? " " : "",
			u->owner_state);
	else if (!u->idle)
		fprintf(f, ", owner unknown%s%s", u->owner_why[0] ? ": " : "", u->owner_why);
	fputc('\n', f);
}

/* Family fam's locks of step i, the contended (idle false) or the idle: at most shown of them. */
static void
locks_of(FILE *f, const struct step *st, enum wait_family fam, bool idle, bool *first)
{
	const struct step_locks *l = &st->ulocks;
	int j, shown;

	for (j = shown = 0; j < l->n && shown < TABLE_LOCKS_SHOWN; j++) {
		if (l->lock[j].family != fam || l->lock[j].idle != idle)
			continue;
		locks_line(f, st, &l->lock[j], *first);
		*first = false;
		shown++;
	}
}

void
step_table_locks(FILE *f, const struct session *s)
{
	enum wait_family fam;
	bool any = false, first;
	int i;

	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].ulocks.present && s->steps[i].ulocks.n > 0;
	if (!any)
		return;
	fprintf(f,
		"locks: the top %d futexes each family's blocked threads waited on, by share of "
		"its blocked time; then its idle waits (workers waiting for work on a condition "
		"variable: not contention)\n",
		TABLE_LOCKS_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		first = true;
		for (fam = WAIT_WORKLOAD; s->steps[i].ulocks.present && fam <= WAIT_TARGET; fam++) {
			locks_of(f, &s->steps[i], fam, false, &first);
			locks_of(f, &s->steps[i], fam, true, &first);
		}
	}
}

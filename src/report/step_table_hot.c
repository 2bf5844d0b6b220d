/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results table's "hot:" section (step_table.c prints it after the
 * waits): per step and sampled family, the samples, the share of its CPU
 * that spun in locks (in the kernel, in user space) and by which callers,
 * its hottest functions by their own samples, and its hottest paths.
 */
#include <stdio.h>
#include <string.h>

#include "scaletop/step_table.h"

/* Paths and spinning callers shown per step and family; frames shown of a path. */
#define TABLE_HOT_SHOWN 3
#define TABLE_HOT_FRAMES 4

/* "a < b < c < d": the innermost frames of a path. */
static void
hot_path_text(const struct hot_path *p, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < p->nframes && i < TABLE_HOT_FRAMES && used < len; i++) {
		snprintf(buf + used, len - used, "%s%s", i > 0 ? " < " : "", p->frame[i]);
		used = strlen(buf);
	}
	if (p->nframes > TABLE_HOT_FRAMES && used + 6 < len)
		snprintf(buf + used, len - used, " < ...");
}

/*
 * "spin 38.2% (kernel 38.2%, user 0.0%): native_queued_spin_lock_slowpath
 * from alloc_fd 30.1%, ...": the user spin's callers marked "(user)".
 */
static void
hot_spins(FILE *f, const struct step_hot *h, enum wait_family fam)
{
	int i, shown = 0;

	fprintf(f, ", spin %.1f%% (kernel %.1f%%, user %.1f%%)", 100.0 * h->spin_share[fam],
		100.0 * (h->spin_share[fam] - h->user_spin_share[fam]),
		100.0 * h->user_spin_share[fam]);
	for (i = 0; i < h->nspins && shown < TABLE_HOT_SHOWN; i++) {
		if (h->spins[i].family != fam)
			continue;
		fprintf(f, "%s %s%s%s %.1f%%%s", shown ? "," : ":", h->spins[i].spin,
			h->spins[i].caller[0] ? " from " : "", h->spins[i].caller,
			100.0 * h->spins[i].share, h->spins[i].user ? " (user)" : "");
		shown++;
	}
}

/* "self 62.0% spinlock_ticket_wait, 30.1% spinlock_work, ...": the top functions. */
static void
hot_selfs(FILE *f, const struct step_hot *h, enum wait_family fam)
{
	int i, shown = 0;

	for (i = 0; i < h->nselfs && shown < TABLE_HOT_SHOWN; i++) {
		if (h->selfs[i].family != fam)
			continue;
		fprintf(f, "%s %.1f%% %s", shown ? "," : "                self",
			100.0 * h->selfs[i].share, h->selfs[i].func);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

static void
hot_family(FILE *f, const struct step *st, enum wait_family fam, bool first)
{
	const struct step_hot *h = &st->hot;
	char path[TABLE_HOT_FRAMES * (HOT_NAME_LEN + 3) + 8];
	int i, shown = 0;

	if (first)
		fprintf(f, "%6d %-8s", st->n, wait_family_names[fam]);
	else
		fprintf(f, "%6s %-8s", "", wait_family_names[fam]);
	fprintf(f, "  %llu samples", (unsigned long long)h->samples[fam]);
	hot_spins(f, h, fam);
	fputc('\n', f);
	hot_selfs(f, h, fam);
	for (i = 0; i < h->npaths && shown < TABLE_HOT_SHOWN; i++) {
		if (h->paths[i].family != fam)
			continue;
		hot_path_text(&h->paths[i], path, sizeof(path));
		fprintf(f, "%15s %5.1f%%  %s\n", "", 100.0 * h->paths[i].share, path);
		shown++;
	}
}

void
step_table_hot(FILE *f, const struct session *s)
{
	enum wait_family fam;
	bool any = false, first;
	int i;

	for (i = 0; i < s->nsteps && !any; i++)
		any = s->steps[i].hot.present;
	if (!any)
		return;
	fprintf(f,
		"hot: on-CPU samples of each family, the CPU that spun in locks (kernel, user; by "
		"caller), the top %d functions by their own samples, and the top %d paths "
		"(innermost first)\n",
		TABLE_HOT_SHOWN, TABLE_HOT_SHOWN);
	for (i = 0; i < s->nsteps; i++) {
		first = true;
		for (fam = WAIT_WORKLOAD; fam <= WAIT_TARGET; fam++) {
			if (!s->steps[i].hot.present || s->steps[i].hot.samples[fam] == 0)
				continue;
			hot_family(f, &s->steps[i], fam, first);
			first = false;
		}
	}
}

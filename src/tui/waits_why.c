/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The waits view's "why" panel: what the wait profile cannot show, at each
 * N.  A thread that spins in a lock is "running" in the bars above; its
 * call chain says which lock (steps' "hot": the CPU that spun, in the
 * kernel and in user space, by the caller that took the lock), and the
 * hottest path says where the rest of the CPU went.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"

/*
 * The server's threads come first when a target was sampled.
 */

/* The step at n with the most samples of family fam, or NULL. */
static const struct step *
why_step_at(const struct session *s, int n, enum wait_family fam)
{
	const struct step *best = NULL;
	int i;

	for (i = 0; i < s->nsteps; i++) {
		const struct step *st = &s->steps[i];

		if (st->n != n || !step_usable(st) || !st->hot.present || st->hot.samples[fam] == 0)
			continue;
		if (best == NULL || st->hot.samples[fam] > best->hot.samples[fam])
			best = st;
	}
	return best;
}

/* The family the panel speaks of: the target's when any step sampled it. */
static int
why_family(const struct session *s)
{
	int i, f = -1;

	for (i = 0; i < s->nsteps; i++) {
		if (!s->steps[i].hot.present)
			continue;
		if (s->steps[i].hot.samples[WAIT_TARGET] > 0)
			return WAIT_TARGET;
		if (s->steps[i].hot.samples[WAIT_WORKLOAD] > 0)
			f = WAIT_WORKLOAD;
	}
	return f;
}

int
waits_why_rows(const struct frame *f)
{
	return f->an != NULL && why_family(f->s) >= 0 ? f->an->npoints + 1 : 0;
}

/* "spin 19.2% (kernel 19.2%, user 0.0%) _raw_spin_lock from file_close_fd". */
static void
why_spin(const struct step_hot *h, enum wait_family fam, char *buf, size_t len)
{
	int i;

	snprintf(buf, len, "spin %5.1f%% (kernel %.1f%%, user %.1f%%)", 100.0 * h->spin_share[fam],
		 100.0 * (h->spin_share[fam] - h->user_spin_share[fam]),
		 100.0 * h->user_spin_share[fam]);
	for (i = 0; i < h->nspins; i++) {
		if (h->spins[i].family != fam)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), " %s%s%s", h->spins[i].spin,
			 h->spins[i].caller[0] ? " from " : "", h->spins[i].caller);
		return;
	}
}

/* "23.1% a < b < c": the family's hottest path, three frames of it. */
static void
why_path(const struct step_hot *h, enum wait_family fam, char *buf, size_t len)
{
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < h->npaths; i++) {
		if (h->paths[i].family != fam)
			continue;
		snprintf(buf, len, "hot %4.1f%%", 100.0 * h->paths[i].share);
		for (j = 0; j < h->paths[i].nframes && j < 3; j++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", j ? " < " : " ",
				 h->paths[i].frame[j]);
		return;
	}
}

void
waits_why_draw(const struct frame *f, struct rect r)
{
	const struct analysis *an = f->an;
	char title[96], spin[2 * HOT_NAME_LEN + 64], path[4 * HOT_NAME_LEN + 16];
	const struct step *st;
	struct rect in;
	int fam = why_family(f->s), i, y, w;

	if (fam < 0 || an == NULL)
		return;
	snprintf(title, sizeof(title), "why: the %s's CPU at each N (on-CPU samples)",
		 wait_family_names[fam]);
	in = ui_titled(r, title);
	/* The last N kept when they do not all fit. */
	i = an->npoints > in.h ? an->npoints - in.h : 0;
	for (y = in.y; i < an->npoints && y < in.y + in.h; i++) {
		st = why_step_at(f->s, an->pts[i].n, (enum wait_family)fam);
		if (st == NULL)
			continue;
		why_spin(&st->hot, (enum wait_family)fam, spin, sizeof(spin));
		why_path(&st->hot, (enum wait_family)fam, path, sizeof(path));
		w = ui_putf(y, in.x + 1, in.w - 1, theme_attr(ROLE_MAIN), "N=%-5d ", an->pts[i].n);
		w += ui_put(y, in.x + 1 + w, in.w - 1 - w,
			    theme_attr(st->hot.spin_share[fam] >= 0.10 ? ROLE_WARNING : ROLE_MAIN),
			    spin);
		ui_putf(y, in.x + 1 + w, in.w - 1 - w, theme_attr(ROLE_INACTIVE), "   %s", path);
		y++;
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The waits view's locks (the lock census, steps' "locks"): a futex wait in
 * the bars says the threads waited, not on what.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"

/*
 * Each N's row ends with its family's top lock, "big_lock 87% 7w" (its mean
 * share of the blocked time, the most waiters at once), '-' where the census
 * saw none and nothing where none ran; and a panel lists one step's locks
 * with how they were named (a stack scan is a heuristic, and says so) and
 * who held them (or why that is not known): the selected step's (up/down),
 * else the last censused one's.  An idle wait (a pool's workers on a
 * condition variable, lock_census.h) is listed after the contended, marked
 * "idle", and never ends a row.  The census keeps a step's locks when it
 * ends, so the running step has none yet.
 */

/* A lock's panel lines fit on one row from this width; below, two rows a lock. */
#define LK_WIDE 150

bool
waits_locks_any(const struct session *s)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].ulocks.present)
			return true;
	}
	return false;
}

/* Lock u's summed share, most waiters and readings over the usable censused steps at n. */
static void
lk_pool(const struct session *s, int n, const struct step_ulock *u, double *share,
	unsigned *waiters, unsigned long *readings)
{
	const struct step_ulock *e;
	int i, j;

	*share = 0;
	*waiters = 0;
	*readings = 0;
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n != n || !step_usable(&s->steps[i]) || !s->steps[i].ulocks.present)
			continue;
		for (j = 0; j < s->steps[i].ulocks.n; j++) {
			e = &s->steps[i].ulocks.lock[j];
			if (e->family != u->family || strcmp(e->name, u->name) != 0 ||
			    strcmp(e->comm, u->comm) != 0)
				continue;
			*share += e->share;
			*waiters = e->max_waiters > *waiters ? e->max_waiters : *waiters;
			*readings += e->readings;
		}
	}
}

/*
 * The contended lock of fam with the largest share in any usable censused
 * step at n (an idle wait never tops it); *runs: those steps.
 */
static const struct step_ulock *
lk_top_at(const struct session *s, int n, enum wait_family fam, int *runs)
{
	const struct step_ulock *best = NULL, *e;
	int i, j;

	*runs = 0;
	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].n != n || !step_usable(&s->steps[i]) || !s->steps[i].ulocks.present)
			continue;
		(*runs)++;
		for (j = 0; j < s->steps[i].ulocks.n; j++) {
			e = &s->steps[i].ulocks.lock[j];
			if (e->family == fam && !e->idle &&
			    (best == NULL || e->share > best->share))
				best = e;
		}
	}
	return best;
}

void
waits_locks_cell(const struct session *s, int n, enum wait_family fam, int y, int x, int w)
{
	const struct step_ulock *u;
	unsigned long readings;
	unsigned waiters;
	char tail[48];
	double share;
	int runs = 0, used, tw;

	if (w < 2 || (u = lk_top_at(s, n, fam, &runs)) == NULL) {
		if (w >= 2 && runs > 0)
			ui_put(y, x, w, theme_attr(ROLE_INACTIVE), " -");
		return;
	}
	lk_pool(s, n, u, &share, &waiters, &readings);
	tw = snprintf(tail, sizeof(tail), " %.0f%%%s %uw", 100.0 * share / runs,
		      readings < WAIT_FEW_READINGS ? "?" : "", waiters);
	/* The name gives way first: the share and the waiters always show when they fit. */
	used = ui_put(y, x, 1, theme_attr(ROLE_MAIN), " ");
	used += ui_put(y, x + used, w - used - tw, theme_attr(ROLE_HI), u->name);
	ui_put(y, x + used, w - used, theme_attr(ROLE_MAIN), tail);
}

/* The step whose locks the panel lists: the selected one, else the last censused; or NULL. */
static const struct step *
lk_step(const struct ui *u, const struct frame *f, int *idx)
{
	int i;

	if (u->sel_step >= 0 && u->sel_step < f->s->nsteps) {
		*idx = u->sel_step;
		return &f->s->steps[u->sel_step];
	}
	for (i = f->s->nsteps - 1; i >= 0; i--) {
		if (f->s->steps[i].ulocks.present) {
			*idx = i;
			return &f->s->steps[i];
		}
	}
	return NULL;
}

int
waits_locks_rows(const struct ui *u, const struct frame *f, int w)
{
	const struct step *st;
	int idx;

	if (!waits_locks_any(f->s))
		return 0;
	st = lk_step(u, f, &idx);
	if (st == NULL || !st->ulocks.present || st->ulocks.n == 0)
		return 2;
	return 1 + st->ulocks.n * (w >= LK_WIDE ? 1 : 2);
}

/*
 * "held by thread 4711 (mariadbd), running", a shared lock's "held by thread
 * 4711 of process 4700", "owner unknown: not a mutex", or "waits for work".
 */
static void
lk_owner(const struct step_ulock *l, char *buf, size_t len)
{
	if (l->owner <= 0) {
		snprintf(buf, len, "%s%s%s", l->idle ? "idle: waits for work" : "owner unknown",
			 !l->idle && l->owner_why[0] ? ": " : "", l->idle ? "" : l->owner_why);
		return;
	}
	snprintf(buf, len, "held by thread %d", (int)l->owner);
	if (ulock_across_processes(l))
		snprintf(buf + strlen(buf), len - strlen(buf), " of process %d", (int)l->owner_pid);
	else if (l->comm[0] != '\0')
		snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", l->comm);
	if (l->owner_state[0] != '\0')
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s", l->owner_state);
}

/* "  mutex, 3 at once, 4 threads", and a shared lock's " in 3 processes" */
static void
lk_figures(const struct step_ulock *l, char *buf, size_t len)
{
	snprintf(buf, len, "  %s, %u at once, %u thread%s", l->kind, l->max_waiters, l->threads,
		 l->threads == 1 ? "" : "s");
	if (ulock_across_processes(l))
		snprintf(buf + strlen(buf), len - strlen(buf), " in %u process%s", l->processes,
			 l->processes == 1 ? "" : "es");
}

/* "big_lock (mariadbd)", "wait_for_tasks (heap) (mariadbd) at [heap]+0x40" */
static void
lk_name(const struct step_ulock *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s", l->name, l->comm[0] ? " (" : "", l->comm,
		 l->comm[0] ? ")" : "", l->mapping[0] ? " at " : "", l->mapping);
}

/* "named by symbol", "named by stack scan (a heuristic)": a stack scan's name may be wrong. */
static void
lk_how(int y, int x, int w, const char *sep, const struct step_ulock *l)
{
	bool guess = strcmp(l->how, "stack scan") == 0;

	if (l->how[0] != '\0')
		ui_putf(y, x, w, theme_attr(guess ? ROLE_WARNING : ROLE_INACTIVE),
			"%snamed by %s%s", sep, l->how, guess ? " (a heuristic)" : "");
}

/*
 * One lock from column x of row y.  Wide (namew > 0): on that row alone, its
 * name in a column namew wide, then how it was named and its holder; else
 * its holder and how it was named on the next row, if two rows are left.
 */
static void
lk_line(const struct step_ulock *l, int y, int x, int w, int namew, int rows)
{
	char buf[STEP_ULOCK_NAME + 64], fig[96];
	int used, tw, nw, pre, cols;

	pre = ui_putf(y, x, w, theme_attr(ROLE_MAIN), " %-8s %s%5.1f%%%s ",
		      wait_family_names[l->family], l->idle ? "idle " : "", 100.0 * l->share,
		      l->readings < WAIT_FEW_READINGS ? "?" : " ");
	lk_name(l, buf, sizeof(buf));
	lk_figures(l, fig, sizeof(fig));
	tw = (int)strlen(fig);
	/* The name gives way to the figures. */
	nw = namew > 0 ? namew : w - pre - tw;
	cols = ui_put(y, x + pre, nw, theme_attr(ROLE_HI), buf);
	if (namew > 0 && cols < nw)
		cols += ui_putf(y, x + pre + cols, nw - cols, 0, "%*s", nw - cols, "");
	used = pre + cols;
	used += ui_put(y, x + used, w - used, theme_attr(ROLE_MAIN), fig);
	lk_owner(l, buf, sizeof(buf));
	if (namew > 0) {
		used += ui_putf(y, x + used, w - used, theme_attr(ROLE_MAIN), "; ");
		used += ui_put(y, x + used, w - used,
			       theme_attr(l->owner > 0 ? ROLE_MAIN : ROLE_INACTIVE), buf);
		lk_how(y, x + used, w - used, "; ", l);
		return;
	}
	if (rows < 2)
		return;
	used = ui_put(y + 1, x + pre, w - pre, theme_attr(l->owner > 0 ? ROLE_MAIN : ROLE_INACTIVE),
		      buf);
	lk_how(y + 1, x + pre + used, w - pre - used, "; ", l);
}

/* The name column of a wide panel w wide: the longest name listed, at most a third of w. */
static int
lk_name_w(const struct step_locks *l, int w)
{
	char buf[STEP_ULOCK_NAME + 64];
	int i, len, most = 16;

	for (i = 0; i < l->n; i++) {
		lk_name(&l->lock[i], buf, sizeof(buf));
		len = (int)strlen(buf);
		most = len > most ? len : most;
	}
	return most < w / 3 ? most : w / 3;
}

void
waits_locks_draw(const struct ui *u, const struct frame *f, struct rect r)
{
	const struct step *st;
	char title[128];
	struct rect in;
	int idx, i, y, namew;
	bool wide = r.w >= LK_WIDE;

	if ((st = lk_step(u, f, &idx)) == NULL) {
		in = ui_titled(r, "locks: the futexes the threads waited on");
		if (in.h > 0)
			ui_put(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE),
			       " no step has a lock census yet: it comes when a step ends");
		return;
	}
	snprintf(title, sizeof(title),
		 "locks at N=%d (step %d%s; up/down): futexes by share of blocked time", st->n,
		 idx + 1, u->sel_step == idx ? "" : ", the last");
	in = ui_titled(r, title);
	if (in.h <= 0)
		return;
	if (st->status == STEP_RUNNING)
		ui_put(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE),
		       " measuring: its census is kept when the step ends");
	else if (!st->ulocks.present)
		ui_put(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE),
		       " no lock census at this step (--no-locks, not Linux, or an older file)");
	else if (st->ulocks.n == 0)
		ui_put(in.y, in.x, in.w, theme_attr(ROLE_INACTIVE),
		       " -  the census saw no thread wait on a futex");
	namew = wide ? lk_name_w(&st->ulocks, in.w) : 0;
	for (i = 0, y = in.y; st->ulocks.present && i < st->ulocks.n && y < in.y + in.h; i++) {
		lk_line(&st->ulocks.lock[i], y, in.x, in.w, namew, in.y + in.h - y);
		y += wide ? 1 : 2;
	}
}

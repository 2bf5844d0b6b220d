/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cause of a collapse: which wait category grew most between the peak
 * and the fall, from the steps' wait profiles.  Throughput says that a
 * sweep collapsed; where its threads spent their time says why: runnable
 * instead of running is a want of CPUs, futex waits a contended lock, a
 * database's lock waits its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cause.h"

/*
 * The rule (docs/design-notes.md, "The verdict names what grew at a
 * collapse"):
 *  - the families are asked in turn, the target's threads, then the
 *    workload's, then the probes' labels, and the first with a category
 *    that grew enough is named, alone;
 *  - a category is a state and channel of the family, other than running
 *    (work, not waiting), other (stopped, idle, the folded rest) and an
 *    event loop's wait for work (epoll, poll, select: idleness);
 *  - its share at an N is the mean over the usable runs at that N that have
 *    a profile of the family, a run without the category adding 0;
 *  - it grew enough when its share at the fall exceeds that at the peak by
 *    ANALYSIS_CAUSE_MIN_RISE (share points); of those, the
 *    ANALYSIS_CAUSE_MAX with the largest rise are named, the larger share
 *    at the fall and then the name breaking ties.
 * Pure code over the runs analysis.c hands it.
 */

/* A rise of exactly the minimum, as printed, counts: reals are not exact. */
#define CAUSE_EPS 1e-9

/* The families in the order they are asked: the server's threads, the client's, the probes'. */
static const enum wait_family cause_order[] = { WAIT_TARGET, WAIT_WORKLOAD, WAIT_PROBE };

/* Whose time the clause speaks of, per family. */
static const char *const cause_whose[WAIT_NFAMILIES] = {
	[WAIT_WORKLOAD] = "the workload's threads were",
	[WAIT_TARGET] = "the target's threads were",
	[WAIT_PROBE] = "the probes reported",
};

/*
 * An event loop with nothing to do (epoll, poll, select, kqueue): its threads
 * wait for requests, which is idleness, not contention, so it names no cause
 * (docs/design-notes.md, "Idle waits").  Linux's wait channels, then the BSDs'.
 */
static bool
cause_channel_idle(const char *ch)
{
	static const char *const idle[] = { "ep_poll",     "do_epoll_wait", "do_poll",
					    "do_sys_poll", "do_select",     "core_sys_select",
					    "kqread",      "select",        "poll" };
	size_t i;

	for (i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		if (strcmp(ch, idle[i]) == 0)
			return true;
	return false;
}

static bool
cause_category_ok(const struct wait_share *w)
{
	return w->state != WS_RUNNING && w->state != WS_OTHER &&
	       !(w->state == WS_SLEEPING && cause_channel_idle(w->channel));
}

static bool
cause_have(const struct cause_runs *r, enum wait_family f)
{
	int i;

	for (i = 0; i < r->n; i++) {
		if (wait_has_family(r->v[i]->waits, r->v[i]->nwaits, f))
			return true;
	}
	return false;
}

/* The share of (f, state, channel) over runs: the mean over those that have family f. */
static double
cause_pooled(const struct cause_runs *r, enum wait_family f, const struct cause_category *k)
{
	const struct step *st;
	double sum = 0;
	int i, runs = 0;

	for (i = 0; i < r->n; i++) {
		st = r->v[i];
		if (!wait_has_family(st->waits, st->nwaits, f))
			continue;
		sum += wait_share_of(st->waits, st->nwaits, f, k->state, k->channel);
		runs++;
	}
	return runs > 0 ? sum / runs : 0;
}

/* The categories found so far in one family. */
struct cause_list {
	struct cause_category *v;
	int n, cap;
};

static bool
cause_listed(const struct cause_list *l, const struct wait_share *w)
{
	int i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].state == w->state && strcmp(l->v[i].channel, w->channel) == 0)
			return true;
	}
	return false;
}

/* Adds w's category with its pooled shares; -1 without memory. */
static int
cause_add(struct cause_list *l, const struct cause_runs *from, const struct cause_runs *to,
	  const struct wait_share *w)
{
	struct cause_category *k;

	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;

		if ((k = realloc(l->v, (size_t)cap * sizeof(*k))) == NULL)
			return -1;
		l->v = k;
		l->cap = cap;
	}
	k = &l->v[l->n++];
	memset(k, 0, sizeof(*k));
	k->state = w->state;
	snprintf(k->channel, sizeof(k->channel), "%s", w->channel);
	k->from = cause_pooled(from, w->family, k);
	k->to = cause_pooled(to, w->family, k);
	return 0;
}

/* The largest rise first; then the larger share at the fall; then state and name. */
static int
cause_cmp(const void *pa, const void *pb)
{
	const struct cause_category *a = pa, *b = pb;
	double ra = a->to - a->from, rb = b->to - b->from;

	if (ra != rb)
		return ra > rb ? -1 : 1;
	if (a->to != b->to)
		return a->to > b->to ? -1 : 1;
	if (a->state != b->state)
		return a->state < b->state ? -1 : 1;
	return strcmp(a->channel, b->channel);
}

/* Every category of family f in the runs at the fall, each once. */
static int
cause_gather(const struct cause_runs *from, const struct cause_runs *to, enum wait_family f,
	     struct cause_list *l)
{
	const struct step *st;
	int i, j;

	for (i = 0; i < to->n; i++) {
		st = to->v[i];
		for (j = 0; j < st->nwaits; j++) {
			if (st->waits[j].family != f || !cause_category_ok(&st->waits[j]) ||
			    cause_listed(l, &st->waits[j]))
				continue;
			if (cause_add(l, from, to, &st->waits[j]) != 0)
				return -1;
		}
	}
	return 0;
}

/* Family f's categories that grew enough, the largest rises first, into c; how many. */
static int
cause_family(const struct cause_runs *from, const struct cause_runs *to, enum wait_family f,
	     struct analysis_cause *c)
{
	struct cause_list l = { NULL, 0, 0 };
	int i, k = 0;

	if (!cause_have(from, f) || !cause_have(to, f) || cause_gather(from, to, f, &l) != 0) {
		free(l.v);
		return 0;
	}
	qsort(l.v, (size_t)l.n, sizeof(*l.v), cause_cmp);
	for (i = 0; i < l.n && k < ANALYSIS_CAUSE_MAX; i++) {
		if (l.v[i].to - l.v[i].from < ANALYSIS_CAUSE_MIN_RISE - CAUSE_EPS)
			break;
		c->cat[k++] = l.v[i];
	}
	free(l.v);
	return k;
}

/* The mean spin share of family f over the runs sampled for it; -1 when none was. */
static double
spin_pooled(const struct cause_runs *r, enum wait_family f)
{
	double sum = 0;
	int i, runs = 0;

	for (i = 0; i < r->n; i++) {
		if (!r->v[i]->hot.present || r->v[i]->hot.samples[f] == 0)
			continue;
		sum += r->v[i]->hot.spin_share[f];
		runs++;
	}
	return runs > 0 ? sum / runs : -1;
}

/* The spin of family f with the largest share in any run at the fall. */
static const struct hot_spin *
spin_top(const struct cause_runs *r, enum wait_family f)
{
	const struct hot_spin *best = NULL, *e;
	int i, j;

	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->v[i]->hot.nspins; j++) {
			e = &r->v[i]->hot.spins[j];
			if (e->family == f && (best == NULL || e->share > best->share))
				best = e;
		}
	}
	return best;
}

/* Whether the target's, else the workload's, lock spin grew enough from the peak to the fall. */
static void
cause_spin_find(const struct cause_runs *from, const struct cause_runs *to, struct cause_spin *sp)
{
	static const enum wait_family order[] = { WAIT_TARGET, WAIT_WORKLOAD };
	const struct hot_spin *top;
	double a, b;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		a = spin_pooled(from, order[i]);
		b = spin_pooled(to, order[i]);
		if (a < 0 || b < 0 || b - a < ANALYSIS_CAUSE_MIN_RISE - CAUSE_EPS ||
		    (top = spin_top(to, order[i])) == NULL)
			continue;
		sp->found = true;
		sp->family = order[i];
		sp->from = a;
		sp->to = b;
		snprintf(sp->spin, sizeof(sp->spin), "%s", top->spin);
		snprintf(sp->caller, sizeof(sp->caller), "%s", top->caller);
		return;
	}
}

/*
 * The contended lock of family f with the largest share in any censused run
 * at the fall, and its run: an idle wait (a pool's workers on a condition
 * variable) is no lock to blame.
 */
static const struct step_ulock *
lock_top(const struct cause_runs *r, enum wait_family f, const struct step **run)
{
	const struct step_ulock *best = NULL, *e;
	int i, j;

	for (i = 0; i < r->n; i++) {
		for (j = 0; r->v[i]->ulocks.present && j < r->v[i]->ulocks.n; j++) {
			e = &r->v[i]->ulocks.lock[j];
			if (e->family == f && !e->idle &&
			    (best == NULL || e->share > best->share)) {
				best = e;
				*run = r->v[i];
			}
		}
	}
	return best;
}

/* The mean share of lock u (by name and process name) over the censused runs; -1: none was. */
static double
lock_pooled(const struct cause_runs *r, const struct step_ulock *u)
{
	const struct step_ulock *e;
	double sum = 0;
	int i, j, runs = 0;

	for (i = 0; i < r->n; i++) {
		if (!r->v[i]->ulocks.present)
			continue;
		runs++;
		for (j = 0; j < r->v[i]->ulocks.n; j++) {
			e = &r->v[i]->ulocks.lock[j];
			if (e->family == u->family && strcmp(e->name, u->name) == 0 &&
			    strcmp(e->comm, u->comm) == 0)
				sum += e->share;
		}
	}
	return runs > 0 ? sum / runs : -1;
}

/* Whether the target's, else the workload's, top lock at the fall grew enough from the peak. */
static void
cause_lock_find(const struct cause_runs *from, const struct cause_runs *to, struct cause_lock *lk)
{
	static const enum wait_family order[] = { WAIT_TARGET, WAIT_WORKLOAD };
	const struct step_ulock *u;
	const struct step *run = NULL;
	double a, b;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if ((u = lock_top(to, order[i], &run)) == NULL)
			continue;
		a = lock_pooled(from, u);
		b = lock_pooled(to, u);
		if (a < 0 || b < 0 || b - a < ANALYSIS_CAUSE_MIN_RISE - CAUSE_EPS)
			continue;
		lk->found = true;
		lk->family = order[i];
		lk->from = a;
		lk->to = b;
		snprintf(lk->name, sizeof(lk->name), "%s", u->name);
		snprintf(lk->comm, sizeof(lk->comm), "%s", u->comm);
		snprintf(lk->kind, sizeof(lk->kind), "%s", u->kind);
		lk->max_waiters = u->max_waiters;
		if (order[i] == WAIT_TARGET)
			lk->threads = run->tg.present ? run->tg.threads : 0;
		else
			lk->threads = (run->ct.have & CT_HAVE_THREADS) ? run->ct.threads : 0;
		lk->processes = ulock_across_processes(u) ? u->processes : 0;
		lk->owner = u->owner;
		snprintf(lk->owner_state, sizeof(lk->owner_state), "%s", u->owner_state);
		return;
	}
}

void
analysis_cause_find(const struct cause_runs *from, const struct cause_runs *to,
		    struct analysis_cause *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->n_from = from->nval;
	c->n_to = to->nval;
	if (from->nval == to->nval)
		return;
	cause_spin_find(from, to, &c->spin);
	cause_lock_find(from, to, &c->lock);
	for (i = 0; i < sizeof(cause_order) / sizeof(cause_order[0]); i++) {
		c->ncat = cause_family(from, to, cause_order[i], c);
		if (c->ncat > 0) {
			c->found = true;
			c->family = cause_order[i];
			return;
		}
	}
}

/* "runnable", "in futex_wait_queue", "uninterruptible in io_schedule", a probe's label. */
static void
cause_name(const struct cause_category *k, char *buf, size_t len)
{
	const char *ch = k->channel;

	if (k->state == WS_RUNNABLE)
		snprintf(buf, len, "runnable");
	else if (k->state == WS_SLEEPING && ch[0] != '\0')
		snprintf(buf, len, "in %s", ch);
	else if (k->state == WS_UNINTERRUPTIBLE && ch[0] != '\0')
		snprintf(buf, len, "uninterruptible in %s", ch);
	else if (k->state == WS_REPORTED && ch[0] != '\0')
		snprintf(buf, len, "%s", ch);
	else
		snprintf(buf, len, "%s", wait_state_names[k->state]);
}

void
analysis_cause_text(const struct analysis_cause *c, int ncat, char *buf, size_t len)
{
	char name[WAIT_CHANNEL_LEN + 24];
	size_t used;
	int i;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (!c->found || ncat <= 0)
		return;
	snprintf(buf, len, "; at %d %s", c->n_to, cause_whose[c->family]);
	for (i = 0; i < ncat && i < c->ncat; i++) {
		cause_name(&c->cat[i], name, sizeof(name));
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %s %.0f%% (%.0f%% at %d)", i > 0 ? " and" : "",
			 name, 100 * c->cat[i].to, 100 * c->cat[i].from, c->n_from);
	}
}

/*
 * The lock a kernel caller takes, where it is one everybody knows: the fd
 * table's (files->file_lock), the seed study's FreeBSD cause.
 */
static const char *
spin_lock_name(const char *caller)
{
	static const char *const fd_table[] = { "alloc_fd",      "file_close_fd", "close_fd",
						"__close_range", "do_dup2",       "replace_fd",
						"__alloc_fd",    "__close_fd",    "fd_install" };
	size_t i, len = strcspn(caller, ".");

	for (i = 0; i < sizeof(fd_table) / sizeof(fd_table[0]); i++)
		if (strlen(fd_table[i]) == len && strncmp(caller, fd_table[i], len) == 0)
			return "the fd table's lock";
	return NULL;
}

static const char *const spin_whose[WAIT_NFAMILIES] = {
	[WAIT_WORKLOAD] = "the workload's",
	[WAIT_TARGET] = "the target's",
	[WAIT_PROBE] = "the probes'",
};

void
analysis_spin_text(const struct analysis_cause *c, char *buf, size_t len)
{
	const struct cause_spin *sp = &c->spin;
	const char *lock;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (!sp->found)
		return;
	lock = spin_lock_name(sp->caller);
	snprintf(buf, len, "; at %d, %.0f%% of %s CPU spun in %s%s%s%s%s%s (%.0f%% at %d)", c->n_to,
		 100 * sp->to, spin_whose[sp->family], sp->spin, sp->caller[0] ? " from " : "",
		 sp->caller, lock ? " (" : "", lock ? lock : "", lock ? ")" : "", 100 * sp->from,
		 c->n_from);
}

void
analysis_lock_text(const struct analysis_cause *c, char *buf, size_t len)
{
	const struct cause_lock *lk = &c->lock;
	char of[24] = "", held[64] = "", procs[40] = "";

	if (len == 0)
		return;
	buf[0] = '\0';
	if (!lk->found)
		return;
	if (lk->threads > 0 && (unsigned)lk->threads >= lk->max_waiters)
		snprintf(of, sizeof(of), " of %d", lk->threads);
	if (lk->owner > 0)
		snprintf(held, sizeof(held), ", held by thread %d%s%s", (int)lk->owner,
			 lk->owner_state[0] ? ", " : "", lk->owner_state);
	if (lk->processes > 1)
		snprintf(procs, sizeof(procs), " in %u processes", lk->processes);
	snprintf(buf, len, "; at %d, %u%s %s threads%s waited on one %sfutex (%s%s)", c->n_to,
		 lk->max_waiters, of, lk->comm[0] ? lk->comm : wait_family_names[lk->family], procs,
		 lk->processes > 1 ? "shared " : "", lk->name, held);
}

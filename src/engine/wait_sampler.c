/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wait sampler (wait_sampler.h): the workload's and the target's
 * threads, listed once a second and read a random part of a round each
 * tick through their kept files, each thread's time since its last reading
 * added to the window's wait tally.  A thread or process that has gone
 * when it is read is simply not there.  The listing is wait_list.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/platform.h"
#include "wait_sampler.h"

/* What one reading's callback needs. */
struct ws_read {
	struct wait_sampler *w;
	struct ws_family *fam;
	enum wait_family f;
	struct wait_tally *tally;
	uint64_t now;
	int got;
};

void
wait_sampler_init(struct wait_sampler *w)
{
	memset(w, 0, sizeof(*w));
	w->max_threads = WAIT_SAMPLE_MAX_THREADS;
	w->rng = mono_now_ns() | 1;
}

static void
ws_family_close(struct ws_family *fam)
{
	size_t i;

	for (i = 0; i < fam->nth; i++)
		thread_handle_close(&fam->th[i].h);
	fam->nth = 0;
}

void
wait_sampler_free(struct wait_sampler *w)
{
	int f;

	for (f = 0; f < 2; f++) {
		ws_family_close(&w->fam[f]);
		free(w->fam[f].procs);
		free(w->fam[f].th);
		free(w->fam[f].order);
	}
	wait_sampler_init(w);
}

void
wait_sampler_reset(struct wait_sampler *w)
{
	int f;

	for (f = 0; f < 2; f++) {
		ws_family_close(&w->fam[f]);
		w->fam[f].nprocs = 0;
		w->fam[f].next_proc = w->fam[f].pos = 0;
		w->fam[f].relist = w->fam[f].whole = false;
	}
	w->counting = false;
	w->last_ns = w->worst_ns = 0;
}

/* The process pid had in the old list (the same place first), or NULL. */
static const struct ws_proc *
ws_proc_find(const struct ws_proc *old, size_t n, size_t i, pid_t pid)
{
	size_t j;

	if (i < n && old[i].pid == pid)
		return &old[i];
	for (j = 0; j < n; j++) {
		if (old[j].pid == pid)
			return &old[j];
	}
	return NULL;
}

int
wait_sampler_set_pids(struct wait_sampler *w, enum wait_family f, const pid_t *pids, size_t n,
		      bool skip_main)
{
	struct ws_family *fam = &w->fam[f == WAIT_TARGET ? 1 : 0];
	const struct ws_proc *o;
	struct ws_proc *p;
	size_t i;

	if ((p = malloc((n > 0 ? n : 1) * sizeof(*p))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		o = skip_main == fam->skip_main ? ws_proc_find(fam->procs, fam->nprocs, i, pids[i])
						: NULL;
		p[i] = o != NULL ? *o : (struct ws_proc){ pids[i], -1, false, 0 };
		p[i].pid = pids[i];
		if (!p[i].confirmed)
			fam->relist = true;
	}
	if (n != fam->nprocs)
		fam->relist = true;
	free(fam->procs);
	fam->procs = p;
	fam->nprocs = n;
	fam->skip_main = skip_main;
	if (++fam->pass == 0)
		fam->pass = 1;
	if (fam->next_proc >= n)
		fam->next_proc = 0;
	return 0;
}

/* A uniform draw in [0, n), n > 0 (xorshift64*; the modulo's bias is below 2^-40 here). */
static size_t
ws_random(struct wait_sampler *w, size_t n)
{
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (size_t)((w->rng * 2685821657736338717ull) >> 11) % n;
}

/* Which threads a fresh order puts first (ws_shuffle). */
enum ws_first { WS_PLAIN, WS_NEW_FIRST, WS_MARKED_FIRST };

/*
 * A fresh random order of the family's threads (Fisher-Yates), then one
 * kind moved to the front, each kind still in random order.  Before the
 * window the never-read go first, since a first reading only marks a
 * thread and the window counts from the marks.  At the window's opening
 * the marked go first, since only their readings count: a window that a
 * loaded machine gives a tick or two must not spend them on first
 * readings (1024 processes in 0.5 s, under a sanitizer and a load: 47
 * readings, none of a marked thread, and no profile).  Which threads
 * were marked is down to the warm-up's random order, not to what they do,
 * and each reading still counts its own thread's time, so the shares stay
 * unbiased.  Otherwise in the window the order is plain.
 */
static void
ws_shuffle(struct wait_sampler *w, struct ws_family *fam, enum ws_first first)
{
	size_t i, j, t;

	for (i = 0; i < fam->nth; i++)
		fam->order[i] = i;
	for (i = fam->nth; i > 1; i--) {
		j = ws_random(w, i);
		t = fam->order[i - 1];
		fam->order[i - 1] = fam->order[j];
		fam->order[j] = t;
	}
	for (i = j = 0; first != WS_PLAIN && i < fam->nth; i++) {
		if (fam->th[fam->order[i]].seeded == (first == WS_MARKED_FIRST)) {
			t = fam->order[j];
			fam->order[j++] = fam->order[i];
			fam->order[i] = t;
		}
	}
	fam->pos = 0;
}

/* The order of a round begun now, or of a set that changed. */
static enum ws_first
ws_first_now(const struct wait_sampler *w)
{
	return w->counting ? WS_PLAIN : WS_NEW_FIRST;
}

void
wait_sampler_window(struct wait_sampler *w, bool counting, uint64_t from_ns)
{
	int f;

	w->counting = counting;
	w->from_ns = from_ns;
	/* the window starts a round with the marked first: the warm-up's put them last */
	for (f = 0; counting && f < 2; f++) {
		if (w->fam[f].nth > 0 && !w->fam[f].whole) {
			w->fam[f].round++;
			ws_shuffle(w, &w->fam[f], WS_MARKED_FIRST);
		}
	}
}

/*
 * The new listing merged with the kept threads: a thread still there keeps
 * its files, mark and round; one gone is closed.  When the set changed the
 * round goes on in a new order (what this round read is skipped).
 */
static int
ws_merge(struct wait_sampler *w, struct ws_family *fam, struct ws_thread *v, size_t n)
{
	size_t i = 0, j = 0, *o;
	bool changed = n != fam->nth;
	int c;

	if (n > 0 && (o = realloc(fam->order, n * sizeof(*o))) == NULL)
		return -1;
	else if (n > 0)
		fam->order = o;
	while (i < fam->nth || j < n) {
		c = i == fam->nth ? 1 : j == n ? -1 : ws_thread_cmp(&fam->th[i], &v[j]);
		if (c < 0) {
			thread_handle_close(&fam->th[i++].h);
			changed = true;
		} else if (c > 0) {
			j++;
			changed = true;
		} else {
			v[j].h = fam->th[i].h;
			v[j].m = fam->th[i].m;
			v[j].round = fam->th[i].round;
			v[j].seeded = fam->th[i].seeded;
			v[j].cm = fam->th[i].cm;
			i++, j++;
		}
	}
	free(fam->th);
	fam->th = v;
	fam->nth = fam->capth = n;
	if (changed || fam->pos > n)
		ws_shuffle(w, fam, ws_first_now(w));
	return 0;
}

/*
 * Lists the family's threads again, within half of its time a tick in the
 * window (all of it before: 1024 processes' listing took 9 ms); a backend
 * that cannot makes it read whole processes.
 */
static void
ws_relist(struct wait_sampler *w, struct ws_family *fam, uint64_t c0, uint64_t max_cpu)
{
	struct ws_thread *v;
	size_t n;
	bool more;

	fam->relist = false;
	if (fam->whole)
		return;
	if (fam->round == 0)
		fam->round = 1; /* 0 is a thread's "never read" */
	if (ws_list(w, fam, c0, w->counting ? max_cpu / 2 : max_cpu, &v, &n, &more) != 0) {
		if (errno == ENOSYS)
			fam->whole = true;
		return; /* ENOMEM: the old list is read on */
	}
	fam->relist = more;
	if (ws_merge(w, fam, v, n) != 0)
		free(v);
}

/* --- readings ------------------------------------------------------------ */

/* One reading of th at r->now into the tally (or its mark only, outside the window). */
static void
ws_take(struct ws_read *r, struct ws_thread *th, const struct thread_sample *t)
{
	double blocked;

	r->got++;
	if (!th->seeded || (t->have & THREAD_HAVE_NEW)) {
		memset(&th->m, 0, sizeof(th->m));
		thread_mark_seed(&th->m, t, r->now);
		th->seeded = true;
	} else if (r->w->counting) {
		/* without memory this reading is lost from the tally: the shares stay true */
		(void)thread_wait_account(r->tally, r->f, &th->m, t, r->w->from_ns, r->now,
					  &blocked);
		if (blocked > 0 && r->w->census[r->fam - r->w->fam] != NULL)
			ws_census_add(r->w, (int)(r->fam - r->w->fam), th, t, blocked);
		ws_kstack_add(r->w, (int)(r->fam - r->w->fam), r->f, th, t, blocked);
	} else
		thread_mark_seed(&th->m, t, r->now);
}

/* The next of this round's threads not yet read, a new round when it is done; NULL: none. */
static struct ws_thread *
ws_next(struct wait_sampler *w, struct ws_family *fam, size_t *tries)
{
	struct ws_thread *th;

	while (*tries < 2 * fam->nth + 1) {
		(*tries)++;
		if (fam->pos >= fam->nth) {
			fam->round++;
			ws_shuffle(w, fam, ws_first_now(w));
		}
		th = &fam->th[fam->order[fam->pos++]];
		if (th->round != fam->round && !th->gone)
			return th;
	}
	return NULL;
}

/*
 * The threads a tick reads: what a round needs at the tick's pace, all of a
 * small family, and before the window (the warm-up) as many as the time
 * allows, so that every thread is marked when it opens, however few ticks
 * a loaded machine leaves the monitor.
 */
static int
ws_quota(const struct wait_sampler *w, const struct ws_family *fam)
{
	uint64_t period = w->period_ns > 0 ? w->period_ns : WAIT_SAMPLE_ROUND_NS / 4;
	uint64_t k;

	if (!w->counting)
		return fam->nth < (size_t)w->max_threads ? (int)fam->nth : w->max_threads;
	if (period > WAIT_SAMPLE_ROUND_NS)
		period = WAIT_SAMPLE_ROUND_NS;
	k = ((uint64_t)fam->nth * period + WAIT_SAMPLE_ROUND_NS - 1) / WAIT_SAMPLE_ROUND_NS;
	if (k < WAIT_SAMPLE_MIN_THREADS)
		k = WAIT_SAMPLE_MIN_THREADS;
	if (k > fam->nth)
		k = fam->nth;
	return k < (uint64_t)w->max_threads ? (int)k : w->max_threads;
}

/* Whether the tick's reading may go on: its CPU time (looked at now and then) and the wall's. */
static bool
ws_time_left(struct ws_read *r, uint64_t t0, uint64_t c0, uint64_t max_ns, uint64_t max_cpu)
{
	if (mono_now_ns() - t0 >= max_ns)
		return false;
	return r->got % WAIT_SAMPLE_CHECK != WAIT_SAMPLE_CHECK - 1 || self_cpu_ns() - c0 < max_cpu;
}

/* Part of a round of one family's kept threads, within its times from t0 and c0. */
static void
ws_read_threads(struct ws_read *r, uint64_t t0, uint64_t c0, uint64_t max_ns, uint64_t max_cpu)
{
	struct ws_family *fam = r->fam;
	struct ws_thread *th;
	struct thread_sample t;
	size_t tries = 0;
	int quota = ws_quota(r->w, fam), n;

	while (r->got < quota && ws_time_left(r, t0, c0, max_ns, max_cpu) &&
	       (th = ws_next(r->w, fam, &tries)) != NULL) {
		th->round = fam->round;
		if ((n = thread_handle_read(&th->h, &t)) != 1) {
			th->gone = true;
			fam->procs[th->proc].confirmed = false;
			fam->procs[th->proc].pass =
				0; /* to be listed again, whatever the finding */
			fam->relist = true;
			continue;
		}
		if (t.nthreads > 0 && t.nthreads == fam->procs[th->proc].listed)
			fam->procs[th->proc].confirmed = true;
		else if (t.nthreads > 0) {
			fam->procs[th->proc].confirmed = false;
			fam->procs[th->proc].pass =
				0; /* to be listed again, whatever the finding */
			fam->relist = true;
		}
		ws_take(r, th, &t);
	}
}

/* A thread of a whole-process reading: found by (pid, tid), added when new. */
static void
ws_on_thread(const struct thread_sample *t, void *arg)
{
	struct ws_read *r = arg;
	struct ws_family *fam = r->fam;
	struct ws_thread key, *th;
	size_t lo = 0, hi = fam->nth, mid;

	if (fam->skip_main && t->tid == t->pid)
		return;
	key.h.pid = t->pid;
	key.h.tid = t->tid;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ws_thread_cmp(&fam->th[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == fam->nth || ws_thread_cmp(&fam->th[lo], &key) != 0) {
		if (ws_reserve(&fam->th, &fam->capth, fam->nth + 1) != 0)
			return;
		memmove(&fam->th[lo + 1], &fam->th[lo], (fam->nth - lo) * sizeof(*th));
		fam->nth++;
		memset(&fam->th[lo], 0, sizeof(*th));
		thread_handle_init(&fam->th[lo].h, t->pid, t->tid);
	}
	ws_take(r, &fam->th[lo], t);
}

/* Whole processes in rotation, one call each, until the quota or the time is spent. */
static void
ws_read_whole(struct ws_read *r, int quota, uint64_t t0, uint64_t max_ns)
{
	struct ws_family *fam = r->fam;
	size_t visited = 0;

	while (r->got < quota && visited < fam->nprocs && mono_now_ns() - t0 < max_ns) {
		if (fam->next_proc >= fam->nprocs)
			fam->next_proc = 0;
		(void)thread_samples_read(fam->procs[fam->next_proc].pid, ws_on_thread, r);
		fam->next_proc++;
		visited++;
	}
}

void
wait_sampler_tick(struct wait_sampler *w, struct wait_tally *t, uint64_t now)
{
	uint64_t t0 = mono_now_ns(), c0 = self_cpu_ns(), max_ns = WAIT_SAMPLE_MAX_NS;
	uint64_t max_cpu, spent;
	struct ws_read r;
	int f, k = 0;

	if (w->last_ns > 0 && now > w->last_ns)
		w->period_ns = now - w->last_ns;
	w->last_ns = now;
	max_cpu = ws_tick_scaled(w, WAIT_SAMPLE_MAX_CPU_NS);
	/* Both families get half of the time: the workload's reads must not leave the target
	 * none. */
	if (w->fam[0].nprocs > 0 && w->fam[1].nprocs > 0) {
		max_ns /= 2;
		max_cpu /= 2;
	}
	for (f = 0; f < 2; f++) {
		r =
			(struct ws_read){ w, &w->fam[f], f == 0 ? WAIT_WORKLOAD : WAIT_TARGET,
					  t, now,        0 };
		if (w->fam[f].nprocs > 0)
			k++;
		if (w->fam[f].relist)
			ws_relist(w, &w->fam[f], c0, (uint64_t)k * max_cpu);
		/* from the tick's start: its listing counts, and what a family leaves, the next
		 * may use */
		if (w->fam[f].whole)
			ws_read_whole(&r, WAIT_SAMPLE_MIN_THREADS * 4, t0, (uint64_t)k * max_ns);
		else
			ws_read_threads(&r, t0, c0, (uint64_t)k * max_ns, (uint64_t)k * max_cpu);
		w->reads += (uint64_t)r.got;
		if (w->census[f] != NULL)
			ws_census_tick(w, f, now);
		ws_kstack_tick(w, f, r.f);
	}
	/* its CPU time, not the wall clock's: a monitor preempted by 1024 workers is not slow */
	spent = self_cpu_ns() - c0;
	if (spent > w->worst_ns)
		w->worst_ns = spent;
	w->ticks++;
}

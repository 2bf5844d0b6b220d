/*
 * The wait sampler (wait_sampler.h): a bounded, rotating read of the
 * workload's and the target's threads every tick, each thread's time since
 * its last reading added to the window's wait tally.  A thread or process
 * that has gone when it is read is simply not there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/platform.h"
#include "wait_sampler.h"

/* What one read's callback needs. */
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
}

void
wait_sampler_free(struct wait_sampler *w)
{
	int f;

	for (f = 0; f < 2; f++) {
		free(w->fam[f].pids);
		free(w->fam[f].marks);
	}
	wait_sampler_init(w);
}

void
wait_sampler_reset(struct wait_sampler *w)
{
	int f;

	for (f = 0; f < 2; f++) {
		w->fam[f].npids = w->fam[f].nmarks = 0;
		w->fam[f].next_pid = 0;
		w->fam[f].after = 0;
	}
	w->counting = false;
}

int
wait_sampler_set_pids(struct wait_sampler *w, enum wait_family f, const pid_t *pids, size_t n,
		      bool skip_main)
{
	struct ws_family *fam = &w->fam[f == WAIT_TARGET ? 1 : 0];
	pid_t *p;

	if (n > 0 && (p = realloc(fam->pids, n * sizeof(*p))) == NULL)
		return -1;
	else if (n > 0)
		fam->pids = p;
	if (n > 0)
		memcpy(fam->pids, pids, n * sizeof(*pids));
	fam->npids = n;
	fam->skip_main = skip_main;
	if (fam->next_pid >= n) {
		fam->next_pid = 0;
		fam->after = 0;
	}
	return 0;
}

void
wait_sampler_window(struct wait_sampler *w, bool counting, uint64_t from_ns)
{
	w->counting = counting;
	w->from_ns = from_ns;
}

/* The mark of tid (binary search), or where it would go. */
static size_t
ws_mark_pos(const struct ws_family *fam, pid_t tid, bool *found)
{
	size_t lo = 0, hi = fam->nmarks, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fam->marks[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < fam->nmarks && fam->marks[lo].tid == tid;
	return lo;
}

/* A new mark at pos, for a thread first read now; NULL without memory. */
static struct thread_mark *
ws_mark_insert(struct ws_family *fam, size_t pos)
{
	struct thread_mark *p;
	size_t ncap;

	if (fam->nmarks == fam->capmarks) {
		ncap = fam->capmarks > 0 ? fam->capmarks * 2 : 64;
		if ((p = realloc(fam->marks, ncap * sizeof(*p))) == NULL)
			return NULL;
		fam->marks = p;
		fam->capmarks = ncap;
	}
	memmove(&fam->marks[pos + 1], &fam->marks[pos], (fam->nmarks - pos) * sizeof(*p));
	fam->nmarks++;
	memset(&fam->marks[pos], 0, sizeof(*p));
	return &fam->marks[pos];
}

static void
ws_on_thread(const struct thread_sample *t, void *arg)
{
	struct ws_read *r = arg;
	struct thread_mark *m;
	bool found;
	size_t pos;

	r->got++;
	if (r->fam->skip_main && t->tid == t->pid)
		return;
	pos = ws_mark_pos(r->fam, t->tid, &found);
	if (!found) {
		if ((m = ws_mark_insert(r->fam, pos)) != NULL)
			thread_mark_seed(m, t, r->now);
		return;
	}
	m = &r->fam->marks[pos];
	if (r->w->counting)
		/* without memory this reading is lost from the tally: the shares stay true */
		(void)thread_wait_add(r->tally, r->f, m, t, r->w->from_ns, r->now);
	else
		thread_mark_seed(m, t, r->now);
}

/*
 * Reads up to budget threads of one process from the rotation's place;
 * true when the process was read to its end (or is gone).
 */
static bool
ws_read_process(struct ws_read *r, pid_t pid, int budget)
{
	struct ws_family *fam = r->fam;
	pid_t next = 0;

	if (thread_samples_read_from(pid, fam->after, budget, ws_on_thread, r, &next) != 0) {
		/* a backend that reads every thread in one call; ESRCH: the process is gone */
		if (errno == ENOSYS && fam->after == 0)
			(void)thread_samples_read(pid, ws_on_thread, r);
		next = 0;
	}
	fam->after = next;
	return next == 0;
}

/*
 * One family's share of the tick: processes in rotation until its count or
 * its time (max_ns from t0) is spent.
 */
static void
ws_read_family(struct wait_sampler *w, struct ws_read *r, int budget, uint64_t t0, uint64_t max_ns)
{
	struct ws_family *fam = r->fam;
	size_t visited = 0;

	while (r->got < budget && visited < fam->npids && mono_now_ns() - t0 < max_ns) {
		if (fam->next_pid >= fam->npids)
			fam->next_pid = 0;
		if (ws_read_process(r, fam->pids[fam->next_pid], budget - r->got)) {
			fam->next_pid++;
			visited++;
		}
	}
	w->reads += (uint64_t)r->got;
}

/* How many threads this tick may read: what the time allows at the recent cost, within bounds. */
static int
ws_budget(const struct wait_sampler *w)
{
	double fit;

	if (w->ns_per_read <= 0)
		return w->max_threads < WAIT_SAMPLE_MIN_THREADS * 4 ? w->max_threads
								    : WAIT_SAMPLE_MIN_THREADS * 4;
	fit = (double)WAIT_SAMPLE_MAX_NS / w->ns_per_read;
	if (fit < WAIT_SAMPLE_MIN_THREADS)
		fit = WAIT_SAMPLE_MIN_THREADS;
	return fit < w->max_threads ? (int)fit : w->max_threads;
}

void
wait_sampler_tick(struct wait_sampler *w, struct wait_tally *t, uint64_t now)
{
	uint64_t t0 = mono_now_ns(), max_ns = WAIT_SAMPLE_MAX_NS;
	int budget = ws_budget(w), share = budget, used = 0, f;
	struct ws_read r;
	double per;

	/* Both families get their half of the count and of the time: on a slow machine the
	 * workload's reads must not leave the target none. */
	if (w->fam[0].npids > 0 && w->fam[1].npids > 0) {
		share = budget / 2;
		max_ns /= 2;
	}
	for (f = 0; f < 2; f++) {
		r =
			(struct ws_read){ w, &w->fam[f], f == 0 ? WAIT_WORKLOAD : WAIT_TARGET,
					  t, now,        0 };
		/* what the workload leaves of its share, the target may use */
		ws_read_family(w, &r, f == 0 ? share : budget - used, mono_now_ns(), max_ns);
		used += r.got;
	}
	if (used > 0) {
		per = (double)(mono_now_ns() - t0) / used;
		w->ns_per_read = w->ns_per_read > 0 ? (w->ns_per_read + per) / 2 : per;
	}
	w->ticks++;
}

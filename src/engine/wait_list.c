/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wait sampler's thread list (wait_sampler.h): each process of a family
 * listed once, its threads kept between findings and listed again only
 * when a reading showed another count, and a process first found taken to
 * be its main thread alone until its stat says otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/grow.h"
#include "scaletop/platform.h"
#include "wait_sampler.h"

int
ws_thread_cmp(const void *a, const void *b)
{
	const struct ws_thread *x = a, *y = b;

	if (x->h.pid != y->h.pid)
		return (x->h.pid > y->h.pid) - (x->h.pid < y->h.pid);
	return (x->h.tid > y->h.tid) - (x->h.tid < y->h.tid);
}

int
ws_reserve(struct ws_thread **v, size_t *cap, size_t n)
{
	return grow_array(v, cap, n, sizeof(**v), 128 * 1024 / sizeof(**v) + 1);
}

/* The kept threads of pid in the sorted list: *first and how many. */
static size_t
ws_kept_of(const struct ws_family *fam, pid_t pid, size_t *first)
{
	size_t lo = 0, hi = fam->nth, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fam->th[mid].h.pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < fam->nth && fam->th[lo + n].h.pid == pid)
		n++;
	return n;
}

/*
 * Appends process i's threads: its kept ones (maybe none, fam->th NULL) when confirmed, listed
 * in this finding already, or when list is false (listed on a later tick), else as listed now.
 */
static int
ws_list_proc(struct ws_family *fam, size_t i, bool list, struct ws_thread **v, size_t *cap,
	     size_t *n)
{
	struct ws_proc *p = &fam->procs[i];
	size_t j, nt, first;
	pid_t *tids;

	if ((p->confirmed && p->listed >= 0) || p->pass == fam->pass || !list) {
		nt = ws_kept_of(fam, p->pid, &first);
		if (ws_reserve(v, cap, *n + nt) != 0)
			return -1;
		if (nt > 0)
			memcpy(*v + *n, fam->th + first, nt * sizeof(**v));
		for (j = 0; j < nt; j++)
			(*v)[*n + j].proc = i;
		*n += nt;
		if (list && p->pass != fam->pass)
			p->confirmed = false; /* a reading must show the count again */
		return 0;
	}
	if (p->listed < 0 && !fam->skip_main) {
		/*
		 * A process first found is taken to be its main thread alone, with
		 * no listing (1024 worker processes' took 9 ms): its first stat says
		 * how many it has, and another count has it listed then.
		 */
		if (ws_reserve(v, cap, *n + 1) != 0)
			return -1;
		memset(&(*v)[*n], 0, sizeof(**v));
		thread_handle_init(&(*v)[*n].h, p->pid, p->pid);
		(*v)[(*n)++].proc = i;
		p->listed = 1;
		p->pass = fam->pass;
		return 0;
	}
	if (proc_thread_list(p->pid, &tids, &nt) != 0) {
		if (errno == ENOSYS || errno == ENOMEM)
			return -1;
		p->listed = 0; /* gone: it has no threads */
		return 0;
	}
	p->listed = (int)nt;
	p->confirmed = false;
	p->pass = fam->pass;
	if (ws_reserve(v, cap, *n + nt) != 0) {
		free(tids);
		errno = ENOMEM;
		return -1;
	}
	for (j = 0; j < nt; j++) {
		if (fam->skip_main && tids[j] == p->pid)
			continue;
		memset(&(*v)[*n], 0, sizeof(**v));
		thread_handle_init(&(*v)[*n].h, p->pid, tids[j]);
		(*v)[*n].proc = i;
		(*n)++;
	}
	free(tids);
	return 0;
}

/* Whether process i is to be listed in this finding. */
static bool
ws_due(const struct ws_family *fam, size_t i)
{
	const struct ws_proc *p = &fam->procs[i];

	return (!p->confirmed || p->listed < 0) && p->pass != fam->pass;
}

int
ws_list(struct wait_sampler *w, struct ws_family *fam, uint64_t c0, uint64_t max_cpu,
	struct ws_thread **out, size_t *nout, bool *more)
{
	struct ws_thread *v = NULL;
	size_t cap = 0, n = 0, i;
	bool list = true, due;

	*more = false;
	for (i = 0; i < fam->nprocs; i++) {
		due = ws_due(fam, i);
		if (due && list && i % WAIT_SAMPLE_CHECK == 0)
			list = self_cpu_ns() - c0 < max_cpu;
		if (due && list)
			w->lists++;
		*more = *more || (due && !list);
		if (ws_list_proc(fam, i, list, &v, &cap, &n) != 0) {
			free(v);
			return -1;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), ws_thread_cmp);
	*out = v;
	*nout = n;
	return 0;
}

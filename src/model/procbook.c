/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The book of a target's processes over a window (procbook.h): first and
 * last counters per process, exits and pid reuse.  Pure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/procbook.h"
#include "scaletop/grow.h"

void
procbook_init(struct procbook *b)
{
	memset(b, 0, sizeof(*b));
}

void
procbook_free(struct procbook *b)
{
	free(b->e);
	procbook_init(b);
}

void
procbook_reset(struct procbook *b, uint64_t w0_ns, uint64_t now)
{
	b->n = 0;
	b->w0_ns = w0_ns;
	b->pass_ns = now;
	b->thread_s = 0;
	b->max_threads = b->last_threads = 0;
}

void
procbook_pass_begin(struct procbook *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		b->e[i].seen = false;
}

/* The CPU a reading shows, to notice counters that went back: another process. */
static uint64_t
procbook_cpu(const struct task_counters *c)
{
	return c->cpu_ns + c->user_ns + c->sys_ns;
}

/*
 * The newest entry of pid, or NULL: an older one of a reused pid comes
 * before it.  One not alive may be a process a pass missed (it could not be
 * read for a moment): it is revived if it is the same process.
 */
static struct procbook_entry *
procbook_find(struct procbook *b, pid_t pid)
{
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		if (b->e[i].pid == pid)
			return &b->e[i];
	}
	return NULL;
}

/* Whether a reading of pid is of the process the entry follows, or of one that reused it. */
static bool
procbook_same(const struct procbook_entry *e, uint64_t start_ns, const struct task_counters *c)
{
	if (e->start_ns != 0 && start_ns != 0)
		return e->start_ns == start_ns;
	return procbook_cpu(c) >= procbook_cpu(&e->last) && c->vol_csw >= e->last.vol_csw;
}

static struct procbook_entry *
procbook_add(struct procbook *b)
{
	struct procbook_entry *p;

	if (grow_array_int(&b->e, &b->cap, b->n + 1, sizeof(*p), 16) != 0)
		return NULL;
	p = &b->e[b->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

int
procbook_see(struct procbook *b, pid_t pid, uint64_t start_ns, const struct task_counters *c)
{
	struct procbook_entry *e = procbook_find(b, pid);

	if (e != NULL && !procbook_same(e, start_ns, c)) {
		e->alive = false; /* exited, and its pid was given to a new process */
		e = NULL;
	}
	if (e == NULL) {
		if ((e = procbook_add(b)) == NULL)
			return -1;
		e->pid = pid;
		e->start_ns = start_ns;
		e->first = *c;
		/* Started inside the window: all it did, it did in the window. */
		if (start_ns != 0 && b->w0_ns != 0 && start_ns > b->w0_ns) {
			memset(&e->first, 0, sizeof(e->first));
			e->first.have = c->have;
		}
	}
	e->last = *c;
	e->alive = e->seen = true;
	return 0;
}

void
procbook_pass_end(struct procbook *b, uint64_t now)
{
	int i, threads = 0;

	for (i = 0; i < b->n; i++) {
		if (b->e[i].alive && !b->e[i].seen)
			b->e[i].alive = false;
		if (b->e[i].alive)
			threads += b->e[i].last.nthreads;
	}
	if (now > b->pass_ns)
		b->thread_s += (double)threads * (double)(now - b->pass_ns) / 1e9;
	b->pass_ns = now;
	b->last_threads = threads;
	if (threads > b->max_threads)
		b->max_threads = threads;
}

static uint64_t
procbook_diff(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void
procbook_sum(const struct procbook *b, struct task_counters *d, int *procs)
{
	const struct procbook_entry *e;
	int i;

	memset(d, 0, sizeof(*d));
	d->have = b->n > 0 ? ~0u : 0;
	for (i = 0; i < b->n; i++) {
		e = &b->e[i];
		d->vol_csw += procbook_diff(e->first.vol_csw, e->last.vol_csw);
		d->invol_csw += procbook_diff(e->first.invol_csw, e->last.invol_csw);
		d->user_ns += procbook_diff(e->first.user_ns, e->last.user_ns);
		d->sys_ns += procbook_diff(e->first.sys_ns, e->last.sys_ns);
		d->cpu_ns += procbook_diff(e->first.cpu_ns, e->last.cpu_ns);
		d->run_delay_ns += procbook_diff(e->first.run_delay_ns, e->last.run_delay_ns);
		/* one that never ran has nothing to say of what it lacks (schedstat's times) */
		if (procbook_cpu(&e->last) > 0)
			d->have &= e->first.have & e->last.have;
	}
	d->nthreads = b->max_threads;
	*procs = b->n;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who else was on the CPUs (others.h).  The total is exact because it comes
 * from the CPU counters: the machine's busy time less what the workload, the
 * target and scaletop used.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/others.h"

/*
 * The names come from scans about a second apart, so they are best effort: a
 * process that lived between two scans (a build's compilers) is in the total
 * but in no name, and named_cpus says how much the names cover.  A process
 * is keyed by pid and start time, so a reused pid is a new process, not a
 * continuation.
 */

/* How far up the parents a process is followed to find scaletop. */
#define OTHERS_DEPTH 64

void
others_book_init(struct others_book *b)
{
	memset(b, 0, sizeof(*b));
}

void
others_book_free(struct others_book *b)
{
	free(b->p);
	others_book_init(b);
}

void
others_book_reset(struct others_book *b)
{
	b->n = 0;
	b->scans = 0;
}

static int
others_key_cmp(pid_t pa, uint64_t sa, pid_t pb, uint64_t sb)
{
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return sa < sb ? -1 : sa > sb;
}

static int
others_proc_cmp(const void *a, const void *b)
{
	const struct others_proc *x = a, *y = b;

	return others_key_cmp(x->pid, x->start, y->pid, y->start);
}

static struct others_proc *
others_find(const struct others_book *b, size_t n, pid_t pid, uint64_t start)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = others_key_cmp(b->p[mid].pid, b->p[mid].start, pid, start);
		if (c == 0)
			return &b->p[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int
others_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of v (NULL when n is 0 or on ENOMEM: then v is searched as it is). */
static pid_t *
others_pids_sorted(const pid_t *v, size_t n)
{
	pid_t *s;

	if (n == 0 || (s = malloc(n * sizeof(*s))) == NULL)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), others_pid_cmp);
	return s;
}

static bool
others_pid_in(const pid_t *v, const pid_t *sorted, size_t n, pid_t pid)
{
	size_t i;

	if (sorted != NULL)
		return bsearch(&pid, sorted, n, sizeof(pid), others_pid_cmp) != NULL;
	for (i = 0; i < n; i++) {
		if (v[i] == pid)
			return true;
	}
	return false;
}

int
others_book_add(struct others_book *b, const struct proc_cpu *scan, size_t n, const pid_t *measured,
		size_t nmeasured)
{
	size_t old = b->n, i;
	struct others_proc *p;
	pid_t *sorted;

	if (b->n + n > b->cap) {
		size_t cap = b->n + n + 64;

		if ((p = realloc(b->p, cap * sizeof(*p))) == NULL)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	sorted = others_pids_sorted(measured, nmeasured);
	for (i = 0; i < n; i++) {
		const struct proc_cpu *s = &scan[i];

		p = others_find(b, old, s->pid, s->start);
		if (p == NULL) {
			p = &b->p[b->n++];
			memset(p, 0, sizeof(*p));
			p->pid = s->pid;
			p->start = s->start;
			p->cpu0 = b->scans == 0 ? s->cpu_ns : 0;
			snprintf(p->comm, sizeof(p->comm), "%s", s->comm);
		}
		p->ppid = s->ppid;
		if (s->cpu_ns > p->cpu1 || b->scans == 0)
			p->cpu1 = s->cpu_ns;
		if (p->cpu1 < p->cpu0)
			p->cpu1 = p->cpu0;
		if (others_pid_in(measured, sorted, nmeasured, s->pid))
			p->measured = true;
	}
	free(sorted);
	if (b->n > old)
		qsort(b->p, b->n, sizeof(*b->p), others_proc_cmp);
	b->scans++;
	return 0;
}

/* The newest process of pid in the book (the largest start), or NULL. */
static const struct others_proc *
others_newest(const struct others_book *b, pid_t pid)
{
	const struct others_proc *hit = NULL;
	size_t lo = 0, hi = b->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->n && b->p[lo].pid == pid; lo++)
		hit = &b->p[lo];
	return hit;
}

/* Whether p is scaletop or one of its descendants, by the parents the scans saw. */
static bool
others_is_own(const struct others_book *b, const struct others_proc *p, pid_t self)
{
	int depth;

	for (depth = 0; p != NULL && depth < OTHERS_DEPTH; depth++) {
		if (p->pid == self)
			return true;
		if (p->ppid <= 0 || p->ppid == p->pid)
			return false;
		p = others_newest(b, p->ppid);
	}
	return false;
}

/* One command's group: its CPU, processes and busiest pids. */
struct others_group {
	struct step_other o;
	uint64_t ns;
	uint64_t pid_ns[STEP_OTHER_PIDS];
};

static void
others_group_pid(struct others_group *g, pid_t pid, uint64_t ns)
{
	int i;

	if (g->o.npid < STEP_OTHER_PIDS)
		i = g->o.npid++;
	else if (ns <= g->pid_ns[STEP_OTHER_PIDS - 1])
		return;
	else
		i = STEP_OTHER_PIDS - 1;
	for (; i > 0 && g->pid_ns[i - 1] < ns; i--) {
		g->o.pid[i] = g->o.pid[i - 1];
		g->pid_ns[i] = g->pid_ns[i - 1];
	}
	g->o.pid[i] = pid;
	g->pid_ns[i] = ns;
}

static int
others_group_cmp(const void *a, const void *b)
{
	const struct others_group *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->o.comm, y->o.comm);
}

/* Adds a process's ns to its command's group in g (ng of them); false on ENOMEM. */
static bool
others_group_add(struct others_group **g, size_t *ng, const struct others_proc *p, uint64_t ns)
{
	struct others_group *hit = NULL, *ng_p;
	size_t i;

	for (i = 0; i < *ng && hit == NULL; i++) {
		if (strcmp((*g)[i].o.comm, p->comm) == 0)
			hit = &(*g)[i];
	}
	if (hit == NULL) {
		if ((ng_p = realloc(*g, (*ng + 1) * sizeof(**g))) == NULL)
			return false;
		*g = ng_p;
		hit = &(*g)[(*ng)++];
		memset(hit, 0, sizeof(*hit));
		snprintf(hit->o.comm, sizeof(hit->o.comm), "%s", p->comm);
	}
	hit->ns += ns;
	hit->o.procs++;
	others_group_pid(hit, p->pid, ns);
	return true;
}

void
others_book_figures(const struct others_book *b, const struct others_totals *t,
		    struct step_others *out, double *own_cpus)
{
	struct others_group *g = NULL;
	uint64_t named = 0, own = 0, measured = 0, ns;
	double rest;
	size_t ng = 0, i;

	memset(out, 0, sizeof(*out));
	if (own_cpus != NULL)
		*own_cpus = 0;
	if (b->scans < 2 || t->seconds <= 0)
		return;
	for (i = 0; i < b->n; i++) {
		const struct others_proc *p = &b->p[i];

		ns = p->cpu1 - p->cpu0;
		measured += p->measured ? ns : 0;
		if (p->measured || ns == 0)
			continue;
		if (others_is_own(b, p, t->self)) {
			own += ns;
			continue;
		}
		named += ns;
		if (!others_group_add(&g, &ng, p, ns))
			break;
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), others_group_cmp);
	for (i = 0; i < ng && i < STEP_OTHERS_TOP; i++) {
		out->top[i] = g[i].o;
		out->top[i].cpus = (double)g[i].ns / 1e9 / t->seconds;
	}
	out->ntop = (int)i;
	free(g);
	out->known = true;
	out->named_cpus = (double)named / 1e9 / t->seconds;
	if (own_cpus != NULL)
		*own_cpus = (double)own / 1e9 / t->seconds;
	/*
	 * Exact, unlike the names: what the counters saw busy less what is
	 * accounted for.  It may be below named_cpus (the scans' edges are not
	 * the counters' to the tick) and is above it when short-lived processes
	 * ran between scans.
	 */
	rest = t->measured_cpus >= 0 ? t->measured_cpus : (double)measured / 1e9 / t->seconds;
	out->cpus = t->busy_cpus - rest - (double)own / 1e9 / t->seconds;
	if (out->cpus < 0)
		out->cpus = 0;
}

int
others_names_text(const struct step_others *o, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, w;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < o->ntop && i < n; i++) {
		const struct step_other *e = &o->top[i];
		char procs[16] = "";

		if (e->procs > 1)
			snprintf(procs, sizeof(procs), " x%d", e->procs);
		w = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
			     "%s%s%s %.2f", i > 0 ? ", " : "", e->comm, procs, e->cpus);
		if (w < 0)
			return -1;
		used += (size_t)w;
	}
	return (int)used;
}

/* One "NAME[ xK] CPUS" item of [item, end) against comm: its CPUS, or -1. */
static double
others_item_cpus(const char *item, const char *end, const char *comm)
{
	const char *sp = end, *name_end;
	char *num_end;
	double cpus;

	while (sp > item && sp[-1] != ' ')
		sp--;
	if (sp == item)
		return -1;
	cpus = strtod(sp, &num_end);
	if (num_end != end || !isfinite(cpus) || cpus < 0)
		return -1;
	name_end = sp - 1;
	/* " xK": the processes of that name, not part of it. */
	for (sp = name_end; sp > item && sp[-1] >= '0' && sp[-1] <= '9'; sp--)
		;
	if (sp < name_end && sp - item >= 2 && sp[-1] == 'x' && sp[-2] == ' ')
		name_end = sp - 2;
	if ((size_t)(name_end - item) != strlen(comm) ||
	    strncmp(item, comm, (size_t)(name_end - item)) != 0)
		return -1;
	return cpus;
}

double
others_names_cpus(const char *text, const char *comm)
{
	const char *item = text, *end, *stop;
	double c;

	if ((stop = strchr(text, ')')) == NULL)
		stop = text + strlen(text);
	while (item < stop) {
		end = strstr(item, ", ");
		if (end == NULL || end > stop)
			end = stop;
		if ((c = others_item_cpus(item, end, comm)) >= 0)
			return c;
		item = end + (end < stop ? 2 : 0);
		if (end == stop)
			break;
	}
	return -1;
}

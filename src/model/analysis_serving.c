/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A server is not a busy machine (analysis_serving.h): of the commands the
 * steps' others name, the ones whose CPU went with the workload's, as a
 * database's backends do under its clients, rather than a bystander's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/others.h"
#include "analysis_serving.h"

/*
 * The rule (docs/design-notes.md, "A server is not a busy machine"): a
 * command serves the workload when it is named in every usable step whose
 * others are known (a bystander that starts or stops mid-sweep is missing
 * from some), at two N or more; its CPU, as a mean over the runs of each N,
 * rose with N or with the throughput (a correlation of ANALYSIS_SERVING_CORR
 * over the N) by ANALYSIS_SERVING_RISE from its least to its most (a
 * bystander's is flat, or falls as the workload takes the CPUs), to a
 * quarter of a CPU at least (a compiler's trickle is no server); and the
 * quiet check before the first step did not see it use half its least.
 */

/* One N's means for one command: its CPU, the throughput. */
struct serve_point {
	int n;
	double cpus, x;
	int runs;
};

static bool
serving_usable(const struct step *st)
{
	return step_usable(st) && st->others.known;
}

/* The CPUs comm used in st's window; < 0 when its others do not name it. */
static double
serving_step_cpus(const struct step *st, const char *comm)
{
	int i;

	for (i = 0; i < st->others.ntop; i++) {
		if (strcmp(st->others.top[i].comm, comm) == 0 && st->others.top[i].cpus > 0)
			return st->others.top[i].cpus;
	}
	return -1;
}

/* comm's means at each N into p (its room: the steps); their count, or 0 when a step lacks it. */
static int
serving_points(const struct session *s, const char *comm, struct serve_point *p)
{
	int m = 0, i, j;
	double c;

	for (i = 0; i < s->nsteps; i++) {
		const struct step *st = &s->steps[i];

		if (!serving_usable(st))
			continue;
		if ((c = serving_step_cpus(st, comm)) < 0)
			return 0;
		for (j = 0; j < m && p[j].n != st->n; j++)
			;
		if (j == m)
			memset(&p[m++], 0, sizeof(*p));
		p[j].n = st->n;
		p[j].cpus += c;
		p[j].x += st->ops_s;
		p[j].runs++;
	}
	for (j = 0; j < m; j++) {
		p[j].cpus /= p[j].runs;
		p[j].x /= p[j].runs;
	}
	return m;
}

/* Pearson's correlation of the points' CPU with log N (by_n) or the throughput; NaN if flat. */
static double
serving_corr(const struct serve_point *p, int m, bool by_n)
{
	double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, x, y, vx, vy;
	int j;

	for (j = 0; j < m; j++) {
		x = by_n ? log(p[j].n > 0 ? p[j].n : 1) : p[j].x;
		y = p[j].cpus;
		sx += x;
		sy += y;
		sxx += x * x;
		syy += y * y;
		sxy += x * y;
	}
	vx = sxx - sx * sx / m;
	vy = syy - sy * sy / m;
	if (vx <= 1e-12 * sxx || vy <= 1e-12 * syy)
		return NAN;
	return (sxy - sx * sy / m) / sqrt(vx * vy);
}

/*
 * The CPUs the quiet check last saw comm use before the first step: its
 * last event's names (sweep_quiet.c's "the machine is busy: ... (cc1 x3
 * 0.70, ...)"), 0 when that event says the machine is quiet or none names it.
 */
static double
serving_quiet_cpus(const struct session *s, const char *comm)
{
	const char *names;
	double last = 0;
	int i;

	for (i = 0; i < s->nevents; i++) {
		const struct event *e = &s->events[i];

		if (e->step != -1 || strncmp(e->text, "the machine ", 12) != 0)
			continue;
		last = 0;
		if (strstr(e->text, "busy") != NULL && (names = strchr(e->text, '(')) != NULL)
			last = fmax(others_names_cpus(names + 1, comm), 0);
	}
	return last;
}

/* Whether comm rose with the workload over p (m points), filling its range into sv. */
static bool
serving_rose(const struct serve_point *p, int m, struct analysis_server *sv)
{
	double rn, rx;
	int j;

	sv->lo = INFINITY;
	sv->hi = 0;
	for (j = 0; j < m; j++) {
		sv->lo = fmin(sv->lo, p[j].cpus);
		sv->hi = fmax(sv->hi, p[j].cpus);
	}
	if (m < 2 || !(sv->lo > 0) || sv->hi < ANALYSIS_SERVING_MIN ||
	    sv->hi < ANALYSIS_SERVING_RISE * sv->lo)
		return false;
	rn = serving_corr(p, m, true);
	rx = serving_corr(p, m, false);
	return rn >= ANALYSIS_SERVING_CORR || rx >= ANALYSIS_SERVING_CORR;
}

/* Whether a step's others name comm with pid among its busiest processes. */
static bool
serving_pid_named(const struct session *s, const char *comm, long pid)
{
	const struct step_other *o;
	int j, k, p;

	for (j = 0; j < s->nsteps; j++) {
		for (k = 0; k < s->steps[j].others.ntop; k++) {
			o = &s->steps[j].others.top[k];
			for (p = 0; p < o->npid && strcmp(o->comm, comm) == 0; p++) {
				if ((long)o->pid[p] == pid)
					return true;
			}
		}
	}
	return false;
}

/* Whether a --target spec names comm: comm:NAME, or pid:P of one of its processes. */
static bool
serving_targeted(const struct session *s, const char *comm)
{
	int i;

	for (i = 0; i < s->set.ntargets; i++) {
		const char *t = s->set.target[i];

		if (strncmp(t, "comm:", 5) == 0 && strcmp(t + 5, comm) == 0)
			return true;
		if (strncmp(t, "pid:", 4) == 0 && serving_pid_named(s, comm, atol(t + 4)))
			return true;
	}
	return false;
}

/* Whether comm served s's workload, into sv; p is room for a point a step. */
static bool
serving_judge(const struct session *s, const char *comm, struct serve_point *p,
	      struct analysis_server *sv)
{
	int m = serving_points(s, comm, p);

	memset(sv, 0, sizeof(*sv));
	if (!serving_rose(p, m, sv))
		return false;
	if (serving_quiet_cpus(s, comm) >= ANALYSIS_SERVING_QUIET * sv->lo)
		return false;
	snprintf(sv->comm, sizeof(sv->comm), "%s", comm);
	sv->targeted = serving_targeted(s, comm);
	return true;
}

void
analysis_serving_find(const struct session *s, struct analysis_serving *v)
{
	const struct step *first = NULL;
	struct serve_point *p;
	int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < s->nsteps && first == NULL; i++) {
		if (serving_usable(&s->steps[i]))
			first = &s->steps[i];
	}
	/* Every server is named in every step: the first step's names are the candidates. */
	if (first == NULL || (p = calloc((size_t)s->nsteps, sizeof(*p))) == NULL)
		return;
	for (i = 0; i < first->others.ntop && v->n < ANALYSIS_SERVING_MAX; i++) {
		if (first->others.top[i].comm[0] != '\0' &&
		    serving_judge(s, first->others.top[i].comm, p, &v->s[v->n]))
			v->n++;
	}
	free(p);
}

bool
analysis_serving_is(const struct analysis_serving *v, const char *comm)
{
	int i;

	for (i = 0; i < v->n; i++) {
		if (strcmp(v->s[i].comm, comm) == 0)
			return true;
	}
	return false;
}

double
analysis_serving_cpus(const struct analysis_serving *v, const struct step *st)
{
	double sum = 0, c;
	int i;

	for (i = 0; i < v->n && st->others.known; i++) {
		if ((c = serving_step_cpus(st, v->s[i].comm)) > 0)
			sum += c;
	}
	return sum;
}

/* "0.8 to 1.5" into buf at its end, or "1.0" when the two read the same. */
static void
serving_range(const struct analysis_server *sv, char *buf, size_t len)
{
	char lo[16], hi[16];
	size_t used = strlen(buf);

	snprintf(lo, sizeof(lo), "%.1f", sv->lo);
	snprintf(hi, sizeof(hi), "%.1f", sv->hi);
	if (used < len)
		snprintf(buf + used, len - used, strcmp(lo, hi) == 0 ? "%s" : "%s to %s", lo, hi);
}

/* s appended to buf, cut to len. */
static void
serving_cat(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s", s);
}

void
analysis_serving_text(const struct analysis_serving *v, bool brief, char *buf, size_t len)
{
	const char *first = NULL;
	int i, k;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0, k = 0; i < v->n; i++) {
		if (v->s[i].targeted)
			continue;
		serving_cat(buf, len, k++ == 0 ? "" : " and ");
		serving_cat(buf, len, v->s[i].comm);
		first = first != NULL ? first : v->s[i].comm;
	}
	if (first == NULL)
		return;
	serving_cat(buf, len, " served the workload (");
	for (i = 0, k = 0; i < v->n; i++) {
		if (v->s[i].targeted)
			continue;
		serving_cat(buf, len, k++ == 0 ? "" : ", ");
		serving_range(&v->s[i], buf, len);
	}
	serving_cat(buf, len, " CPUs)");
	if (brief)
		return;
	serving_cat(buf, len, ": --target comm:");
	serving_cat(buf, len, first);
	serving_cat(buf, len, k > 1 ? " shows their waits" : " shows its waits");
}

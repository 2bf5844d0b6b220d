/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The gnuplot export's frame and words.  N is a count, so its tics are
 * integers: at each N on a log2 axis when that spreads the N values wider
 * than a linear one (as when N doubles), else every 1, 2, 5, 10... from 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "snapshot_gnuplot.h"

#define GP_LOGY_RATIO 10.0 /* maxima further apart than this: log y by default */
#define GP_XTICS_MAX 12    /* linear x: at most this many tic intervals */
#define GP_LABEL_EDGE 0.8  /* a label right of this fraction of the width ends at its point */
#define GP_LABEL_ROOM 0.12 /* a label's offset and height, as a share of the frame's height */

/*
 * The y axis is logarithmic when asked, or by default when one series'
 * highest point is more than ten times another's, which a linear axis would
 * flatten near 0.  Labels stay inside the frame, and snapshots that count
 * different things are named so, not drawn as if they were alike.
 */

/* What a throughput of sn at n is divided by: 1, X(1), or n X(1). */
double
gp_div(const struct gp_job *job, const struct snapshot *sn, int n)
{
	if (job->norm == SNAPSHOT_NORM_SPEEDUP)
		return sn->now.x1;
	if (job->norm == SNAPSHOT_NORM_EFFICIENCY)
		return n * sn->now.x1;
	return 1;
}

void
gp_num(FILE *f, double x)
{
	char buf[40];

	snapshot_number(buf, sizeof(buf), x);
	fputs(buf, f);
}

/* The smallest N above n in any snapshot, or 0 when none is. */
static int
gp_next_n(const struct gp_job *job, int n)
{
	const struct analysis *a;
	int i, j, next = 0;

	for (i = 0; i < job->k; i++) {
		a = &job->v[i]->now;
		for (j = 0; j < a->npoints; j++) {
			if (a->pts[j].n > n && (next == 0 || a->pts[j].n < next))
				next = a->pts[j].n;
		}
	}
	return next;
}

/*
 * Log2 when the closest two N values lie further apart on it than on a
 * linear axis, each as a share of the axis: 1,2,4,8 and 1,2,4,6,8,12 are
 * log2, 1,2,3,4,6 and 1..64 are linear.  Three values at least.
 */
static bool
gp_log_x(const struct gp_job *job, int nmin, int nmax)
{
	double lin = 1, lg = 1;
	int n, next, count = 1;

	if (nmin < 1 || nmax <= nmin)
		return false;
	for (n = nmin; (next = gp_next_n(job, n)) != 0; n = next, count++) {
		lin = fmin(lin, (double)(next - n) / (nmax - nmin));
		lg = fmin(lg, log((double)next / n) / log((double)nmax / nmin));
	}
	return count >= 3 && lg > lin;
}

/* Each snapshot's highest figure as plotted: whether the highest is over tenfold the lowest. */
static bool
gp_maxima_apart(const struct gp_job *job)
{
	const struct analysis *a;
	double top, hi = 0, lo = INFINITY;
	int i, j;

	for (i = 0; i < job->k; i++) {
		a = &job->v[i]->now;
		if (a->npoints == 0)
			continue;
		top = 0;
		for (j = 0; j < a->npoints; j++)
			top = fmax(top, a->pts[j].x / gp_div(job, job->v[i], a->pts[j].n));
		hi = fmax(hi, top);
		lo = fmin(lo, top);
	}
	return lo > 0 && isfinite(lo) && hi > GP_LOGY_RATIO * lo;
}

/* The frame's x: from 0 with integer tics, or a log2 span a little wider than the N values. */
static void
gp_plan_x(struct gp_job *job)
{
	static const int mant[] = { 1, 2, 5 };
	struct gp_axes *ax = &job->ax;
	int nmin = gp_next_n(job, 0), nmax, n, i, scale;

	for (nmax = nmin; (n = gp_next_n(job, nmax)) != 0; nmax = n)
		;
	if (nmin == 0)
		nmin = nmax = 1;
	ax->log_x = gp_log_x(job, nmin, nmax);
	ax->x_lo = ax->log_x ? nmin / 1.25 : 0;
	ax->x_hi = ax->log_x ? nmax * 1.25 : nmax * 1.05;
	for (scale = 1, i = 0; ax->x_hi > (double)GP_XTICS_MAX * mant[i] * scale; i++) {
		if (i == 2) {
			i = -1;
			scale *= 10;
		}
	}
	ax->x_step = mant[i] * scale;
}

/*
 * The frame's y: every error bar whole.  Linear from 0; log from a little
 * below the lowest positive figure (or bar), with room above for the labels.
 */
static void
gp_plan_y(struct gp_job *job)
{
	const struct scaling_point *p;
	struct gp_axes *ax = &job->ax;
	double d, x, bar, xmax = 0, barmax = 0, low = INFINITY, span;
	int i, j;

	for (i = 0; i < job->k; i++) {
		for (j = 0; j < job->v[i]->now.npoints; j++) {
			p = &job->v[i]->now.pts[j];
			d = gp_div(job, job->v[i], p->n);
			x = p->x / d;
			bar = isfinite(p->ci) ? p->ci / d : 0;
			xmax = fmax(xmax, x);
			barmax = fmax(barmax, x + bar);
			if (x > 0)
				low = fmin(low, x - bar > 0 ? x - bar : x);
		}
	}
	if (job->norm == SNAPSHOT_NORM_NONE)
		xmax = fmax(xmax, 1);
	ax->log_y = job->log_y < 0 ? gp_maxima_apart(job) : job->log_y > 0;
	if (ax->log_y && isfinite(low) && low < barmax) {
		span = log(barmax / low);
		ax->y_lo = low / exp(fmax(0.08 * span, log(1.5)));
		ax->y_hi = barmax * exp(fmax(0.15 * span, log(1.5)));
	} else {
		ax->log_y = false;
		ax->y_lo = 0;
		ax->y_hi = fmax(xmax * 1.3, barmax * 1.05);
	}
	/* Efficiency's ideal is 1: the frame shows it however far below the points fall. */
	if (job->norm == SNAPSHOT_NORM_EFFICIENCY)
		ax->y_hi = fmax(ax->y_hi, 1.1);
}

void
gp_axes_plan(struct gp_job *job)
{
	gp_plan_x(job);
	gp_plan_y(job);
}

/* The tics at each N: "set xtics ('1' 1, '2' 2, '4' 4)". */
static void
gp_xtics_at_n(FILE *f, const struct gp_job *job)
{
	int n;

	fprintf(f, "set xtics (");
	for (n = gp_next_n(job, 0); n != 0; n = gp_next_n(job, n))
		fprintf(f, "%s'%d' %d", n == gp_next_n(job, 0) ? "" : ", ", n, n);
	fprintf(f, ")\n");
}

/* Written exactly: %g's six digits could round the top below the highest bar. */
void
gp_axes_write(FILE *f, const struct gp_job *job)
{
	const struct gp_axes *ax = &job->ax;

	if (ax->log_x) {
		fprintf(f, "set logscale x 2\n");
		gp_xtics_at_n(f, job);
	} else {
		fprintf(f, "set xtics 0, %d\n", ax->x_step);
	}
	if (ax->log_y)
		fprintf(f, "set logscale y 10\n");
	fprintf(f, "set xrange [");
	gp_num(f, ax->x_lo);
	fputc(':', f);
	gp_num(f, ax->x_hi);
	fprintf(f, "]\nset yrange [");
	gp_num(f, ax->y_lo);
	fputc(':', f);
	gp_num(f, ax->y_hi);
	fprintf(f, "]\n");
}

/* Where v lies between lo and hi, 0 to 1, on a linear or a log axis. */
static double
gp_fraction(double v, double lo, double hi, bool lg)
{
	if (lg)
		return v > 0 ? log(v / lo) / log(hi / lo) : 0;
	return hi > lo ? (v - lo) / (hi - lo) : 0;
}

void
gp_label_place(FILE *f, const struct gp_axes *ax, double n, double y, bool below)
{
	double fx = gp_fraction(n, ax->x_lo, ax->x_hi, ax->log_x);
	double fy = gp_fraction(y, ax->y_lo, ax->y_hi, ax->log_y);
	bool right = fx > GP_LABEL_EDGE;
	const char *dy = below ? "-0.8" : "0.8";

	/*
	 * Below near the floor, or above near the top, a label would leave the
	 * frame: it goes level with its point, beside it, where no other
	 * snapshot's label at the same N can seem to be its own.
	 */
	if ((below && fy < GP_LABEL_ROOM) || (!below && fy > 1 - GP_LABEL_ROOM))
		dy = "0";
	fprintf(f, " %s offset %s1,%s", right ? "right" : "left", right ? "-" : "", dy);
}

/* The distinct strings at offset off of the snapshots, in order, joined by sep. */
static void
gp_distinct(const struct gp_job *job, size_t off, const char *suffix, const char *sep, char *buf,
	    size_t len)
{
	const char *s;
	size_t m = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < job->k; i++) {
		s = (const char *)job->v[i] + off;
		for (j = 0; j < i && strcmp(s, (const char *)job->v[j] + off) != 0; j++)
			;
		if (j < i)
			continue;
		m += (size_t)snprintf(buf + m, m < len ? len - m : 0, "%s%s%s", m ? sep : "", s,
				      suffix);
	}
}

void
gp_nouns(const struct gp_job *job, char *buf, size_t len)
{
	gp_distinct(job, offsetof(struct snapshot, s.wl.n_unit), "", " / ", buf, len);
}

void
gp_units(const struct gp_job *job, char *buf, size_t len)
{
	gp_distinct(job, offsetof(struct snapshot, s.wl.unit), "/s", ", ", buf, len);
}

bool
gp_nouns_differ(const struct gp_job *job)
{
	int i;

	for (i = 1; i < job->k; i++) {
		if (strcmp(job->v[i]->s.wl.n_unit, job->v[0]->s.wl.n_unit) != 0)
			return true;
	}
	return false;
}

/* An imported table ran what its source says, so its name differs from no workload's. */
static bool
gp_names_differ(const char *a, const char *b)
{
	return strcmp(a, b) != 0 && strcmp(a, "imported") != 0 && strcmp(b, "imported") != 0;
}

bool
gp_mixed(struct snapshot *const *v, int k)
{
	const struct workload_desc *a, *b;
	int i, j;

	for (i = 0; i < k; i++) {
		for (j = i + 1; j < k; j++) {
			a = &v[i]->s.wl;
			b = &v[j]->s.wl;
			if (gp_names_differ(a->name, b->name) || strcmp(a->unit, b->unit) != 0 ||
			    strcmp(a->n_unit, b->n_unit) != 0)
				return true;
		}
	}
	return false;
}

const char *
gp_workload(const struct gp_job *job)
{
	const char *name = job->v[0]->s.wl.name;
	int i;

	for (i = 1; i < job->k; i++) {
		if (strcmp(job->v[i]->s.wl.name, name) != 0)
			return NULL;
	}
	return strcmp(name, "imported") != 0 ? name : NULL;
}

bool
snapshot_gnuplot_mixed(struct snapshot *const *v, int k, char *buf, size_t len)
{
	const struct workload_desc *w;
	size_t m = 0;
	int i;

	buf[0] = '\0';
	if (!gp_mixed(v, k))
		return false;
	for (i = 0; i < k; i++) {
		w = &v[i]->s.wl;
		m += (size_t)snprintf(buf + m, m < len ? len - m : 0,
				      "%s%s is %s (%s/s against %s)", i ? ", " : "", v[i]->name,
				      w->name, w->unit, w->n_unit);
	}
	return true;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Export for gnuplot, latency against N: where the tail bends is a ratio,
 * so the y axis is logarithmic, and p50 and the tail share it.  Each point
 * is the mean over the snapshot's trials (analysis_latency_at), its error
 * bar the lowest and highest trial, which is what the knee is judged on.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/report.h"
#include "snapshot_gnuplot.h"

/* Per snapshot, the percentile its tail is: 99, or the tool's; 0 without latency. */
struct gp_lat_job {
	struct gp_job g;
	int pct[SNAPSHOT_COMPARE_MAX];
};

static int
gp_lat_data(FILE *f, void *arg)
{
	struct gp_lat_job *job = arg;
	const struct snapshot *sn;
	struct latency_at l;
	int i, j;

	fprintf(f, "# scaletop export: latency against N (ms); one block per snapshot.\n");
	fprintf(f, "# columns: N, p50, the tail (the percentile in the block's title), its "
		   "lowest and highest trial; the means over the trials; NaN: not measured\n");
	for (i = 0; i < job->g.k; i++) {
		sn = job->g.v[i];
		fprintf(f, "%s# %c: %s (%s), p%d\n", i > 0 ? "\n\n" : "", 'A' + i, sn->meta.label,
			sn->name, job->pct[i]);
		for (j = 0; j < sn->now.npoints; j++) {
			analysis_latency_at(&sn->s, sn->now.pts[j].n, &job->pct[i], &l);
			fprintf(f, "%d", sn->now.pts[j].n);
			gp_cell(f, l.p50);
			gp_cell(f, l.tail);
			gp_cell(f, l.lo);
			gp_cell(f, l.hi);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* The decades that hold every figure: the y axis. */
static void
gp_lat_range(struct gp_lat_job *job)
{
	const struct snapshot *sn;
	struct latency_at l;
	double lo = INFINITY, hi = 0;
	int i, j;

	for (i = 0; i < job->g.k; i++) {
		sn = job->g.v[i];
		for (j = 0; j < sn->now.npoints; j++) {
			analysis_latency_at(&sn->s, sn->now.pts[j].n, &job->pct[i], &l);
			if (l.p50 > 0)
				lo = fmin(lo, l.p50);
			if (l.lo > 0)
				lo = fmin(lo, l.lo);
			hi = fmax(hi, fmax(l.hi, l.p50));
		}
	}
	job->g.ax.log_y = true;
	job->g.ax.y_lo = pow(10, floor(log10(lo)));
	job->g.ax.y_hi = pow(10, ceil(log10(hi)));
	if (job->g.ax.y_hi <= job->g.ax.y_lo)
		job->g.ax.y_hi = 10 * job->g.ax.y_lo;
}

static void
gp_lat_header(FILE *f, const struct gp_lat_job *job)
{
	const char *wl = gp_workload(&job->g);
	char out[1100], nouns[256], title[400];

	snprintf(out, sizeof(out), "%s.%s", job->g.base, job->g.term);
	fprintf(f, "# gnuplot script written by scaletop export; run: gnuplot %s.gp\n",
		job->g.base);
	if (strcmp(job->g.term, "svg") == 0)
		fprintf(f, "set terminal svg size 1000,640 dynamic noenhanced\n");
	else
		fprintf(f, "set terminal pngcairo size 1000,640 noenhanced\n");
	fprintf(f, "set output ");
	gp_quoted(f, out);
	gp_nouns(&job->g, nouns, sizeof(nouns));
	snprintf(title, sizeof(title), "Latency%s%s against %s", wl != NULL ? " of " : "",
		 wl != NULL ? wl : "", gp_nouns_differ(&job->g) ? "N" : nouns);
	fprintf(f, "\nset title ");
	gp_quoted(f, title);
	fprintf(f, "\nset xlabel ");
	gp_quoted(f, nouns);
	fprintf(f, "\nset ylabel 'latency (ms)'\n");
	fprintf(f, "set format y '%%g'\nset key below\nset grid\nset datafile missing 'NaN'\n");
	gp_axes_write(f, &job->g);
}

static int
gp_lat_script(FILE *f, void *arg)
{
	const struct gp_lat_job *job = arg;
	char dat[1100], title[900], line[920];
	int i;

	gp_lat_header(f, job);
	snprintf(dat, sizeof(dat), "%s.dat", job->g.base);
	fprintf(f, "plot \\\n");
	for (i = 0; i < job->g.k; i++) {
		gp_title(&job->g, i, title, sizeof(title));
		snprintf(line, sizeof(line), "%s p50", title);
		fprintf(f, "  ");
		gp_quoted(f, dat);
		fprintf(f,
			" index %d using 1:2 with linespoints dashtype 2 pointtype 6 lc %d title ",
			i, i + 1);
		gp_quoted(f, line);
		snprintf(line, sizeof(line), "%s p%d", title, job->pct[i]);
		fprintf(f, ", \\\n  ");
		gp_quoted(f, dat);
		fprintf(f, " index %d using 1:3:4:5 with yerrorlines pointtype 7 lc %d lw 2 title ",
			i, i + 1);
		gp_quoted(f, line);
		fprintf(f, "%s\n", i + 1 < job->g.k ? ", \\" : "");
	}
	return ferror(f) ? -1 : 0;
}

/* Each snapshot's tail percentile; one without latency at any N is refused, named. */
static int
gp_lat_check(struct gp_lat_job *job, char *err, size_t errlen)
{
	const struct snapshot *sn;
	struct latency_at l;
	int i, j;
	bool any;

	for (i = 0; i < job->g.k; i++) {
		sn = job->g.v[i];
		job->pct[i] = 0;
		for (j = 0, any = false; j < sn->now.npoints; j++) {
			analysis_latency_at(&sn->s, sn->now.pts[j].n, &job->pct[i], &l);
			any = any || l.trials > 0;
		}
		if (!any)
			return st_error(err, errlen,
					"%s has no latency at any N (its steps were not timed); "
					"leave it out, or export without --latency",
					sn->name);
	}
	return 0;
}

int
snapshot_gnuplot_latency_write(const char *base, const char *term, struct snapshot *const *v, int k,
			       bool force, char *err, size_t errlen)
{
	struct gp_lat_job job;

	memset(&job, 0, sizeof(job));
	job.g.base = base;
	job.g.term = term;
	job.g.norm = SNAPSHOT_NORM_NONE;
	job.g.log_y = 1;
	job.g.v = v;
	job.g.k = k;
	if (k > SNAPSHOT_COMPARE_MAX)
		return st_error(err, errlen, "%d snapshots; export at most %d at once", k,
				SNAPSHOT_COMPARE_MAX);
	if (gp_lat_check(&job, err, errlen) != 0)
		return -1;
	gp_axes_plan(&job.g);
	gp_lat_range(&job);
	return gp_write_pair(base, force, gp_lat_data, gp_lat_script, &job, err, errlen);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the gnuplot export's files share: the job, its frame, and the way
 * figures are written into a script.  snapshot_gnuplot.c writes the
 * data and the curves; snapshot_gnuplot_axes.c picks the axes, places the
 * marks' labels and names what the snapshots measure;
 * snapshot_gnuplot_lat.c draws latency instead of throughput.
 */
#ifndef SCALETOP_SNAPSHOT_GNUPLOT_H
#define SCALETOP_SNAPSHOT_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scaletop/report.h"

/* The frame: its ranges, and whether each axis is logarithmic. */
struct gp_axes {
	bool log_x, log_y;
	double x_lo, x_hi, y_lo, y_hi;
	int x_step; /* linear x: a tic every x_step from 0 */
};

struct gp_job {
	const char *base, *term;
	enum snapshot_norm norm;
	int log_y; /* as asked: -1 when the maxima differ more than tenfold, 0 no, 1 yes */
	struct snapshot *const *v;
	int k;
	struct gp_axes ax;
};

/* What a throughput of sn at n is divided by; a figure written exactly. */
double gp_div(const struct gp_job *job, const struct snapshot *sn, int n);
void gp_num(FILE *f, double x);
/* A figure, or NaN where it is not known; text as a gnuplot single-quoted string. */
void gp_cell(FILE *f, double x);
void gp_quoted(FILE *f, const char *s);
/* Snapshot i's series title: what tells it apart from the others ("A: a.json, label"). */
void gp_title(const struct gp_job *job, int i, char *buf, size_t len);

/* The frame of job's snapshots, into job->ax; then its lines of script. */
void gp_axes_plan(struct gp_job *job);
/*
 * base.dat by data and base.gp by script, each of arg; with force an old
 * pair is replaced, else neither is written when base.gp exists.  0, or -1
 * with a message.
 */
int gp_write_pair(const char *base, bool force, int (*data)(FILE *, void *),
		  int (*script)(FILE *, void *), void *arg, char *err, size_t errlen);
void gp_axes_write(FILE *f, const struct gp_job *job);

/* " left offset 1,0.8": a label at (n, y) kept inside the frame, above or below. */
void gp_label_place(FILE *f, const struct gp_axes *ax, double n, double y, bool below);

/* What N counts, "writers / threads" where the snapshots differ; what they count per second. */
void gp_nouns(const struct gp_job *job, char *buf, size_t len);
void gp_units(const struct gp_job *job, char *buf, size_t len);
bool gp_nouns_differ(const struct gp_job *job);

/* The workloads or units differ between the snapshots; the one they all ran, or NULL. */
bool gp_mixed(struct snapshot *const *v, int k);
const char *gp_workload(const struct gp_job *job);

#endif

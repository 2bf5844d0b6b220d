/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Export for gnuplot: BASE.dat holds each snapshot's pooled points, one
 * block per snapshot (gnuplot's "index"), and BASE.gp draws throughput
 * against N with, per snapshot, the ideal linear line, the USL curve and
 * the peak and collapse marks, each point with its 95% CI as an error bar.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/report.h"
#include "snapshot_gnuplot.h"
#include "compare_priv.h"

#define GP_TG_CPU 2 /* snapshot_target_name(2): "cpu_used" */

/*
 * Normalised (speedup X(N)/X(1), or efficiency X(N)/(N X(1))), machines of
 * different absolute speed share one scale: every figure of a snapshot, its
 * CIs, curve and marks included, is divided by the same X(1), which is taken
 * as exact.  The script is plain text a reader may edit and rerun; the USL
 * parameters are written into it as numbers.
 */

/* The y axis: its name, the first column's name in the data file. */
static const char *
gp_what(const struct gp_job *job)
{
	if (job->norm == SNAPSHOT_NORM_SPEEDUP)
		return "speedup X(N)/X(1)";
	if (job->norm == SNAPSHOT_NORM_EFFICIENCY)
		return "efficiency X(N)/(N X(1))";
	return "throughput";
}

/* Text inside a gnuplot single-quoted string: '' is a quote; no line breaks. */
void
gp_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* A figure, or NaN (gnuplot's "missing", set in the script) where it is not known. */
void
gp_cell(FILE *f, double x)
{
	fputc(' ', f);
	if (isfinite(x))
		gp_num(f, x);
	else
		fputs("NaN", f);
}

/* The column of the target's figure i (snapshot_target_name), after the throughput's. */
static int
gp_col_target(const struct gp_job *job, int i)
{
	return (job->norm != SNAPSHOT_NORM_NONE ? 6 : 4) + i;
}

static void
gp_point(FILE *f, const struct gp_job *job, const struct snapshot *sn,
	 const struct scaling_point *p)
{
	double d = gp_div(job, sn, p->n), ci = isfinite(p->ci) ? p->ci : 0, jain;
	double fig[SNAPSHOT_TARGET_NFIGS];
	bool tg, fair;
	int i, starved;

	fprintf(f, "%d ", p->n);
	gp_num(f, p->x / d);
	fputc(' ', f);
	gp_num(f, ci / d);
	if (job->norm != SNAPSHOT_NORM_NONE) {
		fputc(' ', f);
		gp_num(f, p->x);
		fputc(' ', f);
		gp_num(f, ci);
	}
	tg = snapshot_target_at(sn, p->n, fig);
	for (i = 0; i < SNAPSHOT_TARGET_NFIGS; i++)
		gp_cell(f, tg ? fig[i] : NAN);
	fair = snapshot_fairness_at(sn, p->n, &jain, &starved);
	gp_cell(f, fair ? jain : NAN);
	gp_cell(f, fair ? starved : NAN);
	fputc('\n', f);
}

static int
gp_data(FILE *f, void *arg)
{
	const struct gp_job *job = arg;
	const struct analysis *a;
	int i, j;

	fprintf(f, "# scaletop export: %s against N; one block per snapshot.\n", gp_what(job));
	fprintf(f, "# columns: N, %s, its 95%% CI half-width (0 when unknown)%s", gp_what(job),
		job->norm != SNAPSHOT_NORM_NONE ? ", throughput, its 95% CI half-width" : "");
	for (i = 0; i < SNAPSHOT_TARGET_NFIGS; i++)
		fprintf(f, ", target_%s", snapshot_target_name(i));
	fprintf(f, ", jain, starved; jain and starved: Jain's index of the workers' operations "
		   "and the workers with none; NaN: not measured\n");
	for (i = 0; i < job->k; i++) {
		a = &job->v[i]->now;
		fprintf(f, "%s# %c: %s (%s)\n", i > 0 ? "\n\n" : "", 'A' + i, job->v[i]->meta.label,
			job->v[i]->name);
		for (j = 0; j < a->npoints; j++)
			gp_point(f, job, job->v[i], &a->pts[j]);
		/* gnuplot cannot plot an empty block; a lone comment keeps the indices aligned. */
		if (a->npoints == 0)
			fprintf(f, "# no usable step\n");
	}
	return ferror(f) ? -1 : 0;
}

/* The target's CPUs used of snapshot i at some point: it gets a curve on the right axis. */
static bool
gp_has_target(const struct gp_job *job, int i)
{
	const struct analysis *a = &job->v[i]->now;
	double fig[SNAPSHOT_TARGET_NFIGS];
	int j;

	for (j = 0; j < a->npoints; j++) {
		if (snapshot_target_at(job->v[i], a->pts[j].n, fig) && isfinite(fig[GP_TG_CPU]))
			return true;
	}
	return false;
}

static bool
gp_any_target(const struct gp_job *job)
{
	int i;

	for (i = 0; i < job->k; i++) {
		if (gp_has_target(job, i))
			return true;
	}
	return false;
}

/*
 * "Speedup of mutex against threads": the workload where all ran the same,
 * and against N where the snapshots count different things.
 */
static void
gp_titles(FILE *f, const struct gp_job *job)
{
	const char *what = job->norm == SNAPSHOT_NORM_SPEEDUP      ? "Speedup"
			   : job->norm == SNAPSHOT_NORM_EFFICIENCY ? "Efficiency"
								   : "Throughput";
	const char *wl = gp_workload(job);
	char nouns[256], title[400], units[300];

	gp_nouns(job, nouns, sizeof(nouns));
	snprintf(units, sizeof(units), gp_nouns_differ(job) ? "N (%s)" : "%s", nouns);
	snprintf(title, sizeof(title), "%s%s%s against %s", what, wl != NULL ? " of " : "",
		 wl != NULL ? wl : "", gp_nouns_differ(job) ? "N" : nouns);
	fprintf(f, "\nset title ");
	gp_quoted(f, title);
	fprintf(f, "\nset xlabel ");
	gp_quoted(f, units);
	gp_units(job, units, sizeof(units));
	fprintf(f, "\nset ylabel ");
	gp_quoted(f, job->norm == SNAPSHOT_NORM_NONE ? units : gp_what(job));
	fputc('\n', f);
}

static void
gp_header(FILE *f, const struct gp_job *job)
{
	char out[1100];

	snprintf(out, sizeof(out), "%s.%s", job->base, job->term);
	fprintf(f, "# gnuplot script written by scaletop export; run: gnuplot %s.gp\n", job->base);
	if (strcmp(job->term, "svg") == 0)
		fprintf(f, "set terminal svg size 1000,640 dynamic noenhanced\n");
	else
		fprintf(f, "set terminal pngcairo size 1000,640 noenhanced\n");
	fprintf(f, "set output ");
	gp_quoted(f, out);
	gp_titles(f, job);
	fprintf(f, "set format y '%s'\nset key below\nset grid\nset datafile missing 'NaN'\n",
		job->norm == SNAPSHOT_NORM_NONE ? "%.1s%c" : "%g");
	if (gp_any_target(job))
		fprintf(f, "set ytics nomirror\nset y2tics\nset y2range [0:*]\n"
			   "set y2label 'target: CPUs used (dotted)'\n");
	gp_axes_write(f, job);
}

/* A standard error, or "fixed" for a parameter held at a bound, which has none. */
static void
gp_se(FILE *f, double se)
{
	if (isfinite(se))
		gp_num(f, se);
	else
		fputs("fixed", f);
}

/* "sigma 0.0213 ±0.0011": a parameter for the key, with its standard error. */
static size_t
gp_param(char *buf, size_t len, const char *name, double v, double se)
{
	int m;

	if (isfinite(se))
		m = snprintf(buf, len, "%s %.3g ±%.2g", name, v, se);
	else
		m = snprintf(buf, len, "%s %.3g (fixed)", name, v);
	return m > 0 ? (size_t)m : 0;
}

/* The USL curve's title: its parameters with their standard errors. */
static void
gp_usl_title(const struct gp_job *job, int i, char *buf, size_t len)
{
	const struct usl_fit *u = &job->v[i]->now.usl;
	double d = job->norm == SNAPSHOT_NORM_NONE ? 1 : job->v[i]->now.x1;
	size_t m;

	m = (size_t)snprintf(buf, len, "%c USL: ", 'A' + i);
	m += gp_param(buf + m, m < len ? len - m : 0, "sigma", u->sigma, u->se_sigma);
	m += (size_t)snprintf(buf + m, m < len ? len - m : 0, ", ");
	m += gp_param(buf + m, m < len ? len - m : 0, "kappa", u->kappa, u->se_kappa);
	m += (size_t)snprintf(buf + m, m < len ? len - m : 0, ", ");
	gp_param(buf + m, m < len ? len - m : 0, "lambda", u->lambda / d, u->se_lambda / d);
}

/*
 * The USL curve and the ideal line of snapshot i as gnuplot functions, from
 * N = 1.  Normalised, the ideal is one line for all (N, or 1), drawn once.
 */
static void
gp_functions(FILE *f, const struct gp_job *job, const struct snapshot *sn, int i)
{
	const struct analysis *a = &sn->now;
	double d = job->norm == SNAPSHOT_NORM_NONE ? 1 : a->x1;

	if (a->have_x1 && job->norm == SNAPSHOT_NORM_NONE) {
		fprintf(f, "ideal%c(x) = x < 1 ? 1/0 : ", 'A' + i);
		gp_num(f, a->x1);
		fprintf(f, " * x\n");
	}
	if (!a->usl.ok)
		return;
	fprintf(f, "# usl%c's standard errors: sigma ", 'A' + i);
	gp_se(f, a->usl.se_sigma);
	fprintf(f, ", kappa ");
	gp_se(f, a->usl.se_kappa);
	fprintf(f, ", lambda ");
	gp_se(f, a->usl.se_lambda / d);
	fputc('\n', f);
	fprintf(f, "usl%c(x) = x < 1 ? 1/0 : ", 'A' + i);
	gp_num(f, a->usl.lambda / d);
	fprintf(f, "%s / (1 + ", job->norm == SNAPSHOT_NORM_EFFICIENCY ? "" : " * x");
	gp_num(f, a->usl.sigma);
	fprintf(f, " * (x - 1) + ");
	gp_num(f, a->usl.kappa);
	fprintf(f, " * x * (x - 1))\n");
}

/* Peak and collapse as labelled points in the snapshot's colour. */
static void
gp_marks(FILE *f, const struct gp_job *job, const struct snapshot *sn, int i)
{
	const struct analysis *a = &sn->now;
	int j;

	if (a->npoints == 0)
		return;
	fprintf(f, "set label 'peak %c' at %d,", 'A' + i, a->n_peak);
	gp_num(f, a->x_peak / gp_div(job, sn, a->n_peak));
	fprintf(f, " point pointtype 7 pointsize 2 lc %d", i + 1);
	gp_label_place(f, &job->ax, a->n_peak, a->x_peak / gp_div(job, sn, a->n_peak), false);
	fputc('\n', f);
	if (!a->collapse)
		return;
	for (j = 0; j < a->npoints && a->pts[j].n != a->collapse_n; j++)
		;
	if (j == a->npoints)
		return;
	fprintf(f, "set label 'collapse %c' at %d,", 'A' + i, a->collapse_n);
	gp_num(f, a->pts[j].x / gp_div(job, sn, a->collapse_n));
	fprintf(f, " point pointtype 9 pointsize 2 lc %d", i + 1);
	gp_label_place(f, &job->ax, a->collapse_n, a->pts[j].x / gp_div(job, sn, a->collapse_n),
		       true);
	fputc('\n', f);
}

/* The file's name without its folders, unless another snapshot's has the same one. */
static const char *
gp_file(const struct gp_job *job, int i)
{
	const char *base = strrchr(job->v[i]->name, '/'), *other;
	int j;

	base = base != NULL ? base + 1 : job->v[i]->name;
	for (j = 0; j < job->k; j++) {
		other = strrchr(job->v[j]->name, '/');
		other = other != NULL ? other + 1 : job->v[j]->name;
		if (j != i && strcmp(base, other) == 0)
			return job->v[i]->name;
	}
	return base;
}

/* Whether the string at offset off of a snapshot differs between any two of them. */
static bool
gp_differs(const struct gp_job *job, size_t off)
{
	const char *first = (const char *)job->v[0] + off;
	int i;

	for (i = 1; i < job->k; i++) {
		if (strcmp(first, (const char *)job->v[i] + off) != 0)
			return true;
	}
	return false;
}

/*
 * A series' title says what tells it apart from the others: its workload
 * where the snapshots' workloads or units differ (the axes name the units),
 * its file's name, then the label where the labels differ, else the host and the kernel where
 * they do, and the time it was taken where that differs.  Alone, its label.
 */
void
gp_title(const struct gp_job *job, int i, char *buf, size_t len)
{
	const struct snapshot *sn = job->v[i];
	size_t m;

	if (gp_mixed(job->v, job->k))
		m = (size_t)snprintf(buf, len, "%c: %s, %s", 'A' + i, sn->s.wl.name,
				     gp_file(job, i));
	else
		m = (size_t)snprintf(buf, len, "%c: %s", 'A' + i, gp_file(job, i));
	if (job->k == 1 || gp_differs(job, offsetof(struct snapshot, meta.label))) {
		m += (size_t)snprintf(buf + m, m < len ? len - m : 0, ", %s", sn->meta.label);
	} else {
		if (gp_differs(job, offsetof(struct snapshot, s.host.hostname)))
			m += (size_t)snprintf(buf + m, m < len ? len - m : 0, ", %s",
					      sn->s.host.hostname);
		if (gp_differs(job, offsetof(struct snapshot, s.host.os_release)))
			m += (size_t)snprintf(buf + m, m < len ? len - m : 0, ", %s",
					      sn->s.host.os_release);
	}
	if (job->k > 1 && gp_differs(job, offsetof(struct snapshot, meta.taken)))
		snprintf(buf + m, m < len ? len - m : 0, ", taken %s", sn->meta.taken);
}

static int
gp_script(FILE *f, void *arg)
{
	const struct gp_job *job = arg;
	const struct snapshot *sn;
	char dat[1100], title[900];
	int i;

	gp_header(f, job);
	for (i = 0; i < job->k; i++) {
		gp_functions(f, job, job->v[i], i);
		gp_marks(f, job, job->v[i], i);
	}
	snprintf(dat, sizeof(dat), "%s.dat", job->base);
	fprintf(f, "plot \\\n");
	if (job->norm == SNAPSHOT_NORM_SPEEDUP)
		fprintf(f, "  x < 1 ? 1/0 : x with lines dashtype 2 lc 0 title 'ideal (linear)', "
			   "\\\n");
	else if (job->norm == SNAPSHOT_NORM_EFFICIENCY)
		fprintf(f, "  x < 1 ? 1/0 : 1 with lines dashtype 2 lc 0 title 'ideal (linear)', "
			   "\\\n");
	for (i = 0; i < job->k; i++) {
		sn = job->v[i];
		fprintf(f, "  ");
		gp_quoted(f, dat);
		fprintf(f, " index %d using 1:2:3 with yerrorlines pointtype 7 lc %d lw 2 title ",
			i, i + 1);
		gp_title(job, i, title, sizeof(title));
		gp_quoted(f, title);
		if (sn->now.have_x1 && job->norm == SNAPSHOT_NORM_NONE)
			fprintf(f,
				", \\\n  ideal%c(x) with lines dashtype 2 lc %d "
				"title '%c ideal'",
				'A' + i, i + 1, 'A' + i);
		if (sn->now.usl.ok) {
			fprintf(f, ", \\\n  usl%c(x) with lines dashtype 3 lc %d title ", 'A' + i,
				i + 1);
			gp_usl_title(job, i, title, sizeof(title));
			gp_quoted(f, title);
		}
		if (gp_has_target(job, i)) {
			fprintf(f, ", \\\n  ");
			gp_quoted(f, dat);
			fprintf(f,
				" index %d using 1:%d with linespoints dashtype 3 pointtype 6 lc "
				"%d "
				"axes x1y2 title '%c target CPUs'",
				i, gp_col_target(job, GP_TG_CPU), i + 1, 'A' + i);
		}
		fprintf(f, "%s\n", i + 1 < job->k ? ", \\" : "");
	}
	return ferror(f) ? -1 : 0;
}

/* Normalised, each snapshot needs X(1): one without it is refused, named. */
static int
gp_check(const struct gp_job *job, char *err, size_t errlen)
{
	const struct analysis *a;
	int i;

	for (i = 0; job->norm != SNAPSHOT_NORM_NONE && i < job->k; i++) {
		a = &job->v[i]->now;
		if (a->have_x1)
			continue;
		if (a->npoints == 0)
			return st_error(err, errlen,
					"%s has no usable step, so nothing to normalise; leave it "
					"out, or export without --normalise",
					job->v[i]->name);
		return st_error(err, errlen,
				"%s has no point at N=1 (its smallest N is %d), which --normalise "
				"divides by; leave it out, or export without --normalise",
				job->v[i]->name, a->pts[0].n);
	}
	return 0;
}

int
snapshot_gnuplot_write(const char *base, const char *term, enum snapshot_norm norm, int log_y,
		       struct snapshot *const *v, int k, bool force, char *err, size_t errlen)
{
	struct gp_job job = { base, term, norm, log_y, v, k, { 0 } };

	if (gp_check(&job, err, errlen) != 0)
		return -1;
	gp_axes_plan(&job);
	return gp_write_pair(base, force, gp_data, gp_script, &job, err, errlen);
}

int
gp_write_pair(const char *base, bool force, int (*data)(FILE *, void *),
	      int (*script)(FILE *, void *), void *arg, char *err, size_t errlen)
{
	char path[1100];

	if ((size_t)snprintf(path, sizeof(path), "%s.gp", base) >= sizeof(path))
		return st_error(err, errlen, "%s: name too long", base);
	/* Both names are checked first, so a refusal does not leave one file new, one old. */
	if (!force && access(path, F_OK) == 0)
		return st_error(err, errlen,
				"%s exists and was not replaced; give --force to "
				"replace it, or another name",
				path);
	snprintf(path, sizeof(path), "%s.dat", base);
	if (snapshot_atomic_write(path, force, data, arg, err, errlen) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s.gp", base);
	return snapshot_atomic_write(path, force, script, arg, err, errlen);
}

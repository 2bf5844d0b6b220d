/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * {latlog}: pgbench --log writes every transaction's latency to PREFIX.PID
 * (and PREFIX.PID.THREAD), which gives a step exact percentiles.  The folder
 * is private and per step, so a step reads only its own files and touches
 * none of the user's; it goes when the step is released, however it ends.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/error.h"
#include "scaletop/lathist.h"
#include "ext_latlog.h"

/* The file name {latlog} stands for, inside the folder. */
#define LATLOG_NAME "log"

int
ext_latlog_make(struct ext_latlog *l, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	if ((size_t)snprintf(l->dir, sizeof(l->dir), "%s/scaletop-latlog.XXXXXX", tmp) >=
	    sizeof(l->dir)) {
		l->dir[0] = '\0';
		return st_error(err, errlen, "{latlog}: TMPDIR %s is too long; set a shorter one",
				tmp);
	}
	if (mkdtemp(l->dir) == NULL) {
		st_error(err, errlen, "{latlog}: cannot make a folder in %s: %s; set TMPDIR", tmp,
			 strerror(errno));
		l->dir[0] = '\0';
		return -1;
	}
	snprintf(l->prefix, sizeof(l->prefix), "%s/" LATLOG_NAME, l->dir);
	return 0;
}

void
ext_latlog_clock(struct ext_latlog *l)
{
	struct timespec r, m;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	l->real_off = (double)(r.tv_sec - m.tv_sec) + (double)(r.tv_nsec - m.tv_nsec) / 1e9;
}

/* One file into the tally, line by line; false (with errno) when it cannot be read. */
static bool
latlog_read_file(struct ext_latlog *l, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int e;

	if (f == NULL)
		return false;
	pglog_tally_file(&l->tally);
	while ((n = getline(&line, &cap, f)) > 0)
		pglog_tally_line(&l->tally, line, (size_t)n);
	e = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	errno = e;
	return e == 0;
}

/* A bad file's event: one line naming it, and the line. */
static void
latlog_warn(struct step_ctx *c, const char *name, const char *what)
{
	session_add_event(c->s, c->idx, EV_WARNING, session_time(c->s, mono_now_ns()),
			  "{latlog} %s: %s; the step keeps its throughput", name, what);
}

/* Every log.* file in the folder; each removed once read.  How many were read. */
static int
latlog_read_dir(struct ext_latlog *l, struct step_ctx *c)
{
	DIR *d = opendir(l->dir);
	struct dirent *e;
	char path[sizeof(l->dir) + 260], what[200];
	uint64_t bad0;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, LATLOG_NAME ".", sizeof(LATLOG_NAME)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", l->dir, e->d_name);
		bad0 = l->tally.bad;
		if (!latlog_read_file(l, path)) {
			snprintf(what, sizeof(what), "cannot read it: %s", strerror(errno));
			latlog_warn(c, e->d_name, what);
		} else if (l->tally.bad > bad0) {
			snprintf(what, sizeof(what),
				 "line %llu is no pgbench --log line (%llu such lines left out)",
				 (unsigned long long)l->tally.first_bad,
				 (unsigned long long)(l->tally.bad - bad0));
			latlog_warn(c, e->d_name, what);
		}
		n++;
		unlink(path);
	}
	closedir(d);
	return n;
}

/* The aggregate intervals' means into the context's interval figures: method interval. */
static bool
latlog_intervals(struct ext_latlog *l, struct step_ctx *c)
{
	double *mean, max_ms;
	int i, n;

	if (l->tally.nagg == 0 || (mean = malloc((size_t)l->tally.nagg * sizeof(*mean))) == NULL)
		return false;
	n = pglog_tally_intervals(&l->tally, mean, l->tally.nagg, &max_ms);
	/* A tool's per-interval figures the same step may have fed are of another kind. */
	c->lat.niv = 0;
	for (i = 0; i < n; i++)
		step_ctx_lat_interval(c, mean[i], 0);
	free(mean);
	return n > 0;
}

bool
ext_latlog_read(struct ext_latlog *l, struct step_ctx *c)
{
	const struct sweep_settings *set = &c->s->set;
	double go = (double)c->go_ns / 1e9 + l->real_off;
	bool fed = false;

	if (l->dir[0] == '\0')
		return false;
	pglog_tally_free(&l->tally);
	pglog_tally_init(&l->tally, go + set->warmup_s, go + set->warmup_s + set->duration_s);
	l->have_tally = true;
	l->nfiles = latlog_read_dir(l, c);
	if (l->tally.timed > 0) {
		/* Every transaction in the window, timed by the tool: exact. */
		c->lat.hist = l->tally.hist;
		c->lat.whole_run = false;
		c->lat.exact = true;
		fed = true;
	} else {
		fed = latlog_intervals(l, c);
	}
	if (l->tally.skipped + l->tally.failed > 0)
		session_add_event(c->s, c->idx, EV_INFO, session_time(c->s, mono_now_ns()),
				  "{latlog}: %llu skipped and %llu failed transactions, not "
				  "timed, left out of the latency",
				  (unsigned long long)l->tally.skipped,
				  (unsigned long long)l->tally.failed);
	if (l->nfiles == 0)
		latlog_warn(c, l->prefix, "the command wrote no log file (give pgbench --log)");
	else if (!fed)
		latlog_warn(c, l->prefix, "no transaction of the log ended in the window");
	return fed;
}

void
ext_latlog_free(struct ext_latlog *l)
{
	DIR *d;
	struct dirent *e;
	char path[sizeof(l->dir) + 260];

	if (l->have_tally)
		pglog_tally_free(&l->tally);
	l->have_tally = false;
	if (l->dir[0] == '\0')
		return;
	/* The folder is scaletop's own: whatever the tool left in it goes. */
	if ((d = opendir(l->dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", l->dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(l->dir);
	l->dir[0] = '\0';
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The runs directory: where the TUI keeps every sweep, what `scaletop
 * runs` and the history view list, and the pruning by age.  The files are
 * ordinary snapshots, written by snapshot_save (atomically), so `show`,
 * `compare` and `o` open them like any other.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scaletop/files.h"
#include "scaletop/grow.h"
#include "scaletop/session_json.h"
#include "scaletop/runs.h"
#include "scaletop/snapshot.h"

#define RUNS_NAME_TRIES 100 /* scaletop-...-HHMMSS-2 .. -99: two sweeps kept in one second */

int
runs_dir(char *buf, size_t len, char *err, size_t errlen)
{
	char data[PATH_MAX];

	if (file_data_dir(data, sizeof(data), err, errlen) != 0)
		return -1;
	if ((size_t)snprintf(buf, len, "%s/runs", data) >= len)
		return st_error(err, errlen,
				"the runs directory's path is too long; set XDG_DATA_HOME to a "
				"shorter path");
	return 0;
}

/* Copies s into buf, with what a file name should not hold ('/', blanks, controls) as '_'. */
static void
runs_name_part(char *buf, size_t len, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i + 1 < len && i < max && s[i] != '\0'; i++) {
		unsigned char c = (unsigned char)s[i];
		buf[i] = (c <= ' ' || c == '/' || c == 0x7f) ? '_' : (char)c;
	}
	buf[i] = '\0';
}

void
runs_name(const struct session *s, time_t t, char *buf, size_t len)
{
	char wl[48], host[72], stamp[32];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	runs_name_part(wl, sizeof(wl), s->wl.name[0] ? s->wl.name : "none", 40);
	runs_name_part(host, sizeof(host), s->host.hostname[0] ? s->host.hostname : "host", 64);
	snprintf(buf, len, "scaletop-%s-%s-%s.json", wl, host, stamp);
}

bool
runs_worth_keeping(const struct session *s)
{
	int i;

	for (i = 0; i < s->nsteps; i++) {
		if (s->steps[i].status != STEP_INTERRUPTED && s->steps[i].status != STEP_RUNNING)
			return true;
	}
	return false;
}

static int
runs_fail(char *err, size_t errlen, const char *what, int e)
{
	st_error(err, errlen, "%s: %s", what, strerror(e));
	errno = e;
	return -1;
}

/* The first free name for s at t: NAME.json, then NAME-2.json ... */
static int
runs_new_file(const char *dir, const struct session *s, time_t t, char *path, size_t pathlen,
	      char *err, size_t errlen)
{
	char name[256], serr[ST_ERRLEN];
	size_t stem;
	int i, e = EEXIST;

	runs_name(s, t, name, sizeof(name));
	stem = strlen(name) - strlen(".json");
	for (i = 1; i < RUNS_NAME_TRIES; i++) {
		if (i == 1)
			snprintf(path, pathlen, "%s/%s", dir, name);
		else
			snprintf(path, pathlen, "%s/%.*s-%d.json", dir, (int)stem, name, i);
		if (access(path, F_OK) == 0)
			continue;
		if (snapshot_save(path, s, NULL, false, serr, sizeof(serr)) == 0)
			return 0;
		e = errno != 0 ? errno : EIO;
		if (e != EEXIST && access(path, F_OK) != 0)
			break; /* not a race with another writer: the directory refuses */
	}
	path[0] = '\0';
	return runs_fail(err, errlen, dir, e);
}

int
runs_keep(const char *dir, const struct session *s, time_t t, char *path, size_t pathlen, char *err,
	  size_t errlen)
{
	char failed[PATH_MAX], serr[ST_ERRLEN];

	/* 0700: what a user measured on their machine is theirs to share. */
	if (file_mkdirs(dir, 0700, failed, sizeof(failed)) != 0)
		return runs_fail(err, errlen, failed, errno);
	if (path[0] == '\0')
		return runs_new_file(dir, s, t, path, pathlen, err, errlen);
	if (snapshot_save(path, s, NULL, true, serr, sizeof(serr)) != 0)
		return runs_fail(err, errlen, dir, errno);
	return 0;
}

/* A kept run's file: NAME.json, not hidden (the writer's temp files start with '.'). */
static bool
runs_is_run(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int
runs_newest_first(const void *pa, const void *pb)
{
	const struct run_entry *a = pa, *b = pb;

	if (a->mtime != b->mtime)
		return a->mtime < b->mtime ? 1 : -1;
	return strcmp(b->path, a->path); /* same second: the later name (-2 after none) */
}

/* Adds dir/name to l if it is a regular file; -1 on ENOMEM only. */
static int
runs_add(struct run_list *l, int *cap, const char *dir, const char *name)
{
	struct run_entry *e;
	struct stat sb;

	if (grow_array_int(&l->v, cap, l->n + 1, sizeof(*l->v), 64) != 0)
		return -1;
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	if ((size_t)snprintf(e->path, sizeof(e->path), "%s/%s", dir, name) >= sizeof(e->path) ||
	    stat(e->path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	e->mtime = sb.st_mtime;
	l->n++;
	return 0;
}

int
runs_list(const char *dir, struct run_list *l, char *err, size_t errlen)
{
	struct dirent *de;
	DIR *d;
	int cap = 0;

	memset(l, 0, sizeof(*l));
	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT ? 0 : runs_fail(err, errlen, dir, errno);
	while ((de = readdir(d)) != NULL) {
		if (runs_is_run(de->d_name) && runs_add(l, &cap, dir, de->d_name) != 0) {
			closedir(d);
			runs_list_free(l);
			return runs_fail(err, errlen, dir, ENOMEM);
		}
	}
	closedir(d);
	if (l->n > 1)
		qsort(l->v, (size_t)l->n, sizeof(*l->v), runs_newest_first);
	return 0;
}

void
runs_list_free(struct run_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The external command's words, or the parameters as k=v, into e->params. */
static void
runs_params(struct run_entry *e, const struct session *s)
{
	size_t off = 0, len = sizeof(e->params);
	int i;

	e->params[0] = '\0';
	e->command = s->wl.argv != NULL && s->wl.argv[0] != NULL;
	for (i = 0; e->command && s->wl.argv[i] != NULL && off < len; i++)
		off += (size_t)snprintf(e->params + off, len - off, "%s%s", i ? " " : "",
					s->wl.argv[i]);
	for (i = 0; i < s->wl.nparams && off < len; i++)
		off += (size_t)snprintf(e->params + off, len - off, "%s%s=%s", off ? " " : "",
					s->wl.key[i], s->wl.value[i]);
	st_printable(e->params);
}

static void
runs_summarise(struct run_entry *e, const struct snapshot *snap)
{
	const struct session *s = &snap->s;
	char label[512];
	int i;

	snprintf(e->workload, sizeof(e->workload), "%s", s->wl.name);
	runs_params(e, s);
	/* The default label repeats the host column: only a label someone gave is shown. */
	session_json_label(s, label, sizeof(label));
	snprintf(e->label, sizeof(e->label), "%s",
		 strcmp(snap->meta.label, label) != 0 ? snap->meta.label : "");
	st_printable(e->label);
	snprintf(e->host, sizeof(e->host), "%s", s->host.hostname);
	e->nsteps = s->nsteps;
	for (i = 0; i < s->nsteps; i++) {
		if (i == 0 || s->steps[i].n < e->n_min)
			e->n_min = s->steps[i].n;
		if (i == 0 || s->steps[i].n > e->n_max)
			e->n_max = s->steps[i].n;
		if (s->steps[i].status == STEP_INTERRUPTED)
			e->interrupted = true;
	}
	snprintf(e->verdict, sizeof(e->verdict), "%s",
		 snap->now.verdict[0] ? snap->now.verdict : "no verdict");
	/* Under the file's own row: the file's name is not said again. */
	if (strncmp(snap->repair, e->path, strlen(e->path)) == 0 &&
	    strncmp(snap->repair + strlen(e->path), ": ", 2) == 0)
		snprintf(e->repair, sizeof(e->repair), "%s", snap->repair + strlen(e->path) + 2);
	else
		snprintf(e->repair, sizeof(e->repair), "%s", snap->repair);
}

void
runs_entry_load(struct run_entry *e)
{
	struct snapshot snap;

	snapshot_init(&snap);
	e->loaded = true;
	e->err[0] = '\0';
	if (snapshot_load(e->path, &snap, e->err, sizeof(e->err)) == 0)
		runs_summarise(e, &snap);
	else if (e->err[0] == '\0')
		snprintf(e->err, sizeof(e->err), "%.400s: cannot read it", e->path);
	snapshot_free(&snap);
}

void
runs_entry_nrange(const struct run_entry *e, char *buf, size_t len)
{
	if (e->nsteps == 0)
		snprintf(buf, len, "-");
	else if (e->n_min == e->n_max)
		snprintf(buf, len, "%d", e->n_min);
	else
		snprintf(buf, len, "%d-%d", e->n_min, e->n_max);
}

void
runs_entry_what(const struct run_entry *e, int width, char *buf, size_t len)
{
	char full[1024];
	size_t name = strlen(e->workload) + (e->command ? 1 : 0), n;

	snprintf(full, sizeof(full), "%s%s%s%s%s%s", e->workload,
		 e->params[0] == '\0' ? ""
		 : e->command         ? ": "
				      : " ",
		 e->params, e->label[0] ? " \"" : "", e->label, e->label[0] ? "\"" : "");
	n = strlen(full);
	if (width <= 0 || n <= (size_t)width)
		snprintf(buf, len, "%s", full);
	else if ((size_t)width < name + 4)
		snprintf(buf, len, "%.*s", (int)name, full);
	else
		snprintf(buf, len, "%.*s...", width - 3, full);
}

int
runs_prune(const char *dir, double days, time_t now, int *removed, char *err, size_t errlen)
{
	struct run_list l;
	time_t before = now - (time_t)(days * 86400);
	int i;

	*removed = 0;
	if (runs_list(dir, &l, err, errlen) != 0)
		return -1;
	for (i = 0; i < l.n; i++) {
		if (l.v[i].mtime >= before)
			continue;
		if (unlink(l.v[i].path) != 0 && errno != ENOENT) {
			runs_fail(err, errlen, l.v[i].path, errno);
			runs_list_free(&l);
			return -1;
		}
		(*removed)++;
	}
	runs_list_free(&l);
	return 0;
}

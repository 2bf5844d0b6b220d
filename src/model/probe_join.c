/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The join of --probe's TID lines to the target's threads (probe_join.h):
 * parsing a line, weighing a run's lines, and counting what joined.  A run
 * holds at most PROBE_MAX_LINES lines, so counting a TID's lines by a scan
 * is cheap enough; the window's distinct threads are a sorted array.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/probe_join.h"
#include "scaletop/grow.h"

/* The TID the line [s, end) starts with, and where its label starts; 0 when it has none. */
static pid_t
line_tid(const char *s, const char *end, const char **label)
{
	long long v = 0;
	const char *p = s;

	while (p < end && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return 0;
		p++;
	}
	if (p == s || p == end || *p != '\t' || v <= 0)
		return 0;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p == end)
		return 0;
	*label = p;
	return (pid_t)v;
}

int
probe_line_parse(const char *line, pid_t *tid, char *label, size_t len)
{
	const char *end, *rest = NULL;
	size_t n;

	*tid = 0;
	if (len == 0)
		return 0;
	label[0] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == line)
		return 0;
	if ((*tid = line_tid(line, end, &rest)) == 0)
		rest = line;
	n = (size_t)(end - rest);
	if (n > len - 1)
		n = len - 1;
	memcpy(label, rest, n);
	label[n] = '\0';
	return *tid > 0 ? 2 : 1;
}

void
probe_join_init(struct probe_join_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void
probe_join_free(struct probe_join_acc *a)
{
	free(a->tids);
	probe_join_init(a);
}

void
probe_join_reset(struct probe_join_acc *a)
{
	memset(&a->fig, 0, sizeof(a->fig));
	a->ntids = 0;
}

/* Adds tid to the window's joined threads, once. */
static int
join_note_thread(struct probe_join_acc *a, pid_t tid)
{
	size_t lo = 0, hi = a->ntids, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (a->tids[mid] == tid)
			return 0;
		if (a->tids[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (grow_array(&a->tids, &a->cap, a->ntids + 1, sizeof(*a->tids), 64) != 0)
		return -1;
	memmove(&a->tids[lo + 1], &a->tids[lo], (a->ntids - lo) * sizeof(*a->tids));
	a->tids[lo] = tid;
	a->ntids++;
	a->fig.threads = (int)a->ntids;
	return 0;
}

/* How many of the run's lines name tid. */
static int
lines_of(const struct probe_tid_line *v, int n, pid_t tid)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i].tid == tid;
	return k;
}

int
probe_join_commit(struct probe_join_acc *a, const struct probe_tid_line *v, int n, double seconds,
		  struct wait_tally *t)
{
	double w;
	int i, rc = 0;

	if (!(seconds > 0))
		return 0;
	for (i = 0; i < n; i++) {
		w = seconds / lines_of(v, n, v[i].tid);
		if (wait_tally_add(t, WAIT_PROBE, WS_REPORTED, v[i].label, w) != 0) {
			rc = -1;
			continue;
		}
		a->fig.lines++;
		if (!v[i].target)
			continue;
		a->fig.joined++;
		a->fig.thread_s += w;
		if (join_note_thread(a, v[i].tid) != 0)
			rc = -1;
	}
	return rc;
}

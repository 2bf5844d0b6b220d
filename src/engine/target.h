/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine/: the system under test (--target pid:N, comm:NAME,
 * cgroup:PATH).
 */
#ifndef SCALETOP_ENGINE_TARGET_H
#define SCALETOP_ENGINE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/session.h"

/*
 * Its specs are checked when the run options are applied; during a step its
 * processes are found afresh about once a second (a server forks and reaps
 * as it serves), read into the window's book (procbook.h), and at the
 * window's end made into the step's target figures.  The wait sampler asks
 * it for the processes whose threads it reads.
 */

enum target_kind { TARGET_PID, TARGET_COMM, TARGET_CGROUP };

struct target_spec {
	enum target_kind kind;
	pid_t pid;                 /* pid:N */
	char arg[TARGET_SPEC_LEN]; /* comm:NAME's name, cgroup:PATH's directory */
};

/* One --target value into sp, a cgroup's path resolved.  0, or -1 with a one-line message. */
int target_spec_parse(const char *text, struct target_spec *sp, char *err, size_t errlen);
/* When the run starts: a pid:N whose process does not exist is -1 with a message; others 0. */
int target_spec_present(const struct target_spec *sp, char *err, size_t errlen);

/*
 * The descendants of root, root included (when it is alive), from the
 * process table: a malloc'ed, ascending list.  0, or -1 with errno.
 */
int proc_tree(pid_t root, pid_t **out, size_t *n);

struct target;

/* The settings' targets, or NULL and a message (a spec no longer valid, ENOMEM). */
struct target *target_new(const struct sweep_settings *set, char *err, size_t errlen);
void target_free(struct target *t);
/* What to check when a window found none of the target's processes, by its specs' kinds. */
void target_missing_hint(const struct target *t, char *buf, size_t len);
/* The target's processes, found afresh now: borrowed until the next call. */
const pid_t *target_find(struct target *t, size_t *n);
/* The processes the last find (or pass) found: borrowed until the next. */
const pid_t *target_found(const struct target *t, size_t *n);
/* The window opens at now (monotonic): a new book, the groups' counters at this edge. */
void target_window_begin(struct target *t, uint64_t now);
/*
 * A pass over the target's processes while the window runs: once a second,
 * or less often when a pass is dear (thousands of threads), so that its
 * reading takes at most an 800th of a CPU (target.c); target_pass_due says
 * when.
 */
void target_window_pass(struct target *t, uint64_t now);
bool target_pass_due(const struct target *t, uint64_t now);
/*
 * The window closes at now, seconds long with ops operations; the
 * workload's contention ct gives its CPU for the figures both share.
 */
void target_window_end(struct target *t, uint64_t now, double seconds, uint64_t ops,
		       const struct contention *ct, int ncpu, struct target_figures *tg);
/*
 * The figures of the window so far, as of the last pass (seconds and ops
 * are the window's up to that pass), the window left open: the live view's.
 */
void target_window_figures(struct target *t, double seconds, uint64_t ops,
			   const struct contention *ct, int ncpu, struct target_figures *tg);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A workload is a small table: name, help, parameters, and the functions the
 * runner calls.  Built-in workloads live in src/workload/, one file each,
 * and are listed in src/workload/registry.c.
 */
#ifndef SCALETOP_WORKLOAD_H
#define SCALETOP_WORKLOAD_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scaletop/slot.h"

struct lathist;

#define WL_MAX_PARAMS 8
#define WL_PATH_MAX 4096

/*
 * Where things run:
 *   prepare/cleanup  in the monitor, once per sweep (create/remove files)
 *   step_init/fini   in the step's child process, once per step, before the
 *                    workers start and after they stop
 *   work             in each worker (a thread, or a process in process mode)
 * Shared per-step state lives in `shared`, MAP_SHARED memory of shared_size
 * bytes that the runner maps before forking, so it is shared by threads and
 * by processes alike (use PTHREAD_PROCESS_SHARED for pthread objects).
 */

enum wl_param_type {
	WP_INT,  /* integer in [min, max] */
	WP_SIZE, /* byte count with optional k/M/G suffix (powers of 1024), in [min, max] */
	WP_ENUM, /* one of choices[]; value is the index */
	WP_PATH, /* a directory or file path */
};

struct wl_param {
	const char *name;
	enum wl_param_type type;
	const char *def;            /* default, as the user would type it */
	long long min, max;         /* WP_INT, WP_SIZE */
	const char *const *choices; /* WP_ENUM, NULL-terminated */
	const char *help;           /* one line */
};

union wl_value {
	long long i;   /* WP_INT, WP_SIZE, WP_ENUM (index) */
	const char *s; /* WP_PATH: points into the owning wl_args' storage */
};

/* Parsed, validated parameter values, indexed like the workload's params[]. */
struct wl_args {
	const struct workload *wl;
	union wl_value v[WL_MAX_PARAMS];
	bool set[WL_MAX_PARAMS];       /* given by the user rather than defaulted */
	char text[WL_MAX_PARAMS][256]; /* each value as given (or the default), for snapshots */
};

/* Per-sweep state, owned by the monitor. */
struct wl_sweep {
	const struct wl_args *args;
	char dir[WL_PATH_MAX]; /* working directory for files, "" if none */
	bool own_dir;          /* dir was made by prepare and is removed by cleanup */
	void *priv;            /* the workload's own sweep state */
};

/* What a worker is handed. */
struct wl_worker {
	int index; /* 0 .. nworkers-1 */
	int nworkers;
	struct wl_slot *slot;   /* this worker's own counter slot */
	const atomic_int *stop; /* becomes non-zero when the worker must return */
	void *shared;           /* the step's shared state (see above) */
	const struct wl_args *args;
	const struct wl_sweep *sweep;
	uint64_t seed; /* distinct per worker, for workloads that randomise */
	/*
	 * Its own latency histogram, which wl_pace_publish times one operation
	 * a batch into while *lat_on (the measurement window); NULL: not timed.
	 */
	struct lathist *lat;
	struct lathist *lat_sync; /* its syncs' (fileio's fsyncs), kept apart from lat */
	const atomic_int *lat_on;
	const atomic_uint *lat_epoch; /* moves at each window: the histogram starts afresh */
};

#define WL_LOCK_WAIT 0x1 /* the workload measures lock wait itself (slot wait_ns/busy_ns) */

struct workload {
	const char *name;
	const char *unit;    /* what one operation is, plural: "ops", "writes", "requests" */
	const char *summary; /* one line for `scaletop list` */
	const char *help;    /* one paragraph: what it stresses, what healthy looks like */
	const struct wl_param *params;
	int nparams;
	unsigned flags;     /* WL_* */
	size_t shared_size; /* bytes of per-step shared memory; 0 if none */

	int (*prepare)(struct wl_sweep *sw, char *err, size_t errlen); /* may be NULL */
	void (*cleanup)(struct wl_sweep *sw);                          /* may be NULL */
	int (*step_init)(void *shared, const struct wl_args *a, const struct wl_sweep *sw,
			 int nworkers, char *err, size_t errlen); /* may be NULL */
	void (*step_fini)(void *shared, const struct wl_args *a); /* may be NULL */
	/*
	 * The worker loop: do operations until *stop, publishing the running
	 * total with wl_count() at least every few milliseconds.  Returns 0, or
	 * an errno value that fails the step.
	 */
	int (*work)(struct wl_worker *w);
};

/* --- registry and parameters (src/workload/registry.c, params.c) -------- */

/* NULL-terminated list of built-in workloads, in `scaletop list` order. */
extern const struct workload *const workloads[];
const struct workload *workload_find(const char *name);

/* Fills a with every parameter's default.  Never fails for a valid table. */
void wl_args_defaults(struct wl_args *a, const struct workload *wl);
/*
 * Applies one "key=value" from -p.  -1 with a one-line message naming the
 * workload, key and value, the accepted range or choices, and what to do.
 */
int wl_args_set(struct wl_args *a, const char *keyval, char *err, size_t errlen);
/* Index of a parameter by name, or -1. */
int wl_param_index(const struct workload *wl, const char *name);

/* --- counting, for work() ----------------------------------------------- */

/*
 * Publishes the worker's running totals.  Call it every operation or every
 * few; the cost is a handful of stores to the worker's own cache line.
 */
static inline void
wl_count(struct wl_worker *w, uint64_t ops_total, uint64_t wait_ns, uint64_t busy_ns)
{
	slot_publish(w->slot, w->index, ops_total, wait_ns, busy_ns);
}

static inline bool
wl_should_stop(const struct wl_worker *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) != 0;
}

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run-style options, shared by `scaletop run` and the TUI: parsed from
 * argv (src/engine/run_args.c), then turned into a session's settings and a
 * sweep config (src/engine/run_apply.c).
 */
#ifndef SCALETOP_RUN_ARGS_H
#define SCALETOP_RUN_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "scaletop/session.h"
#include "scaletop/nlist.h"
#include "scaletop/sweep.h"

/* How `scaletop run` shows the sweep; the TUI refuses json and quiet. */
struct run_view {
	bool json;
	bool quiet;
	const char *record; /* --record: JSON Lines stream to this file, "-" for stdout */
	bool record_force;  /* --force: the stream may replace an existing file */
};

/* The parsed options; strings point into argv. */
struct run_args {
	const char *cmdname;          /* "run", "tui": names the command in messages */
	const char *default_workload; /* when neither -w nor --cmd is given */
	const char *workload, *nspec, *cmd, *parse, *regex, *setup, *teardown;
	const char *ops;       /* --ops K[:UNIT], with --parse elapsed */
	const char *parse_lat; /* --parse-lat RE[:UNIT[:STAT]], with --parse-regex */
	const char *target[SESSION_MAX_TARGETS]; /* --target SPEC, repeatable */
	int ntargets;
	const char *params[64];
	int nparams;
	const char *probe[SESSION_MAX_PROBES]; /* --probe 'COMMAND', repeatable */
	int nprobes;
	double duration, warmup, stable_pct, min_time, interval, stall;
	double collapse_pct, linear_pct; /* analysis thresholds; 0: the defaults */
	bool duration_set, warmup_set, interval_set, stop_on_failure;
	bool no_hot;       /* --no-hot: no on-CPU sampling */
	bool no_latency;   /* --no-latency: the built-ins time no operation */
	bool no_locks;     /* --no-locks: no lock census */
	long realtime;     /* --realtime[=PRIO]: the monitor at SCHED_FIFO PRIO (1); 0: off */
	bool realtime_set; /* --realtime or --no-realtime given */
	double wait_quiet; /* --wait-quiet[=S]: how long to wait for a quiet machine; 0: not */
	long repeat;
	long trials; /* --trials K: the whole sweep K times */
	long refine; /* --refine[=K]: at most K N added after the list; 0: none */
	enum run_mode mode;
	struct run_view view;
	const char *output; /* -o: save a snapshot there, or NULL */
	bool force;         /* --force: -o may replace an existing file */
};

/* --refine without a count: enough to bisect a peak between powers of two up to 64. */
#define RUN_REFINE_DEFAULT 6

/* A caller's own options, parsed in the same getopt pass.  Codes >= RUN_OPT_EXT. */
#define RUN_OPT_EXT 1024
struct run_opt_ext {
	const struct option *longopts; /* ends with a zeroed entry */
	/* One option (optarg/optind as getopt left them): 0 or a usage exit status. */
	int (*parse)(int opt, int argc, char **argv, void *arg);
	void (*usage)(FILE *f, const struct run_args *defaults); /* for --help */
	void *arg;
};

/* run's defaults; the caller may change any before run_args_parse. */
void run_args_defaults(struct run_args *a, const char *cmdname);
/* 0; -1 when --help was printed; EXIT_USAGE after a one-line message on stderr. */
int run_args_parse(int argc, char **argv, struct run_args *a, const struct run_opt_ext *ext);
/* True for --parse elapsed: each run of the command is timed to its exit. */
bool run_args_elapsed(const struct run_args *a);
/* Fills the session's settings and workload text, and cfg.  0 or EXIT_USAGE. */
int run_args_apply(const struct run_args *a, struct session *s, struct sweep_config *cfg);
/*
 * When the run starts: each --target pid:N names a live process (a server
 * may stop later; the steps say so then).  0 or EXIT_USAGE after the message.
 */
int run_args_targets_alive(const struct run_args *a);
/*
 * run_args_apply on a scratch session, then run_args_targets_alive: the
 * usage errors of both before the TUI opens its screen.  0 or EXIT_USAGE.
 */
int run_args_try(const struct run_args *a);
/* Frees what run_args_apply put in cfg (the session frees its own). */
void run_config_free(struct sweep_config *cfg);
/*
 * The names --parse takes, from the parser table (those without a pattern:
 * regex is --parse-regex's) and elapsed if asked: "sysbench|pgbench|elapsed"
 * with sep and last "|", or "sysbench, pgbench or elapsed".
 */
void run_parse_choices(char *buf, size_t len, const char *sep, const char *last, bool elapsed);
/* The shared options' help lines, showing the defaults in d. */
void run_usage_options(FILE *f, const struct run_args *d);
/*
 * The N list of spec on this machine, topo expanded from its topology
 * (host_topology_read); spec NULL: the default, topo, or nlist_default's
 * doubling when the topology is not known.  0, or -1 with nlist's message.
 */
int run_nlist(struct nlist *nl, const char *spec, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a kind of step may use of the sweep, and what the sweep asks of a
 * kind.
 */
#ifndef SCALETOP_STEP_CTX_H
#define SCALETOP_STEP_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scaletop/collector.h"
#include "scaletop/delta.h"
#include "scaletop/loop.h"
#include "scaletop/others.h"
#include "scaletop/platform.h"
#include "scaletop/session.h"
#include "scaletop/sweep.h"
#include "scaletop/waits.h"
#include "freq_sampler.h"
#include "hot_sampler.h"
#include "wait_sampler.h"

/*
 * A kind of step (a built-in workload's runner, an external command) is a
 * table of operations, struct step_kind, with a private state of its own
 * that only its file knows.  The sweep drives it through the table; the kind
 * works on the step through a step context: the session and settings, the
 * live figures, the newest CPU sample, and the measurement window, which is
 * the same for every kind (opened at the end of warm-up, closed into the
 * step's figures).  The kind says the step is over with step_ctx_end, which
 * calls back into whoever bound the context.  So the calls point one way:
 * the sweep calls the kinds and the context, the kinds call the context.
 */

struct lathist;
struct lockprof_entry;
struct symboliser;
struct probes;
struct step_ctx;
struct target;

/*
 * One kind of step.  Every operation gets the context; the kind's own state
 * is c->state, allocated zeroed (size bytes) by step_ctx_begin before start.
 * A kind ends its step with step_ctx_end, as its last act: the next step may
 * begin inside that call.
 */
struct step_kind {
	const char *name;
	size_t size;     /* of its private state */
	bool per_worker; /* the step's N are its workers: contention is per worker */
	/* Launches the step; -1 with a message in err (the step then fails). */
	int (*start)(struct step_ctx *c, char *err, size_t errlen);
	/* Advances the step on the sweep's tick. */
	void (*tick)(struct step_ctx *c, uint64_t now);
	/* Holds or resumes the step; NULL for a kind that cannot be held (it runs on). */
	void (*pause)(struct step_ctx *c, bool pause, uint64_t now);
	/* Quitting mid-step: keeps what the window has measured, ends what runs. */
	void (*abort)(struct step_ctx *c);
	/* The pids whose task counters make up the workload; how many were stored. */
	int (*task_pids)(struct step_ctx *c, pid_t *pids, int max);
	/* Frees what the state still holds, but not the state itself. */
	void (*release)(struct step_ctx *c);
};

/* The built-in workloads' runner (step_builtin.c) and external commands (step_external.c). */
extern const struct step_kind builtin_step_kind;
extern const struct step_kind external_step_kind;

/* How a step's end reaches whoever bound the context (the sweep). */
typedef void (*step_end_cb)(void *arg, enum step_status status, const char *reason);

struct step_ctx {
	/* Bound once, for the context's life; all borrowed. */
	struct session *s;
	struct loop *loop;
	const struct sweep_config *cfg;
	const struct wl_sweep *wls;
	struct sweep_live *live;      /* its phase, rate and contention are the step's to set */
	const struct raw_sample *cpu; /* the newest CPU sample; NULL before the first */
	step_end_cb end;
	void *end_arg;
	/* The window closes (called with end_arg): its closing work need not keep time. */
	void (*closing)(void *arg);

	/* The step being run, s->steps[idx]: an index, since steps[] may move. */
	const struct step_kind *kind;
	void *state; /* the kind's own */
	int idx;
	int n;
	uint64_t start_ns; /* the step was launched */
	uint64_t phase_ns; /* the current phase began */
	uint64_t go_ns;    /* workers released (built-in) or command started */
	int late_idx;      /* the step that ended the last tick measuring, else -1 */

	/* The measurement window's opening edge. */
	uint64_t w0_ns, w0_ops, w0_wait, w0_busy;
	struct raw_sample w0_raw;
	struct task_counters w0_task;
	bool w0_have_task;
	struct lockprof_entry *w0_locks; /* the kernel lock profile at the window's start */
	int w0_nlocks;                   /* -1: the kernel keeps none */

	/* The workload's tasks at the last tick they were alive: a window's end after they exit. */
	struct task_counters last_task;
	bool have_last_task;
	/* The step's workers' task counters, their files kept (NULL until first read). */
	struct task_reader *tasks;

	/*
	 * Where the threads waited in the window (waits.h): the thread samplers
	 * and the probes add to it; reset at the window's start, made into the
	 * step's shares (at most WAITS_PER_FAMILY lines a family) at its end.
	 */
	struct wait_tally waits;
	struct probes *probes;  /* --probe's runners (probe.h), made at the first window */
	struct wait_sampler ws; /* reads the workload's and the target's threads each tick */
	uint64_t w0_reads;      /* its reads when the window opened */
	uint64_t ws_pids_ns;    /* when its processes were last found */

	struct hot_sampler hot;   /* where the CPUs went: on-CPU samples of the same processes */
	struct symboliser *sym;   /* names their frames; made at the first sampled window; owned */
	struct census *census[2]; /* the lock census of each family (step_census.c); owned */
	struct shm_keys *shm;     /* its shared futexes' keys; owned */
	struct kstack_tally
		*kstacks;    /* the blocked threads' kernel stacks (step_kstacks.c); owned */
	bool kstack_said[2]; /* a family's stacks were said to be unreadable: once a sweep */

	/*
	 * The sweep's collectors (collector.h; cfg's table, NULL in a bare
	 * context) and each one's own state, kept for the context's life.
	 */
	const struct collector *const *coll;
	int ncoll;
	void *cstate[COLLECTORS_MAX];
	/* What the window's core measured at its end, for the collectors' ends. */
	struct step_ctx_close {
		double seconds; /* the window's length */
		uint64_t ops;   /* operations counted in it */
		bool counted;   /* the CPU counters spanned it (else the others are not known) */
	} close;

	/*
	 * The workload's latency in the window, as its kind has it, for the
	 * latency collector (measure/latency.c) at the window's end: a
	 * histogram (borrowed; whole_run when it spans warm-up too; exact when
	 * it holds every operation's own time, as a pgbench --log does), or the
	 * tool's figure of each counted interval, its iv_pct-th percentile or
	 * its mean (0).  Emptied when a step begins.
	 */
	struct lat_feed {
		const struct lathist *hist;
		bool whole_run;
		bool exact;
		double *iv_ms; /* owned */
		int niv, capiv, iv_pct;
	} lat;
	struct target *target;     /* --target's processes and book, or NULL; owned */
	struct freq_sampler freq;  /* the CPUs' frequency over the window */
	struct others_book others; /* who else was on the CPUs (step_others.c) */
	uint64_t others_ns;        /* the last scan of every process */
	uint64_t others_cost_ns;   /* the CPU time the dearest scan of the window took: its pace */

	uint64_t live_ct_ns;            /* when live contention was last worked out */
	uint64_t tg_pass_ns;            /* when the target's processes were last booked */
	uint64_t live_tasks_ns;         /* ... and when its task counters may be read again */
	uint64_t live_tasks_cost_ns;    /* the CPU time their last reading took (0: none yet) */
	uint64_t tick_late_ns;          /* how late the tick now running fired */
	struct sample_delta live_delta; /* its system delta, kept to reuse the memory */
};

#define WAITS_PER_FAMILY 12

/*
 * Why, beyond the waits (step_hot.c): the on-CPU sampling opened with the
 * window (unless --no-hot; a refusal said once a sweep), emptied on its
 * ticks, and its paths named into the step at its end; the symboliser
 * freed with the context.
 */
void step_ctx_hot_begin(struct step_ctx *c, uint64_t now);
void step_ctx_hot_tick(struct step_ctx *c);
void step_ctx_hot_end(struct step_ctx *c, struct step *st, uint64_t now);
void step_ctx_hot_free(struct step_ctx *c);
/*
 * The lock census (step_census.c): the wait sampler feeds each family's
 * while the window is open (unless --no-locks); at its end its top locks
 * are named (c->sym, made then if need be) into st->ulocks.
 */
void step_ctx_census_begin(struct step_ctx *c);
void step_ctx_census_end(struct step_ctx *c, struct step *st);
void step_ctx_census_free(struct step_ctx *c);
/*
 * The kernel-stack histogram (step_kstacks.c): fed by the wait sampler
 * while the window is open (unless --no-locks, which turns off every
 * reading of a blocked thread's files beyond its wait channel); at its end
 * each family's top stacks into st->kstacks, and, once a sweep, an event
 * saying why a family's stacks could not be read.
 */
void step_ctx_kstacks_begin(struct step_ctx *c);
void step_ctx_kstacks_end(struct step_ctx *c, struct step *st, uint64_t now);
void step_ctx_kstacks_free(struct step_ctx *c);

/*
 * Who else was on the CPUs (step_others.c): every process's CPU time read
 * at the window's start, about once a second in it (the processes that
 * exit between keep their last reading) and at its end, into st->others.
 */
void step_ctx_others_begin(struct step_ctx *c, uint64_t now);
void step_ctx_others_tick(struct step_ctx *c, uint64_t now);
/* counted: the CPU counters spanned the window (else the step's others are not known). */
void step_ctx_others_end(struct step_ctx *c, struct step *st, uint64_t now, bool counted);

/* The kernel's lock profile at the window's edges (step_lockprof.c), into st->locks at its end. */
void step_ctx_locks_begin(struct step_ctx *c);
void step_ctx_locks_end(struct step_ctx *c, struct step *st);

/* A context with nothing bound and no step. */
void step_ctx_init(struct step_ctx *c);
/*
 * A new step, s->steps[idx] of n workers, launched now, of kind k: the last
 * step's state is released and the per-step fields start afresh.  -1 when
 * the kind's state cannot be allocated (idx, n and start_ns are set even then).
 */
int step_ctx_begin(struct step_ctx *c, const struct step_kind *k, int idx, int n, uint64_t now);
/* Releases the last step's state and the context's own memory. */
void step_ctx_free(struct step_ctx *c);
/* The settings' --target, if any, for the context's life.  0, or -1 with a message. */
int step_ctx_set_target(struct step_ctx *c, const struct sweep_settings *set, char *err,
			size_t errlen);
/*
 * The sweep's tick, before the kind's: while a step warms up or measures,
 * the wait sampler reads threads (their processes found afresh about once a
 * second), and in the window the target's processes are read into its book.
 */
void step_ctx_sample(struct step_ctx *c, uint64_t now);
/* A tick of the running step fired late_ns after its deadline: the step keeps the worst. */
void step_ctx_note_late(struct step_ctx *c, uint64_t late_ns, uint64_t busy_ns);
/* At a tick's end: whether the next tick's lateness is this step's to note. */
void step_ctx_tick_done(struct step_ctx *c);

struct step *step_ctx_step(struct step_ctx *c);
/* Says the step is over: to the binder's end callback.  See struct step_kind. */
void step_ctx_end(struct step_ctx *c, enum step_status status, const char *reason);
void step_ctx_enter(struct step_ctx *c, enum sweep_phase ph, uint64_t now);
/* The latest interval's throughput, for live views. */
void step_ctx_rate(struct step_ctx *c, double rate);
/* A counted interval's latency as the tool printed it (pct: its percentile, 0 the mean). */
void step_ctx_lat_interval(struct step_ctx *c, double ms, int pct);
/*
 * The window's latency histogram, which the kind could only read after the
 * window closed (the built-ins' workers merge theirs as they exit): straight
 * into the step, as the latency collector would have made it; sync (may be
 * NULL or empty) the workload's syncs', kept apart (st->lat_sync).
 */
void step_ctx_lat_late(struct step_ctx *c, const struct lathist *ops, const struct lathist *sync);
/* The workload's tasks' counters summed; false when none could be read. */
bool step_ctx_read_tasks(struct step_ctx *c, struct task_counters *out);

/*
 * The measurement window.  ops, wait and busy are the step's running totals
 * (an external command counts only ops).  Begin ends the warm-up; end writes
 * the step's headline, CPU breakdown, contention and statistics.  Between
 * the edges and the rest, the collectors (cfg's table, collector.h) begin
 * in order, tick in step_ctx_sample, and end in reverse.
 */
void step_ctx_window_begin(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait,
			   uint64_t busy);
void step_ctx_window_end(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait,
			 uint64_t busy);
/* Whether the window has run its length (or is stable enough, with --until-stable). */
bool step_ctx_window_complete(struct step_ctx *c, uint64_t now);
/*
 * The window so far, into the live view's contention, about once a second.
 * Both kinds call it on every tick of the window, so it is the window's tick
 * for the probes too.
 */
void step_ctx_live_contention(struct step_ctx *c, uint64_t now, uint64_t ops, uint64_t wait,
			      uint64_t busy);

#endif

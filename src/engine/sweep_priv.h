/* Private to the sweep controller: its state and the two kinds of step it drives. */
#ifndef SCALETOP_SWEEP_PRIV_H
#define SCALETOP_SWEEP_PRIV_H

#include "scaletop/contention.h"
#include "scaletop/ext_timing.h"
#include "scaletop/parse.h"
#include "scaletop/runner.h"
#include "scaletop/spawn.h"
#include "scaletop/sweep.h"

/* The step being run.  The step itself is s->steps[idx]: an index, since steps[] may move. */
struct step_run {
	int idx;
	int n;
	uint64_t start_ns;       /* the step was launched */
	uint64_t phase_ns;       /* the current phase began */
	uint64_t go_ns;          /* workers released (built-in) or command started */
	uint64_t last_ns;        /* previous tick, for interval rates */
	uint64_t last_ops;

	/* The measurement window's opening edge. */
	uint64_t w0_ns, w0_ops, w0_wait, w0_busy;
	struct raw_sample w0_raw;
	struct task_counters w0_task;
	bool w0_have_task;
	struct lockprof_entry *w0_locks; /* the kernel lock profile at the window's start */
	int w0_nlocks;                   /* -1: the kernel keeps none */

	/* Each worker's count at the window's start, for its fairness (built-in). */
	uint64_t *w0_wops;
	int nw;
	/* Stall detection: total ops (while starting: workers at the line), and when it moved. */
	uint64_t moved_ops, moved_ns;

	struct runner *r;        /* built-in */

	struct spawn_proc proc;  /* external */
	bool have_proc;
	char **argv;
	struct parser *parser[2]; /* per stream: pgbench -P reports on stderr, sysbench on stdout */
	struct ext_timing timing; /* places its interval lines in time */
	double win_ops, win_s;   /* sum of rate*dt and dt over window intervals */
	double win_mono0, win_mono1; /* the counted intervals' span, on the step's clock */
	bool have_win_mono;
	double last_rate, last_end; /* the latest interval line, counted or not */
	bool have_last_line;
	uint64_t exit_ns;        /* when the command was seen to exit */
	struct task_counters tree0; /* the monitor's reaped children before a timed run */
	bool have_tree0;
	struct ext_mark *marks;  /* ring of per-tick marks (ext_window.c) */
	int nmarks, mark_next;
	struct parse_summary summary;
	bool have_summary;
	char last_err[200];      /* its last stderr line that was no report, for failure reasons */
	uint64_t live_ct_ns;     /* when live contention was last worked out */
	struct sample_delta live_delta; /* its system delta, kept to reuse the memory */
	struct task_counters last_task; /* the command's tasks at the last tick it was alive */
	bool have_last_task;
};

struct sweep {
	struct session *s;
	struct loop *loop;
	struct sampler *smp;
	struct sweep_config cfg;
	struct wl_sweep wls;
	bool prepared;
	sweep_observer obs;
	void *obs_arg;
	struct sweep_live live;
	int next;                /* position in the plan (n index * repeat + rep) */
	bool running;            /* a step is in progress */
	struct raw_sample prev, cur;
	bool have_prev;
	struct step_run run;
};

/* sweep.c, used by both kinds of step */
void sweep_enter(struct sweep *sw, enum sweep_phase ph, uint64_t now);
void sweep_window_begin(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait,
			uint64_t busy);
void sweep_window_end(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait,
		      uint64_t busy);
bool sweep_window_complete(struct sweep *sw, uint64_t now);
bool sweep_reached(const struct sweep *sw, uint64_t elapsed, double target);
void sweep_live_contention(struct sweep *sw, uint64_t now, uint64_t ops, uint64_t wait,
			   uint64_t busy);
void sweep_step_end(struct sweep *sw, enum step_status status, const char *reason);
struct step *sweep_step(struct sweep *sw);
/* The workload's tasks' counters summed; false when none could be read. */
bool sweep_read_tasks(struct sweep *sw, struct task_counters *out);

/* step_builtin.c */
int builtin_step_start(struct sweep *sw, char *err, size_t errlen);
void builtin_step_tick(struct sweep *sw, uint64_t now);
void builtin_step_abort(struct sweep *sw);
void builtin_step_pause(struct sweep *sw, bool pause, uint64_t now);

/* One tick's CPU sample and the command's task counters, kept to align windows. */
struct ext_mark {
	uint64_t ns;
	struct raw_sample raw;
	bool have_raw;
	struct task_counters task;
	bool have_task;
};

/* ext_window.c */
void ext_marks_note(struct sweep *sw, uint64_t now);
void ext_marks_free(struct step_run *run);
const struct ext_mark *ext_marks_latest(const struct step_run *run); /* NULL if none */
bool ext_children_usage(struct task_counters *out);
void ext_window_align(struct sweep *sw);

/* step_external.c */
int external_step_start(struct sweep *sw, char *err, size_t errlen);
void external_step_tick(struct sweep *sw, uint64_t now);
void external_step_abort(struct sweep *sw);

#endif

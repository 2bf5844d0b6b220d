/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The session model: everything known so far about one sweep.  The engine
 * writes it; the text printer, the JSON output, the snapshot and the TUI
 * only read it.  Pure data and bookkeeping, no I/O.
 */
#ifndef SCALETOP_SESSION_H
#define SCALETOP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "scaletop/fairness.h"
#include "scaletop/sample_types.h"
#include "scaletop/probe_join.h"
#include "scaletop/series.h"
#include "scaletop/stats.h"
#include "scaletop/hotpaths.h"
#include "scaletop/waits.h"

#define SESSION_MAX_PARAMS 8
#define STEP_TOP_LOCKS 5      /* kernel lock classes kept per step */
#define SESSION_MAX_TARGETS 8 /* --target SPEC, repeatable */
#define SESSION_MAX_PROBES 4  /* --probe COMMAND, repeatable */
#define TARGET_SPEC_LEN 256

enum run_mode { MODE_THREADS, MODE_PROCESSES };

struct sweep_settings {
	int *n; /* the N list, ascending; owned */
	int nn;
	double duration_s;    /* measurement time; the cap when until-stable */
	double warmup_s;      /* never counted */
	double stable_pct;    /* 0: fixed duration; else stop at CI95 <= pct% of mean */
	double min_measure_s; /* until-stable never stops sooner */
	double interval_s;    /* length of one interval sample */
	int repeat;           /* runs per N, back to back, in each trial */
	int trials;           /* the whole sweep this many times, N order alternating */
	double stall_s;       /* no progress by any worker for this long fails the step; 0: off */
	bool stop_on_failure;
	enum run_mode mode;
	double efficiency_min; /* analysis: linear-range threshold (0..1); 0: the default */
	double collapse_theta; /* analysis: collapse below (1 - theta) of peak; 0: the default */
	/* The system under test (--target pid:N, comm:NAME, cgroup:PATH), as given. */
	char target[SESSION_MAX_TARGETS][TARGET_SPEC_LEN];
	int ntargets;
	/* Database-level wait probes (--probe COMMAND), as given. */
	char probe[SESSION_MAX_PROBES][TARGET_SPEC_LEN];
	int nprobes;
	bool no_hot;     /* --no-hot: no on-CPU sampling */
	bool no_latency; /* --no-latency: the built-ins' workers time no operation */
	bool no_locks;   /* --no-locks: no lock census */
	int refine;      /* --refine: at most this many N added after the list; 0: none */
};

/* What ran, as text: enough for a reader to run it again. */
struct workload_desc {
	char name[64];   /* built-in name, or "external" */
	char unit[32];   /* what one operation is, plural: "ops", "writes", "transactions" */
	char n_unit[16]; /* what N counts, plural: "threads", "processes", "writers", "clients" */
	int nparams;
	char key[SESSION_MAX_PARAMS][32];
	char value[SESSION_MAX_PARAMS][256];
	char **argv;     /* external command template, NULL-terminated; owned */
	char parser[32]; /* external output parser */
};

#define CT_HAVE_CSW 0x01
#define CT_HAVE_RUN_DELAY 0x02
#define CT_HAVE_KERNEL 0x04
#define CT_HAVE_OPS_CPU 0x08
#define CT_HAVE_SYS_CTXSW 0x10
#define CT_HAVE_PSI 0x20
#define CT_HAVE_LOCK_WAIT 0x40
#define CT_HAVE_THREADS 0x80
#define CT_HAVE_CSW_KOP 0x100 /* vcsw_kop, ivcsw_kop: switches and operations both counted */

/* Contention over a measurement window, in figures a kernel engineer already reads. */
struct contention {
	double vcsw_s, ivcsw_s;     /* the workload's voluntary / involuntary switches per s */
	double vcsw_kop, ivcsw_kop; /* the same per 1000 operations */
	double run_delay_pct;       /* per task: % of wall time runnable but not running */
	double kernel_pct;          /* sys share of the workload's CPU time */
	double ops_per_cpu_s;       /* operations per CPU-second the workload used */
	double cpu_used;            /* CPUs' worth of time the workload used (1.0 = one CPU) */
	double sys_ctxsw_s;         /* whole system */
	double psi_some_pct;
	double lock_wait_pct; /* % of worker time waiting for the workload's lock */
	int threads;          /* the workload's threads summed at the window's end */
	unsigned have;        /* CT_HAVE_* */
};

#define TG_HAVE_CPU 0x01       /* cpu_used, user_cpu, sys_cpu, machine_pct */
#define TG_HAVE_CSW 0x02       /* vcsw_kop, ivcsw_kop: with operations counted */
#define TG_HAVE_RUN_DELAY 0x04 /* run_delay_pct */
#define TG_HAVE_OPS_CPU 0x08   /* ops_per_cpu_s: with operations counted */
#define TG_HAVE_PSI 0x10       /* cgroup cpu.pressure: psi_some_pct */

/*
 * The system under test over a measurement window (--target): the server's
 * side of a client-driven workload, measured like the workload's own.
 * present is false when no --target was given; have says which figures
 * could be measured.
 */
struct target_figures {
	bool present;
	int procs;                  /* processes counted in the window */
	int threads;                /* threads summed at the window's end */
	double cpu_used;            /* CPUs' worth of time (1.0 = one CPU) */
	double user_cpu, sys_cpu;   /* the same, split */
	double vcsw_kop, ivcsw_kop; /* switches per 1000 of the workload's operations */
	double run_delay_pct;       /* per thread summed: % of wall time runnable, not running */
	double machine_pct;         /* share of the machine's CPU capacity */
	double ops_per_cpu_s;       /* operations per CPU-second of workload and target together */
	double psi_some_pct;        /* cgroup targets: cpu.pressure some avg over the window */
	unsigned have;              /* TG_HAVE_* */
};

/*
 * Where the CPUs went in a window (hotpaths.h): the on-CPU samples of the
 * workload's and the target's threads by call path and by function (its
 * own samples), and the share that spun in a lock, kernel or user, by the
 * caller that names it.  present is false where nothing was sampled
 * (sampling off, not allowed, or not Linux).
 */
struct hot_stacks;
struct step_hot {
	bool present;
	uint64_t samples[WAIT_NFAMILIES];       /* the probe family has none */
	double spin_share[WAIT_NFAMILIES];      /* spun in any lock, kernel or user */
	double user_spin_share[WAIT_NFAMILIES]; /* ... of which in user space (0: older files) */
	struct hot_path *paths;                 /* owned */
	int npaths;
	struct hot_spin *spins; /* owned */
	int nspins;
	struct hot_self *selfs; /* owned: functions by their own samples, most first */
	int nselfs;
	struct hot_stacks *stacks; /* every distinct stack, for flame graphs (hotstacks.h); owned */
};

/*
 * The locks the threads waited on in a window (census.h): per family, its
 * futex waiters' top locks by their share of the family's blocked time.
 * present is false where no census ran (--no-locks, not Linux, an older
 * file).
 */
#define STEP_ULOCKS 5 /* locks kept per family */
#define STEP_ULOCK_NAME 160
struct step_ulock {
	enum wait_family family;
	pid_t pid;                  /* its process; a shared lock's latest waiter's */
	char comm[32];              /* the process's command name; "" if not read */
	char name[STEP_ULOCK_NAME]; /* "big_lock", "libc.so.6:+0x1d", "wait_for_tasks (heap)"
				     */
	char how[24];               /* how it was named: "symbol", "object", "stack scan"...; "" */
	char kind[8];               /* "mutex", "bitset", "pi", "futex2" */
	double share;               /* of the family's blocked thread-time, 0..1 */
	unsigned max_waiters;       /* most waiters in one tick's readings */
	unsigned threads;           /* distinct waiting threads */
	bool shared;                /* a process-shared futex, one lock whichever process waits */
	unsigned processes;         /* distinct waiting processes (1 unless shared) */
	unsigned long readings;     /* waiter readings it rests on */
	pid_t owner;                /* the holder's TID at the last read, verified; 0: not known */
	pid_t owner_pid;            /* and its process (0: not known) */
	char owner_state[16]; /* "running", "sleeping"...: the sampler's reading of the owner in the
				 tick its ownership was read; "" if not read then */
	char owner_why[64];   /* owner 0: why ("not a mutex", "TID 9 is not a thread of 8"...) */
	char mapping[STEP_ULOCK_NAME]; /* named by its call site: "[heap]+0x40"; else "" */
	bool idle; /* its waiters wait for work (a condvar), not contention: never the top lock */
};
/*
 * Whether a lock's processes are worth saying: a shared lock more than one
 * process waited on, or one held from another process than its waiter's.
 */
static inline bool
ulock_across_processes(const struct step_ulock *u)
{
	return u->shared &&
	       (u->processes > 1 || (u->owner > 0 && u->owner_pid > 0 && u->owner_pid != u->pid));
}
struct step_locks {
	bool present;
	double blocked_s[WAIT_NFAMILIES]; /* each family's blocked thread-seconds the census saw */
	struct step_ulock lock[2 * STEP_ULOCKS];
	int n;                 /* the workload's first, each family's largest first */
	int64_t syscall_reads; /* futex waiters' syscall lines read in the window */
	double cost_ms;        /* the most a tick's census took (reads, owners), wall clock */
};

/*
 * The kernel stacks of the window's blocked threads (kstacks.h): a few of
 * each tick's blocked readings have their kernel stack read, tallied by
 * their first frames, each weighed by the blocked time it stands for; per
 * family the top STEP_KSTACKS.  present is false where none were tried
 * (--no-locks, an older file); unreadable says why none could be read.
 */
#define STEP_KSTACKS 5 /* stacks kept per family */
#define STEP_KSTACK_LEN 256
struct step_kstack {
	enum wait_family family;
	char stack[STEP_KSTACK_LEN]; /* "futex_do_wait;__futex_wait;futex_wait;do_futex" */
	double share;                /* of the family's blocked time whose stack was read, 0..1 */
	unsigned long readings;      /* stacks read that it rests on */
};
struct step_kstacks {
	bool present;
	struct step_kstack top[2 * STEP_KSTACKS];
	int n;                /* the workload's first, each family's largest first */
	int64_t reads;        /* stacks read in the window */
	int64_t failed;       /* reads refused, gone or not understood */
	double read_us;       /* the mean wall time of a read, in us; < 0: none read */
	char unreadable[128]; /* why no stack could be read ("Permission denied"...); "" */
	/* every distinct whole stack, counts in ms of blocked thread-time (hotstacks.h); owned */
	struct hot_stacks *stacks;
};

/*
 * Who else was on the CPUs over a step's window: every process that is not
 * the workload, the target or scaletop (with its children).  cpus is exact,
 * from the CPU counters: the machine's busy CPUs less the workload's, the
 * target's and scaletop's own.  The names are best effort, from a scan of
 * every process's CPU time about once a second, grouped by command name: a
 * process that lived less than a scan's period may be missed, and named_cpus
 * says how much of cpus they cover.  known is false where it was not measured
 * (an older file, an OS without a process table).
 */
#define STEP_OTHERS_TOP 3
#define STEP_OTHER_PIDS 4
struct step_other {
	char comm[32];              /* the command name they share */
	int procs;                  /* processes of that name seen using CPU in the window */
	pid_t pid[STEP_OTHER_PIDS]; /* the busiest few of them, busiest first */
	int npid;
	double cpus; /* CPUs they used: their CPU seconds over the window's */
};
struct step_others {
	bool known;
	double cpus;       /* CPUs the others used over the window, >= 0 */
	double named_cpus; /* how much of that the scan's processes cover, >= 0 */
	struct step_other top[STEP_OTHERS_TOP]; /* by CPU, largest first */
	int ntop;
};

/*
 * A step's latency (latency.h): how it was measured, the operations (or
 * intervals) it stands on, and its percentiles in ms, NAN where the method
 * does not give one.  hist holds the histogram's used buckets, each its
 * lowest value in ns and its count, in order; owned.  method LAT_NONE: not
 * measured.
 */
enum lat_method { LAT_NONE, LAT_EXACT, LAT_HISTOGRAM, LAT_INTERVAL };
struct lat_bucket {
	uint64_t ns, n;
};
struct step_latency {
	enum lat_method method;
	bool whole_run; /* it spans the tool's whole run, its warm-up included */
	uint64_t count; /* operations timed; LAT_INTERVAL: intervals */
	int pct;        /* LAT_INTERVAL: the percentile the tool printed, 0 for the mean */
	double pct_ms;  /* LAT_INTERVAL: the median of the intervals' figures */
	double mean_ms, p50_ms, p90_ms, p99_ms, p999_ms, max_ms;
	struct lat_bucket *hist;
	int nhist;
};

/*
 * A measure's own figures (collector.h): slot i is the collector table's
 * i-th entry's, with how to free them, so the model frees what it never
 * reads.  data NULL: none.
 */
#define STEP_SLOTS 16
struct step_slot {
	void *data;
	void (*free)(void *data);
};

enum step_status { STEP_RUNNING, STEP_OK, STEP_UNSTABLE, STEP_FAILED, STEP_INTERRUPTED };
extern const char *const step_status_names[];

struct step {
	int n;
	int rep;      /* 0 .. repeat-1 */
	int trial;    /* 0 .. trials-1: which pass of the whole sweep (--trials) */
	bool refined; /* its N was chosen by --refine after the list */
	enum step_status status;
	char reason[256];  /* why failed/unstable/interrupted, "" otherwise */
	double start_s;    /* session time the step's workers were released */
	double warmup_s;   /* measured warm-up */
	double window_s;   /* measured measurement window */
	uint64_t ops;      /* operations counted in the window */
	double ops_s;      /* headline: ops / window_s */
	bool no_intervals; /* an external command printed only a summary */
	double *iv;        /* interval throughputs in the window; owned */
	int niv, capiv;
	struct stats st;       /* of iv[] */
	struct cpu_usage all;  /* CPU use over the window (delta.h), all CPUs */
	struct cpu_usage *cpu; /* per CPU; owned */
	int ncpu;
	struct contention ct;
	struct fairness fair; /* per-worker shares of the window's operations (built-in only) */
	struct lockprof_entry locks[STEP_TOP_LOCKS]; /* the kernel's most contended locks in */
	int nlocks; /* the window, where the kernel keeps a profile */
	struct target_figures tg;
	struct wait_share *waits; /* where the threads waited (waits.h); owned */
	int nwaits;
	struct probe_join pjoin; /* --probe's TID lines and how many joined the target's threads */
	double freq_mhz;     /* the CPUs' mean frequency over the window; 0: the OS does not say */
	double tick_late_ms; /* the latest a tick fired while the step ran; < 0: not known */
	double tick_busy_ms; /* the most of a tick's lateness the monitor's own work caused; < 0 */
	double wait_read_ms; /* the most CPU time a tick's reading of threads took; < 0: not known
			      */
	int64_t wait_reads;  /* threads read in the window; < 0: not known */
	struct step_hot hot;
	struct step_locks ulocks;     /* user-space locks (st->locks is the kernel's lock_stat) */
	struct step_kstacks kstacks;  /* the blocked threads' kernel stacks */
	struct step_others others;    /* who else was on the CPUs */
	struct step_latency lat;      /* the operations' latency */
	struct step_latency lat_sync; /* the workload's syncs' (fileio's fsyncs), apart */
	struct step_slot slot[STEP_SLOTS];
};

enum event_kind { EV_INFO, EV_STEP, EV_FAILURE, EV_UNSTABLE, EV_WARNING, EV_COLLAPSE };
extern const char *const event_kind_names[];

struct event {
	double t; /* session seconds */
	int step; /* index into steps, -1 if none */
	enum event_kind kind;
	char text[256];
};

struct session {
	struct host_info host;
	struct workload_desc wl;
	struct sweep_settings set;
	char started_utc[32];   /* ISO-8601 */
	uint64_t t0_ns;         /* CLOCK_MONOTONIC at start */
	char sampler_note[160]; /* e.g. per-CPU data unavailable; "" if none */
	struct step *steps;
	int nsteps, capsteps;
	struct event *events;
	int nevents, capevents;
	struct series ticks; /* recent ticks; empty (cap 0) until session_start_series */
	/*
	 * The TUI hands one ring from session to session (r, n, w, +/-) so the
	 * CPU panels run on; the ring's ticks that are this session's carry
	 * this tag, and only they are saved with it.  0 until the ring is
	 * handed on.  series_from: the ring's count when it first came here.
	 */
	uint32_t series_tag;
	int64_t series_from;
};

void session_init(struct session *s);
/* Frees a step's hot paths, spins and stacks and marks it unsampled. */
void step_hot_clear(struct step_hot *h);
/* Frees a step's kernel stacks' whole stacks and marks them absent. */
void step_kstacks_clear(struct step_kstacks *k);
/* Frees the figures in a step's slots and empties them. */
void step_slots_free(struct step *st);
/* Frees everything a step owns and leaves it empty (its scalars kept). */
void step_free(struct step *st);
void session_free(struct session *s);
/*
 * The plan's i-th step (0 .. trials * nn * repeat - 1): its N index, repeat
 * and trial.  Trial t runs the N list ascending when t is even and
 * descending when odd, so drift over the trials does not line up with N.
 */
void session_plan_step(const struct sweep_settings *set, int i, int *ni, int *rep, int *trial);
/* How many steps the plan has: trials * nn * repeat. */
int session_plan_len(const struct sweep_settings *set);
/* Appends a step for (n, rep) and returns it, or NULL on ENOMEM. */
struct step *session_add_step(struct session *s, int n, int rep);
int step_add_interval(struct step *st, double rate);
int step_set_cpus(struct step *st, const struct sample_delta *d);
int session_add_event(struct session *s, int step, enum event_kind kind, double t, const char *fmt,
		      ...) __attribute__((format(printf, 5, 6)));
/* Starts the tick series with room for CPU ids 0 .. ncpu-1. */
int session_start_series(struct session *s, int ncpu, int cap);
/*
 * Moves the tick ring from one session to another: the ticks added from now
 * on are to's.  Those already there stay for the live views but remain
 * from's (to gets them back if it held them before, as after a live N).
 */
void session_take_series(struct session *to, struct session *from);
/* Whether tick t of s's ring is s's own (not an earlier session's). */
bool session_owns_tick(const struct session *s, const struct tick *t);
/* Seconds since the session started, for a CLOCK_MONOTONIC time. */
double session_time(const struct session *s, uint64_t mono_ns);

#endif

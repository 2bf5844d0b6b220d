/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Scaling analysis: pure functions of the session's steps.  Repeated runs of
 * one N are pooled (their mean) before anything is compared.  No I/O.
 */
#ifndef SCALETOP_ANALYSIS_H
#define SCALETOP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "scaletop/session.h"

/* --- per-N helpers (src/model/analysis.c) ------------------------------ */

/* Throughput at N: the mean over that N's usable (ok or unstable) steps; NaN if none. */
double analysis_throughput_at(const struct session *s, int n);
/* X(N)/X(1); NaN without a usable N=1 step. */
double analysis_speedup(const struct session *s, int n);
/* X(N)/(N X(1)); NaN without a usable N=1 step. */
double analysis_efficiency(const struct session *s, int n);

/* --- a step's status (src/model/step_status.c) -------------------------- */

/* true for the steps whose figures may be used (ok or unstable). */
bool step_usable(const struct step *st);

/*
 * An ok step whose reported 95% CI (over its intervals, or an imported
 * table's runs) is wider than STATS_NOISY_CI_FRAC of its mean
 * (stats_is_noisy): shown "noisy", not "ok".  An unstable step keeps its
 * own, stronger mark.
 */
bool step_noisy(const struct step *st);
/* What a step's status column says: "noisy" for a noisy step, else its status's name. */
const char *step_status_word(const struct step *st);
/* The step's reported CI as a fraction of its mean; NaN without spread or a mean above 0. */
double step_ci_frac(const struct step *st);
/* The widest CI fraction of the noisy steps at N; 0 when none is noisy. */
double analysis_noisy_at(const struct session *s, int n);

/* --- the Universal Scalability Law (src/model/usl.c) ------------------- */

/*
 * Which term of the denominator is the larger at some N: contention
 * sigma (N-1) or coherency kappa N (N-1).  Both vanish at N = 1, so they
 * are compared per unit of N-1: sigma against kappa N.
 */
enum usl_term { USL_TERM_NONE, USL_TERM_CONTENTION, USL_TERM_COHERENCY, USL_TERM_COUNT };
extern const char *const usl_term_names[USL_TERM_COUNT]; /* "none", "contention", "coherency" */

/* N* is an extrapolation when it lies beyond this many times the largest measured N. */
#define USL_EXTRAPOLATION_FACTOR 2.0

/* X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) */
struct usl_fit {
	bool ok;         /* a fit was made (needs >= 4 distinct N) */
	bool few_points; /* made from fewer than 6 points: shown with a flag */
	bool amdahl;     /* kappa came out negative and was refitted as 0 */
	int npoints;
	double sigma, kappa, lambda;
	double se_sigma, se_kappa, se_lambda; /* standard errors; NaN when not estimable */
	double rse;                           /* residual standard error */
	double n_star;  /* sqrt((1-sigma)/kappa), at least 1; INFINITY when kappa == 0 */
	double x_star;  /* predicted throughput at n_star */
	double n_max;   /* the largest measured N */
	double n_cross; /* sigma / kappa: the N above which coherency's term is the larger;
			   INFINITY when kappa == 0 */
	enum usl_term bound_measured; /* the larger term at n_max */
	enum usl_term bound_at_peak;  /* the larger term at n_star */
	bool n_star_extrapolated;     /* n_star > USL_EXTRAPOLATION_FACTOR * n_max */
	char why[128];                /* why there is no fit, when !ok */
};

/* Fits k points (n[i], x[i]).  Always fills f; returns 0 when f->ok. */
int usl_fit(const double *n, const double *x, int k, struct usl_fit *f);
double usl_predict(const struct usl_fit *f, double n);
/* The larger term at n (sigma against kappa n); NONE when both are 0. */
enum usl_term usl_larger_term(double sigma, double kappa, double n);
/* The largest N among the points the fit uses; 0 if none. */
double usl_n_max(const double *n, const double *x, int k);
/* Fills n_max, n_cross, dominant_* and n_star_extrapolated of a fit f (src/model/usl_terms.c). */
void usl_terms(struct usl_fit *f, double n_max);

/* --- the whole analysis and verdict (src/model/analysis.c) ------------- */

struct scaling_point {
	int n;
	double x;          /* pooled throughput */
	double ci;         /* its 95% CI half-width (pooled), NaN if unknown */
	double ci_between; /* from the spread of the runs' means (runs >= 2), else NaN */
	double ci_within;  /* from the runs' own CIs combined, NaN unless all have one */
	int runs;          /* usable steps pooled */
	double speedup;    /* NaN without X(1) */
	double efficiency;
	double increment; /* X(N) - X(previous N) */
};

struct analysis_opts {
	double efficiency_min; /* linear range threshold, default 0.9 */
	double collapse_theta; /* collapse below (1 - theta) X_peak, default 0.2 */
	const char *n_unit;    /* what N counts, plural: "threads", "clients", "writers" */
};

/*
 * What grew between the peak and the fall, at a collapse, from the steps'
 * wait profiles (src/model/analysis_cause.c; docs/design-notes.md has the
 * rule): one family, the first of target, workload, probe in which some
 * category (a state and channel, other than running) grew by at least
 * ANALYSIS_CAUSE_MIN_RISE share points, and its at most ANALYSIS_CAUSE_MAX
 * categories that grew most.
 */
#define ANALYSIS_CAUSE_MAX 2
#define ANALYSIS_CAUSE_MIN_RISE 0.10

struct cause_category {
	enum wait_state state;
	char channel[WAIT_CHANNEL_LEN];
	double from, to; /* its share at n_from and n_to, pooled over their runs (0..1) */
};

/*
 * The on-CPU side of the same question: the share of a family's CPU samples
 * that spun in a lock (steps' "hot"), when it grew by at least
 * ANALYSIS_CAUSE_MIN_RISE from the peak to the fall, with the spin frame and
 * the caller that spun most at the fall.  The target is asked first.
 */
struct cause_spin {
	bool found;
	enum wait_family family;
	double from, to; /* spin share at n_from and n_to, pooled over the sampled runs (0..1) */
	char spin[HOT_NAME_LEN];
	char caller[HOT_NAME_LEN]; /* "" when the chains ended above the spin */
};

/*
 * The lock side (steps' "locks", the lock census): the futex with the
 * largest share of a family's blocked time at the fall, when that share
 * grew by at least ANALYSIS_CAUSE_MIN_RISE from the peak (the same lock,
 * by name and process, or 0 where the census ran and did not see it).  The
 * target is asked first.
 */
struct cause_lock {
	bool found;
	enum wait_family family;
	double from, to; /* its share at n_from and n_to, pooled over the censused runs */
	char name[STEP_ULOCK_NAME];
	char comm[32]; /* its process's, "" if not read */
	char kind[8];
	unsigned max_waiters; /* most at once in the run at the fall it came from */
	int threads;          /* the family's threads in that run; 0: not known */
	unsigned processes;   /* a shared futex's waiting processes; 0: not shared */
	pid_t owner;          /* 0: not known */
	char owner_state[16]; /* "" if not read */
};

struct analysis_cause {
	bool found; /* false: no collapse, no profile at both N, or nothing grew enough */
	enum wait_family family;
	int n_from, n_to; /* the peak's N, and the fallen N the verdict names */
	int ncat;
	struct cause_category cat[ANALYSIS_CAUSE_MAX]; /* the largest rise first */
	struct cause_spin spin;
	struct cause_lock lock;
};

/*
 * A step that ran on a busy machine (docs/design-notes.md, "The verdict
 * knows a busy machine"): at an N no larger than the CPU count, other
 * processes used at least ANALYSIS_BUSY_OTHERS_CPUS CPUs over its window
 * (step.others), or its workers waited for a CPU (run delay) at least
 * ANALYSIS_BUSY_RUN_DELAY_PCT of their time.  Its throughput is then partly
 * the machine's, and so is every ratio to it.  The others that served the
 * workload (struct analysis_serving) are not counted.
 */
#define ANALYSIS_BUSY_OTHERS_CPUS 0.5
#define ANALYSIS_BUSY_RUN_DELAY_PCT 25.0
#define ANALYSIS_BUSY_NAMES 2        /* the others' commands the verdict names */
#define ANALYSIS_BUSY_NAME_CPUS 0.05 /* ... each only if it used this many CPUs */
struct analysis_busy {
	int n;                /* the smallest N with a busy step; 0: none */
	bool by_others;       /* the others' CPU made it busy (else the workers' run delay) */
	double others_cpus;   /* at that step: CPUs the others used */
	double run_delay_pct; /* at that step: the workers' run delay, NaN if not known */
	int ncpus;            /* the machine's CPUs; 0: not known */
	struct step_other top[ANALYSIS_BUSY_NAMES]; /* the others' busiest commands */
	int ntop;
};

/*
 * The commands among the steps' others that served the workload
 * (src/model/analysis_serving.c; docs/design-notes.md, "A server is not a
 * busy machine"): a database whose backends did the clients' work.  Each is
 * named in every usable step's others, its CPU rose with N or with the
 * throughput (ANALYSIS_SERVING_RISE, ANALYSIS_SERVING_CORR) to at least
 * ANALYSIS_SERVING_MIN, and the quiet
 * check before the first step did not see it as busy.  They are not counted
 * toward a busy machine; the verdict names them once, unless --target does.
 */
#define ANALYSIS_SERVING_MAX STEP_OTHERS_TOP
#define ANALYSIS_SERVING_MIN 0.25  /* its most CPU at an N: less makes no busy machine */
#define ANALYSIS_SERVING_RISE 1.25 /* its most CPU over its least, over the N */
#define ANALYSIS_SERVING_CORR 0.8  /* its CPU against log N or the throughput, over the N */
#define ANALYSIS_SERVING_QUIET 0.5 /* before the sweep: busy at this share of its least */
struct analysis_server {
	char comm[32];
	double lo, hi; /* its CPUs at the N where it used least and most (means over runs) */
	bool targeted; /* a --target spec names it: the verdict leaves it to the target's lines */
};
struct analysis_serving {
	int n;
	struct analysis_server s[ANALYSIS_SERVING_MAX];
};

/*
 * The N with a noisy step, ascending, the first ANALYSIS_NOISY_SHOWN of
 * them named: the verdict says its confidence is low.
 */
#define ANALYSIS_NOISY_SHOWN 4
struct analysis_noisy {
	int count;                   /* N with a noisy step; 0: none */
	int n[ANALYSIS_NOISY_SHOWN]; /* the first of them */
	int steps;                   /* noisy steps at every N */
	double ci_frac;              /* the widest of their CIs, as a fraction of the mean */
};

/*
 * The latency knee (src/model/analysis_knee.c; docs/statistics.md has the
 * rule and why): the smallest N whose tail (latency_tail: p99, else the
 * tool's percentile >= 90) exceeds ANALYSIS_KNEE_FACTOR times its lowest
 * value at a smaller N, for every trial, while the throughput peak lies
 * beyond it by more than the two points' CIs.  Where the tail turns only at
 * or after the peak, no knee is named: the collapse or the peak says it.
 */
#define ANALYSIS_KNEE_FACTOR 4.0
struct analysis_knee {
	bool found;
	int pct;          /* the percentile judged: 99, or the tool's (90..99) */
	int n_from, n_to; /* the N of the lowest tail before the knee, and the knee's N */
	double from_ms;   /* the tail at n_from, the mean over its trials */
	double to_ms;     /* ... at n_to */
	int n_peak;       /* the throughput peak above the knee */
	double rise;      /* X(n_peak) / X(n_to) - 1 */
};

/*
 * The verdict's parts, each one clause of the sentence with how much it
 * matters (0 most), so a line too short for the whole sentence can lead with
 * what a user must not miss: the headline (the curve's shape: a collapse,
 * no scaling, sub-linear, linear or super-linear), a busy machine, noisy
 * steps, the latency knee, the peak, how far it rose before a collapse,
 * then the rest (analysis_verdict_ranked).
 */
enum verdict_rank {
	VERDICT_RANK_HEADLINE,
	VERDICT_RANK_BUSY,
	VERDICT_RANK_NOISY,
	VERDICT_RANK_KNEE,
	VERDICT_RANK_PEAK,
	VERDICT_RANK_SCALING,
	VERDICT_RANK_REST
};
#define ANALYSIS_VERDICT_PARTS 12
struct verdict_part {
	unsigned short off, len; /* the clause in verdict, without its "; " */
	enum verdict_rank rank;
};

struct analysis {
	int npoints;
	struct scaling_point *pts; /* ascending N; owned */
	bool have_x1;
	double x1;
	int n_peak;
	double x_peak, x_peak_ci;
	int linear_n;        /* largest N with efficiency >= efficiency_min; 0 if none */
	bool peak_uncertain; /* the peak's CI is wider than STATS_NOISY_CI_FRAC of it */
	int n_ref;           /* the point with the highest lower CI bound ... */
	double x_ref_lb;     /* ... and that bound (>= 0): what a fall is judged against */
	bool collapse;       /* a fall beyond theta below x_ref_lb, outside the CIs */
	int collapse_n;      /* the first N where it happened */
	int last_n;
	double last_frac; /* X(last N) / X_peak */
	bool no_smp;      /* speedup(2) < 1.1 */
	struct usl_fit usl;
	struct analysis_cause cause;
	struct analysis_busy busy;       /* busy.n == 1: N=1 was starved, ratios to it unreliable */
	struct analysis_serving serving; /* others that did the workload's work, not busy */
	struct analysis_noisy noisy;
	struct analysis_knee knee;
	char verdict[256]; /* one sentence, e.g. "scales to 3 writers; peak ..." */
	int nparts;        /* its clauses, in the sentence's order; 0 when unknown */
	struct verdict_part part[ANALYSIS_VERDICT_PARTS];
};

void analysis_opts_default(struct analysis_opts *o);
/* The defaults, overridden by the session's settings (--collapse, --linear) and unit of N. */
void analysis_opts_for(const struct session *s, struct analysis_opts *o);
/* Analyses the session's usable steps.  0, or -1 on ENOMEM.  Free with analysis_free. */
int analysis_run(const struct session *s, const struct analysis_opts *o, struct analysis *a);
void analysis_free(struct analysis *a);
/* The noisy steps of s at a's points (src/model/step_status.c). */
void analysis_noisy(const struct session *s, const struct analysis *a, struct analysis_noisy *z);
/*
 * The latency at N over a sweep's trials (src/model/analysis_latency.c):
 * each trial's usable runs pooled by their mean, as throughput is, then the
 * trials' mean, lowest and highest.  The tail is latency_tail's (p99, else
 * the tool's percentile >= 90); runs judged on another percentile than pct
 * are left out, pct 0 taking the first run's and giving it back.
 */
struct latency_at {
	int trials;    /* trials with a tail at N; 0: none */
	double tail;   /* the trials' mean; NAN without one */
	double lo, hi; /* the lowest and highest trial's tail */
	double p50;    /* the mean p50 of the usable runs with one; NAN if none */
};
void analysis_latency_at(const struct session *s, int n, int *pct, struct latency_at *o);

/* The latency knee of s at a's points (src/model/analysis_knee.c); none without memory. */
void analysis_knee(const struct session *s, const struct analysis *a, struct analysis_knee *k);
/*
 * "p99 latency x8.2 from 2 to 8 clients (1.1 to 9.0 ms) while throughput
 * still rose 12%", or "" without a knee: the verdict's clause.
 */
void analysis_knee_text(const struct analysis_knee *k, const char *n_unit, char *buf, size_t len);
/*
 * "low confidence: steps at N=4,8 are noisy (CI up to +-40%)", or "" when
 * none is: the verdict's clause.
 */
void analysis_noisy_text(const struct analysis_noisy *z, char *buf, size_t len);
/*
 * The verdict's clauses joined by "; ", the most important first (a stable
 * order within a rank), into buf: the same words as a->verdict, for a line
 * that cannot show it whole.  Without parts (a verdict read from a file),
 * the verdict as it is.
 */
void analysis_verdict_ranked(const struct analysis *a, char *buf, size_t len);

/*
 * Repeats (--repeat) that disagree: the N whose runs' means spread more
 * than ANALYSIS_DRIFT_FACTOR times what their own CIs allow (ci_between over
 * ci_within, the largest such ratio), or 0 if none.  Each run's CI then
 * understates how much a rerun moves: the machine or the workload drifts
 * between runs, and only the pooled CI, which takes the wider, is to be
 * trusted.
 */
#define ANALYSIS_DRIFT_FACTOR 2.0
int analysis_repeat_drift(const struct analysis *a);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop sample: per-CPU utilisation and system rates every interval, laid
 * out like mpstat -P ALL, or as JSON Lines for other tools.  Its command
 * line is sample_args.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "sample.h"
#include "scaletop/argparse.h"
#include "scaletop/delta.h"
#include "scaletop/error.h"
#include "scaletop/host.h"
#include "scaletop/platform.h"
#include "scaletop/sample_json.h"

/* Everything one run keeps between intervals. */
struct sample_run {
	const struct sample_opts *opts;
	struct sampler *sampler;
	const char *note;
	struct raw_sample first, prev, cur;
	struct timespec prev_wall, cur_wall;
	struct sample_delta delta;
	long reports;
	double running_sum, blocked_sum; /* for the Average block's run queue */
	long runq_reports;
};

/* The signal that asked us to stop, or 0.  Set only by the handler. */
static volatile sig_atomic_t sample_stop;

static void
sample_on_signal(int sig)
{
	sample_stop = sig;
}

/*
 * INT, TERM and HUP only set a flag, and stay blocked except while sleeping,
 * so a report is never cut in half.  SIGPIPE is ignored: a closed reader
 * shows up as EPIPE when flushing, and ends the run quietly.
 */
static void
sample_signals(sigset_t *set)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sample_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/*
 * Sleeps until an absolute CLOCK_MONOTONIC deadline, so the time spent
 * reading and printing does not push every later report back.  A pending
 * signal is delivered as soon as it is unblocked, before the sleep starts.
 */
static void
sample_sleep_until(uint64_t deadline_ns, const sigset_t *set)
{
	struct timespec ts;
	int rc;

	ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
	ts.tv_nsec = (long)(deadline_ns % 1000000000u);
	sigprocmask(SIG_UNBLOCK, set, NULL);
	while (!sample_stop) {
		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (rc != EINTR)
			break;
	}
	sigprocmask(SIG_BLOCK, set, NULL);
}

/* Local wall-clock time of day ("14:02:11"), or the date ("2026-11-29") when `day`. */
static void
sample_clock(bool day, const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;
	time_t t = ts->tv_sec;
	size_t n = 0;

	if (localtime_r(&t, &tm) != NULL)
		n = day ? strftime(buf, len, "%Y-%m-%d", &tm) : strftime(buf, len, "%H:%M:%S", &tm);
	if (n == 0)
		snprintf(buf, len, "?");
}

/* "Linux 6.1.0 (hostname) 2026-11-29 x86_64 (2 CPU)", as mpstat opens. */
static void
sample_print_host(const struct timespec *now)
{
	struct host_info h;
	char err[ST_ERRLEN], day[32];

	if (host_info_read(&h, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s sample: host name and OS unknown: %s\n", progname, err);
		return;
	}
	sample_clock(true, now, day, sizeof(day));
	printf("%s %s (%s) %s %s (%d CPU)\n", h.os_name, h.os_release, h.hostname, day, h.platform,
	       h.ncpus);
}

/* Why a row has no numbers, in words. */
static void
sample_print_flag_words(unsigned flags)
{
	if (flags & CPU_USAGE_OFFLINE)
		printf("  offline");
	if (flags & CPU_USAGE_NEW)
		printf("  new");
	if (flags & CPU_USAGE_GONE)
		printf("  gone");
	if (flags & CPU_USAGE_NO_TICKS)
		printf("  no-ticks");
}

static void
sample_print_row(const char *when, const char *cpu, const struct cpu_usage *u)
{
	int i;

	printf("%-11s %4s", when, cpu);
	if (u->flags & CPU_USAGE_NO_DATA)
		sample_print_flag_words(u->flags);
	else {
		for (i = 0; i < CPU_NSTATES; i++)
			printf("%8.2f", u->pct[i]);
		/* A clamped counter: the row is honest but worth a second look. */
		if (u->flags & CPU_USAGE_BACKWARDS)
			printf("  backwards");
	}
	putchar('\n');
}

static void
sample_print_rate(const struct sample_delta *d, enum sys_counter c, const char *label)
{
	if (d->have_rate & (1u << c))
		printf("  %s %.2f", label, d->rate[c]);
	else
		printf("  %s -", label);
}

static void
sample_print_pct(bool have, double v, const char *label)
{
	if (have)
		printf(" %s %.2f%%", label, v);
	else
		printf(" %s -", label);
}

/*
 * The system line.  runq is NULL when there is no run queue figure; syscall/s
 * is left out on systems that never count system calls (Linux).
 */
static void
sample_print_sys(const char *when, const struct sample_delta *d, const char *runq,
		 bool have_syscall)
{
	printf("%-11s %4s", when, "sys");
	sample_print_rate(d, SYS_CTXSW, "ctxsw/s");
	sample_print_rate(d, SYS_INTR, "intr/s");
	sample_print_rate(d, SYS_SOFTIRQ, "soft/s");
	if (have_syscall)
		sample_print_rate(d, SYS_SYSCALL, "syscall/s");
	sample_print_rate(d, SYS_FORK, "fork/s");
	printf("  run/blk %s", runq != NULL ? runq : "-");
	printf("  psi");
	sample_print_pct(d->flags & SYS_HAVE_PSI_SOME, d->psi_some_pct, "some");
	sample_print_pct(d->flags & SYS_HAVE_PSI_FULL, d->psi_full_pct, "full");
	putchar('\n');
}

static void
sample_print_block(const char *head, const char *when, const struct sample_delta *d,
		   const char *runq, bool have_syscall, bool all_row)
{
	char id[16];
	int i;

	printf("\n%-11s %4s", head, "CPU");
	for (i = 0; i < CPU_NSTATES; i++)
		printf("%*s%s", (int)(8 - strlen(cpu_state_names[i])), "%", cpu_state_names[i]);
	putchar('\n');
	if (all_row)
		sample_print_row(when, "all", &d->all);
	for (i = 0; i < d->ncpu; i++) {
		snprintf(id, sizeof(id), "%d", d->cpu[i].id);
		sample_print_row(when, id, &d->cpu[i]);
	}
	sample_print_sys(when, d, runq, have_syscall);
}

static void
sample_print_interval(struct sample_run *r)
{
	char head[32], when[32], runq[48];
	const struct sample_delta *d = &r->delta;

	sample_clock(false, &r->prev_wall, head, sizeof(head));
	sample_clock(false, &r->cur_wall, when, sizeof(when));
	snprintf(runq, sizeof(runq), "%u/%u", (unsigned)d->running, (unsigned)d->blocked);
	sample_print_block(head, when, d, (d->flags & SYS_HAVE_RUNQ) ? runq : NULL,
			   r->cur.sys.have & (1u << SYS_SYSCALL), !r->opts->some_cpus);
}

/* -P LIST: only the chosen CPUs' rows are kept (all, the total, stays whole). */
static void
sample_select(struct sample_run *r)
{
	struct sample_delta *d = &r->delta;
	int i, n = 0;

	if (!r->opts->some_cpus)
		return;
	for (i = 0; i < d->ncpu; i++) {
		if (cpu_list_has(&r->opts->cpus, d->cpu[i].id))
			d->cpu[n++] = d->cpu[i];
	}
	d->ncpu = n;
}

/* Like mpstat: the whole run as one interval, and the run queue averaged over reports. */
static void
sample_print_average(struct sample_run *r)
{
	char runq[64];

	if (r->reports == 0 || sample_delta_compute(&r->delta, &r->first, &r->prev) != 0)
		return;
	sample_select(r);
	if (r->runq_reports > 0)
		snprintf(runq, sizeof(runq), "%.2f/%.2f", r->running_sum / (double)r->runq_reports,
			 r->blocked_sum / (double)r->runq_reports);
	sample_print_block("Average:", "Average:", &r->delta, r->runq_reports > 0 ? runq : NULL,
			   r->prev.sys.have & (1u << SYS_SYSCALL), !r->opts->some_cpus);
}

static int
sample_emit(struct sample_run *r)
{
	struct sample_json_stamp st;

	if (!r->opts->json) {
		sample_print_interval(r);
		return 0;
	}
	st.wall = r->cur_wall;
	st.mono_ns = r->cur.mono_ns;
	st.note = r->note;
	return sample_json_write(stdout, &r->delta, &st);
}

/* 0 when written, 1 when the reader went away (quiet end), -1 on another write error. */
static int
sample_flush(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	if (errno == EPIPE)
		return 1;
	fprintf(stderr, "%s sample: cannot write standard output: %s\n", progname, strerror(errno));
	return -1;
}

static int
sample_read(struct sample_run *r, struct raw_sample *into, struct timespec *wall)
{
	char err[ST_ERRLEN];

	if (sampler_read(r->sampler, into, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s sample: %s\n", progname, err);
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, wall);
	return 0;
}

/* sample_step's result when the reader has gone away: end quietly, with status 0. */
#define SAMPLE_READER_GONE (-1)

/* One interval after the sleep: read, compute, print.  0, an exit status or SAMPLE_READER_GONE. */
static int
sample_step(struct sample_run *r)
{
	struct raw_sample tmp;
	int rc;

	if (sample_read(r, &r->cur, &r->cur_wall) != 0)
		return EXIT_RUNTIME;
	if (sample_delta_compute(&r->delta, &r->prev, &r->cur) != 0) {
		fprintf(stderr, "%s sample: cannot compute the interval: %s\n", progname,
			errno == ENOMEM ? "out of memory" : "the clock did not advance");
		return EXIT_RUNTIME;
	}
	sample_select(r);
	if (sample_emit(r) != 0 && errno != EPIPE) {
		fprintf(stderr, "%s sample: cannot write a report: %s\n", progname,
			strerror(errno));
		return EXIT_RUNTIME;
	}
	if ((rc = sample_flush()) != 0)
		return rc > 0 ? SAMPLE_READER_GONE : EXIT_RUNTIME;
	r->reports++;
	if (r->delta.flags & SYS_HAVE_RUNQ) {
		r->running_sum += r->delta.running;
		r->blocked_sum += r->delta.blocked;
		r->runq_reports++;
	}
	/* The newer sample becomes the base of the next interval; swapping keeps both arrays. */
	tmp = r->prev;
	r->prev = r->cur;
	r->cur = tmp;
	r->prev_wall = r->cur_wall;
	return 0;
}

/* The first deadline after now on the grid t0 + k * interval; missed ones are skipped. */
static uint64_t
sample_next_deadline(uint64_t t0, uint64_t interval, uint64_t *k)
{
	uint64_t now = mono_now_ns(), deadline;

	(*k)++;
	deadline = t0 + *k * interval;
	if (deadline <= now) {
		*k = (now - t0) / interval + 1;
		deadline = t0 + *k * interval;
	}
	return deadline;
}

/* -P names CPUs the machine has, as mpstat's does ("Not that many processors!"). */
static int
sample_check_cpus(const struct sample_run *r)
{
	const struct cpu_list *l = &r->opts->cpus;
	int i, k;

	for (i = 0; r->opts->some_cpus && i < l->n; i++) {
		for (k = 0; k < r->prev.ncpu && r->prev.cpu[k].id != l->id[i]; k++)
			;
		if (k == r->prev.ncpu)
			return arg_usage_error("sample",
					       "-P '%s': there is no CPU %d here (CPUs %d to %d); "
					       "give CPUs this machine has, or ALL",
					       r->opts->cpus_arg, l->id[i],
					       r->prev.ncpu > 0 ? r->prev.cpu[0].id : 0,
					       r->prev.ncpu > 0 ? r->prev.cpu[r->prev.ncpu - 1].id
								: 0);
	}
	return 0;
}

static int
sample_loop(struct sample_run *r, const sigset_t *set)
{
	uint64_t t0, k = 0;
	int rc;

	/* The first read comes before any output, so a failing source prints only its message. */
	if (sample_read(r, &r->prev, &r->prev_wall) != 0)
		return EXIT_RUNTIME;
	if ((rc = sample_check_cpus(r)) != 0)
		return rc;
	if (!r->opts->json) {
		if (raw_sample_copy(&r->first, &r->prev) != 0) {
			fprintf(stderr, "%s sample: out of memory\n", progname);
			return EXIT_RUNTIME;
		}
		if (r->note != NULL)
			fprintf(stderr, "%s sample: note: %s\n", progname, r->note);
		sample_print_host(&r->prev_wall);
		/* A reader that left before the first report ends the run as quietly as later. */
		if ((rc = sample_flush()) != 0)
			return rc > 0 ? 0 : EXIT_RUNTIME;
	}
	t0 = r->prev.mono_ns;
	while (r->opts->count == 0 || r->reports < r->opts->count) {
		sample_sleep_until(sample_next_deadline(t0, r->opts->interval_ns, &k), set);
		if (sample_stop)
			break;
		if ((rc = sample_step(r)) != 0)
			return rc == SAMPLE_READER_GONE ? 0 : rc;
	}
	if (!r->opts->json && sample_stop != SIGHUP) {
		sample_print_average(r);
		if (sample_flush() < 0)
			return EXIT_RUNTIME;
	}
	return 0;
}

static int
sample_main(const struct sample_opts *o)
{
	struct sample_run r;
	char err[ST_ERRLEN];
	sigset_t set;
	int rc;

	memset(&r, 0, sizeof(r));
	r.opts = o;
	raw_sample_init(&r.first);
	raw_sample_init(&r.prev);
	raw_sample_init(&r.cur);
	sample_delta_init(&r.delta);
	sample_signals(&set);

	if ((r.sampler = sampler_open(err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s sample: %s\n", progname, err);
		return EXIT_RUNTIME;
	}
	r.note = sampler_note(r.sampler);
	rc = sample_loop(&r, &set);
	sampler_close(r.sampler);
	sample_delta_free(&r.delta);
	raw_sample_free(&r.first);
	raw_sample_free(&r.prev);
	raw_sample_free(&r.cur);
	return rc;
}

int
cmd_sample(int argc, char **argv)
{
	struct sample_opts o;
	int rc;

	rc = sample_parse(argc, argv, &o);
	if (rc == 0)
		rc = sample_main(&o);
	else if (rc < 0)
		rc = 0; /* --help */
	sample_opts_free(&o);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What one sample costs: CPU time of sampler_read (the OS read plus decode)
 * and sample_delta_compute, averaged over many back-to-back iterations, so
 * the figure is the monitor's own overhead on the machine it watches.
 *
 * usage: sample_cost [ITERATIONS]
 *        sample_cost --peer REPS SHORT LONG -- COMMAND ... {}
 *
 * The second form is for a fair comparison with another tool (mpstat) that
 * cannot be linked: it runs COMMAND with {} replaced by SHORT and then by
 * LONG reports, REPS times each, and takes the median difference in child
 * CPU time (wait4) per extra report, which cancels the start-up cost.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scaletop/delta.h"
#include "scaletop/error.h"
#include "scaletop/platform.h"

#define COST_DEFAULT_ITERATIONS 20000
#define PEER_MAX_REPS 15

static double
cost_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double
cost_tv_us(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e6 + (double)tv->tv_usec;
}

/* sampler_read + sample_delta_compute, n times; returns CPU µs per iteration or -1. */
static double
cost_loop(struct sampler *s, struct raw_sample *a, struct raw_sample *b, struct sample_delta *d,
	  long n)
{
	char err[ST_ERRLEN];
	struct raw_sample t;
	double start = cost_cpu_us();
	long i;

	for (i = 0; i < n; i++) {
		if (sampler_read(s, b, err, sizeof(err)) != 0) {
			fprintf(stderr, "sample_cost: %s\n", err);
			return -1;
		}
		/* Two reads within one clock step would not be newer; that is not a cost. */
		if (b->mono_ns > a->mono_ns && sample_delta_compute(d, a, b) != 0) {
			perror("sample_cost: sample_delta_compute");
			return -1;
		}
		t = *a;
		*a = *b;
		*b = t;
	}
	return (cost_cpu_us() - start) / (double)n;
}

/* The delta arithmetic alone, on a fixed pair, to split the figure in two. */
static double
cost_delta_only(const struct raw_sample *a, const struct raw_sample *b, struct sample_delta *d,
		long n)
{
	double start = cost_cpu_us();
	long i;

	for (i = 0; i < n; i++)
		if (sample_delta_compute(d, a, b) != 0)
			return -1;
	return (cost_cpu_us() - start) / (double)n;
}

static int
cost_self(long n)
{
	struct raw_sample a, b;
	struct sample_delta d;
	struct sampler *s;
	char err[ST_ERRLEN];
	double per, delta_only, wall0, wall;
	int ncpu;

	err[0] = '\0';
	if ((s = sampler_open(err, sizeof(err))) == NULL) {
		fprintf(stderr, "sample_cost: %s\n", err);
		return 1;
	}
	raw_sample_init(&a);
	raw_sample_init(&b);
	sample_delta_init(&d);
	/* Warm up: buffers grown, files cached, so the loop measures the steady state. */
	if (sampler_read(s, &a, err, sizeof(err)) != 0 || cost_loop(s, &a, &b, &d, 100) < 0) {
		fprintf(stderr, "sample_cost: warm-up failed: %s\n", err);
		return 1;
	}
	ncpu = a.ncpu;
	wall0 = (double)mono_now_ns() / 1e3;
	per = cost_loop(s, &a, &b, &d, n);
	wall = ((double)mono_now_ns() / 1e3 - wall0) / (double)n;
	if (per < 0)
		return 1;
	/* a holds the newest sample; b one older, so (b, a) is a valid pair. */
	delta_only = cost_delta_only(&b, &a, &d, n);

	printf("sample_cost: %s, %d CPUs, %ld samples\n", sampler_source(s), ncpu, n);
	printf("sample_cost: read+decode+delta %.2f us CPU per sample (%.2f us wall); "
	       "delta alone %.3f us\n", per, wall, delta_only);
	sampler_close(s);
	sample_delta_free(&d);
	raw_sample_free(&a);
	raw_sample_free(&b);
	return 0;
}

/* Runs argv with every "{}" replaced by reports; child CPU µs (user+sys), or -1. */
static double
peer_run(char **argv, int argc, const char *reports)
{
	char *args[64];
	struct rusage ru;
	int i, st, fd;
	pid_t pid;

	if (argc >= 63)
		return -1;
	for (i = 0; i < argc; i++)
		args[i] = strcmp(argv[i], "{}") == 0 ? (char *)reports : argv[i];
	args[argc] = NULL;
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		/* The peer formats and writes its reports as it would to a pipe. */
		if ((fd = open("/dev/null", O_WRONLY)) != -1)
			dup2(fd, STDOUT_FILENO);
		execvp(args[0], args);
		fprintf(stderr, "sample_cost: cannot run %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return cost_tv_us(&ru.ru_utime) + cost_tv_us(&ru.ru_stime);
}

static int
cost_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
cost_peer(int reps, long lo, long hi, char **argv, int argc)
{
	double per[PEER_MAX_REPS], a, b;
	char slo[32], shi[32];
	int i;

	if (reps < 1 || reps > PEER_MAX_REPS || lo < 1 || hi <= lo || argc < 1) {
		fprintf(stderr, "sample_cost: --peer REPS(1-%d) SHORT LONG(> SHORT) -- COMMAND\n",
			PEER_MAX_REPS);
		return 2;
	}
	snprintf(slo, sizeof(slo), "%ld", lo);
	snprintf(shi, sizeof(shi), "%ld", hi);
	for (i = 0; i < reps; i++) {
		a = peer_run(argv, argc, slo);
		b = peer_run(argv, argc, shi);
		if (a < 0 || b < 0) {
			fprintf(stderr, "sample_cost: %s failed\n", argv[0]);
			return 1;
		}
		per[i] = (b - a) / (double)(hi - lo);
	}
	qsort(per, (size_t)reps, sizeof(per[0]), cost_cmp);
	printf("sample_cost: %s: %.1f us CPU per report (median of %d, min %.1f, max %.1f)\n",
	       argv[0], per[reps / 2], reps, per[0], per[reps - 1]);
	return 0;
}

int
main(int argc, char **argv)
{
	long n = COST_DEFAULT_ITERATIONS;
	char *end;

	if (argc >= 6 && strcmp(argv[1], "--peer") == 0 && strcmp(argv[5], "--") == 0)
		return cost_peer(atoi(argv[2]), atol(argv[3]), atol(argv[4]), argv + 6, argc - 6);
	if (argc == 2) {
		n = strtol(argv[1], &end, 10);
		if (*end != '\0' || n < 1) {
			fprintf(stderr, "sample_cost: iterations '%s': give a whole number >= 1\n",
				argv[1]);
			return 2;
		}
	} else if (argc > 2) {
		fprintf(stderr, "usage: sample_cost [ITERATIONS] | "
				"--peer REPS SHORT LONG -- COMMAND ... {}\n");
		return 2;
	}
	return cost_self(n);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop sample's command line: the options, and the positionals
 * INTERVAL [COUNT] as mpstat and vmstat take them; -P chooses CPUs as
 * mpstat's does, in the kernel's list syntax (decode_cpulist.c reads it).
 * Every error is one line that names the value and what to give.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sample.h"
#include "scaletop/argparse.h"

static const struct option sample_longopts[] = {
	{ "interval", required_argument, NULL, 'i' }, { "count", required_argument, NULL, 'c' },
	{ "cpus", required_argument, NULL, 'P' },     { "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },           { NULL, 0, NULL, 0 },
};

static void
sample_usage(FILE *f)
{
	fprintf(f,
		"usage: %s sample [-i SECONDS] [-c COUNT] [-P LIST|ALL] [--json]\n"
		"       %s sample [-P LIST|ALL] [--json] INTERVAL [COUNT]\n"
		"\n"
		"Per-CPU utilisation (%%usr %%nice %%sys %%irq %%soft %%iowait %%steal\n"
		"%%idle) and system rates (context switches, interrupts, forks, run queue,\n"
		"CPU pressure) every interval, like mpstat -P ALL; 'sample 1 5' as mpstat 1 5.\n"
		"\n"
		"  -i, --interval SECONDS  time between reports, %.2g to %.0f, fractions allowed\n"
		"                          (default 1; or the first argument)\n"
		"  -c, --count COUNT       stop after COUNT reports (default: until interrupted;\n"
		"                          or the second argument)\n"
		"  -P, --cpus LIST|ALL     only these CPUs' rows, as 0,2-3 (default ALL: the\n"
		"                          all row and every CPU)\n"
		"      --json              one JSON object per report, one per line (JSON Lines)\n"
		"  -h, --help              show this help\n",
		progname, progname, SAMPLE_INTERVAL_MIN, SAMPLE_INTERVAL_MAX);
}

/* Usage errors: one line naming what was wrong and what to do, exit 2. */
#define sample_bad(...) arg_usage_error("sample", __VA_ARGS__)

static int
sample_parse_interval(const char *opt, const char *arg, struct sample_opts *o)
{
	double v;
	int rc =
		arg_parse_seconds("sample", opt, arg, SAMPLE_INTERVAL_MIN, SAMPLE_INTERVAL_MAX, &v);

	if (rc == 0)
		o->interval_ns = (uint64_t)llround(v * 1e9);
	return rc;
}

static int
sample_parse_count(const char *opt, const char *arg, struct sample_opts *o)
{
	return arg_parse_int("sample", opt, arg, 1, LONG_MAX, &o->count);
}

/* -P: ALL, or ids and ranges ascending ("0,2-3"), the kernel's list syntax. */
static int
sample_parse_cpus(const char *arg, struct sample_opts *o)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s\n", arg);

	o->cpus_arg = arg;
	if (strcmp(arg, "ALL") == 0 || strcmp(arg, "all") == 0) {
		o->some_cpus = false;
		return 0;
	}
	o->some_cpus = true;
	if (n <= 1 || (size_t)n >= sizeof(buf) || strchr(arg, '\n') != NULL ||
	    cpulist_decode(buf, (size_t)n, &o->cpus) != 0 || o->cpus.n == 0)
		return sample_bad("-P '%s': not a CPU list; give ids and ranges in ascending "
				  "order, as 0,2-3, or ALL",
				  arg);
	return 0;
}

/* INTERVAL [COUNT] after the options, as mpstat 1 5; each at most once, -i or not. */
static int
sample_positionals(int argc, char **argv, struct sample_opts *o, bool have_i, bool have_c)
{
	int rc;

	if (optind >= argc)
		return 0;
	if (have_i)
		return sample_bad("'%s': the interval is already given with -i; give it once",
				  argv[optind]);
	if ((rc = sample_parse_interval("INTERVAL", argv[optind], o)) != 0)
		return rc;
	if (++optind >= argc)
		return 0;
	if (have_c)
		return sample_bad("'%s': the count is already given with -c; give it once",
				  argv[optind]);
	if ((rc = sample_parse_count("COUNT", argv[optind], o)) != 0)
		return rc;
	if (++optind < argc)
		return sample_bad("unexpected argument '%s': give at most INTERVAL and COUNT",
				  argv[optind]);
	return 0;
}

/*
 * The option as the user typed it.  getopt leaves optopt 0 for an unknown
 * long option, and the long-only --json's value for "--json=x"; both are
 * whole words in argv.  A short option may sit inside a cluster ("-xq"),
 * where only optopt names it.
 */
static const char *
sample_typed_option(char **argv, char *buf, size_t len)
{
	if (optopt != 0 && optopt != 'j') {
		snprintf(buf, len, "-%c", optopt);
		return buf;
	}
	return argv[optind - 1];
}

void
sample_opts_free(struct sample_opts *o)
{
	cpu_list_free(&o->cpus);
}

int
sample_parse(int argc, char **argv, struct sample_opts *o)
{
	bool have_i = false, have_c = false;
	char opt[8];
	int ch, rc;

	memset(o, 0, sizeof(*o));
	o->interval_ns = 1000000000u;
	cpu_list_init(&o->cpus);
	opterr = 0; /* our messages name the value and the fix */
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":i:c:P:h", sample_longopts, NULL)) != -1) {
		rc = 0;
		switch (ch) {
		case 'i':
			rc = sample_parse_interval("-i", optarg, o);
			have_i = true;
			break;
		case 'c':
			rc = sample_parse_count("-c", optarg, o);
			have_c = true;
			break;
		case 'P':
			rc = sample_parse_cpus(optarg, o);
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			sample_usage(stdout);
			return -1;
		case ':':
			/* A missing value can only be at the end: the last word is the option. */
			return sample_bad("option '%s' needs a value: run 'scaletop sample --help'",
					  argv[optind - 1]);
		default:
			if (optopt == 'j')
				return sample_bad("option '%s' takes no value: write just --json",
						  argv[optind - 1]);
			return sample_bad("unknown option '%s': run 'scaletop sample --help'",
					  sample_typed_option(argv, opt, sizeof(opt)));
		}
		if (rc != 0)
			return rc;
	}
	return sample_positionals(argc, argv, o, have_i, have_c);
}

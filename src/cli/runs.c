/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scaletop runs: the sweeps the TUI kept (store/runs.c), newest first, with
 * the columns of the TUI's history view (what ran: the workload with its
 * parameters or command, and a label given); --prune DAYS removes the old
 * ones.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "scaletop/runs.h"

#define CMD "runs"
#define RUNS_DAYS_MAX 36500 /* a hundred years: anything more is a typo */
#define RUNS_WHAT_MAX 60    /* the workload column's widest: its parameters cut past it */
#define RUNS_WHAT_MIN 16    /* ... and its narrowest on a terminal: "mutex hold=30..." */
/* The other columns on a row ("when  ", host, N, steps) and 24 of the verdict. */
#define RUNS_FIXED_W (16 + 2 + 1 + 14 + 1 + 9 + 1 + 5 + 2 + 24)

static void
runs_usage(FILE *f)
{
	fprintf(f,
		"usage: %s runs                 list the kept runs, newest first\n"
		"       %s runs --prune DAYS    remove the runs kept more than DAYS days ago\n\n"
		"The TUI keeps every sweep it runs (finished or stopped, with a finished\n"
		"step) as a snapshot in $XDG_DATA_HOME/scaletop/runs (default\n"
		"~/.local/share/scaletop/runs); 'autosave = off' in the config or\n"
		"--no-autosave stops it.  '%s show FILE' prints one; in the TUI, R lists them.\n",
		progname, progname, progname);
}

/* The terminal's width when standard output is one; 0 (no limit) for a pipe or a file. */
static int
runs_term_width(void)
{
	struct progress p;

	if (!isatty(STDOUT_FILENO))
		return 0;
	memset(&p, 0, sizeof(p));
	p.fd = STDOUT_FILENO;
	return progress_width(&p);
}

/*
 * The workload column: as wide as its longest row, up to RUNS_WHAT_MAX and
 * on a terminal to what the other columns leave of its width, never under
 * RUNS_WHAT_MIN (longer rows have their parameters cut).
 */
static int
runs_what_width(struct run_list *l)
{
	char what[1024];
	int i, w = (int)strlen("workload"), cols = runs_term_width(), cap = RUNS_WHAT_MAX;

	if (cols > 0 && cols - RUNS_FIXED_W < cap)
		cap = cols - RUNS_FIXED_W < RUNS_WHAT_MIN ? RUNS_WHAT_MIN : cols - RUNS_FIXED_W;

	for (i = 0; i < l->n; i++) {
		runs_entry_load(&l->v[i]);
		if (l->v[i].err[0] != '\0')
			continue;
		runs_entry_what(&l->v[i], 0, what, sizeof(what));
		if ((int)strlen(what) > w)
			w = (int)strlen(what);
	}
	return w < cap ? w : cap;
}

static void
runs_print_row(const struct run_entry *e, int ww)
{
	char when[32], nr[32], what[1024];
	struct tm tm;

	localtime_r(&e->mtime, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	if (e->err[0] != '\0') {
		printf("%-16s  cannot read it: %s\n", when, e->err);
		return;
	}
	runs_entry_nrange(e, nr, sizeof(nr));
	runs_entry_what(e, ww, what, sizeof(what));
	printf("%-16s  %-*s %-14s %-9s %5d  %s%s\n  %s\n", when, ww, what, e->host, nr, e->nsteps,
	       e->interrupted ? "(stopped) " : "", e->verdict, e->path);
	if (e->repair[0] != '\0')
		printf("  warning: %s\n", e->repair);
}

static int
runs_print(const char *dir)
{
	struct run_list l;
	char err[ST_ERRLEN];
	int i, ww;

	if (runs_list(dir, &l, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		return EXIT_RUNTIME;
	}
	if (l.n == 0) {
		printf("no kept runs in %s: the TUI keeps each sweep there when it ends\n", dir);
		return 0;
	}
	printf("%d kept run%s in %s, newest first\n", l.n, l.n == 1 ? "" : "s", dir);
	ww = runs_what_width(&l);
	printf("%-16s  %-*s %-14s %-9s %5s  %s\n", "kept", ww, "workload", "host", "N", "steps",
	       "verdict, then the file");
	for (i = 0; i < l.n; i++)
		runs_print_row(&l.v[i], ww);
	runs_list_free(&l);
	return fflush(stdout) == 0 ? 0 : EXIT_RUNTIME;
}

static int
runs_prune_old(const char *dir, const char *arg)
{
	char err[ST_ERRLEN];
	long days;
	int removed, rc;

	if ((rc = arg_parse_int(CMD, "--prune", arg, 0, RUNS_DAYS_MAX, &days)) != 0)
		return rc;
	if (runs_prune(dir, (double)days, time(NULL), &removed, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s (%d removed before it)\n", progname, CMD, err, removed);
		return EXIT_RUNTIME;
	}
	printf("removed %d run%s kept more than %ld day%s ago from %s\n", removed,
	       removed == 1 ? "" : "s", days, days == 1 ? "" : "s", dir);
	return 0;
}

int
cmd_runs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "prune", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prune = NULL;
	char dir[PATH_MAX], err[ST_ERRLEN];
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			runs_usage(stdout);
			return 0;
		}
		if (opt == 'p') {
			prune = optarg;
			continue;
		}
		if (optopt == 'p')
			return arg_usage_error(CMD, "--prune needs DAYS: %s runs --prune 30",
					       progname);
		return arg_usage_error(CMD, "unknown option '%s': see '%s runs --help'",
				       argv[optind - 1], progname);
	}
	if (optind != argc)
		return arg_usage_error(CMD, "unexpected argument '%s': see '%s runs --help'",
				       argv[optind], progname);
	if (runs_dir(dir, sizeof(dir), err, sizeof(err)) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, CMD, err);
		return EXIT_RUNTIME;
	}
	return prune != NULL ? runs_prune_old(dir, prune) : runs_print(dir);
}

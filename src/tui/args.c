/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The TUI's command lines: `scaletop [run options]`, `scaletop tui`,
 * `scaletop --compare A.json B.json`, `scaletop replay FILE.jsonl` and
 * `scaletop view -`.  Run-style options are parsed by run_args.c, so they
 * mean exactly what they mean to `scaletop run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaletop/argparse.h"
#include "scaletop/error.h"
#include "scaletop/run_args.h"
#include "scaletop/stream.h"
#include "scaletop/tui.h"
#include "scaletop/workload.h"
#include "prefs.h"
#include "theme.h"

#define CMD "tui"

enum {
	OPT_REFRESH = RUN_OPT_EXT,
	OPT_ASCII,
	OPT_MONITOR,
	OPT_FAKE,
	OPT_THEME,
	OPT_COMPARE,
	OPT_NO_AUTOSAVE
};

static const struct option tui_longopts[] = {
	{ "refresh", required_argument, NULL, OPT_REFRESH },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "monitor", no_argument, NULL, OPT_MONITOR },
	{ "fake-cpus", required_argument, NULL, OPT_FAKE }, /* test hook, see docs/tui.md */
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "no-autosave", no_argument, NULL, OPT_NO_AUTOSAVE },
	{ NULL, 0, NULL, 0 },
};

static void
tui_usage(FILE *f, const struct run_args *d)
{
	fprintf(f,
		"usage: %s [options]                 the interactive monitor: sweeps straight "
		"away\n"
		"       %s --compare A.json [B.json ...]   open with snapshots overlaid\n"
		"       %s replay FILE.jsonl          a recorded run, with the same screens\n"
		"       %s view -                     a run streamed on standard input\n"
		"       %s COMMAND ...                see '%s --help'\n\n"
		"Sweep options (as for '%s run'):\n",
		progname, progname, progname, progname, progname, progname, progname);
	run_usage_options(f, d);
	fprintf(f,
		"\nScreen options:\n"
		"      --refresh S        redraw every S seconds (default 1; d changes it)\n"
		"      --theme NAME       colour theme (t cycles them)\n"
		"      --ascii            plain ASCII: no braille or block glyphs\n"
		"      --monitor          start without a sweep (r starts one)\n"
		"      --no-autosave      keep no sweep in the runs directory ('%s runs')\n"
		"\nKeeping it:\n"
		"  -o, --output FILE      save the sweep as a snapshot when the TUI ends\n"
		"      --record FILE      record the sweep as JSON Lines for 'replay' and 'show'\n"
		"                         (W starts and stops a recording in the TUI)\n"
		"      --force            let -o and --record replace an existing file\n"
		"Keys: ? or F1 in the TUI.  No terminal? '%s run' prints the same results.\n",
		progname, progname);
}

static int
tui_parse_fake(const char *arg, struct tui_opts *o)
{
	long n;
	int rc = arg_parse_int(CMD, "--fake-cpus", arg, 1, 65536, &n);

	o->fake_cpus = (int)n;
	o->monitor = true;
	return rc;
}

/* --compare takes every file name that follows it. */
static int
tui_parse_compare(int argc, char **argv, struct tui_opts *o)
{
	o->overlay[o->noverlay++] = optarg;
	while (optind < argc && argv[optind][0] != '-' && o->noverlay < TUI_MAX_OVERLAYS - 1)
		o->overlay[o->noverlay++] = argv[optind++];
	o->monitor = true;
	return 0;
}

static int
tui_parse_opt(int opt, int argc, char **argv, void *arg)
{
	struct tui_opts *o = arg;

	switch (opt) {
	case OPT_REFRESH:
		return arg_parse_seconds(CMD, "--refresh", optarg, 0.05, 60, &o->refresh_s);
	case OPT_ASCII:
		o->ascii = true;
		return 0;
	case OPT_MONITOR:
		o->monitor = true;
		return 0;
	case OPT_NO_AUTOSAVE:
		o->no_autosave = true;
		return 0;
	case OPT_FAKE:
		return tui_parse_fake(optarg, o);
	case OPT_THEME:
		/* Only a name no theme could have is refused; a missing theme falls back. */
		if (!theme_name_valid(optarg))
			return arg_usage_error(CMD,
					       "--theme '%.64s': not a theme name; give a name "
					       "like 'light' (T in the TUI lists them) or a path "
					       "to a .theme file",
					       optarg);
		o->theme = optarg;
		return 0;
	case OPT_COMPARE:
		if (o->noverlay >= TUI_MAX_OVERLAYS - 1)
			return arg_usage_error(CMD, "--compare: %d snapshots at most",
					       TUI_MAX_OVERLAYS - 1);
		return tui_parse_compare(argc, argv, o);
	default:
		return arg_usage_error(CMD, "unknown option");
	}
}

int
tui_check_terminal(bool input_is_data, char *err, size_t errlen)
{
	const char *term = getenv("TERM");

	if (!isatty(STDOUT_FILENO) || (!input_is_data && !isatty(STDIN_FILENO)))
		return st_error(err, errlen,
				"the interactive monitor needs a terminal on standard "
				"input and output; for a headless sweep use '%s run'",
				progname);
	if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
		return st_error(err, errlen,
				"TERM=%s cannot draw the interactive monitor: set TERM "
				"(e.g. xterm-256color), or use '%s run' for plain output",
				term != NULL && term[0] ? term : "(unset)", progname);
	return 0;
}

/*
 * The TUI's defaults, and why: a ticket spinlock shows within seconds the
 * thing scaletop is for.  It scales while N <= CPUs, and collapses once
 * waiters outnumber CPUs (a preempted waiter holds up the FIFO queue), and
 * the default N list (-n topo: the machine's boundaries and the powers of
 * two up to 4 x CPUs) crosses that line on any machine.  1.5 s steps after
 * 0.5 s of warm-up keep 1024 CPUs (13 steps) near 30 s.
 */
static void
tui_defaults(struct run_args *a, struct tui_opts *o, struct prefs *p)
{
	static char warn[ST_ERRLEN]; /* shown on the TUI's message line */

	run_args_defaults(a, CMD);
	a->default_workload = "spinlock";
	a->duration = 1.5;
	a->warmup = 0.5;
	memset(o, 0, sizeof(*o));
	if (prefs_load(p, warn, sizeof(warn)) != 0 && warn[0] != '\0')
		o->warn = warn;
	if (p->workload[0] != '\0' && workload_find(p->workload) != NULL)
		a->default_workload = p->workload;
}

int
cmd_tui(int argc, char **argv)
{
	static struct prefs p; /* default_workload may point into it */
	struct run_args a;
	struct tui_opts o;
	struct run_opt_ext ext = { tui_longopts, tui_parse_opt, tui_usage, &o };
	char err[ST_ERRLEN];
	int rc;

	tui_defaults(&a, &o, &p);
	rc = run_args_parse(argc, argv, &a, &ext);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (a.view.json || a.view.quiet)
		return arg_usage_error(CMD, "--json and --quiet are for '%s run'", progname);
	/* What the sweep will refuse, refused here: once the screen is open it is not seen. */
	if ((rc = run_args_try(&a)) != 0)
		return rc;
	if (tui_check_terminal(false, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return EXIT_RUNTIME;
	}
	if (o.theme == NULL && p.theme[0] != '\0')
		o.theme = p.theme;
	if (o.refresh_s == 0 && p.interval_s >= 0.05)
		o.refresh_s = p.interval_s;
	if (!p.autosave)
		o.no_autosave = true;
	return tui_main(&a, &o);
}

/*
 * The recording, read whole before the screen starts: a file that is missing
 * or not a stream is a one-line error, and standard input (a pipe cannot be
 * read twice) is read to its end.  The reader bounds what it keeps
 * (docs/stream-format.md), so a huge stream costs bounded memory.  NULL
 * after the message.
 */
static struct stream_reader *
tui_load_stream(const char *cmd, const char *path)
{
	bool std = strcmp(path, "-") == 0;
	struct stream_reader *r = stream_reader_new(std ? "standard input" : path);

	if (r == NULL) {
		fprintf(stderr, "%s %s: out of memory\n", progname, cmd);
		return NULL;
	}
	if (std && isatty(STDERR_FILENO))
		fprintf(stderr,
			"%s %s: reading the recording on standard input to its end ('%s view "
			"-' follows a run as it goes)\n",
			progname, cmd, progname);
	if (stream_reader_load(r, path) != 0) {
		fprintf(stderr, "%s %s: %s\n", progname, cmd, stream_reader_error(r));
		stream_reader_free(r);
		return NULL;
	}
	return r;
}

static int
tui_replay_usage(const char *cmd, int argc, char **argv, bool want_stdin)
{
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		if (want_stdin)
			printf("usage: %s view -             follow a run streamed on standard "
			       "input\n",
			       progname);
		else
			printf("usage: %s replay FILE.jsonl  a recording, played from the start\n"
			       "       %s replay -          one read whole from standard input\n",
			       progname, progname);
		return -1;
	}
	if (argc != 2 || (want_stdin && strcmp(argv[1], "-") != 0))
		return arg_usage_error(
			cmd, "give %s",
			want_stdin ? "'-' (the stream on standard "
				     "input)"
				   : "one FILE.jsonl recorded by 'scaletop run --record' (or -)");
	return 0;
}

/* replay FILE.jsonl, replay -, view -: the same screens over a recorded run. */
static int
tui_replay(const char *cmd, int argc, char **argv, bool want_stdin)
{
	struct run_args a;
	struct tui_opts o;
	struct prefs p;
	char err[ST_ERRLEN];
	bool std;
	int rc = tui_replay_usage(cmd, argc, argv, want_stdin);

	if (rc != 0)
		return rc < 0 ? 0 : rc;
	tui_defaults(&a, &o, &p);
	std = strcmp(argv[1], "-") == 0;
	/* A pipe is read only once there is a screen to show it on. */
	if (std && tui_check_terminal(true, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return EXIT_RUNTIME;
	}
	if (!want_stdin && (o.replay_stream = tui_load_stream(cmd, argv[1])) == NULL)
		return EXIT_RUNTIME;
	if (!std && tui_check_terminal(false, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", progname, err);
		rc = EXIT_RUNTIME;
	} else {
		o.replay = argv[1];
		o.theme = p.theme[0] != '\0' ? p.theme : NULL;
		rc = tui_main(&a, &o);
	}
	stream_reader_free(o.replay_stream);
	return rc;
}

int
cmd_replay(int argc, char **argv)
{
	return tui_replay("replay", argc, argv, false);
}

int
cmd_view(int argc, char **argv)
{
	return tui_replay("view", argc, argv, true);
}

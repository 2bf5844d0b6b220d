/* SPDX-License-Identifier: BSD-2-Clause */
/* The run-style option parser that `scaletop run` and the TUI share (src/engine/run_args.c,
 * run_apply.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaletop/argparse.h"
#include "scaletop/run_args.h"
#include "../tap.h"

#define NARGS(v) ((int)(sizeof(v) / sizeof((v)[0])) - 1)

static int ext_seen;

static int
ext_parse(int opt, int argc, char **argv, void *arg)
{
	ext_seen = opt;
	*(const char **)arg = optarg;
	return 0;
}

static void
test_builtin(void)
{
	char *argv[] = { "run", "-w",       "cpu", "-n",       "1,2,4", "-d",
			 "0.5", "--warmup", "0",   "--repeat", "2",     NULL };
	struct run_args a;
	struct session s;
	struct sweep_config cfg;

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(argv), argv, &a, NULL), 0,
	       "a built-in workload's options parse");
	ok(a.duration == 0.5 && a.duration_set && a.warmup == 0 && a.repeat == 2,
	   "-d, --warmup and --repeat are kept");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "and apply");
	is_int(s.set.nn, 3, "three N");
	ok(s.set.nn == 3 && s.set.n[0] == 1 && s.set.n[2] == 4, "1, 2, 4");
	is_str(s.wl.name, "cpu", "the workload is named");
	ok(cfg.wl != NULL && cfg.cmd == NULL, "the config runs a built-in workload");
	is_str(s.wl.n_unit, "threads", "N counts threads");
	run_config_free(&cfg);
	session_free(&s);
}

/* --trials, in run and the TUI alike: the settings, the plan's length, the range. */
static void
test_trials(void)
{
	char *argv[] = {
		"tui", "-w", "cpu", "-n", "1,2,4", "--trials", "3", "--repeat", "2", NULL
	};
	char *zero[] = { "run", "--trials", "0", NULL };
	char *many[] = { "run", "--trials", "101", NULL };
	struct run_args a;
	struct session s;
	struct sweep_config cfg;

	run_args_defaults(&a, "tui");
	is_int(a.trials, 1, "one trial by default");
	is_int(run_args_parse(NARGS(argv), argv, &a, NULL), 0, "the TUI takes --trials 3");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "  and applies it");
	ok(s.set.trials == 3 && s.set.repeat == 2, "  3 trials of 2 repeats");
	is_int(session_plan_len(&s.set), 18, "  18 steps in the plan");
	run_config_free(&cfg);
	session_free(&s);
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(zero), zero, &a, NULL), EXIT_USAGE, "--trials 0 is refused");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(many), many, &a, NULL), EXIT_USAGE, "so is --trials 101");
}

static void
test_external(void)
{
	char *argv[] = { "run",     "--cmd", "sh -c 'exit 0'", "--parse",
			 "elapsed", "--ops", "512:MiB",        NULL };
	struct run_args a;
	struct session s;
	struct sweep_config cfg;

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(argv), argv, &a, NULL), 0, "--cmd with --parse elapsed parses");
	ok(run_args_elapsed(&a), "run_args_elapsed");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "and applies");
	is_str(s.wl.name, "external", "an external workload");
	is_str(s.wl.unit, "MiB", "--ops sets the unit");
	ok(cfg.elapsed_ops == 512 && cfg.cmd != NULL && strcmp(cfg.cmd[0], "sh") == 0 &&
		   strcmp(cfg.cmd[2], "exit 0") == 0,
	   "K = 512 and the command split without a shell");
	run_config_free(&cfg);
	session_free(&s);
}

static void
test_refused(void)
{
	char *unknown[] = { "run", "--no-such", NULL };
	char *noparse[] = { "run", "--cmd", "true", NULL };
	char *both[] = { "run", "-w", "cpu", "--cmd", "true", "--parse", "sysbench", NULL };
	char *extra[] = { "run", "word", NULL };
	char *tui_keep[] = { "tui", "-o", "never-written.json", "--record", "never-written.jsonl",
			     NULL };
	char *tui_rec[] = { "tui", "--record", "-", NULL };
	struct run_args a;

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(unknown), unknown, &a, NULL), EXIT_USAGE, "an unknown option");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(noparse), noparse, &a, NULL), EXIT_USAGE,
	       "--cmd without --parse");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(both), both, &a, NULL), EXIT_USAGE, "-w and --cmd");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(extra), extra, &a, NULL), EXIT_USAGE,
	       "a word that is no option");
	run_args_defaults(&a, "tui");
	is_int(run_args_parse(NARGS(tui_keep), tui_keep, &a, NULL), 0,
	       "the TUI takes -o FILE and --record FILE");
	ok(a.output != NULL && a.view.record != NULL &&
		   strcmp(a.view.record, "never-written.jsonl") == 0,
	   "  and keeps both");
	run_args_defaults(&a, "tui");
	is_int(run_args_parse(NARGS(tui_rec), tui_rec, &a, NULL), EXIT_USAGE,
	       "but not --record -: its screen is standard output");
}

static void
test_probe(void)
{
	char *argv[] = { "run",
			 "-w",
			 "cpu",
			 "--probe",
			 "printf 'a\\nb\\n'",
			 "--probe",
			 "psql -Atc \"select 1\"",
			 NULL };
	char *five[] = { "run", "--probe", "a", "--probe", "b", "--probe",
			 "c",   "--probe", "d", "--probe", "e", NULL };
	char *quote[] = { "run", "--probe", "psql -c 'select", NULL };
	char *empty[] = { "run", "--probe", "", NULL };
	char *lng[] = { "run", "--probe", NULL, NULL };
	char big[300];
	struct run_args a;
	struct session s;
	struct sweep_config cfg;

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(argv), argv, &a, NULL), 0, "--probe twice parses");
	is_int(a.nprobes, 2, "both are kept");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "and applies");
	is_int(s.set.nprobes, 2, "into the settings");
	is_str(s.set.probe[1], "psql -Atc \"select 1\"", "as given, split again when they run");
	run_config_free(&cfg);
	session_free(&s);

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(five), five, &a, NULL), EXIT_USAGE,
	       "more than SESSION_MAX_PROBES probes are refused");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(quote), quote, &a, NULL), 0,
	       "an unterminated quote parses ...");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), EXIT_USAGE, "... but is refused before the sweep");
	run_config_free(&cfg);
	session_free(&s);
	run_args_defaults(&a, "run");
	run_args_parse(NARGS(empty), empty, &a, NULL);
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), EXIT_USAGE, "an empty probe is refused");
	run_config_free(&cfg);
	session_free(&s);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	lng[2] = big;
	run_args_defaults(&a, "run");
	run_args_parse(NARGS(lng), lng, &a, NULL);
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), EXIT_USAGE,
	       "a probe too long for its field is refused");
	run_config_free(&cfg);
	session_free(&s);
}

static void
test_ext(void)
{
	static const struct option longopts[] = {
		{ "refresh", required_argument, NULL, RUN_OPT_EXT }, { NULL, 0, NULL, 0 }
	};
	char *argv[] = { "tui", "-w", "mutex", "--refresh", "0.5", NULL };
	const char *value = NULL;
	struct run_opt_ext ext = { longopts, ext_parse, NULL, &value };
	struct run_args a;

	run_args_defaults(&a, "tui");
	is_int(run_args_parse(NARGS(argv), argv, &a, &ext), 0,
	       "a caller's option in the same pass");
	ok(ext_seen == RUN_OPT_EXT && value != NULL && strcmp(value, "0.5") == 0,
	   "... reaches the caller's parser with its value");
	is_str(a.workload, "mutex", "and the shared ones still parse");
}

/* --wait-quiet: off unless given, 60 s without a value, its value with one, and 0 refused. */
static void
test_wait_quiet(void)
{
	char *plain[] = { "run", "-w", "cpu", NULL };
	char *bare[] = { "run", "-w", "cpu", "--wait-quiet", NULL };
	char *five[] = { "tui", "-w", "cpu", "--wait-quiet=5", NULL };
	char *zero[] = { "run", "--wait-quiet=0", NULL };
	struct run_args a;
	struct session s;
	struct sweep_config cfg;

	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(plain), plain, &a, NULL), 0, "without --wait-quiet");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "  it applies");
	ok(cfg.quiet_check && cfg.wait_quiet_s == 0,
	   "  the quiet check runs, and waits for nothing");
	run_config_free(&cfg);
	session_free(&s);
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(bare), bare, &a, NULL), 0, "--wait-quiet alone");
	session_init(&s);
	is_int(run_args_apply(&a, &s, &cfg), 0, "  applies");
	ok(cfg.quiet_check && cfg.wait_quiet_s == 60, "  and waits up to 60 s");
	run_config_free(&cfg);
	session_free(&s);
	run_args_defaults(&a, "tui");
	is_int(run_args_parse(NARGS(five), five, &a, NULL), 0, "the TUI takes --wait-quiet=5");
	ok(a.wait_quiet == 5, "  and waits up to 5 s");
	run_args_defaults(&a, "run");
	is_int(run_args_parse(NARGS(zero), zero, &a, NULL), EXIT_USAGE,
	       "--wait-quiet=0 is refused");
}

int
main(void)
{
	if (freopen("/dev/null", "w", stderr) == NULL)
		return 1;
	test_builtin();
	test_trials();
	test_external();
	test_refused();
	test_probe();
	test_ext();
	test_wait_quiet();
	return done_testing();
}

# SPDX-License-Identifier: BSD-2-Clause
# C unit tests, one program per module.
UNIT_TESTS += tests/unit/test_decode_linux tests/unit/test_task_cpu tests/unit/test_decode_bsd \
	tests/unit/test_delta tests/unit/test_sampler_live tests/unit/test_host \
	tests/unit/test_model tests/unit/test_cmdline

check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# Shell tests drive the real binary.
SHELL_TESTS = tests/cli/bootstrap.sh tests/cli/sample.sh tests/cli/run.sh

TESTS += $(SHELL_TESTS)
EXTRA_DIST += $(SHELL_TESTS) tests/cli/lib.sh

# Usage errors over every subcommand (one line, one prefix) and each one's -h and --help.
TESTS += tests/cli/usage.sh
EXTRA_DIST += tests/cli/usage.sh

# On-CPU call paths through the real binary: fdtable's spin in the fd table's lock.
TESTS += tests/cli/hot.sh
EXTRA_DIST += tests/cli/hot.sh
TESTS += tests/cli/locks.sh
EXTRA_DIST += tests/cli/locks.sh
# The blocked threads' kernel stacks: a futex frame under mutex, none as nobody, --no-locks.
TESTS += tests/cli/kstacks.sh
EXTRA_DIST += tests/cli/kstacks.sh

# --probe through the real binary (database-level waits).
TESTS += tests/cli/probe.sh
EXTRA_DIST += tests/cli/probe.sh

# Snapshots: round trip, loader refusals, atomic writes, import.
UNIT_TESTS += tests/unit/test_snapshot
TESTS += tests/cli/snapshot.sh
EXTRA_DIST += tests/cli/snapshot.sh
# Recordings where snapshots go: show, compare, export, show --save; the TUI's -o and --record.
TESTS += tests/cli/recording.sh
EXTRA_DIST += tests/cli/recording.sh

# Import of published tables (one snapshot per column) and export's overlays.
UNIT_TESTS += tests/unit/test_import
TESTS += tests/cli/import.sh tests/cli/export.sh
EXTRA_DIST += tests/cli/import.sh tests/cli/export.sh

# The host's fingerprint end to end: run -o, show, compare's warnings.
TESTS += tests/cli/host.sh
EXTRA_DIST += tests/cli/host.sh

# list topo on this machine, on recorded and generated trees and on FreeBSD's spec.
TESTS += tests/cli/topology.sh
EXTRA_DIST += tests/cli/topology.sh tests/fixtures/topology

# compare's statistics: noise, Welch's t, the gate, CSV and Markdown read back.
TESTS += tests/cli/compare.sh
EXTRA_DIST += tests/cli/compare.sh
TESTS += tests/cli/compare_log.sh
EXTRA_DIST += tests/cli/compare_log.sh
# compare's locks: section and Markdown table, on hand-written censuses.
TESTS += tests/cli/compare_locks.sh
EXTRA_DIST += tests/cli/compare_locks.sh

# Output a tool can read: one CSV table per output, gnuplot's labels and frame, the figures
# (imported sds, waits, targets, USL's se, fairness) in show, compare, export and streams.
TESTS += tests/cli/output.sh
EXTRA_DIST += tests/cli/output.sh

# /proc/lock_stat decoding and snapshot deltas.
UNIT_TESTS += tests/unit/test_lockstat

# Every user frame and lock named, whatever started the program: C programs the test builds
# (hot functions; global locks in PIE, non-PIE and stripped builds with debug files, and a
# shared library's), run as --cmd and watched as --target.
TESTS += tests/cli/names.sh
EXTRA_DIST += tests/cli/names.sh
# The lock census's owner, a shared-memory lock's name and an idle condvar pool, on a C
# program the test builds, run as --cmd and as --target.
TESTS += tests/cli/owner.sh
EXTRA_DIST += tests/cli/owner.sh
# Locks shared by processes (shm_open, MAP_SHARED|MAP_ANONYMOUS) are one lock whichever
# process waits, and each process's private lock its own, on a C program the test builds,
# run as --cmd and watched as --target comm:NAME.
TESTS += tests/cli/shmlock.sh
EXTRA_DIST += tests/cli/shmlock.sh
# Whole stacks for flame graphs: the namer's -2 and -1, merges, the cap and [other],
# counts that add up (hotstacks.c, kstack_tally_stacks).
UNIT_TESTS += tests/unit/test_hotstacks

# export --folded end to end: lines, sums against the JSON, -n, -o, older and edited files,
# refusals, --off-cpu's futex stacks.
TESTS += tests/cli/folded.sh
EXTRA_DIST += tests/cli/folded.sh

# Whole stacks through a snapshot and a stream: frame for frame, the line's budget, refusals.
UNIT_TESTS += tests/unit/test_stacks_json
tests_unit_test_stacks_json_SOURCES = tests/unit/test_stacks_json.c $(JSON_STEPS_SOURCES)

# The verdict's one headline on a table of shapes (a peak at 1, at the end, linear, sub-linear,
# super-linear, a dip, a noisy peak, flat then a fall, a starved N=1, a busy machine): the exact
# sentence each gets, and the collapse judged against the best lower bound, not the peak's mean.
UNIT_TESTS += tests/unit/test_verdict_shapes

# A server is not a busy machine: a table of sessions (a server rising with N, a flat bystander,
# one starting mid-sweep, one step, trials, --target, the quiet check's veto, a collapse).
UNIT_TESTS += tests/unit/test_serving

# compare's load line naming who took the CPUs, from sides built in C.
UNIT_TESTS += tests/unit/test_compare_load

# Who else was on the CPUs: the book over synthetic scans (reused and exited pids, own and
# measured processes, groups), a stat line, a live scan (others.c, proc_cpu_read).
UNIT_TESTS += tests/unit/test_others

# Who else was on the CPUs and the quiet check, end to end: a CPU loop the test builds and
# starts beside run (steps[].others, the quiet check's warning, --wait-quiet), the stream,
# show, refusals and the schema.
TESTS += tests/cli/others.sh
EXTRA_DIST += tests/cli/others.sh

# export --gnuplot's axes and words: integer and log2 x tics, the log y axis and its options,
# peak labels inside the frame, the warning and curve titles for mixed workloads, gnuplot quiet.
TESTS += tests/cli/export_axes.sh
EXTRA_DIST += tests/cli/export_axes.sh

# A step whose CI is wider than a quarter of its mean is noisy: show's table, the verdict's
# confidence, the snapshot's mark and compare's labels, from imported tables.
TESTS += tests/cli/noisy.sh
EXTRA_DIST += tests/cli/noisy.sh

# A noisy step: 30% of the mean noisy, 20% and exactly 25% ok, the verdict's low confidence.
UNIT_TESTS += tests/unit/test_step_status

# The TUI's steps view, step detail and verdict line say "noisy" (a replayed stream).
TESTS += tests/tui/noisy.sh
EXTRA_DIST += tests/tui/noisy.sh

# Every command's output paths checked before its work (compare, show, import, export): one
# line with the failing create's reason, nothing on standard output, no file made.
TESTS += tests/cli/outpaths.sh
EXTRA_DIST += tests/cli/outpaths.sh

# The runs list (scaletop runs, the TUI's R) says what ran: parameters, command, label.
TESTS += tests/tui/runs_params.sh
EXTRA_DIST += tests/tui/runs_params.sh

# The collector table (measures.h): keys named and unique, the frequency range's section
# written and read back, a step with an unknown section loads, its report lines; and the
# range live, in a short run's snapshot and show.
check_PROGRAMS += tests/unit/test_collectors
TESTS += tests/unit/test_collectors tests/cli/freq_range.sh tests/cli/latency.sh
EXTRA_DIST += tests/cli/freq_range.sh tests/cli/latency.sh

# The latency knee in the verdict, on a table of shapes (analysis_knee.c).
UNIT_TESTS += tests/unit/test_knee

# Latency in compare (text, Markdown, CSV, with trials) and export --gnuplot --latency.
TESTS += tests/cli/latency_report.sh
EXTRA_DIST += tests/cli/latency_report.sh

# Latency from a command's own log ({latlog}, pgbench --log) and from --parse-lat.
TESTS += tests/cli/latlog.sh
EXTRA_DIST += tests/cli/latlog.sh
UNIT_TESTS += tests/unit/test_parse_lat
UNIT_TESTS += tests/unit/test_parse_pglog

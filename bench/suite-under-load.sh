#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The whole suite on a busy machine: a user's machine or a shared CI runner is
# rarely idle, and a test that holds only on a quiet one is a test of the
# machine.  This clones the checkout's committed HEAD into a temporary folder,
# with the shared folder beside the clone (../shared, as beside every checkout
# and in CI), and runs `bash .ci/run` there (./bootstrap check: both builds,
# the live servers, the BSD compile checks, format-check, fuzz-smoke,
# distcheck) while a load comes and goes for the whole run: one CPU loop at
# normal priority, on for 1-4 s, then off for 0-3 s, at random.
#
# Target: the suite's closing line says 0 failed.  It prints that line, every
# failed result with its test's name (the FAIL, ERROR and XPASS lines of the
# run, and each test log's "not ok" lines), any step that failed outside the
# TAP tests, and how long the load was on.
#
# usage (as root, as ./bootstrap check needs; from the checkout, or make bench-suite):
#   bash bench/suite-under-load.sh
#   env: KEEP=1 keeps the clone (its _build logs) after the run; LOG (default
#   /tmp/suite-under-load.log) is where the run's whole output is copied, and
#   the logs of the tests that failed go to LOG's name without .log, -failed.
# It takes about 15 minutes of both CPUs.  The load is killed on every exit,
# ^C and SIGTERM included, and so is the suite if it still runs.
# Under sh (dash) the process substitution below is a syntax error and the
# load's group is not killed; refuse rather than hang.
[ -n "${BASH_VERSION:-}" ] ||
	{ echo "suite-under-load: run it with bash (bash $0)" >&2; exit 2; }
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null) ||
	{ echo "suite-under-load: $here is not in a git checkout" >&2; exit 2; }
log=${LOG:-/tmp/suite-under-load.log}
[ -f "$top/.ci/run" ] || { echo "suite-under-load: no .ci/run in $top" >&2; exit 2; }

work=$(mktemp -d /tmp/suite-under-load.XXXXXX) ||
	{ echo "suite-under-load: cannot make a temporary folder" >&2; exit 1; }
load_pid=
suite_pid=

# stop_all: the load's whole process group (the loop and its CPU burner), and
# the suite's, if it still runs; then the clone, unless KEEP=1.
stop_all() {
	trap '' INT TERM HUP
	if [ -n "$load_pid" ]; then
		kill -TERM -- "-$load_pid" 2>/dev/null
		wait "$load_pid" 2>/dev/null
		load_pid=
	fi
	if [ -n "$suite_pid" ] && kill -0 "$suite_pid" 2>/dev/null; then
		kill -TERM -- "-$suite_pid" 2>/dev/null
		wait "$suite_pid" 2>/dev/null
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "suite-under-load: the clone is kept in $work"
	else
		rm -rf "$work"
	fi
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

head=$(git -C "$top" rev-parse --short HEAD)
git clone -q "$top" "$work/project" ||
	{ echo "suite-under-load: git clone of $top failed" >&2; exit 1; }
if [ -d "$top/../shared" ]; then
	ln -s "$(cd "$top/../shared" && pwd)" "$work/shared"
else
	echo "suite-under-load: no $top/../shared: the BSD compile checks will say so" >&2
fi
echo "suite-under-load: HEAD $head cloned into $work/project"

# The load: a session (and process group) of its own, so one kill ends the loop
# and the burner it runs; each period goes to load.log.
setsid bash -c '
	while :; do
		on=$((RANDOM % 4 + 1)) off=$((RANDOM % 4))
		echo "on $on off $off"
		# --foreground: the burner stays in this group, where the kill reaches it
		timeout --foreground "$on" bash -c "while :; do :; done"
		sleep "$off"
	done' >"$work/load.log" 2>&1 </dev/null &
load_pid=$!
echo "suite-under-load: load on (pid $load_pid): one CPU loop, on 1-4 s, off 0-3 s"

t0=$(date +%s)
# The suite in a process group of its own too, so an exit here can end it whole.
setsid bash -c 'cd "$1" && exec bash .ci/run' sh "$work/project" >"$work/run.log" 2>&1 </dev/null &
suite_pid=$!
wait "$suite_pid"
status=$?
suite_pid=
t1=$(date +%s)
kill -TERM -- "-$load_pid" 2>/dev/null
wait "$load_pid" 2>/dev/null
load_pid=
cp "$work/run.log" "$log" 2>/dev/null

# The load's duty: the on periods that began before the end (the last may be cut).
on_s=$(awk '{ s += $2 } END { print s + 0 }' "$work/load.log")
echo "suite-under-load: .ci/run exited $status after $((t1 - t0)) s; the load was on for about" \
	"${on_s} s of them ($(grep -c '^on' "$work/load.log") periods)"
echo "suite-under-load: whole output in $log"

closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$work/run.log" | tail -n 1)
echo "closing line: ${closing:-none (the suite did not reach its summary)}"

echo "failures:"
nfail=0
while IFS= read -r line; do
	echo "  $line"
	nfail=$((nfail + 1))
done < <(grep -E '^(FAIL|ERROR|XPASS): |failed: see _build/' "$work/run.log")
# Each test log's failed assertions, named by the log, with the comment lines
# right after them (the figures the test printed).
while IFS= read -r f; do
	awk -v f="${f#"$work/project/"}" '
		/^not ok / { print "  " f ": " $0; n = 5; next }
		n > 0 && /^#/ { print "    " $0; n--; next }
		{ n = 0 }' "$f"
done < <(find "$work/project/_build" -name '*.log' -path '*/tests/*' 2>/dev/null | sort)
[ "$nfail" -gt 0 ] || echo "  none"
# The logs of the tests that failed outlive the clone, beside the run's log:
# a failure under load may not come again, and its figures are in them.
kept=${log%.log}-failed
if [ "$nfail" -gt 0 ] && rm -rf "$kept" && mkdir -p "$kept"; then
	(cd "$work/project/_build" 2>/dev/null &&
		grep -l -E '^(not ok|Bail out!)|^(FAIL|ERROR):' -r --include='*.log' . |
		while IFS= read -r f; do
			mkdir -p "$kept/$(dirname "$f")" && cp "$f" "$kept/$f"
		done)
	echo "  (their logs are kept in $kept)"
fi
# The live sweeps that needed another try (tests/live/live.sh), with the steps
# of the try before: how often the load made a step unstable.
echo "live sweeps tried again:"
find "$work/project/_build" -name '*.log' -path '*/tests/live/*' \
	-exec grep -h -B3 '^# [a-z]*, try [2-9] of ' {} + 2>/dev/null | sed 's/^/  /' | grep . ||
	echo "  none"

case "$closing" in
*" 0 failed, "*)
	[ "$status" -eq 0 ] && [ "$nfail" -eq 0 ] && { echo "PASS: $closing, under the load"; exit 0; } ;;
esac
echo "FAIL: ${closing:-no closing line}; .ci/run exited $status"
exit 1

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What watching a target costs: 1,000 sleeping threads (bench/sleepers)
# watched with --target pid:N at the default rate (the wait sampler at every
# 0.25 s tick, the target's processes booked once a second).
#  1. `scaletop run` (-w cpu -n 1): the monitor process's own CPU, as % of
#     one core, with and without the target.  Goal: <= 2% with it.
#     With the target, and for a 1024-worker step (-w mutex -n 1024): the
#     readings per thread per second of the window (the step's wait_reads
#     over its threads and window_s; goal >= 1), the worst tick lateness
#     the monitor's own work caused (tick_busy_ms; goal <= 5 ms), beside the
#     whole lateness (tick_late_ms: the rest is the scheduler's delay in
#     waking the monitor, which 1024 runnable workers make long) and
#     wait_read_ms (the most CPU one tick's reading took), and the
#     monitor's CPU (goal <= 2%).  And the same for 1024 workers that
#     compute between locks (-p hold=10 -p think=100000: think is rounds of
#     work, so some 600 are runnable at once and the monitor waits whole
#     turns of the run queue for a CPU, in the middle of a tick's work too,
#     which is the scheduler's lateness, not the monitor's).
#  2. The TUI at a 1 s refresh running the same sweep with the target,
#     against htop -d 10 in the same tmux geometry, in the same run.  Goal:
#     at most a third of htop's CPU.
# Ratios and figures, never a timed test.
# Usage: bench/target-cost.sh [SECONDS] (default 20).  Linux; run by hand.
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
SL=$(cd "$top_builddir" && pwd)/bench/sleepers
SECS=${1:-20}
SOCK="scaletop-tcost-$$"
[ -x "$SL" ] || { echo "build bench/sleepers first (make bench-target)"; exit 1; }
command -v tmux >/dev/null || { echo "tmux is needed"; exit 1; }
command -v htop >/dev/null || { echo "htop is needed (apt-get install htop)"; exit 1; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cpu_ticks() { awk '{ print $1 }' "/proc/$1/schedstat"; } # ns on a CPU (its main thread's)
pct() { echo "$1 $2 $SECS" | awk '{ printf "%.3f", 100 * ($2 - $1) / 1e9 / $3 }'; }

"$SL" 1000 >"/tmp/sleepers.$$" &
SPID=$!
DATA=$(mktemp -d) || exit 1 # the TUI's kept sweeps, removed at the end
trap 'kill $SPID 2>/dev/null; tm kill-server >/dev/null 2>&1; rm -f /tmp/sleepers.$$; rm -rf "$DATA"' EXIT
trap 'exit 1' INT TERM
sleep 1
echo "sleepers: pid $SPID, $(ls /proc/$SPID/task | wc -l) threads"

# The monitor's CPU is read by a shell of its own at nice -20 where it may
# (root), as the monitor runs: among 600 runnable workers a nice-0 shell
# sleeps far longer than it asked, and read nothing in time once.  It reads
# PID's main thread every second from 2 s to SECS after its start (so the
# window's end, its counters read whole and its paths named, is left out),
# divided by the wall time between the first reading and the last, and
# prints "first last", each "wall-ns cpu-ns".
READER='end=$(($(date +%s) + $1)); sleep 2; first= last=
while [ "$(date +%s)" -lt "$end" ] &&
	c=$(awk "{ print \$1 }" "/proc/$2/schedstat" 2>/dev/null) && [ -n "$c" ]; do
	now="$(date +%s%N) $c"
	[ -n "$first" ] || first=$now
	last=$now
	sleep 1
done
echo "$first $last"'
NICE=
nice -n -20 true 2>/dev/null && NICE="nice -n -20"

# run_cost NAME [ARGS...]: the run monitor's CPU % of one core (READER), in
# a step of SECS after a 1 s warm-up, its JSON kept in $DATA/NAME.json.
run_cost() {
	name=$1
	shift
	"$ST" run -d "$SECS" --warmup 1 -q --json "$@" >"$DATA/$name.json" 2>/dev/null &
	rp=$!
	got=$($NICE sh -c "$READER" sh "$SECS" "$rp")
	wait $rp 2>/dev/null
	echo "$got" | awk 'NF == 4 && $3 > $1 { printf "%.3f", 100 * ($4 - $2) / ($3 - $1); next }
		{ printf "nan" }'
}

# figures NAME: "R readings/thread/s, late L ms, read C ms" from NAME.json's step.
figures() {
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["steps"][0]
th = s["n"] + ((s.get("target") or {}).get("threads") or 0)
r = s["wait_reads"] / th / s["window_s"] if s.get("wait_reads") is not None else float("nan")
busy = s.get("tick_busy_ms")
print("%.2f %.1f %.2f %d %.1f" % (r, busy if busy is not None else float("nan"), s["wait_read_ms"], th,
      s["tick_late_ms"]))' "$DATA/$1.json"
}

# tui_cost NAME CMD...: the pane process's CPU % over SECS in 120x40, after 3 s.
tui_cost() {
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-tcost-$$-$1"
	shift
	tm new-session -d -s b -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME="$DATA" "$@"
	sleep 3
	pid=$(tm display-message -p -t b '#{pane_pid}')
	t0=$(cpu_ticks "$pid")
	sleep "$SECS"
	t1=$(cpu_ticks "$pid")
	tm kill-server >/dev/null 2>&1
	pct "$t0" "$t1"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
base=$(run_cost base -w cpu -n 1)
with=$(run_cost with -w cpu -n 1 --target "pid:$SPID")
wide=$(run_cost wide -w mutex -n 1024)
busy=$(run_cost busy -w mutex -n 1024 -p hold=10 -p think=100000)
set -- $(figures with)
echo "run with the target ($4 threads): $1 readings/thread/s (goal >= 1), ticks at most $2 ms late by the monitor's work (goal <= 5; $5 ms in all), reading at most $3 ms of CPU a tick"
tr=$1 tl=$2
set -- $(figures wide)
echo "run -w mutex -n 1024: $1 readings/thread/s (goal >= 1), ticks at most $2 ms late by the monitor's work (goal <= 5; $5 ms in all), reading at most $3 ms of CPU a tick, monitor $wide% of a core (goal <= 2%)"
wr=$1 wl=$2
set -- $(figures busy)
echo "run -w mutex -n 1024 -p hold=10 -p think=100000: $1 readings/thread/s (goal >= 1), ticks at most $2 ms late by the monitor's work (goal <= 5; $5 ms in all), reading at most $3 ms of CPU a tick, monitor $busy% of a core (goal <= 2%)"
br=$1 bl=$2
tui=$(tui_cost tui "$ST" -w cpu -n 1 -d $((SECS + 10)) --warmup 1 --target "pid:$SPID" --refresh 1)
htop=$(tui_cost htop htop -d 10)
echo "run monitor CPU: $base% of a core without the target, $with% with it (goal <= 2%)"
echo "TUI at 1 s with the target: $tui%; htop -d 10: $htop%"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$with $tui $htop $wide $tr $tl $wr $wl $busy $br $bl" | awk '{
	r = $3 > 0 ? $2 / $3 : 0
	printf "TUI/htop CPU ratio: %.2f (goal <= 0.33)\n", r
	print ($1 <= 2 && r <= 0.34 && $4 <= 2 && $5 >= 1 && $7 >= 1 && $6 <= 5 && $8 <= 5 &&
	       $9 <= 2 && $10 >= 1 && $11 <= 5) ? "PASS" : "FAIL"
}'

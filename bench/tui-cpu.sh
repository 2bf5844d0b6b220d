#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The TUI's own cost against htop, in the same run and the same tmux
# geometry (120x40): CPU per second and resident memory.
#  1. During a sweep, scaletop and htop -d 10 side by side over the same
#     seconds (htop then reads the workload's threads too, as a user's
#     would): `-w cpu -n 1` (goal: at most 1/4 of htop's CPU at a 1 s
#     refresh) and `-w mutex -n 256` (goal: at most 1/3); RSS at or below
#     htop's.  The workers run in the step's child, so the pane's process
#     is the monitor alone.
#  2. Only monitoring (--monitor: no workload), one after the other, at a 1 s
#     and a 0.1 s refresh against htop -d 10 and -d 1: at most 1/3 of htop's
#     CPU at each rate, and the time from start to the first full frame.
# Ratios, never a timed test.  Usage: bench/tui-cpu.sh [SECONDS] (default 20)
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
SECS=${1:-20}
SOCK="scaletop-bench-$$"
command -v tmux >/dev/null || { echo "tmux is needed"; exit 1; }
command -v htop >/dev/null || { echo "htop is needed (apt-get install htop)"; exit 1; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The TUI keeps each sweep it runs; here in a folder of the bench's own.
DATA=$(mktemp -d) || exit 1
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$DATA"' EXIT
trap 'exit 1' INT TERM

# cpu_ticks PID: the ns its main thread ran, /proc/PID/schedstat (Linux): exact, where
# stat's utime + stime count 10 ms ticks (0.05% of a core over 20 s).
cpu_ticks() { awk '{ print $1 }' "/proc/$1/schedstat"; } # ns on a CPU (its main thread's)
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
pct() { echo "$1 $2 $SECS" | awk '{ printf "%.3f", 100 * ($2 - $1) / 1e9 / $3 }'; }
pane() {
	ps_name=$1
	shift
	tm new-session -d -s "$ps_name" -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 \
		XDG_DATA_HOME="$DATA" "$@"
}
pane_pid() { tm display-message -p -t "$1" '#{pane_pid}'; }

# measure NAME CMD...: prints "NAME cpu% rss_kb" after SECS seconds.
measure() {
	name=$1
	shift
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-$name" # a fresh server each time: a dying one lingers
	pane b "$@"
	sleep 2
	pid=$(pane_pid b)
	t0=$(cpu_ticks "$pid")
	sleep "$SECS"
	t1=$(cpu_ticks "$pid")
	echo "$name $(pct "$t0" "$t1") $(rss_kb "$pid")"
}

# beside NAME ARGS...: scaletop ARGS (a sweep at a 1 s refresh) and htop -d 10
# over the same SECS, after 4 s; prints "NAME-scaletop cpu% rss" and "NAME-htop ...".
beside() {
	name=$1
	shift
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-$name"
	pane s "$ST" "$@" --refresh 1 -d $((SECS + 30))
	pane h htop -d 10
	sleep 4
	sp=$(pane_pid s)
	hp=$(pane_pid h)
	s0=$(cpu_ticks "$sp")
	h0=$(cpu_ticks "$hp")
	sleep "$SECS"
	s1=$(cpu_ticks "$sp")
	h1=$(cpu_ticks "$hp")
	echo "$name-scaletop $(pct "$s0" "$s1") $(rss_kb "$sp")"
	echo "$name-htop $(pct "$h0" "$h1") $(rss_kb "$hp")"
	tm kill-server >/dev/null 2>&1
}

# first_frame: ms from start until the footer (the last thing drawn) shows.
first_frame() {
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-first"
	s=$(date +%s%N)
	pane b "$ST" --monitor --refresh 1
	i=0
	until tm capture-pane -p -t b 2>/dev/null | grep -q '1 overview'; do
		i=$((i + 1))
		[ "$i" -gt 5000 ] && break
	done
	e=$(date +%s%N)
	# This runs in $(...): the EXIT trap's kill-server is the parent's, on its own socket.
	tm kill-server >/dev/null 2>&1
	echo $(((e - s) / 1000000))
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(mktemp)
beside cpu1 -w cpu -n 1 >>"$out"
beside mutex256 -w mutex -n 256 >>"$out"
measure scaletop-1s "$ST" --monitor --refresh 1 >>"$out"
measure htop-d10 htop -d 10 >>"$out"
measure scaletop-0.1s "$ST" --monitor --refresh 0.1 >>"$out"
measure htop-d1 htop -d 1 >>"$out"
cat "$out"
tm kill-server >/dev/null 2>&1
ff=$(first_frame)
echo "scaletop first full frame: ${ff} ms (tmux start included)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	function ratio(a, b) { return cpu[b] > 0 ? cpu[a] / cpu[b] : 0 }
	{ cpu[$1] = $2; rss[$1] = $3 }
	END {
		s1 = ratio("cpu1-scaletop", "cpu1-htop")
		s2 = ratio("mutex256-scaletop", "mutex256-htop")
		r1 = ratio("scaletop-1s", "htop-d10")
		r2 = ratio("scaletop-0.1s", "htop-d1")
		printf "sweep -w cpu -n 1: CPU ratio %.2f (goal <= 0.25), RSS %d kB against %d kB\n",
		    s1, rss["cpu1-scaletop"], rss["cpu1-htop"]
		printf "sweep -w mutex -n 256: CPU ratio %.2f (goal <= 0.33), RSS %d kB against %d kB\n",
		    s2, rss["mutex256-scaletop"], rss["mutex256-htop"]
		printf "--monitor: CPU ratio at 1 s: %.2f, at 0.1 s: %.2f (goal <= 0.33)\n", r1, r2
		printf "--monitor RSS: scaletop %d kB, htop %d kB\n", rss["scaletop-1s"], rss["htop-d10"]
		ok = s1 <= 0.25 && s2 <= 0.34 && r1 <= 0.34 && r2 <= 0.34
		ok = ok && rss["cpu1-scaletop"] <= rss["cpu1-htop"]
		ok = ok && rss["mutex256-scaletop"] <= rss["mutex256-htop"]
		print ok ? "PASS" : "FAIL"
	}' "$out"
rm -f "$out"

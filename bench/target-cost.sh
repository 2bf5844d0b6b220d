#!/bin/sh
# What watching a target costs: 1,000 sleeping threads (bench/sleepers)
# watched with --target pid:N at the default rate (the wait sampler at every
# 0.25 s tick, the target's processes booked once a second).
#  1. `scaletop run` (-w cpu -n 1): the monitor process's own CPU, as % of
#     one core, with and without the target.  Goal: <= 2% with it.
#  2. The TUI at a 1 s refresh running the same sweep with the target,
#     against htop -d 10 in the same tmux geometry, in the same run.  Goal:
#     at most a third of htop's CPU.
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
clk=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
pct() { echo "$1 $2 $clk $SECS" | awk '{ printf "%.2f", 100 * ($2 - $1) / $3 / $4 }'; }

"$SL" 1000 >"/tmp/sleepers.$$" &
SPID=$!
DATA=$(mktemp -d) || exit 1 # the TUI's kept sweeps, removed at the end
trap 'kill $SPID 2>/dev/null; tm kill-server >/dev/null 2>&1; rm -f /tmp/sleepers.$$; rm -rf "$DATA"' EXIT INT TERM
sleep 1
echo "sleepers: pid $SPID, $(ls /proc/$SPID/task | wc -l) threads"

# run_cost [ARGS...]: the run monitor's CPU % of one core over SECS, after 3 s.
run_cost() {
	"$ST" run -w cpu -n 1 -d $((SECS + 6)) --warmup 1 -q "$@" >/dev/null 2>&1 &
	rp=$!
	sleep 3
	t0=$(cpu_ticks $rp)
	sleep "$SECS"
	t1=$(cpu_ticks $rp)
	kill -INT $rp 2>/dev/null
	wait $rp 2>/dev/null
	pct "$t0" "$t1"
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

base=$(run_cost)
with=$(run_cost --target "pid:$SPID")
tui=$(tui_cost tui "$ST" -w cpu -n 1 -d $((SECS + 10)) --warmup 1 --target "pid:$SPID" --refresh 1)
htop=$(tui_cost htop htop -d 10)
echo "run monitor CPU: $base% of a core without the target, $with% with it (goal <= 2%)"
echo "TUI at 1 s with the target: $tui%; htop -d 10: $htop%"
echo "$with $tui $htop" | awk '{
	r = $3 > 0 ? $2 / $3 : 0
	printf "TUI/htop CPU ratio: %.2f (goal <= 0.33)\n", r
	print ($1 <= 2 && r <= 0.34) ? "PASS" : "FAIL"
}'

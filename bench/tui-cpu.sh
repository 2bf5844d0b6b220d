#!/bin/sh
# The TUI's own cost while only monitoring (--monitor: no workload), against
# htop in the same run and the same tmux geometry: CPU per second at a 1 s
# and a 0.1 s refresh (htop -d 10 and -d 1), resident memory, and the time
# from start to the first full frame.  Target: at most a third of htop's CPU
# at each rate, and less RSS.  Usage: bench/tui-cpu.sh [SECONDS] (default 20)
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
SECS=${1:-20}
SOCK="scaletop-bench-$$"
command -v tmux >/dev/null || { echo "tmux is needed"; exit 1; }
command -v htop >/dev/null || { echo "htop is needed (apt-get install htop)"; exit 1; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The TUI keeps each sweep it runs; here in a folder of the bench's own.
DATA=$(mktemp -d) || exit 1
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$DATA"' EXIT INT TERM
clk=$(getconf CLK_TCK)

# cpu_ticks PID: utime + stime from /proc/PID/stat (Linux).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

# measure NAME CMD...: prints "NAME cpu% rss_kb" after SECS seconds in 120x40.
measure() {
	name=$1
	shift
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-$name" # a fresh server each time: a dying one lingers
	tm new-session -d -s b -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME="$DATA" "$@"
	sleep 2
	pid=$(tm display-message -p -t b '#{pane_pid}')
	t0=$(cpu_ticks "$pid")
	sleep "$SECS"
	t1=$(cpu_ticks "$pid")
	echo "$name $(echo "$t0 $t1 $clk $SECS" | awk '{ printf "%.3f", 100 * ($2 - $1) / $3 / $4 }') $(rss_kb "$pid")"
}

# first_frame: ms from start until the footer (the last thing drawn) shows.
first_frame() {
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-first"
	s=$(date +%s%N)
	tm new-session -d -s b -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME="$DATA" "$ST" --monitor --refresh 1
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

out=$(mktemp)
measure scaletop-1s "$ST" --monitor --refresh 1 >>"$out"
measure htop-d10 htop -d 10 >>"$out"
measure scaletop-0.1s "$ST" --monitor --refresh 0.1 >>"$out"
measure htop-d1 htop -d 1 >>"$out"
cat "$out"
tm kill-server >/dev/null 2>&1
ff=$(first_frame)
echo "scaletop first full frame: ${ff} ms (tmux start included)"
awk '
	{ cpu[$1] = $2; rss[$1] = $3 }
	END {
		r1 = cpu["htop-d10"] > 0 ? cpu["scaletop-1s"] / cpu["htop-d10"] : 0
		r2 = cpu["htop-d1"] > 0 ? cpu["scaletop-0.1s"] / cpu["htop-d1"] : 0
		printf "CPU ratio at 1 s: %.2f, at 0.1 s: %.2f (target <= 0.33)\n", r1, r2
		printf "RSS: scaletop %d kB, htop %d kB\n", rss["scaletop-1s"], rss["htop-d10"]
		ok = r1 <= 0.34 && r2 <= 0.34 && rss["scaletop-1s"] < rss["htop-d10"]
		print ok ? "PASS" : "FAIL"
	}' "$out"
rm -f "$out"

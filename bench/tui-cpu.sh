#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The TUI's own cost against htop, and against another scaletop binary
# (env BASE=PATH, optional), in the same run and the same tmux geometry
# (120x40): CPU per second and resident memory, each process in its own
# pane over the same seconds.
#  1. During a sweep at a 1 s refresh, beside htop -d 10 (which then reads
#     the workload's threads too, as a user's would): `-w cpu -n 1` (goal:
#     at most 1/4 of htop's CPU) and `-w mutex -n 256` (goal: at most 1/3).
#     The workers run in the step's child, so the pane's process is the
#     monitor alone.  `-w mutex -n 1024` adds the third size for memory:
#     the RSS at 1, 256 and 1024 threads stays below 8 MB and grows no
#     faster than linearly (the kB per thread from 256 to 1024 at most
#     twice those from 1 to 256, plus 1).
#  2. Only monitoring (--monitor: no workload) at a 1 s and a 0.1 s refresh
#     beside htop -d 10 and -d 1: at most 1/3 of htop's CPU at each rate;
#     and the time from start to the first full frame.
# With BASE, the same panes run BASE beside scaletop, and the last lines
# give the new/base ratios of CPU and RSS (goal: within 10%).
# Ratios, never a timed test.  Usage: [BASE=PATH] bench/tui-cpu.sh [SECONDS]
# (default 20)
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
SECS=${1:-20}
SOCK="scaletop-bench-$$"
command -v tmux >/dev/null || { echo "tmux is needed"; exit 1; }
command -v htop >/dev/null || { echo "htop is needed (apt-get install htop)"; exit 1; }
[ -z "$BASE" ] || [ -x "$BASE" ] || { echo "BASE=$BASE is not an executable"; exit 1; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The TUI keeps each sweep it runs; here in a folder of the bench's own.
DATA=$(mktemp -d) || exit 1
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$DATA"' EXIT
trap 'exit 1' INT TERM

# cpu_ns PID: the ns its threads ran, from /proc/PID/task/*/schedstat (Linux):
# exact, where stat's utime + stime count 10 ms ticks.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
# mem_kb PID: the resident set now and at its peak (VmRSS, VmHWM).
mem_kb() { awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 } END { print r + 0, h + 0 }' "/proc/$1/status"; }
pct() { echo "$1 $2 $SECS" | awk '{ printf "%.3f", 100 * ($2 - $1) / 1e9 / $3 }'; }
pane() {
	ps_name=$1
	shift
	tm new-session -d -s "$ps_name" -x 120 -y 40 env TERM=xterm-256color LANG=C.UTF-8 \
		XDG_DATA_HOME="$DATA/$ps_name" "$@"
}
pane_pid() { tm display-message -p -t "$1" '#{pane_pid}'; }

# beside NAME HTOP_DELAY ARGS...: scaletop ARGS, BASE ARGS (if set) and htop -d
# HTOP_DELAY, each in a pane of a fresh tmux server, over the same SECS after
# 4 s; prints "NAME-WHO cpu% rss_kb peak_kb" for WHO in scaletop, base, htop.
beside() {
	name=$1
	hd=$2
	shift 2
	tm kill-server >/dev/null 2>&1
	SOCK="scaletop-bench-$$-$name" # a fresh server each time: a dying one lingers
	who="scaletop htop"
	pane scaletop "$ST" "$@"
	[ -z "$BASE" ] || {
		pane base "$BASE" "$@"
		who="scaletop base htop"
	}
	pane htop htop -d "$hd"
	sleep 4
	for w in $who; do
		eval "p_$w=\$(pane_pid $w); c0_$w=\$(cpu_ns \$p_$w)"
	done
	sleep "$SECS"
	for w in $who; do
		eval "c1_$w=\$(cpu_ns \$p_$w)"
	done
	for w in $who; do
		eval "echo \"$name-$w \$(pct \$c0_$w \$c1_$w) \$(mem_kb \$p_$w)\""
	done
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
[ -z "$BASE" ] || echo "base: $BASE"
out=$(mktemp)
sweep="--refresh 1 -d $((SECS + 30))"
# shellcheck disable=SC2086 # $sweep is words
{
	beside cpu1 10 -w cpu -n 1 $sweep
	beside mutex256 10 -w mutex -n 256 $sweep
	beside mutex1024 10 -w mutex -n 1024 $sweep
	beside mon1s 10 --monitor --refresh 1
	beside mon0.1s 1 --monitor --refresh 0.1
} >>"$out"
echo "name cpu% rss_kB peak_kB"
cat "$out"
tm kill-server >/dev/null 2>&1
ff=$(first_frame)
echo "scaletop first full frame: ${ff} ms (tmux start included)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v base="$BASE" '
	function ratio(a, b) { return cpu[b] > 0 ? cpu[a] / cpu[b] : 0 }
	function rs(a, b) { return peak[b] > 0 ? peak[a] / peak[b] : 0 }
	function within(r) { return r > 0 && r <= 1.10 }
	{ cpu[$1] = $2; peak[$1] = $4 }
	END {
		s1 = ratio("cpu1-scaletop", "cpu1-htop")
		s2 = ratio("mutex256-scaletop", "mutex256-htop")
		r1 = ratio("mon1s-scaletop", "mon1s-htop")
		r2 = ratio("mon0.1s-scaletop", "mon0.1s-htop")
		printf "sweep -w cpu -n 1: CPU ratio to htop %.2f (goal <= 0.25)\n", s1
		printf "sweep -w mutex -n 256: CPU ratio to htop %.2f (goal <= 0.33)\n", s2
		printf "--monitor: CPU ratio to htop at 1 s: %.2f, at 0.1 s: %.2f (goal <= 0.33)\n",
		    r1, r2
		m1 = peak["cpu1-scaletop"]
		m256 = peak["mutex256-scaletop"]
		m1024 = peak["mutex1024-scaletop"]
		k1 = (m256 - m1) / 255
		k2 = (m1024 - m256) / 768
		printf "peak RSS at 1, 256, 1024 threads: %d, %d, %d kB (goal < 8192 at 1024)\n",
		    m1, m256, m1024
		printf "kB per thread: %.2f from 1 to 256, %.2f from 256 to 1024 (goal <= 2x + 1)\n",
		    k1, k2
		printf "htop peak RSS at 1, 256, 1024 threads: %d, %d, %d kB\n",
		    peak["cpu1-htop"], peak["mutex256-htop"], peak["mutex1024-htop"]
		ok = s1 <= 0.25 && s2 <= 0.34 && r1 <= 0.34 && r2 <= 0.34
		ok = ok && m1 > 0 && m1024 < 8192 && k2 <= 2 * (k1 > 0 ? k1 : 0) + 1
		if (base != "") {
			n = split("cpu1 mutex256 mutex1024 mon1s mon0.1s", row, " ")
			for (i = 1; i <= n; i++) {
				c = ratio(row[i] "-scaletop", row[i] "-base")
				m = rs(row[i] "-scaletop", row[i] "-base")
				printf "new/base %s: CPU %.2f, peak RSS %.2f (goal <= 1.10)\n", row[i], c, m
				ok = ok && within(c) && within(m)
			}
		}
		print ok ? "PASS" : "FAIL"
	}' "$out"
rm -f "$out"

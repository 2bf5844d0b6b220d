#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What naming the lock costs (issue 24): the on-CPU sampling (perf_event
# cpu-clock, 99 Hz a CPU), the futex census and the blocked threads' kernel
# stacks (4 a tick and family, also off with --no-locks), against a run
# without them (--no-hot, and --no-locks where the binary has it), in one run.
#  1. The monitor's own CPU (its schedstat, ns) over the same sweep, with and
#     without, as % of one core.  Goal: they add at most 1% of a core at
#     256 threads (-w mutex -n 256).
#  2. The workload's throughput: the two sweeps' trials compared (scaletop
#     compare); goal: no difference proven ("within noise").
# The sweeps alternate (with, without, with, without ...) so that drift and
# other load fall on both alike.  Usage: bench/lock-cost.sh [TRIALS] (default
# 3; each sweep is one trial of -d DURATION, default 5).  Linux, as root (the
# on-CPU sampling needs it); run by hand, never as a test.
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
TRIALS=${1:-3}
DURATION=${DURATION:-5}
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT
trap 'exit 130' INT TERM
[ -x "$ST" ] || { echo "no scaletop at $ST: build it first"; exit 1; }
off="--no-hot"
"$ST" run --help 2>&1 | grep -q -- '--no-locks' && off="$off --no-locks"

# cpu_ns PID: the process's CPU time so far (all its threads), from schedstat.
cpu_ns() {
	awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null || echo 0
}

# sweep NAME ARGS...: one sweep into $OUT/NAME.json; prints the monitor's CPU ns and wall ns.
sweep() {
	name=$1
	shift
	t0=$(date +%s%N)
	"$ST" run "$@" -d "$DURATION" --warmup 1 -q -o "$OUT/$name.json" >/dev/null 2>"$OUT/$name.err" &
	pid=$!
	last=0
	while kill -0 "$pid" 2>/dev/null; do
		c=$(cpu_ns "$pid")
		[ "$c" -gt 0 ] 2>/dev/null && last=$c
		sleep 0.2
	done
	wait "$pid"
	t1=$(date +%s%N)
	echo "$last $((t1 - t0))"
}

w=0
for wl in "-w mutex -n 256" "-w fdtable -p kind=open -n 2"; do
	w=$((w + 1))
	on_cpu=0 on_wall=0 off_cpu=0 off_wall=0 a= b=
	i=0
	while [ "$i" -lt "$TRIALS" ]; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the workload's words
		set -- $(sweep "on$w-$i" $wl)
		on_cpu=$((on_cpu + $1)) on_wall=$((on_wall + $2))
		# shellcheck disable=SC2086
		set -- $(sweep "off$w-$i" $wl $off)
		off_cpu=$((off_cpu + $1)) off_wall=$((off_wall + $2))
		a="$a $OUT/on$w-$i.json" b="$b $OUT/off$w-$i.json"
	done
	echo "== $wl: $TRIALS sweeps each way, -d $DURATION; load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "$on_cpu $on_wall $off_cpu $off_wall" | awk '{
		on = 100 * $1 / $2; off = 100 * $3 / $4
		printf "monitor CPU: %.2f%% of a core with, %.2f%% without: +%.2f points (goal <= 1)\n", on, off, on - off
		print (on - off <= 1 ? "CPU: PASS" : "CPU: FAIL")
	}'
	# shellcheck disable=SC2086 # the files, one side each
	"$ST" compare $b -- $a 2>/dev/null | sed -n '1,3p'
	grep -h "on-CPU\|census" "$OUT/on$w-1.err" 2>/dev/null | head -2
	python3 -c 'import json, sys
k = [s["kstacks"] for s in json.load(open(sys.argv[1]))["steps"] if "kstacks" in s]
r = sum(x["reads"] + x["failed"] for x in k)
us = [x["read_us"] * (x["reads"] + x["failed"]) for x in k if x["read_us"] is not None]
print("kernel stacks: %d read, %.1f us a read" % (r, sum(us) / r) if r else "kernel stacks: none read")
' "$OUT/on$w-1.json" 2>/dev/null
done

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The wait profile against the kernel's own split of the same threads' time,
# read by pidstat, the sysstat tool scaletop's users already trust.
#
# Runs `scaletop run -w mutex -n N -d D --json` and, once its warm-up is
# over, `pidstat -u -t -p WORKLOAD 1 D-2` on the workload's process.  For
# each worker pidstat gives %CPU (on a CPU) and %wait (runnable, waiting for
# one: the schedstat run delay); their means over the workers are the
# kernel's running and runnable shares, and the rest of the time is blocked.
# (Both leave out the process's main thread, the step's controller.)  The
# step's profile has the same three parts: its running and runnable lines,
# and every sleeping line summed.  The load is steady, so the two windows
# need not start together; the step's own run delay over its window (rdly%)
# is printed beside them, to show how much the windows differ.
#
# OLD=path/to/another/scaletop runs that binary in turns with this one
# (who goes first alternates), so that a change to the sampler is judged
# against the kernel rather than against the sampler before it; its figures
# are printed, not judged.  RUN_ARGS adds arguments to both runs (say
# "-p hold=10 -p think=100000").  KEEP=1 keeps each run's JSON and pidstat
# report, in the folder it names at the end (for `scaletop compare`).
#
# Target: for this binary, every run's runnable and blocked shares within 2
# points of pidstat's.
#
# usage: make bench-waits   or
#        top_builddir=BUILD [OLD=BIN] [ROUNDS=2] sh bench/wait-accuracy.sh [N [D]]
: "${top_builddir:=.}"
bin=$top_builddir/scaletop
n=${1:-64}
dur=${2:-8}
rounds=${ROUNDS:-2}
old=${OLD:-}
RUN_ARGS=${RUN_ARGS:-}
tolerance=2

for tool in pidstat python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "wait-accuracy: $tool not found: install it (pidstat is in sysstat)" >&2
		exit 2
	fi
done
for b in "$bin" ${old:+"$old"}; do
	if [ ! -x "$b" ]; then
		echo "wait-accuracy: no binary at $b: build it ('make scaletop' in its build directory)" >&2
		exit 2
	fi
done
for v in "N=$n" "D=$dur" "ROUNDS=$rounds"; do
	case ${v#*=} in
	'' | *[!0-9]* | 0)
		echo "wait-accuracy: $v: give a whole number >= 1" >&2
		exit 2
		;;
	esac
done
if [ "$dur" -lt 4 ]; then
	echo "wait-accuracy: D=$dur: give at least 4 seconds (pidstat reads D-2 of them)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-waits.XXXXXX") || exit 1
run=
KEEP=${KEEP:-}
trap '[ -n "$run" ] && kill "$run" 2>/dev/null; if [ -n "$KEEP" ]; then echo "kept in $tmp"; else rm -rf "$tmp"; fi' EXIT
trap 'exit 1' HUP INT TERM

# The workload is the run's child with at least N threads; wait up to 10 s
# for its workers to start.
workload_of() {
	tries=0
	while [ $tries -lt 100 ]; do
		for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
			t=$(awk '/^Threads:/ { print $2 }' "/proc/$c/status" 2>/dev/null)
			if [ -n "$t" ] && [ "$t" -ge "$n" ]; then
				echo "$c"
				return 0
			fi
		done
		sleep 0.1
		tries=$((tries + 1))
	done
	return 1
}

# One run of binary $1, named $2: the step's JSON and pidstat's report.
measure() {
	"$1" run -w mutex -n "$n" -d "$dur" $RUN_ARGS -q --json >"$tmp/$2.json" 2>"$tmp/$2.err" &
	run=$!
	if ! w=$(workload_of "$run"); then
		echo "wait-accuracy: $2: no process with $n threads under $1 within 10 s" >&2
		cat "$tmp/$2.err" >&2
		return 1
	fi
	sleep 1.5 # the warm-up (1 s) and the workers' start
	LC_ALL=C S_TIME_FORMAT=ISO pidstat -u -t -p "$w" 1 $((dur - 2)) >"$tmp/$2.pidstat" 2>&1
	wait "$run" || {
		echo "wait-accuracy: $2: $1 failed:" >&2
		cat "$tmp/$2.err" >&2
		run=
		return 1
	}
	run=
	echo "$2 $w $1" >>"$tmp/runs"
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg); -w mutex -n $n -d $dur $RUN_ARGS, $rounds round(s)"
: >"$tmp/runs"
i=1
while [ $i -le "$rounds" ]; do
	if [ -z "$old" ]; then
		measure "$bin" "new$i" || exit 1
	elif [ $((i % 2)) = 1 ]; then
		measure "$bin" "new$i" && measure "$old" "old$i" || exit 1
	else
		measure "$old" "old$i" && measure "$bin" "new$i" || exit 1
	fi
	i=$((i + 1))
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$tmp" "$tolerance" <<'PY'
import json, sys

tmp, tol = sys.argv[1], float(sys.argv[2])

def kernel(path, main):
    """Mean %CPU and %wait over the workers in pidstat's Average rows."""
    cols, cpu, wait, k = None, 0.0, 0.0, 0
    for line in open(path):
        f = line.split()
        if "%wait" in f:
            cols = {name: i for i, name in enumerate(f)}
        elif f and f[0] == "Average:" and cols and f[cols["TID"]] not in ("-", main):
            cpu += float(f[cols["%CPU"]])
            wait += float(f[cols["%wait"]])
            k += 1
    if k == 0:
        sys.exit("wait-accuracy: FAIL: no worker rows in pidstat's report:\n" + open(path).read()[-600:])
    running, runnable = cpu / k, wait / k
    return k, running, runnable, 100.0 - running - runnable

def sampled(path):
    steps = json.load(open(path))["steps"]
    if not steps or not steps[-1].get("waits"):
        sys.exit("wait-accuracy: FAIL: %s has no wait profile" % path)
    parts = {"running": 0.0, "runnable": 0.0, "blocked": 0.0, "futex": 0.0}
    for w in steps[-1]["waits"]:
        share = 100.0 * w["share"]
        if w["state"] in ("running", "runnable"):
            parts[w["state"]] += share
        else:
            parts["blocked"] += share
            if (w.get("channel") or "").startswith("futex"):
                parts["futex"] += share
    parts["rdly"] = steps[-1].get("contention", {}).get("run_delay_pct") or float("nan")
    return parts

print("%-5s %7s | %-33s | %-40s | %s" % ("run", "workers", "pidstat: runnable running blocked",
      "scaletop: runnable running blocked futex", "diff: runnable blocked; step rdly%"))
worst, judged = 0.0, 0
for line in open(tmp + "/runs"):
    name, main, binary = line.split(None, 2)
    k, krun, kready, kblocked = kernel("%s/%s.pidstat" % (tmp, name), main)
    s = sampled("%s/%s.json" % (tmp, name))
    d_ready, d_blocked = s["runnable"] - kready, s["blocked"] - kblocked
    print("%-5s %7d | %17.1f %7.1f %7.1f | %18.1f %7.1f %7.1f %5.1f | %14.1f %7.1f %6.1f" % (
        name, k, kready, krun, kblocked, s["runnable"], s["running"], s["blocked"], s["futex"],
        d_ready, d_blocked, s["rdly"]))
    if name.startswith("new"):
        worst = max(worst, abs(d_ready), abs(d_blocked))
        judged += 1
if judged == 0:
    sys.exit("wait-accuracy: FAIL: nothing to compare")
ok = worst <= tol
print("wait-accuracy: %s: max |diff| %.1f %s %g points over %d run(s) of this binary" % (
    "PASS" if ok else "FAIL", worst, "<=" if ok else ">", tol, judged))
sys.exit(0 if ok else 1)
PY

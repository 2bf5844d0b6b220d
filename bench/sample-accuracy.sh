#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Accuracy against mpstat, the tool scaletop's users already trust.
#
# Pins a busy loop to CPU 0 with taskset, then runs `mpstat -P ALL 1 N` and
# `scaletop sample -i 1 -c N --json` side by side over the same seconds.
# Interval k of one is compared with interval k of the other (both start
# within milliseconds of each other, and the load is steady, so the small
# offset between their boundaries moves no figure by more than a tick or
# two).  For every CPU and the "all" row it prints busy % = 100 - %idle -
# %iowait from each tool and the difference, then the largest difference and
# PASS when it is within 2 points.
#
# usage: make bench-accuracy   or   top_builddir=BUILD sh bench/sample-accuracy.sh [N]
: "${top_builddir:=.}"
bin=$top_builddir/scaletop
n=${1:-10}
tolerance=2

for tool in mpstat taskset python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "sample-accuracy: $tool not found: install it (mpstat is in sysstat)" >&2
		exit 2
	fi
done
if [ ! -x "$bin" ]; then
	echo "sample-accuracy: no binary at $bin: run 'make scaletop' in the build directory" >&2
	exit 2
fi
case $n in
'' | *[!0-9]* | 0)
	echo "sample-accuracy: N '$n': give a number of seconds >= 1" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaletop-accuracy.XXXXXX") || exit 1
load=
trap '[ -n "$load" ] && kill "$load" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

taskset -c 0 sh -c 'while :; do :; done' &
load=$!
sleep 1 # let the scheduler settle the load on CPU 0

LC_ALL=C S_TIME_FORMAT=ISO mpstat -P ALL 1 "$n" >"$tmp/mpstat" 2>&1 &
mp=$!
"$bin" sample -i 1 -c "$n" --json >"$tmp/scaletop" 2>&1 &
st=$!
wait "$mp" || { echo "sample-accuracy: mpstat failed:"; cat "$tmp/mpstat"; exit 1; }
wait "$st" || { echo "sample-accuracy: scaletop failed:"; cat "$tmp/scaletop"; exit 1; }
kill "$load" 2>/dev/null
load=

python3 - "$tmp/mpstat" "$tmp/scaletop" "$tolerance" <<'PY'
import json, sys

mp_path, st_path, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])

# mpstat: a header ("HH:MM:SS CPU %usr ...") opens each interval; rows follow.
mp, cols = [], None
for line in open(mp_path):
    f = line.split()
    if len(f) < 3 or f[0] == "Average:":
        continue
    if f[1] == "CPU":
        cols = {name: i for i, name in enumerate(f)}
        mp.append({"time": None})
        continue
    if cols is None or not (f[1] == "all" or f[1].isdigit()):
        continue
    busy = 100.0 - float(f[cols["%idle"]]) - float(f[cols["%iowait"]])
    mp[-1][f[1]] = busy
    mp[-1]["time"] = f[0]

st = []
for line in open(st_path):
    o = json.loads(line)
    row = {"time": o["time"]}
    for c in o["cpus"]:
        if c["busy"] is not None:
            row[str(c["cpu"])] = c["busy"]
    if o["all"]["busy"] is not None:
        row["all"] = o["all"]["busy"]
    st.append(row)

if not mp or len(mp) != len(st):
    sys.exit("sample-accuracy: FAIL: %d mpstat intervals, %d scaletop intervals" % (len(mp), len(st)))

print("first interval ends: mpstat %s (local), scaletop %s" % (mp[0]["time"], st[0]["time"]))
print("%-8s %-4s %8s %9s %6s" % ("interval", "cpu", "mpstat", "scaletop", "diff"))
worst, where, compared = 0.0, None, 0
for k, (m, s) in enumerate(zip(mp, st), 1):
    for cpu in sorted((c for c in m if c != "time"), key=lambda c: (c != "all", c.zfill(6))):
        if cpu not in s:
            print("%-8d %-4s %8.2f %9s" % (k, cpu, m[cpu], "-"))
            continue
        diff = s[cpu] - m[cpu]
        compared += 1
        print("%-8d %-4s %8.2f %9.2f %+6.2f" % (k, cpu, m[cpu], s[cpu], diff))
        if abs(diff) > worst or where is None:
            worst, where = abs(diff), (k, cpu)
if compared == 0:
    sys.exit("sample-accuracy: FAIL: nothing to compare")
print("max |diff| %.2f points (interval %d, cpu %s) over %d figures" % (worst, where[0], where[1], compared))
print("sample-accuracy: %s: max %.2f %s %g points" % ("PASS" if worst <= tol else "FAIL", worst,
      "<=" if worst <= tol else ">", tol))
sys.exit(0 if worst <= tol else 1)
PY

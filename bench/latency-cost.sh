#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What timing the built-ins' operations costs them: the fastest workload,
# spinlock at N=1, with latency on (the default: one operation a batch
# timed) against --no-latency, in one run.  The sweeps alternate (on, off,
# off, on, ...) so drift and other load fall on both alike; each is one
# step of -d DURATION (default 5).  The verdict is the median of the pairs'
# ratios on/off of operations per CPU-second (contention.ops_per_cpu_s),
# which other load on the machine cannot move; the wall-clock rate's ratio
# is printed beside it.  Goal: on/off at least 0.99 (at most 1% cost).
# Usage: bench/latency-cost.sh [PAIRS] (default 7).  Run by hand, never as
# a test; needs python3.
: "${top_builddir:=.}"
ST=$(cd "$top_builddir" && pwd)/scaletop
PAIRS=${1:-7}
DURATION=${DURATION:-5}
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT
trap 'exit 130' INT TERM
[ -x "$ST" ] || { echo "no scaletop at $ST: build it first"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed"; exit 1; }

# sweep NAME [--no-latency]: one step into $OUT/NAME.json.
sweep() {
	name=$1
	shift
	"$ST" run -w spinlock -n 1 -d "$DURATION" --warmup 1 --no-hot --no-locks -q "$@" \
		-o "$OUT/$name.json" >/dev/null 2>"$OUT/$name.err" ||
		{ echo "sweep $name failed: $(tail -n 1 "$OUT/$name.err")"; exit 1; }
}

i=0
while [ "$i" -lt "$PAIRS" ]; do
	i=$((i + 1))
	if [ $((i % 2)) -eq 1 ]; then
		sweep "on$i"
		sweep "off$i" --no-latency
	else
		sweep "off$i" --no-latency
		sweep "on$i"
	fi
done

python3 - "$OUT" "$PAIRS" <<'PYEOF'
import json, statistics, sys
out, pairs = sys.argv[1], int(sys.argv[2])
def step(name):
    s = json.load(open("%s/%s.json" % (out, name)))["steps"][0]
    return s["contention"]["ops_per_cpu_s"], s["ops_s"], (s.get("latency") or {})
cpu, wall = [], []
for i in range(1, pairs + 1):
    (con, won, lat), (coff, woff, latoff) = step("on%d" % i), step("off%d" % i)
    cpu.append(con / coff)
    wall.append(won / woff)
    print("pair %d: ops/CPU-s on %.4g off %.4g (%.4f); ops/s on %.4g off %.4g (%.4f); "
          "timed %s, p50 %.0f ns, p99 %.0f ns; off has latency: %s"
          % (i, con, coff, cpu[-1], won, woff, wall[-1], lat.get("count"),
             lat.get("p50_ms", 0) * 1e6, lat.get("p99_ms", 0) * 1e6, bool(latoff)))
m = statistics.median(cpu)
print("median on/off: ops per CPU-second %.4f, ops per second %.4f (goal: CPU-s ratio >= 0.99)"
      % (m, statistics.median(wall)))
print("PASS" if m >= 0.99 else "FAIL")
PYEOF

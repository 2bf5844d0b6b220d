# SPDX-License-Identifier: BSD-2-Clause
# A step's latency through the binary: a recorded sysbench --histogram sweep
# shows p50 and p99 as columns and every figure after the table, the same
# as its JSON; a file without latency shows no such column; a bad section
# is refused in one line naming its member; the built-ins time their
# operations in both modes, and not with --no-latency; a live sysbench
# sweep's stream carries it to show.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"

"$SCALETOP" show "$FX/sysbench-latency.json" >"$T/show.out" 2>&1
is "$?" 0 "show a sweep with latency"
like "$(grep -E '^ +N ' "$T/show.out" | head -1)" '±CI +p50 +p99 ' "the table has p50 and p99 columns"
like "$(grep -E '^ +1 ' "$T/show.out" | head -1)" '^ +1 +[0-9]+ +[0-9.]+% +1\.37ms +6\.68ms ' \
	"N=1's row: p50 1.37, p99 6.68 ms, as the JSON"
like "$(cat "$T/show.out")" "latency \(a histogram of the tool's whole run, warm-up included\):" \
	"the section says how it was measured"
like "$(cat "$T/show.out")" '
 +4 +[0-9.]+ms +15\.0ms +[0-9.]+ms +31\.5ms +[0-9.]+ms +[0-9.]+ms +1290' \
	"N=4's row: p50, p99 and the operations timed, as the JSON"

"$SCALETOP" show "$top_srcdir/tests/fixtures/snapshots/cpu-linux.json" >"$T/old.out" 2>&1
ok "an older file without latency: no latency column" sh -c "! grep -q ' p99 ' '$T/old.out'"

# bad FIELD PYTHON-EDIT MESSAGE: the fixture edited is refused with MESSAGE.
bad() {
	"$PYTHON" - "$FX/sysbench-latency.json" "$T/bad.json" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
l = d["steps"][1]["latency"]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PYEOF
	"$SCALETOP" show "$T/bad.json" >"$T/bad.out" 2>&1
	is "$?" 1 "$1: refused"
	like "$(cat "$T/bad.out")" "$3" "$1: one line naming the member"
	is "$(wc -l <"$T/bad.out" | tr -d ' ')" 1 "$1: one line"
}
bad "p99 below p90" 'l["p99_ms"] = l["p90_ms"] / 2' 'steps\[1\]\.latency\.p99_ms: .*'
bad "buckets out of order" 'l["buckets"][2][0] = l["buckets"][1][0]' \
	'steps\[1\]\.latency\.buckets\[2\]: expected \[ns, count\]'
bad "more in the buckets than timed" 'l["count"] = 5' \
	'steps\[1\]\.latency: the buckets hold [0-9]+ operations, more than count 5'
bad "an unknown method" 'l["method"] = "guess"' 'steps\[1\]\.latency\.method: .*guess'
bad "fsync as intervals" 'l["fsync"] = dict(method="interval", count=3, pct=99, pct_ms=1)' \
	'steps\[1\]\.latency\.fsync: method interval; expected histogram or exact'
bad "a percentile past 100" 'l.clear(); l.update(method="interval", count=3, pct=101, pct_ms=1)' \
	'steps\[1\]\.latency\.pct: .*101'

# Built-ins: each worker times one operation a batch.  cpu's operations are
# alike, so their median is the CPU time an operation takes, which the CPU
# counters give apart (ops/CPUs, from /proc's task times): within 30%.  A
# step's CPU time is counted whatever the load, and the median leaves out
# the few timed operations another process preempted.
# builtin_lat JSON: "ok" lines, or why not.
builtin_lat() {
	"$PYTHON" - "$1" <<'PYEOF2'
import json, sys
steps, bad = json.load(open(sys.argv[1]))["steps"], 0
for s in steps:
    lat, c = s.get("latency") or {}, s["contention"]
    if lat.get("method") != "histogram" or lat.get("span") != "window" or lat["count"] < 100:
        print("N=%d: %s" % (s["n"], lat)); bad += 1; continue
    per_op = 1e9 / c["ops_per_cpu_s"]
    p50 = lat["p50_ms"] * 1e6
    near = abs(p50 - per_op) <= 0.3 * per_op
    print("N=%d: p50 %.0f ns, CPU time an operation %.0f ns, %d timed%s"
          % (s["n"], p50, per_op, lat["count"], "" if near else ": more than 30% apart"))
    bad += not near
sys.exit(1 if bad or not steps else 0)
PYEOF2
}
for mode in threads processes; do
	"$SCALETOP" run -w cpu -n 1,2 -d 1.5 --warmup 0.3 --mode "$mode" --no-hot --no-locks -q \
		-o "$T/cpu-$mode.json" >"$T/cpu.out" 2>&1
	is "$?" 0 "cpu, $mode: the sweep"
	ok_shown "cpu, $mode: each step's p50 is the CPU time of an operation" \
		builtin_lat "$T/cpu-$mode.json"
done
# fileio with fsyncs: each fsync(2) timed apart from the writes, as "fsync".
"$SCALETOP" run -w fileio -p dir="$T" -p sync=fsync -p fsync_every=10 -n 1 -d 1 --warmup 0.2 \
	--no-hot --no-locks -o "$T/fio.json" >"$T/fio.out" 2>&1
is "$?" 0 "fileio sync=fsync: the sweep"
is "$(json_get "$T/fio.json" '[(s["latency"]["method"], s["latency"]["fsync"]["method"], s["latency"]["fsync"]["count"] > 0) for s in d["steps"]]')" \
	"[('histogram', 'histogram', True)]" "fileio: the writes' latency and the fsyncs' apart"
like "$(cat "$T/fio.out")" "fsync latency \(a histogram of the window\):" "run prints the fsyncs' section"
"$SCALETOP" run -w cpu -n 1 -d 0.5 --warmup 0.2 --no-latency --no-hot --no-locks -q \
	-o "$T/off.json" >"$T/off.out" 2>&1
is "$(json_get "$T/off.json" '[s.get("latency", "absent") for s in d["steps"]]')" "['absent']" \
	"--no-latency: no latency"

# Live: sysbench's 1 s p99s, recorded as a stream, read back by show.
if command -v sysbench >/dev/null 2>&1; then
	"$SCALETOP" run --cmd 'sysbench cpu --threads={n} --time={duration} --report-interval=1 --percentile=99 run' \
		--parse sysbench -n 1 -d 2 --warmup 0.5 --no-hot --no-locks -q \
		--record "$T/r.jsonl" -o "$T/r.json" >"$T/run.out" 2>&1
	is "$?" 0 "a sysbench sweep with --record"
	is "$(json_get "$T/r.json" '[(s["latency"]["method"], s["latency"]["pct"]) for s in d["steps"]]')" \
		"[('interval', 99)]" "its step: the median of sysbench's interval p99s"
	"$SCALETOP" show "$T/r.jsonl" >"$T/rs.out" 2>&1
	like "$(cat "$T/rs.out")" "latency \(the median of the tool's interval p99\)" \
		"show of the stream has it"
else
	bail_out "sysbench is missing: install sysbench (./bootstrap check does)"
fi
done_testing

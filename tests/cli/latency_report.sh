# SPDX-License-Identifier: BSD-2-Clause
# Latency in compare and export: a recorded sysbench --histogram sweep
# against a copy with every p99 doubled shows each side's p99 per N and
# B/A 2.00x as text, Markdown and CSV; two trials a side show their spread;
# files without latency compare as before; export --gnuplot --latency
# writes p50 and p99 per N and a log y axis, and refuses a file without;
# show names the knee of a sweep whose tail turns before its peak.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"
A="$FX/sysbench-latency.json"
B="$FX/sysbench-latency-b.json"

"$SCALETOP" compare "$A" "$B" >"$T/cmp.out" 2>&1
is "$?" 0 "compare two sweeps with latency"
like "$(cat "$T/cmp.out")" 'latency: p99 in ms at N' "compare has a latency section"
like "$(cat "$T/cmp.out")" '
 +1 +6\.68 +13\.4 +2\.00x
 +2 +16\.1 +32\.2 +2\.00x
 +4 +31\.5 +62\.9 +2\.00x' "each N: A's p99, B's (doubled) and B/A 2.00x, as the JSON"

"$SCALETOP" compare --markdown "$A" "$B" >"$T/cmp.md" 2>&1
is "$?" 0 "compare --markdown"
like "$(cat "$T/cmp.md")" '| N | A p99 ms | B p99 ms | B/A |' "Markdown: a latency table"
like "$(cat "$T/cmp.md")" '| 2 | 16\.1 | 32\.2 | 2\.00x |' "Markdown: N=2's row"

"$SCALETOP" compare --csv "$A" "$B" >"$T/cmp.csv" 2>"$T/cmp.err"
is "$?" 0 "compare --csv"
is "$("$PYTHON" - "$T/cmp.csv" <<'PYEOF'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
print([(x["n"], round(float(x["A p99 ms"]), 3), round(float(x["B/A p99"]), 3)) for x in r])
PYEOF
)" "[('1', 6.685, 2.0), ('2', 16.122, 2.0), ('4', 31.457, 2.0)]" \
	"CSV: each N's A p99 and B/A, the last columns"

# Two trials a side: the second trial's p99 is 1.5 times the first's.
"$PYTHON" - "$A" "$T/trials.json" <<'PYEOF'
import copy, json, sys
d = json.load(open(sys.argv[1]))
more = copy.deepcopy(d["steps"])
for s in more:
    s["trial"] = 1
    for k in ("p99_ms", "p999_ms", "max_ms"):
        s["latency"][k] *= 1.5
d["steps"] += more
d["settings"]["trials"] = 2
json.dump(d, open(sys.argv[2], "w"))
PYEOF
"$SCALETOP" compare "$A" "$T/trials.json" >"$T/tr.out" 2>&1
is "$?" 0 "compare against a side of two trials"
like "$(cat "$T/tr.out")" '
 +1 +6\.68 +8\.36 \(6\.68\.\.10\) +1\.25x' \
	"N=1: B's mean over its trials, their lowest..highest, and B/A"

"$SCALETOP" compare "$FX/cpu-trials-a.json" "$FX/cpu-trials-b.json" >"$T/old.out" 2>&1
ok "files without latency: no latency section" sh -c "! grep -q '^latency' '$T/old.out'"
"$SCALETOP" compare --csv "$FX/cpu-trials-a.json" "$FX/cpu-trials-b.json" >"$T/old.csv" 2>/dev/null
ok "files without latency: no latency columns" sh -c "! grep -q 'p99' '$T/old.csv'"

# export --gnuplot --latency: the data and the script, not the picture.
"$SCALETOP" export --gnuplot --latency -o "$T/lat" "$A" "$B" >"$T/exp.out" 2>&1
is "$?" 0 "export --gnuplot --latency of two sweeps"
is "$(grep -v '^#' "$T/lat.dat" | grep -c .)" 6 "the data: a row per N and sweep"
like "$(cat "$T/lat.dat")" '
1 1\.368063 6\.684671 6\.684671 6\.684671
2 6\.914047 16\.121855 16\.121855 16\.121855
4 15\.007743 31\.457279 31\.457279 31\.457279
' "A's block: N, p50, p99 and its trials' lowest and highest, as the JSON"
like "$(cat "$T/lat.dat")" '
4 15\.007743 62\.914558 62\.914558 62\.914558$' "B's block ends with its doubled p99 at N=4"
like "$(cat "$T/lat.gp")" 'set logscale y 10' "the script: a log y axis"
like "$(cat "$T/lat.gp")" "set ylabel 'latency \\(ms\\)'" "the script: y in ms"
is "$(grep -c "with linespoints dashtype 2 .*p50'" "$T/lat.gp")" 2 "a p50 line per sweep"
is "$(grep -c "with yerrorlines .*p99'" "$T/lat.gp")" 2 "a p99 line per sweep"
like "$(grep -c "index 1 using 1:3:4:5" "$T/lat.gp")" 1 "B's p99 from its own block"

"$SCALETOP" export --gnuplot --latency -o "$T/old" "$FX/cpu-linux.json" >"$T/old.err" 2>&1
is "$?" 1 "export --latency of a file without latency: refused"
like "$(cat "$T/old.err")" 'cpu-linux\.json has no latency at any N' "the refusal names the file"
is "$(wc -l <"$T/old.err" | tr -d ' ')" 1 "in one line"
ok "nothing written" test ! -e "$T/old.dat"

"$SCALETOP" export --gnuplot --latency --normalise speedup -o "$T/x" "$A" >"$T/n.err" 2>&1
is "$?" 2 "--latency with --normalise: a usage error"

# The verdict's knee: the sweep edited so that throughput rises to N=4 with
# tight intervals while p99 goes from 1.1 ms at N=1 to 9.0 ms at N=2.
"$PYTHON" - "$A" "$T/knee.json" <<'PYEOF'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for s, x, p99 in zip(d["steps"], (500, 950, 1800), (1.1, 9.0, 12.0)):
    s["status"] = "ok"
    s["ops_s"] = x
    s["ops"] = round(x * s["window_s"])
    v = [x * 0.99, x, x * 1.01]
    s["intervals"].update(count=3, mean=x, median=x, min=v[0], max=v[2], samples=v,
                          stddev=statistics.stdev(v), ci95=0.05 * x, ci95_ac=0.05 * x)
    s["latency"].update(mean_ms=p99 / 2, p50_ms=p99 * 0.4, p90_ms=p99 * 0.8, p99_ms=p99,
                        p999_ms=p99 * 1.2, max_ms=p99 * 1.5)
json.dump(d, open(sys.argv[2], "w"))
PYEOF
"$SCALETOP" show "$T/knee.json" >"$T/knee.out" 2>"$T/knee.err"
is "$?" 0 "show a sweep whose tail turns before its peak"
like "$(grep '^verdict:' "$T/knee.out")" \
	'p99 latency x8\.2 from 1 to 2 threads \(1\.1 to 9\.0 ms\) while throughput still rose 89%' \
	"the verdict names the knee, its figures and the rise after it"

done_testing

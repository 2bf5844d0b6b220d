# SPDX-License-Identifier: BSD-2-Clause
# Snapshots from the command line: run -o and --force, show, compare (text
# and CSV), export to gnuplot (rendered when gnuplot is installed), import,
# and the loader's one-line refusals, against real short runs and the
# committed fixtures in tests/fixtures/snapshots.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"
SCHEMA="$top_srcdir/docs/snapshot.schema.json"
FAST="-d 0.4 --warmup 0.1 --interval 0.1 -q"

# valid FILE...: each file passes docs/snapshot.schema.json (needs python3-jsonschema).
valid() {
	"$PYTHON" - "$SCHEMA" "$@" <<'EOF'
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
bad = 0
for f in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(f))):
        print(f, list(e.path), e.message[:160]); bad = 1
sys.exit(bad)
EOF
}

# one_line FILE: the file is exactly one line.
one_line() {
	[ "$(wc -l <"$1" | tr -d ' ')" = 1 ]
}

# --- run -o: a real sweep saved, atomically, never over a file without --force --------
"$SCALETOP" run -w cpu -n 1,2 $FAST -o "$T/a.json" >"$T/a.out" 2>"$T/a.err"
is "$?" 0 "run -o saves and exits 0"
is "$(json_get "$T/a.json" 'd["format"], d["version"]')" "('scaletop-snapshot', 1)" \
	"the file is a version 1 snapshot"
is "$(json_get "$T/a.json" '[s["n"] for s in d["steps"]]')" "[1, 2]" "with every step"
is "$(json_get "$T/a.json" 'd["analysis"]["verdict"] != "" and d["analysis"]["points"][0]["n"] == 1')" \
	"True" "and the analysis as computed at save time"
is "$(json_get "$T/a.json" 'len(d["series"]["ticks"]) > 5 and len(d["series"]["ticks"][0]) == 6')" \
	"True" "and the tick series, with per-CPU busy"
is "$(stat -c %a "$T/a.json" 2>/dev/null || stat -f %Lp "$T/a.json")" 644 "mode 0644"
is "$(ls -a "$T" | grep -c '^\.a\.json')" 0 "no temp file left"
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "the saved file matches docs/snapshot.schema.json" valid "$T/a.json"
	ok "so do the committed fixtures" valid "$FX/cpu-linux.json" "$FX/mutex-linux.json" \
		"$FX/cpu-linux-rerun.json" "$FX/imported.json" "$FX/sysbench-latency.json"
	! valid "$FX/bad-range.json" >/dev/null
	is "$?" 0 "and the schema refuses a percentage of 250"
else
	# The check run installs it: missing, this is a failure, not a skip.
	tap_result 1 "the saved file matches the schema"
	diag "$PYTHON has no jsonschema module: install python3-jsonschema"
fi
cksum <"$T/a.json" >"$T/a.sum"
"$SCALETOP" run -w cpu -n 1 $FAST -o "$T/a.json" >"$T/b.out" 2>"$T/b.err"
is "$?" 2 "run -o over an existing file: usage error, before the sweep"
is "$(cat "$T/b.err")" "scaletop run: -o $T/a.json: the file exists; give --force to replace it, or another name" \
	"  one line saying what to do"
is "$(cksum <"$T/a.json")" "$(cat "$T/a.sum")" "  the old file is untouched"
"$SCALETOP" run -w cpu -n 1,2,3,4 $FAST --force -o "$T/a.json" >/dev/null 2>&1
is "$?" 0 "run -o --force replaces it"
is "$(json_get "$T/a.json" 'len(d["steps"])')" 4 "  with the new sweep"
"$SCALETOP" run -w cpu -n 1 $FAST --force >/dev/null 2>"$T/c.err"
is "$?" 2 "--force without -o is a usage error"
# A folder is named as one before the sweep, with --force too (which once ran
# the whole sweep and then failed with "Is a directory").
mkdir "$T/adir"
"$SCALETOP" run -w cpu -n 1 $FAST -o "$T/adir" >/dev/null 2>"$T/adir.err"
is "$?" 2 "-o FOLDER: a usage error, before the sweep"
is "$(cat "$T/adir.err")" "scaletop run: -o $T/adir: $T/adir is a folder; give a file name, e.g. -o $T/adir/run.json" \
	"  saying it is a folder (not that the file exists)"
"$SCALETOP" run -w cpu -n 1 $FAST -o "$T/adir" --force >"$T/adirf.out" 2>"$T/adirf.err"
is "$?:$(cat "$T/adirf.out")" "2:" "-o FOLDER --force: refused before the sweep (no table)"
like "$(cat "$T/adirf.err")" "^scaletop run: -o $T/adir: $T/adir is a folder" "  saying so"
# Root may write anywhere by access(2), not in /proc: a file is made there and removed.
"$SCALETOP" run -w cpu -n 1 $FAST -o /proc/scaletop-x.json >"$T/proc.out" 2>"$T/proc.err"
is "$?:$(cat "$T/proc.out")" "2:" "-o /proc/x.json: refused before the sweep"
# The reason is the failing create's own, as touch meets it (ENOENT on Linux's /proc).
why=$(touch /proc/scaletop-x.json 2>&1 | sed 's/.*: //')
diag "touch in /proc: $why"
like "$(cat "$T/proc.err")" "^scaletop run: -o /proc/scaletop-x.json: cannot create a file in /proc: $why( \\(a folder that takes no new files\\))?; choose another folder$" \
	"  naming the call that failed, the folder and the create's own reason"
"$SCALETOP" run -w cpu -n 1 $FAST --record "$T/adir" --force >"$T/recd.out" 2>"$T/recd.err"
is "$?:$(cat "$T/recd.out")" "2:" "--record FOLDER --force: refused before the sweep"
like "$(cat "$T/recd.err")" "is a folder; give a file name, e.g. --record $T/adir/run.jsonl" "  saying so"
"$SCALETOP" run -w cpu -n 1 $FAST --record /proc/scaletop-x.jsonl >/dev/null 2>"$T/recp.err"
is "$?" 2 "--record /proc/x.jsonl: refused before the sweep"
is "$(ls -A "$T/adir")" "" "the check leaves nothing behind in the folder it tried"
# A snapshot is renamed over its name: a pipe (or a device) there is refused, not replaced.
mkfifo "$T/fifo"
"$SCALETOP" run -w cpu -n 1 $FAST -o "$T/fifo" --force >"$T/fifo.out" 2>"$T/fifo.err"
is "$?:$(cat "$T/fifo.out")" "2:" "-o PIPE --force: refused before the sweep"
is "$(cat "$T/fifo.err")" "scaletop run: -o $T/fifo: not a regular file, which the new file would replace; give a file name" \
	"  saying why"
ok "  and the pipe is still a pipe" test -p "$T/fifo"
"$SCALETOP" run -w cpu -n 1 $FAST -o "$T/adir/in.json" >/dev/null 2>&1
is "$(ls -A "$T/adir")" "in.json" "  and a file in it is written"
# Root writes anywhere: as root, the check runs as nobody through setpriv.
mkdir "$T/ro" && chmod 555 "$T/ro" && chmod 711 "$T"
AS=
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$AS" ]; then
	$AS "$SCALETOP" run -w cpu -n 1 $FAST -o "$T/ro/x.json" >/dev/null 2>"$T/ro.err"
	is "$?" 2 "-o into a read-only folder is refused before the sweep"
	is "$(cat "$T/ro.err")" "scaletop run: -o $T/ro/x.json: cannot create a file in $T/ro: Permission denied; choose another folder" \
		"  one line saying why and what to do"
else
	skip "root without setpriv (test_snapshot checks EACCES as nobody)" \
		"-o into a read-only folder"
fi

# --- show ---------------------------------------------------------------------------
"$SCALETOP" show "$T/a.json" >"$T/show.out" 2>"$T/show.err"
is "$?" 0 "show exits 0"
like "$(sed -n 1p "$T/show.out")" "^$T/a.json: .+, taken [0-9T:-]+Z by scaletop " \
	"show names the file, label, time and tool"
like "$(cat "$T/show.out")" "$(printf '\n') +N +ops/s +±CI +p50 +p99 +speedup" "show prints run's table, the built-in's latency too"
is "$(grep -cE '^ +[1-4] +[0-9.]+[kMG]? ' "$T/show.out")" 4 "  one row per step"
like "$(cat "$T/show.out")" "verdict: " "  and the verdict"
is "$(cat "$T/show.err")" "" "  no warning: the saved analysis agrees"
"$SCALETOP" show "$FX/imported.json" >"$T/imp.out"
like "$(cat "$T/imp.out")" "collapse above 16: 21% of peak at 64" "show of the imported fixture: its collapse"
like "$(cat "$T/imp.out")" "USL: sigma 0 \(fixed\)  kappa 0\.006955 ±0\.0011  lambda 1065 ±90  \(± one standard error" \
	"  the USL parameters with their standard errors, a fixed one marked"
like "$(cat "$T/imp.out")" "larger term: coherency at N 64 \(the largest measured\), coherency at N\* 12\.0" \
	"  which term is the larger at the largest N and at N*"
is "$(grep -c extrapolation "$T/imp.out")" 0 "  N* 12 within the measured 64 is not an extrapolation"
# X(N) = 100 N / (1 + 0.02 (N-1) + 0.0002 N (N-1)) at N 1..16: N* = 70, beyond 2 x 16.
printf '1,100\n2,196.0016\n4,376.5060\n6,542.4955\n8,694.9270\n12,962.7728\n16,1186.9436\n' >"$T/far.csv"
"$SCALETOP" import --csv "$T/far.csv" --label far -o "$T/far.json" 2>/dev/null
"$SCALETOP" show "$T/far.json" >"$T/far.out" 2>&1
like "$(cat "$T/far.out")" "larger term: contention at N 16 \(the largest measured\), contention at N\* 70\.0 .*, an extrapolation beyond 2x the largest N" \
	"show: an N* beyond 2x the largest N is called an extrapolation"

# --- compare --------------------------------------------------------------------------
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" "$FX/mutex-linux.json" \
	>"$T/cmp.out" 2>"$T/cmp.err"
is "$?" 0 "compare of three fixtures exits 0"
like "$(sed -n 1p "$T/cmp.out")" "^A: vm Linux .+ \(.*cpu-linux.json, taken 2026-" "a legend line per snapshot"
is "$(grep -c '^warning: ' "$T/cmp.out")" 1 "one warning: only C ran another workload"
like "$(grep '^warning: ' "$T/cmp.out")" "A ran cpu \(threads, work=1000\) ops, C ran mutex \(processes" \
	"  naming both workloads"
like "$(cat "$T/cmp.out")" "^     N     A ops/s     B ops/s     C ops/s     B/A      B-A        95% CI       C/A      C-A        95% CI$" \
	"the table: N, each snapshot, each ratio to A, each difference and its CI"
is "$(awk '/^ +N /{on=1; next} on && NF == 0 {exit} on {print $1}' "$T/cmp.out" | tr '\n' ' ')" \
	"1 2 3 4 6 " "aligned on the union of N"
like "$(grep '^ *3 ' "$T/cmp.out")" "^ +3 +[0-9.]+k +- +[0-9.]+M +- +- +- +[4-9][0-9.]*x +\+[0-9.]+% +- \*$" \
	"an N one snapshot lacks shows -; one trial a side: C's 5x, past what a rerun moves, without a CI but *"
like "$(cat "$T/cmp.out")" "peak: +B peak = [0-9.]+x A peak \(A at 1, B at 4\)" "peak against peak"
like "$(cat "$T/cmp.out")" "C peak = [0-9.]+x A peak \(A at 1, C at 6\)" "  for every snapshot"
like "$(cat "$T/cmp.out")" "collapse: A: at 4 threads, 75% of peak at 4" "collapse side by side"
like "$(cat "$T/cmp.out")" "          C: none up to 6 processes" "  for each"
is "$(awk '/^verdict:/{on=1} /^USL:/{on=0} on' "$T/cmp.out" | grep -cE '^(verdict: | {9}) [ABC]: ')" 3 \
	"a verdict per snapshot"
like "$(cat "$T/cmp.out")" "  sigma +1 +[0-9.e+-]+ +0.78" "USL parameters side by side"
like "$(cat "$T/cmp.out")" "  N\* +1 +- +inf" "  with N* infinite for an Amdahl fit, - without a fit"
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" >"$T/same.out"
is "$(grep -c '^warning' "$T/same.out")" 0 "no warning when the workloads are the same"

# The CSV is the same table, each ratio really B/A.
"$SCALETOP" compare --csv "$FX/cpu-linux.json" "$FX/mutex-linux.json" >"$T/cmp.csv" 2>"$T/csv.err"
is "$?" 0 "compare --csv exits 0"
is "$(sed -n 1p "$T/cmp.csv")" 'n,"A: vm Linux 6.18.44-fc-v669 ops/s","B: vm Linux 6.18.44-fc-v669 ops/s",B/A,A ci95,B ci95,B-A %,B-A lo95 %,B-A hi95 %,B significant,A jain,A starved,B jain,B starved' \
	"CSV header: n, each snapshot, the ratio, the CIs, the difference, the fairness"
is "$(wc -l <"$T/cmp.csv" | tr -d ' ')" 6 "a row per N"
is "$("$PYTHON" - "$T/cmp.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
good = all(abs(float(r[3]) - float(r[2]) / float(r[1])) < 1e-12 * float(r[3])
           for r in rows if r[1] and r[2])
print(good and [r[0] for r in rows] == ['1', '2', '3', '4', '6'] and rows[-1][1] == '' and rows[-1][3] == '')
EOF
)" True "each ratio is B/A; an N A lacks is empty"
like "$(cat "$T/csv.err")" "^warning: A ran cpu" "the workload warning goes to stderr"
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/mutex-linux.json" >"$T/cmp2.out"
is "$(awk '/^ +N /{on=1; next} on && NF == 0 {exit} on && $4 != "-" {print $1, $4}' "$T/cmp2.out")" \
	"$("$PYTHON" - "$T/cmp.csv" <<'EOF'
import csv, sys
for r in list(csv.reader(open(sys.argv[1])))[1:]:
    if r[3]:
        print(r[0], "%.2fx" % float(r[3]))
EOF
)" "the text table's ratios are the CSV's, rounded"

# A live run against a fixture: both are read the same way.
"$SCALETOP" compare "$T/a.json" "$FX/cpu-linux.json" >"$T/live.out" 2>&1
is "$?" 0 "compare a fresh run with a fixture"

# --- trials and the boot id ---------------------------------------------------------------
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "a sweep of 4 trials with its boot id matches the schema" valid "$FX/cpu-trials-a.json"
	"$PYTHON" - "$FX/cpu-trials-a.json" "$T/bad-trial.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["steps"][0]["trial"] = -1
json.dump(d, open(sys.argv[2], "w"))
EOF
	! valid "$T/bad-trial.json" >/dev/null
	is "$?" 0 "  and the schema refuses a trial of -1"
else
	tap_result 1 "a sweep of 4 trials matches the schema"
	diag "$PYTHON has no jsonschema module: install python3-jsonschema"
fi
is "$(json_get "$FX/cpu-trials-a.json" 'd["settings"]["trials"], sorted(set(s["trial"] for s in d["steps"])), d["host"]["boot_id"]')" \
	"(4, [0, 1, 2, 3], '34673e70-3f48-40bb-930c-2fa84aaf27c4')" \
	"the file says its 4 trials, each step's trial and the boot"
"$SCALETOP" show "$FX/cpu-trials-a.json" >"$T/trials.out"
is "$(grep -c '(trial [1-4])$' "$T/trials.out")" 12 "show: each of the 12 rows says its trial"
like "$(cat "$T/trials.out")" "kernel: .*boot 34673e70-3f48-40bb-930c-2fa84aaf27c4" "  and the boot"
"$PYTHON" - "$FX/cpu-trials-a.json" "$T/bad-trial.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["steps"][3]["trial"] = "two"
json.dump(d, open(sys.argv[2], "w"))
EOF
"$SCALETOP" show "$T/bad-trial.json" >/dev/null 2>"$T/bad-trial.err"
is "$?" 1 "a trial that is not an integer is refused"
like "$(cat "$T/bad-trial.err")" "steps\[3\]\.trial" "  naming the field"

# --- targets and waits ------------------------------------------------------------------
# mutex-waits.json and mutex-waits-b.json are mutex-linux.json (a real run) with synthetic
# target figures and wait profiles added (tests/unit/test_target_json checks them in C).
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "a snapshot with a target and waits matches the schema" valid "$FX/mutex-waits.json" \
		"$FX/mutex-waits-b.json"
	"$PYTHON" - "$FX/mutex-waits.json" "$T/bad-waits.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["steps"][0]["waits"][0]["state"] = "napping"
json.dump(d, open(sys.argv[2], "w"))
EOF
	! valid "$T/bad-waits.json" >/dev/null
	is "$?" 0 "  and the schema refuses an unknown wait state"
else
	tap_result 1 "a snapshot with a target and waits matches the schema"
	diag "$PYTHON has no jsonschema module: install python3-jsonschema"
fi
"$SCALETOP" compare "$FX/mutex-waits.json" "$FX/mutex-waits-b.json" >"$T/w.out" 2>"$T/w.err"
is "$?" 0 "compare of two snapshots with waits exits 0"
like "$(cat "$T/w.out")" "waits: the largest lines of each family's share of its thread-time at N" \
	"  with a waits section"
like "$(cat "$T/w.out")" "     6  workload  sleeping         futex_wait_queue +30\.0% +54\.0% +\+24\.0" \
	"  each line: A's share, B's, and the difference in points"
like "$(cat "$T/w.out")" "     N  family    state            channel +A +B +B-A" "  under a header"
like "$(cat "$T/w.out")" "     6    A      1      14   0\.60   0\.42   0\.18   30\.0     9\.00      0\.12   18\.0    1\.40M      -" \
	"  and the target's figures, A's"
like "$(cat "$T/w.out")" "     6    B      -       -      -" "  next to B's, which has none"
is "$(awk 'NF == 0 {on=1} on {print} /^  B: fitted/ {exit}' "$T/w.out")" \
	"$("$SCALETOP" compare "$FX/mutex-linux.json" "$FX/mutex-linux.json" | sed -n '/^$/,$p')" \
	"  above them the table, peaks, verdicts and USL as ever"
"$SCALETOP" compare --csv --csv-waits "$T/w.csv" --csv-target "$T/tg.csv" "$FX/mutex-waits.json" \
	"$FX/mutex-waits-b.json" >/dev/null 2>&1
is "$?" 0 "compare --csv --csv-waits --csv-target exits 0"
is "$(sed -n 1p "$T/w.csv")" 'n,family,state,channel,A share %,B share %,B-A points' \
	"  a waits table with the same columns"
is "$(grep -c '^6,workload,sleeping,"futex_wait_queue",30,54,24$' "$T/w.csv")" 1 "  the same line"
like "$(sed -n 1p "$T/tg.csv")" '^n,snapshot,procs,threads,cpu_used,' "  and a target table"
"$SCALETOP" show "$FX/mutex-waits.json" >"$T/w-show.out" 2>&1
is "$?" 0 "show reads a snapshot with a target and waits"
"$SCALETOP" export --gnuplot "$FX/mutex-waits.json" -o "$T/w-curve" >/dev/null 2>&1
ok "  so does export" test -s "$T/w-curve.dat"

# --- export -------------------------------------------------------------------------
"$SCALETOP" export --gnuplot "$FX/imported.json" "$FX/cpu-linux.json" -o "$T/curve" \
	>"$T/exp.out" 2>"$T/exp.err"
is "$?" 0 "export --gnuplot exits 0"
ok "it writes the data file" test -s "$T/curve.dat"
is "$(grep -c '^[0-9]' "$T/curve.dat")" 11 "  with a row per point of each snapshot"
is "$(grep -c '^# [AB]: ' "$T/curve.dat")" 2 "  in one block per snapshot"
like "$(cat "$T/curve.gp")" "uslA\(x\) = x < 1 \? 1/0 : 1064\.66" "the script has A's USL curve"
like "$(cat "$T/curve.gp")" "idealA\(x\) = x < 1 \? 1/0 : 1000 \* x" "  its ideal line"
like "$(cat "$T/curve.gp")" "set label 'peak A' at 16,7000 " "  its peak mark"
like "$(cat "$T/curve.gp")" "set label 'collapse A' at 32,4200 " "  its collapse mark"
like "$(cat "$T/curve.gp")" "index 1 using 1:2:3 with yerrorlines .* title 'B: [^']*vm Linux" \
	"  and B's points"
if command -v gnuplot >/dev/null 2>&1; then
	is "$(od -An -c -N4 "$T/curve.png" | tr -d ' ')" '211PNG' "gnuplot rendered curve.png"
	# Above it, the warning that transactions/s of clients and ops/s of threads share a plot.
	is "$(tail -n 1 "$T/exp.err")" "scaletop export: wrote $T/curve.dat, $T/curve.gp and $T/curve.png" \
		"  and export says what it wrote"
	"$SCALETOP" export --gnuplot --svg "$FX/imported.json" -o "$T/curve" >/dev/null 2>&1
	is "$?" 1 "export over existing files without --force fails"
	"$SCALETOP" export --gnuplot --force "$FX/imported.json" -o "$T/curve.svg" >/dev/null 2>&1
	is "$?" 0 "with --force it replaces them; -o NAME.svg picks SVG"
	like "$(head -c 400 "$T/curve.svg")" "<svg" "  an SVG"
else
	tap_result 1 "gnuplot rendered curve.png"
	diag "gnuplot is missing: install gnuplot-nox"
fi
PATH=/nonexistent "$SCALETOP" export --gnuplot "$FX/imported.json" -o "$T/nognu" >/dev/null 2>"$T/nognu.err"
is "$?" 0 "without gnuplot, export still writes the files"
like "$(cat "$T/nognu.err")" "gnuplot is not installed, so no $T/nognu.png: run 'gnuplot $T/nognu.gp' where it is" \
	"  and says how to render them"

# --- import ----------------------------------------------------------------------------
"$SCALETOP" import --csv "$FX/published.csv" --label "paper" --desc "Table 3" \
	--unit transactions --n-unit clients -o "$T/pub.json" 2>"$T/pub.err"
is "$?" 0 "import exits 0"
is "$(json_get "$T/pub.json" 'd["workload"]["name"], d["workload"]["params"]["description"], d["label"]')" \
	"('imported', 'Table 3', 'paper')" "an imported workload, its description and label"
is "$(json_get "$T/pub.json" '[(s["n"], s["ops_s"]) for s in d["steps"]][:3]')" \
	"[(1, 1000.0), (2, 1950.0), (4, 3700.0)]" "every line a step"
is "$(json_get "$T/pub.json" 'd["steps"][2]["intervals"]["count"], d["steps"][2]["intervals"]["stddev"]')" \
	"(5, 120.0)" "stddev and runs kept"
"$SCALETOP" compare "$T/pub.json" "$T/a.json" >/dev/null 2>&1
is "$?" 0 "an import compares with a run"
printf '1,100\n2,fast\n' >"$T/bad.csv"
"$SCALETOP" import --csv "$T/bad.csv" --label x -o "$T/bad.json" >/dev/null 2>"$T/bad.err"
is "$?" 1 "bad CSV: exit 1"
is "$(cat "$T/bad.err")" "scaletop import: $T/bad.csv:2:3: 'fast': expected a throughput, a number > 0" \
	"  one line naming file:line:column and what was expected"
ok "  no snapshot written" test ! -e "$T/bad.json"
"$SCALETOP" import --csv "$FX/published.csv" --label x -o "$T/pub.json" >/dev/null 2>&1
is "$?" 1 "import over an existing snapshot without --force fails"

# --- the loader's refusals, one line each -----------------------------------------------
refuses() {
	"$SCALETOP" show "$FX/$1" >/dev/null 2>"$T/ref.err"
	is "$?" 1 "show $1: exit 1"
	is "$(cat "$T/ref.err")" "scaletop show: $FX/$2" "  $3"
}
refuses not-json.json "not-json.json:4:13: not JSON: invalid token near 'vm'; expected a JSON snapshot" \
	"not JSON: line:column"
refuses truncated.json "truncated.json:51:98: truncated: '}' expected near end of file; expected a JSON snapshot" \
	"a truncated file"
refuses bad-version.json "bad-version.json: version: 2 is newer than this scaletop reads (1); use a newer scaletop" \
	"an unknown major version"
refuses bad-type.json "bad-type.json: steps[1].ops_s: expected a number or null, got a string" \
	"a wrong type, by field path"
refuses bad-range.json "bad-range.json: steps[0].cpu.per_cpu[0].usr: 250 is out of range; expected a number from 0 to 100" \
	"a value out of range"
refuses missing-field.json "missing-field.json: settings: missing; expected an object" \
	"a missing required field"
# A step's stats out of order, each of the four orders in turn: two fixtures
# (median below min, mean above max), two copies edited here.
refuses order-median.json "order-median.json: steps[1].intervals: min 261764, median 130882, mean 267776, max 279683; expected min <= median, mean <= max" \
	"a median below the min, by field path"
refuses order-mean.json "order-mean.json: steps[1].intervals: min 261764, median 266175, mean 419524, max 279683; expected min <= median, mean <= max" \
	"a mean above the max"
"$PYTHON" - "$FX/cpu-linux.json" "$T" <<'EOF'
import json, sys
for name, field, other in (("median-high", "median", "max"), ("mean-low", "mean", "min")):
    d = json.load(open(sys.argv[1]))
    iv = d["steps"][1]["intervals"]
    iv[field] = iv[other] * (1.5 if other == "max" else 0.5)
    json.dump(d, open("%s/order-%s.json" % (sys.argv[2], name), "w"))
EOF
for o in median-high mean-low; do
	"$SCALETOP" compare "$FX/cpu-linux.json" "$T/order-$o.json" >/dev/null 2>"$T/ord.err"
	is "$?" 1 "compare refuses a step whose stats are out of order ($o)"
	like "$(cat "$T/ord.err")" "^scaletop compare: $T/order-$o\.json: steps\[1\]\.intervals: min [0-9]+, median [0-9]+, mean [0-9]+, max [0-9]+; expected min <= median, mean <= max$" \
		"  in one line naming the field path"
done
head -c 67108865 /dev/zero >"$T/huge.json"
"$SCALETOP" show "$T/huge.json" >/dev/null 2>"$T/huge.err"
is "$(cat "$T/huge.err")" "scaletop show: $T/huge.json: over the 64 MiB a snapshot may have; not a snapshot, or a damaged one" \
	"a file over the size cap"
rm -f "$T/huge.json"
"$PYTHON" - "$FX/cpu-linux.json" "$T/edited.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["analysis"]["peak"]["n"] = 4
json.dump(d, open(sys.argv[2], "w"))
EOF
"$SCALETOP" show "$T/edited.json" >/dev/null 2>"$T/edited.err"
is "$?" 0 "an edited analysis still shows"
like "$(cat "$T/edited.err")" "^scaletop show: warning: $T/edited.json: the saved analysis \(scaletop [^)]+\) differs from the one recomputed now: peak was .* at N=4, is now .* at N=1; showing the recomputed one$" \
	"  with a one-line warning saying what differs"

# --- usage errors -----------------------------------------------------------------------
usage() {
	"$SCALETOP" "$@" >/dev/null 2>"$T/use.err"
	is "$?" 2 "$* exits 2"
	ok "  with one line" one_line "$T/use.err"
}
usage show
usage show --bogus "$FX/imported.json"
usage compare "$FX/imported.json"
usage export -o "$T/x" "$FX/imported.json"
usage export --gnuplot "$FX/imported.json"
usage import --csv "$T/far.csv" -o "$T/y.json"
usage import --csv "$FX/published.csv" --label x
usage import --label x -o "$T/y.json"
usage run -w cpu -o -

# --- a file the old TUI wrote after a shorter N list (issue 21): read, with a warning ----
# stale-ticks.json: scaletop 0.1.0's TUI, -n 1,2,4 -o, then n 1,2, s and q.  Its ticks
# name step 2 of a 2-step sweep; every copy of that sweep was refused.
STALE="$FX/stale-ticks.json"
WARN='warning: .*stale-ticks[.]json: dropped 3 ticks that named a step the file does not hold'
"$SCALETOP" show "$STALE" >"$T/stale.out" 2>"$T/stale.err"
is "$?" 0 "show reads the old TUI's file whose ticks name a step it does not hold"
like "$(cat "$T/stale.err")" "^scaletop show: $WARN" "  with a warning of what it dropped"
like "$(cat "$T/stale.out")" '^ +2 ' "  and both its steps"
"$SCALETOP" compare "$STALE" "$FX/cpu-linux.json" >"$T/stale.cmp" 2>"$T/stale.cerr"
is "$?" 0 "compare reads it"
like "$(cat "$T/stale.cerr")" "^scaletop compare: $WARN" "  with the warning"
mkdir -p "$T/stale/scaletop/runs"
cp "$STALE" "$T/stale/scaletop/runs/scaletop-cpu-vm-20261201-224424.json"
XDG_DATA_HOME="$T/stale" "$SCALETOP" runs >"$T/stale.runs" 2>&1
is "$?" 0 "the runs view reads it"
like "$(sed -n 3p "$T/stale.runs")" ' cpu work=1000 +vm +1-2 +2 ' "  as a row with its 2 steps"
like "$(sed -n 5p "$T/stale.runs")" "^  warning: dropped 3 ticks that named a step" \
	"  and the warning under its file"
is "$(grep -c 'cannot read' "$T/stale.runs")" 0 "  not as a file it cannot read"

# --- show --save of a recording cut mid-step: the step under way is not in the file ----
# Its events and ticks named that step, and show refused what show --save wrote
# (events[1].step: 1 is out of range).
"$PYTHON" - "$top_srcdir/tests/fixtures/streams/cpu-1-2.jsonl" "$T/cut.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
steps = [i for i, l in enumerate(lines) if json.loads(l)["type"] == "step"]
open(sys.argv[2], "w").write("\n".join(lines[:steps[1]]) + "\n")
EOF
"$SCALETOP" show --save "$T/cut.json" "$T/cut.jsonl" >/dev/null 2>"$T/cut.err"
is "$?" 0 "show --save writes a recording cut in its second step"
"$SCALETOP" show "$T/cut.json" >"$T/cut.out" 2>"$T/cut.err"
is "$?" 0 "  and show reads what it wrote"
is "$(cat "$T/cut.err")" "" "  without a warning"
is "$(json_get "$T/cut.json" \
	'[e["step"] for e in d["events"] if (e["step"] or 0) >= len(d["steps"])]')" \
	"[]" "  no event names the step under way"

done_testing

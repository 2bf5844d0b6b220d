# SPDX-License-Identifier: BSD-2-Clause
# Output a tool can read (issue 21, section 5): each output of compare and
# export is one table a CSV reader or gnuplot takes whole, its series told
# apart, its error bars inside the frame; and the figures the snapshot holds
# (imported sds, waits, the target's, USL's standard errors, fairness) reach
# show, compare, export and the stream.  Recorded fixtures only: no sweep runs.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX=$top_srcdir/tests/fixtures/snapshots

# one_line FILE: the file is exactly one line.
one_line() {
	[ "$(wc -l <"$1" | tr -d ' ')" = 1 ]
}

# one_table FILE [FIRST]: prints "ok ROWS" when a CSV reader finds one header (its first
# column FIRST, n by default) and rows of its width.
one_table() {
	"$PYTHON" - "$1" "${2:-n}" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = [i + 1 for i, r in enumerate(rows) if len(r) != len(rows[0])]
heads = [i + 1 for i, r in enumerate(rows) if r and r[0] == sys.argv[2]]
print("ok %d" % (len(rows) - 1) if rows and not bad and heads == [1]
      else "rows %s of another width, headers at %s" % (bad, heads))
EOF
}

# --- compare --csv: one table on stdout, the others each in a file of its own ------
"$SCALETOP" compare --csv "$FX/mutex-waits.json" "$FX/mutex-waits-b.json" >"$T/c.csv" 2>/dev/null
is "$?" 0 "compare --csv of snapshots with targets and waits exits 0"
is "$(one_table "$T/c.csv")" "ok 5" "  stdout is one table: one header, a row per N"
"$SCALETOP" compare --csv --csv-waits "$T/w.csv" --csv-target "$T/t.csv" "$FX/mutex-waits.json" \
	"$FX/mutex-waits-b.json" >"$T/c2.csv" 2>/dev/null
is "$?" 0 "compare --csv-waits FILE --csv-target FILE exits 0"
is "$(cmp "$T/c.csv" "$T/c2.csv" && echo same)" same "  stdout is the same table"
like "$(one_table "$T/w.csv")" "^ok [1-9]" "  the waits file is one table"
like "$(one_table "$T/t.csv")" "^ok [1-9]" "  the targets' file is one table"
is "$("$PYTHON" - "$T/w.csv" "$T/t.csv" <<'EOF'
import csv, sys
w = list(csv.DictReader(open(sys.argv[1])))
t = list(csv.DictReader(open(sys.argv[2])))
print(any(r["n"] == "6" and r["channel"] == "futex_wait_queue" and r["B-A points"] == "24" for r in w),
      [r["snapshot"] for r in t if r["n"] == "1"], t[0]["procs"])
EOF
)" "True ['A', 'B'] 1" "  with the waits' and the targets' figures"
"$SCALETOP" compare --csv-waits "$T/w.csv" "$FX/mutex-waits.json" "$FX/mutex-waits-b.json" \
	>/dev/null 2>"$T/exists.err"
is "$?" 1 "an existing --csv-waits file is kept (exit 1)"
ok "  saying so in one line" one_line "$T/exists.err"
"$SCALETOP" compare --force --csv-waits "$T/w.csv" "$FX/mutex-waits.json" \
	"$FX/mutex-waits-b.json" >/dev/null 2>&1
is "$?" 0 "  replaced with --force"
"$SCALETOP" compare --csv-waits "$T/x.csv" --csv-target "$T/x.csv" "$FX/mutex-waits.json" \
	"$FX/mutex-waits-b.json" >/dev/null 2>&1
is "$?" 2 "one file for both tables is a usage error"
"$SCALETOP" compare --csv-waits "$T/nw.csv" "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" \
	>/dev/null 2>&1
is "$(cat "$T/nw.csv")" "n,family,state,channel,A share %,B share %,B-A points" \
	"  without waits, the file is the header alone"

# --- export --gnuplot: each series' title tells it apart -------------------------------
# gp_titles BASE: each plotted series' title, one a line.
gp_titles() {
	sed -n "s/.* with yerrorlines .* title '\(.*\)'.*/\1/p" "$1.gp"
}
mkdir "$T/other"
cp "$FX/cpu-linux.json" "$T/other/cpu-linux.json"
"$SCALETOP" export --gnuplot -o "$T/cmp" "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" \
	"$T/other/cpu-linux.json" >/dev/null 2>&1
is "$?" 0 "export --gnuplot of three snapshots of one host and kernel exits 0"
gp_titles "$T/cmp" >"$T/titles"
diag "$(cat "$T/titles")"
is "$(sed 's/^[A-Z]: //' "$T/titles" | sort -u | wc -l | tr -d ' ')" 3 \
	"  the three titles differ beyond their letters"
is "$(grep -c "^B: cpu-linux-rerun\.json, taken 2026-11-29T23:39:13Z$" "$T/titles")" 1 \
	"  each names its file, and the time where the times differ"
is "$(grep -c "^C: $T/other/cpu-linux\.json, " "$T/titles")" 1 \
	"  a file name two snapshots share is given whole"

# --- export --gnuplot: the y-range holds every error bar -------------------------------
# A mean of 3 runs with a wide spread at N=2: its CI (t(2) 4.30 x 150 / sqrt 3 = 373)
# reaches 553, above 1.3 times any point.
printf 'threads,x,x_sd,x_runs\n1,100,6,3\n2,180,150,3\n4,170,8,3\n' >"$T/wide.csv"
"$SCALETOP" import --csv "$T/wide.csv" --label wide -o "$T/wide.json" >/dev/null 2>&1 ||
	bail_out "import of a wide table failed"
# bars_fit BASE: "ok" when the y-range's top is at or above every y + err of BASE.dat.
bars_fit() {
	"$PYTHON" - "$1" <<'EOF'
import re, sys
rows = [l.split() for l in open(sys.argv[1] + ".dat") if l.strip() and l[0] != "#"]
top = max(float(r[1]) + float(r[2]) for r in rows)
m = re.search(r"^set yrange \[0:(\S+)\]$", open(sys.argv[1] + ".gp").read(), re.M)
print("ok" if m and float(m.group(1)) >= top else "top bar %g, yrange %s" % (top, m and m.group(1)))
EOF
}
for norm in "" speedup efficiency; do
	"$SCALETOP" export --gnuplot ${norm:+--normalise $norm} -o "$T/wide$norm" "$T/wide.json" \
		>/dev/null 2>&1
	is "$(bars_fit "$T/wide$norm")" ok \
		"export${norm:+ --normalise $norm}: the y-range holds the top error bar"
done

# --- import: a standard deviation with its count is a CI in show; without, it says sd ---
printf 'threads,x,x_sd,x_runs\n1,100,5,4\n2,190,9.5,\n4,300,,\n' >"$T/sd.csv"
"$SCALETOP" import --csv "$T/sd.csv" --label sd -o "$T/sd.json" >/dev/null 2>&1 ||
	bail_out "import of $T/sd.csv failed"
"$SCALETOP" show "$T/sd.json" >"$T/sd.out" 2>&1
is "$?" 0 "show of an import with _sd and _runs exits 0"
# 4 runs, sd 5 of 100: t(3) 3.182 x 5 / sqrt 4 = 7.96, so 8.0% of the mean.
is "$(awk '$1 == 1 && $2 == 100 {print $3}' "$T/sd.out")" "8.0%" \
	"  sd with its count of runs: the 95% CI, t(3) x sd / sqrt(4), in show's ±CI"
is "$(awk '$1 == 2 && $2 == 190 {print $3}' "$T/sd.out")" "sd5.0%" \
	"  sd without a count: the table says sd, 5.0% of the mean"
is "$(awk '$1 == 4 && $2 == 300 {print $3}' "$T/sd.out")" "-" "  neither: -"
is "$(grep -c '^sd: a standard deviation in % of the mean, given without its count' "$T/sd.out")" 1 \
	"  and a line under the table says what sd means"
is "$("$SCALETOP" show "$FX/cpu-linux.json" | grep -c 'sd')" 0 "  a run's table has no sd"

# --- show prints the waits, as run's table does ------------------------------------------
"$SCALETOP" show "$FX/mutex-waits.json" >"$T/w-show.out" 2>&1
is "$("$PYTHON" - "$FX/mutex-waits.json" "$T/w-show.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\nwaits: ", 1)
if len(text) < 2:
    print("no waits section")
    sys.exit()
# each step's top line of each family, as show names it, with its share to 0.1
want = []
for st in d["steps"]:
    for fam in ("workload", "target", "probe"):
        ws = [w for w in st["waits"] if w["family"] == fam]
        if ws:
            w = ws[0]
            name = w["channel"] or w["state"]
            if w["state"] == "uninterruptible":
                name = "D:" + (w["channel"] or "?")
            want.append("%s %s %.1f%%" % (fam, name, 100 * w["share"]))
lines = text[1].split("\nverdict:")[0].splitlines()[1:]
got = []
for l in lines:
    f = l.split()
    if f and f[0].isdigit():
        f = f[1:]
    got.append("%s %s %s" % (f[0], f[1], f[2]))
print("ok" if got == want else ("got", got, "want", want))
EOF
)" ok "show prints each step's waits, family by family, as in the snapshot"

# --- export --gnuplot: the target's figures, in the data and on the right axis -----------
"$SCALETOP" export --gnuplot -o "$T/tg" "$FX/mutex-waits.json" "$FX/mutex-linux.json" >/dev/null 2>&1
is "$?" 0 "export --gnuplot of a snapshot with a target beside one without exits 0"
is "$("$PYTHON" - "$FX/mutex-waits.json" "$T/tg" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
gp = open(sys.argv[2] + ".gp").read()
blocks = open(sys.argv[2] + ".dat").read().split("\n\n\n")
head = [l for l in blocks[0].splitlines() if l.startswith("# columns: ")][0]
cols = [c.strip() for c in head[len("# columns: "):].split(";")[0].split(",")]
bad = []
m = re.search(r"index 0 using 1:(\d+) with linespoints .* axes x1y2 title 'A target CPUs'", gp)
if not m:
    bad.append("no target curve of A on the right axis")
elif cols[int(m.group(1)) - 1] != "target_cpu_used":
    bad.append("A's target curve plots column %s, %s" % (m.group(1), cols[int(m.group(1)) - 1]))
if "title 'B target CPUs'" in gp:
    bad.append("B, without a target, has a target curve")
if not re.search(r"^set y2label 'target: CPUs used", gp, re.M):
    bad.append("no y2label")
rows = [l.split() for l in blocks[0].splitlines() if l and l[0] != "#"]
want = {st["n"]: st["target"] for st in d["steps"]}
for r in rows:
    t = want[int(r[0])]
    for k in ("procs", "threads", "cpu_used", "machine_pct", "run_delay_pct", "ops_per_cpu_s"):
        got = float(r[cols.index("target_" + k)])
        if abs(got - t[k]) > 1e-9 * max(1, abs(t[k])):
            bad.append("N=%s %s: %s, want %s" % (r[0], k, got, t[k]))
    if r[cols.index("target_psi_some_pct")] != "NaN":
        bad.append("N=%s: psi, not measured, is %s" % (r[0], r[cols.index("target_psi_some_pct")]))
rows_b = [l.split() for l in blocks[1].splitlines() if l and l[0] != "#"]
if any(r[cols.index("target_procs")] != "NaN" for r in rows_b):
    bad.append("B's rows have target figures")
print(bad or "ok")
EOF
)" ok "  the data has each step's target figures (NaN where not measured), plotted as CPUs used on y2"

# --- compare and export: the USL fits' standard errors and the workers' fairness ---------
# mutex-linux.json (a real run, before fairness was kept) with per-worker counts added: at
# N=6 one worker of six did nothing.
"$PYTHON" - "$FX/mutex-linux.json" "$T/fair.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for st in d["steps"]:
    n = st["n"]
    st["fairness"] = {"workers": n, "min": 0 if n == 6 else 1000, "median": 1500.0,
                      "max": 2000, "jain": round(0.9 - 0.01 * n, 2), "starved": 1 if n == 6 else 0}
json.dump(d, open(sys.argv[2], "w"))
EOF
"$SCALETOP" compare "$T/fair.json" "$FX/cpu-linux.json" >"$T/f.out" 2>&1
is "$?" 0 "compare of a snapshot with fairness beside one without exits 0"
is "$("$PYTHON" - "$T/fair.json" "$FX/cpu-linux.json" "$T/f.out" <<'EOF'
import json, sys
snaps = [json.load(open(f))["analysis"]["usl"] for f in sys.argv[1:3]]
lines = open(sys.argv[3]).read().splitlines()
bad = []
for p in ("sigma", "kappa", "lambda"):
    i = next(i for i, l in enumerate(lines) if l.split()[:1] == [p])
    se = lines[i + 1].split()
    if se[:2] != ["±", "se"]:
        bad.append("no se under %s: %s" % (p, lines[i + 1]))
        continue
    want = ["±%.2g" % u["se_" + p] if u["se_" + p] is not None else "fixed" for u in snaps]
    if se[2:] != want:
        bad.append("%s: %s, want %s" % (p, se[2:], want))
print(bad or "ok")
EOF
)" ok "  the USL table has each parameter's standard error under it, 'fixed' at a bound"
is "$(awk '/^fairness:/{on=1; next} on && NF == 0 {exit} on {print}' "$T/f.out" | tr -s ' ' | tr '\n' '|')" \
	" N A B| 1 0.89/0 -| 2 0.88/0 -| 3 0.87/0 -| 4 0.86/0 -| 6 0.84/1 -|" \
	"  and a fairness section: Jain's index / starved at each N, '-' without counts"
"$SCALETOP" compare --csv-usl "$T/usl.csv" "$T/fair.json" "$FX/cpu-linux.json" >/dev/null 2>&1
is "$?" 0 "compare --csv-usl FILE exits 0"
like "$(one_table "$T/usl.csv" snapshot)" "^ok 2$" "  the --csv-usl file is one table, a row per snapshot"
is "$("$PYTHON" - "$T/fair.json" "$T/usl.csv" <<'EOF'
import csv, json, sys
u = json.load(open(sys.argv[1]))["analysis"]["usl"]
r = list(csv.DictReader(open(sys.argv[2])))[0]
ok = all(abs(float(r[k]) - u[j]) <= 1e-12 * abs(u[j]) for k, j in
         (("sigma", "sigma"), ("sigma_se", "se_sigma"), ("lambda", "lambda"), ("lambda_se", "se_lambda")))
print(ok, r["kappa_se"] == "", r["fit"], r["points"])
EOF
)" "True True amdahl 5" "  with each parameter and its se (empty where fixed), the fit and its points"
"$SCALETOP" compare --csv "$T/fair.json" "$FX/cpu-linux.json" >"$T/f.csv" 2>/dev/null
is "$("$PYTHON" - "$T/f.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print([(r["n"], r["A jain"], r["A starved"], r["B jain"]) for r in rows if r["n"] in ("1", "6")])
EOF
)" "[('1', '0.89', '0', ''), ('6', '0.84', '1', '')]" "compare --csv: each snapshot's jain and starved at each N"
"$SCALETOP" compare --markdown "$T/fair.json" "$FX/cpu-linux.json" >"$T/f.md" 2>/dev/null
is "$(grep -E '^\| (sigma|kappa) \|' "$T/f.md" | tr '\n' '/')" \
	"| sigma | 0.7833 ± 0.068 | 1 (fixed) |/| kappa | 0 (fixed) | 0.1011 ± 0.023 |/" \
	"compare --markdown: a USL table, each parameter ± its se"
is "$(grep -cE '^\| [0-9]+ \| 0\.[0-9]{2}/[01] \| - \|$' "$T/f.md")" 5 \
	"  and a fairness table, a row per N"
"$SCALETOP" export --gnuplot -o "$T/fx" "$T/fair.json" "$FX/cpu-linux.json" >/dev/null 2>&1
is "$?" 0 "export --gnuplot of them exits 0"
is "$("$PYTHON" - "$T/fair.json" "$FX/cpu-linux.json" "$T/fx" <<'EOF'
import json, re, sys
us = [json.load(open(f))["analysis"]["usl"] for f in sys.argv[1:3]]
gp = open(sys.argv[3] + ".gp").read()
blocks = open(sys.argv[3] + ".dat").read().split("\n\n\n")
head = [l for l in blocks[0].splitlines() if l.startswith("# columns: ")][0]
cols = [c.strip() for c in head[len("# columns: "):].split(";")[0].split(",")]
bad = []
for i, u in enumerate(us):
    c = "AB"[i]
    m = re.search(r"^# usl%s's standard errors: sigma (\S+), kappa (\S+), lambda (\S+)$" % c, gp, re.M)
    if not m:
        bad.append("no se line for %s" % c)
        continue
    for g, k in zip(m.groups(), ("se_sigma", "se_kappa", "se_lambda")):
        if (g == "fixed") != (u[k] is None) or (g != "fixed" and abs(float(g) - u[k]) > 1e-9 * u[k]):
            bad.append("%s %s: %s, want %s" % (c, k, g, u[k]))
    if not re.search(r"usl%s\(x\) with lines .* title '%s USL: sigma [^']*±" % (c, c), gp):
        bad.append("%s's USL title has no ±" % c)
rows = [l.split() for l in blocks[0].splitlines() if l and l[0] != "#"]
got = [(r[0], r[cols.index("jain")], r[cols.index("starved")]) for r in rows]
if got != [("1", "0.89", "0"), ("2", "0.88", "0"), ("3", "0.87", "0"), ("4", "0.86", "0"), ("6", "0.84", "1")]:
    bad.append("A's fairness columns: %s" % got)
rows = [l.split() for l in blocks[1].splitlines() if l and l[0] != "#"]
if any(r[cols.index("jain")] != "NaN" for r in rows):
    bad.append("B has fairness figures")
print(bad or "ok")
EOF
)" ok "  the script has each USL fit's standard errors, the data each N's jain and starved"

done_testing

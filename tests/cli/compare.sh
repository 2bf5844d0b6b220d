# compare's statistics through the real binary: the same workload swept
# twice is no difference at any N and passes the gate; half the work per
# operation is about -50%, significant at every N, and fails the gate (exit
# 3); the Markdown and CSV read back give the text's numbers; --baseline and
# three snapshots; --noise; usage errors.  docs/statistics.md has the rules.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"
SWEEP="-w cpu -n 1,2 -d 1 --warmup 0.2 --interval 0.1 -q"

one_line() {
	[ "$(wc -l <"$1" | tr -d ' ')" = 1 ]
}

# summary FILE: compare's summary lines, between the legend and warnings and the table.
summary() {
	awk 'NF == 0 { exit } !/^[A-Z]: / && !/^warning: /' "$1"
}

# The machine the suite runs on is shared (a load of 3 to 8 on 2 CPUs while
# this was written), and a sweep run after another sees a different load from
# everything else: same-workload reruns measured here moved by 6 to 25% with
# tight CIs, once by 100% (docs/statistics.md).  No statistic can tell that
# from a change in what was measured, so:
# - the sweeps compared run at the same time: the same workload twice
#   unpinned (both share whatever load there is), each N three times
#   (--repeat 3, so the runs' means are the unit); work=1000 against
#   work=2000 once a N for 2 s (20 intervals: a burst of other load on one
#   CPU is then a smaller part of the window), unpinned too: pinned each to
#   a CPU of its own, the pair was at the mercy of whatever else ran on one
#   of them (a suite running two tests at once starved A's CPU at N=1 and
#   made -50% read -8.5%), where the scheduler shares the load between them;
# - the noise floor is this machine's, 30%, as docs/statistics.md tells a
#   user on a shared machine to set it; -50% is far beyond it.  The default
#   floor (5%) is checked on recorded snapshots below.
# - a pair whose figures the machine's load moved past that is swept again,
#   up to three times in all (the figures of each try go to the log).  The
#   two pairs keep each other honest: a compare that never found a
#   difference would fail the second pair every time, one that always did
#   the first.
NOISE="--noise 30"
TRIES=3
ABOUT_HALF='(3[5-9]|[45][0-9]|6[0-5])\.[0-9]' # -35 to -65%: about -50%

# sweeps_same: the same workload twice at the same time, unpinned.
sweeps_same() {
	"$SCALETOP" run $SWEEP -d 0.5 --repeat 3 -o "$T/a.json" --force >/dev/null 2>"$T/a.err" &
	_p=$!
	"$SCALETOP" run $SWEEP -d 0.5 --repeat 3 -o "$T/b.json" --force >/dev/null 2>"$T/b.err"
	_s=$?
	wait "$_p" && [ "$_s" -eq 0 ] || bail_out "a sweep failed: $(cat "$T/a.err" "$T/b.err")"
	"$SCALETOP" compare $NOISE "$T/a.json" "$T/b.json" >"$T/same.out" 2>&1
	summary "$T/same.out" | grep -q '^no difference proven between A and B at any N$'
}

# sweeps_half: work=1000 beside work=2000, unpinned.
sweeps_half() {
	"$SCALETOP" run $SWEEP -d 2 -p work=1000 -o "$T/c.json" --force \
		>/dev/null 2>"$T/c.err" &
	_p=$!
	"$SCALETOP" run $SWEEP -d 2 -p work=2000 -o "$T/h.json" --force \
		>/dev/null 2>"$T/h.err"
	_s=$?
	wait "$_p" && [ "$_s" -eq 0 ] || bail_out "a sweep failed: $(cat "$T/c.err" "$T/h.err")"
	"$SCALETOP" compare $NOISE "$T/c.json" "$T/h.json" >"$T/half.out" 2>&1
	[ "$(grep -cE "^  N=[12]: B -$ABOUT_HALF% ± [0-9.]+% \(95%\)$" "$T/half.out")" -eq 2 ]
}

# tries NAME: runs sweeps_NAME until it holds, at most TRIES times.
tries() {
	_i=1
	until "sweeps_$1"; do
		diag "try $_i of sweeps_$1: the load moved the figures: $(grep ' N=' "$T/$1.out" | tr '\n' ';')"
		[ "$_i" -ge "$TRIES" ] && return
		_i=$((_i + 1))
	done
	diag "sweeps_$1 held at try $_i"
}
tries same
tries half

# --- the same workload twice --------------------------------------------------------
"$SCALETOP" compare $NOISE "$T/a.json" "$T/b.json" >"$T/same.out" 2>&1
is "$?" 0 "compare of the same workload swept twice exits 0"
like "$(summary "$T/same.out")" "^no difference proven between A and B at any N$" \
	"  the summary: no difference proven at any N"
is "$(grep -cE '^  N=[12]: no difference proven \(B [-+][0-9.]+% ± [0-9.]+%' "$T/same.out")" 2 \
	"  and at each N, in words"
[ "$(grep -c 'no difference proven' "$T/same.out")" -ge 3 ] || diag "$(cat "$T/same.out")"
"$SCALETOP" compare $NOISE --fail-on-regression 5 "$T/a.json" "$T/b.json" >/dev/null 2>"$T/gate0.err"
is "$?" 0 "  the gate at 5% exits 0"

# --- half the work per operation: twice the operations per second ------------------
# A is work=1000, B work=2000: B is about -50%; the other way round about +100%.
"$SCALETOP" compare $NOISE "$T/c.json" "$T/h.json" >"$T/half.out" 2>&1
is "$?" 0 "compare of work=1000 against work=2000 exits 0"
like "$(summary "$T/half.out")" "^B is $ABOUT_HALF% slower \(95% CI [0-9.]+-[0-9.]+%\) over N=1\.\.2" \
	"  the summary: B is about 50% slower (35 to 65%), with its CI"
is "$(grep -cE "^  N=[12]: B -$ABOUT_HALF% ± [0-9.]+% \(95%\)$" "$T/half.out")" 2 \
	"  about -50% at every N, significant"
[ "$(grep -cE '^  N=[12]: B -' "$T/half.out")" -eq 2 ] || diag "$(cat "$T/half.out")"
"$SCALETOP" compare $NOISE --fail-on-regression 5 "$T/c.json" "$T/h.json" >/dev/null 2>"$T/gate.err"
is "$?" 3 "  the gate at 5% exits 3"
ok "  saying why in one line" one_line "$T/gate.err"
"$SCALETOP" compare $NOISE --fail-on-regression 5 "$T/h.json" "$T/c.json" >/dev/null 2>&1
is "$?" 0 "  faster is no regression: exit 0"
"$SCALETOP" compare $NOISE --fail-on-regression 90 "$T/c.json" "$T/h.json" >/dev/null 2>&1
is "$?" 0 "  nor is -50% at a 90% gate"

# --- the CSV and the Markdown read back give the text's numbers ---------------------
"$SCALETOP" compare $NOISE --csv "$T/c.json" "$T/h.json" >"$T/half.csv" 2>/dev/null
is "$?" 0 "compare --csv exits 0"
"$SCALETOP" compare $NOISE --markdown "$T/c.json" "$T/h.json" >"$T/half.md" 2>/dev/null
is "$?" 0 "compare --markdown exits 0"
is "$("$PYTHON" - "$T/half.out" "$T/half.csv" "$T/half.md" <<'EOF'
import csv, sys
text = open(sys.argv[1]).read().splitlines()
# the text table: "N A B B/A B-A ±95% [*]"
start = next(i for i, l in enumerate(text) if l.split()[:1] == ["N"])
rows = {}
for l in text[start + 1:]:
    if not l.strip():
        break
    f = l.split()
    rows[f[0]] = (f[3], f[4], f[5], len(f) > 6 and f[6] == "*")
# the first table, up to the blank line before the waits' and targets' tables
lines = open(sys.argv[2]).read().split("\n\n")[0].splitlines()
c = list(csv.DictReader(lines))
# the throughput's table, the first: its rows up to the blank line after it
md = open(sys.argv[3]).read().split("\n| N |", 1)[1].split("\n\n")[0].splitlines()[2:]
bad = []
for r in c:
    t = rows[r["n"]]
    got = ("%.2fx" % float(r["B/A"]), "%+.1f%%" % float(r["B-A %"]),
           "%.1f%%" % float(r["B-A ci95 %"]), r["B significant"] == "1")
    if got != t:
        bad.append(("csv", r["n"], got, t))
for l in md:
    cells = [x.strip() for x in l.strip("|").split("|")]
    t = rows[cells[0]]
    got = (cells[3], cells[4], cells[5], cells[6] == "\\*")
    if got != t:
        bad.append(("md", cells[0], got, t))
print(bad or ("ok", len(c), len(md)))
EOF
)" "('ok', 2, 2)" "the CSV's and the Markdown's B/A, B-A, CI and mark are the text's at each N"
like "$(sed -n 1p "$T/half.md")" "^\*\*B is [0-9.]+% slower \(95% CI [0-9.]+-[0-9.]+%\) over N=1\.\.2.*\*\*$" \
	"  the Markdown starts with the summary"
is "$(grep -c '^|---:|---:|---:|---:|---:|---:|:-:|$' "$T/half.md")" 1 "  and has a GitHub table"

# --- more than two, and --baseline ------------------------------------------------
"$SCALETOP" compare $NOISE "$T/c.json" "$T/h.json" "$T/a.json" >"$T/three.out" 2>&1
is "$?" 0 "compare of three snapshots exits 0"
"$SCALETOP" compare $NOISE "$T/c.json" "$T/a.json" >"$T/ca.out" 2>&1
is "$(summary "$T/three.out")" "$(summary "$T/half.out"; summary "$T/ca.out" | sed 's/\bB\b/C/g')" \
	"  a summary of B against A, then of C against A, as in the pairs"
is "$(grep -c ' against A at each N' "$T/three.out")" 2 "  a paragraph of N lines for each"
like "$(grep '^     N ' "$T/three.out")" "B/A +B-A +±95% +C/A +C-A +±95%$" "  columns for each"
"$SCALETOP" compare $NOISE --baseline "$T/h.json" "$T/c.json" "$T/a.json" >"$T/base.out" 2>&1
is "$?" 0 "compare --baseline exits 0"
like "$(sed -n 1p "$T/base.out")" "^A: .*\(.*/h\.json, taken " "  the baseline is A"
like "$(summary "$T/base.out" | sed -n 1p)" "^B is (5[0-9]|[6-9][0-9]|1[0-9][0-9])\.[0-9]% faster" \
	"  and B, work=1000, is about twice as fast as it"
"$SCALETOP" compare $NOISE --baseline "$T/c.json" "$T/h.json" >"$T/base2.out" 2>&1
is "$(summary "$T/base2.out")" "$(summary "$T/half.out")" "--baseline A B is compare A B"

# --- the noise floor and the gate on recorded snapshots (the same cpu workload rerun) -
# At N=1 the rerun is -19.6% +- 8.1%: Welch's t says it differs.
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" >"$T/fx.out"
like "$(cat "$T/fx.out")" "  N=1: B -19\.6% ± 8\.1% \(95%\)" "a rerun 19.6% slower with a tight CI differs"
is "$(summary "$T/fx.out")" \
	"no difference proven between A and B over N=1..4 as a whole; B differs at N=1, 4 (below); B does not collapse, A does at 4" \
	"  the summary: the geometric mean proves nothing, two N differ, and the collapses"
like "$(cat "$T/fx.out")" "  N=2: no difference proven \(B -1\.3% ± 3\.5%\)" \
	"  -1.3% inside its CI does not"
"$SCALETOP" compare --noise 25 "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" >"$T/fx25.out"
like "$(cat "$T/fx25.out")" "  N=1: no difference proven \(B -19\.6% ± 8\.1%, within the 25% noise floor\)" \
	"  --noise 25: within the noise floor"
like "$(summary "$T/fx25.out")" "^no difference proven between A and B at any N" "  nothing proven at any N"
"$SCALETOP" compare --fail-on-regression 19 "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" \
	>/dev/null 2>&1
is "$?" 3 "the gate at 19%: -19.6% fails it"
"$SCALETOP" compare --fail-on-regression 20 "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" \
	>/dev/null 2>&1
is "$?" 0 "  at 20% it passes"
"$SCALETOP" compare --noise 25 --fail-on-regression 5 "$FX/cpu-linux.json" \
	"$FX/cpu-linux-rerun.json" >/dev/null 2>&1
is "$?" 0 "  and a difference inside the noise floor never fails it"
like "$(grep '^peak:' "$T/fx.out")" "^peak: +B peak = 0\.88x A peak \(A at 1, B at 4\); A 310k ± [0-9.]+k, B 274k ± [0-9.]+k: B -11\.6% ± [0-9.]+% \(95%\)$" \
	"peak against peak, each with its CI"

# --- usage errors ------------------------------------------------------------------
usage() {
	"$SCALETOP" compare "$@" >/dev/null 2>"$T/use.err"
	is "$?" 2 "compare $* exits 2"
	ok "  with one line" one_line "$T/use.err"
}
usage --noise -1 "$T/a.json" "$T/b.json"
like "$(cat "$T/use.err")" "--noise '-1': give a percentage from 0" "  naming the value"
usage --noise 5x "$T/a.json" "$T/b.json"
usage --fail-on-regression 0 "$T/a.json" "$T/b.json"
like "$(cat "$T/use.err")" "--fail-on-regression '0': give a percentage above 0" "  naming the value"
usage --fail-on-regression 100 "$T/a.json" "$T/b.json"
usage --fail-on-regression "$T/a.json" "$T/b.json"
usage --csv --markdown "$T/a.json" "$T/b.json"
usage --baseline "$T/a.json"
"$SCALETOP" compare --fail-on-regression 5 "$T/a.json" "$T/missing.json" >/dev/null 2>&1
is "$?" 1 "a missing snapshot is a runtime error (1), gate or not"

done_testing

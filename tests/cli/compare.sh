# SPDX-License-Identifier: BSD-2-Clause
# compare's statistics through the real binary, with trials as the unit:
# the same workload swept twice (3 trials each) is no difference at any N
# and passes the gate; half the work per operation is about -50%,
# significant at every N, and fails the gate (exit 3); the Markdown and CSV
# read back give the text's numbers; --baseline and three snapshots;
# recorded one-run snapshots are too few trials (exit 4 at the gate);
# recorded 4-trial sweeps: --noise, --run-noise, the gate, the shape of a mix, sides
# made of files, the self-check; usage errors.  docs/statistics.md has the
# rules.
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

# summary FILE: compare's summary lines, between the legend, warnings and notes and
# the lines on trials.
summary() {
	awk 'NF == 0 || /^trials: / { exit } !/^[A-Z]: / && !/^warning: / && !/^note: /' "$1"
}

# The machine the suite runs on is shared (a load of 3 to 8 on 2 CPUs while
# this was written), and a sweep run after another sees a different load from
# everything else: same-workload reruns measured here moved by 6 to 25% with
# tight CIs, once by 100% (docs/statistics.md).  No statistic can tell that
# from a change in what was measured, so:
# - the sweeps compared run at the same time, on one CPU that both share: the
#   same workload twice, the sweep three times (--trials 3, the trials' means
#   are the unit); work=1000 against work=2000 in 5 trials of 0.5 s a N.
#   Within one CPU the scheduler gives each runnable thread the same share,
#   whatever else runs there, so a load moves both sides alike.  Unpinned, a
#   third busy process beside the two sweeps kept one of them to half a CPU
#   while the other had a CPU of its own (the suite's own tests at -j2 made
#   -50% read -23 to -35% at N=1, three tries in a row); pinned each to a CPU
#   of its own, the pair was at the mercy of whatever ran on one of them (-50%
#   read -8.5%);
# - the noise floor is this machine's, 30%, as docs/statistics.md tells a
#   user on a shared machine to set it; -50% is far beyond it.  The default
#   floor (5%) is checked on recorded snapshots below.
# - a pair whose figures the machine's load moved past that is swept again,
#   up to TRIES times in all (the figures of each try go to the log).  The
#   two pairs keep each other honest: a compare that never found a
#   difference would fail the second pair every time, one that always did
#   the first.  Five tries, not three: beside a valgrind'd 256-thread sweep
#   (a minute of every CPU taken) three tries of the half pair in a row left
#   one N's trials too scattered for significance (CI +-43 to +-75%).
NOISE="--noise 30"
TRIES=5
ABOUT_HALF='(3[5-9]|[45][0-9]|6[0-5])\.[0-9]' # -35 to -65%: about -50%
# an N line of the same workload twice: an interval that holds 0, or one inside the floor
SAME_SUM='^(no difference proven between A and B at any N|B [-+][0-9.]+% over N=1\.\.2 is within the 30% noise floor \(95% CI [-+][0-9.]+% to [-+][0-9.]+%\))$'
# the label of an N where a side's steps were noisy (docs/statistics.md), which a busy machine makes
NOISY_TAIL='(; (A|B|A and B) (is|are) noisy here \(CI (up to )?\+-[0-9]+%\))?'
SAME_N='^  N=[12]: (no difference proven \(B [-+][0-9.]+%, 95% CI -[0-9.]+% to \+[0-9.]+%\)|within the 30% noise floor \(B [-+][0-9.]+%, 95% CI [-+][0-9.]+% to [-+][0-9.]+%\))'"$NOISY_TAIL"'$'


# ONE_CPU: the first CPU this test may run on, that both sweeps of a pair share.
ONE_CPU=$(awk '/^Cpus_allowed_list:/ { split($2, a, "[-,]"); print a[1] }' /proc/self/status)
[ -n "$ONE_CPU" ] || bail_out "no Cpus_allowed_list in /proc/self/status: the pairs need one CPU to share"
PIN="taskset -c $ONE_CPU"
command -v taskset >/dev/null || bail_out "taskset is missing: install util-linux"

# sweeps_same: the same workload twice at the same time, on one CPU.
sweeps_same() {
	$PIN "$SCALETOP" run $SWEEP -d 0.5 --trials 3 -o "$T/a.json" --force >/dev/null 2>"$T/a.err" &
	_p=$!
	$PIN "$SCALETOP" run $SWEEP -d 0.5 --trials 3 -o "$T/b.json" --force >/dev/null 2>"$T/b.err"
	_s=$?
	wait "$_p" && [ "$_s" -eq 0 ] || bail_out "a sweep failed: $(cat "$T/a.err" "$T/b.err")"
	"$SCALETOP" compare $NOISE "$T/a.json" "$T/b.json" >"$T/same.out" 2>&1
	summary "$T/same.out" | grep -qE "$SAME_SUM" &&
		[ "$(grep -cE "$SAME_N" "$T/same.out")" -eq 2 ]
}

# sweeps_half: work=1000 beside work=2000, on one CPU.
sweeps_half() {
	$PIN "$SCALETOP" run $SWEEP -d 0.5 --trials 5 -p work=1000 -o "$T/c.json" --force \
		>/dev/null 2>"$T/c.err" &
	_p=$!
	$PIN "$SCALETOP" run $SWEEP -d 0.5 --trials 5 -p work=2000 -o "$T/h.json" --force \
		>/dev/null 2>"$T/h.err"
	_s=$?
	wait "$_p" && [ "$_s" -eq 0 ] || bail_out "a sweep failed: $(cat "$T/c.err" "$T/h.err")"
	"$SCALETOP" compare $NOISE "$T/c.json" "$T/h.json" >"$T/half.out" 2>&1
	[ "$(grep -cE "^  N=[12]: B -$ABOUT_HALF% \(95% CI -[0-9.]+% to -[0-9.]+%\)$NOISY_TAIL$" "$T/half.out")" -eq 2 ]
}

# tries NAME: runs sweeps_NAME until it holds, at most TRIES times.
tries() {
	_i=1
	until "sweeps_$1"; do
		diag "try $_i of sweeps_$1: the load moved the figures: $(summary "$T/$1.out"; grep '^  N=' "$T/$1.out" | tr '\n' ';')"
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
like "$(summary "$T/same.out")" "$SAME_SUM" \
	"  the summary: no difference proven at any N, or one inside the floor"
is "$(grep -cE "$SAME_N" "$T/same.out")" 2 \
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
is "$(grep -cE "^  N=[12]: B -$ABOUT_HALF% \(95% CI -[0-9.]+% to -[0-9.]+%\)$NOISY_TAIL$" "$T/half.out")" 2 \
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
# the text table: "N A B B/A B-A LO..HI [*]"
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
           "%+.1f..%+.1f" % (float(r["B-A lo95 %"]), float(r["B-A hi95 %"])),
           r["B significant"] == "1")
    if got != t:
        bad.append(("csv", r["n"], got, t))
for l in md:
    cells = [x.strip() for x in l.strip("|").split("|")]
    t = rows[cells[0]]
    got = (cells[3], cells[4], cells[5].replace("% to ", "..").rstrip("%"), cells[6] == "\\*")
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
like "$(grep '^     N ' "$T/three.out")" "B/A +B-A +95% CI +C/A +C-A +95% CI$" "  columns for each"
"$SCALETOP" compare $NOISE --baseline "$T/h.json" "$T/c.json" "$T/a.json" >"$T/base.out" 2>&1
is "$?" 0 "compare --baseline exits 0"
like "$(sed -n 1p "$T/base.out")" "^A: .*\(.*/h\.json, taken " "  the baseline is A"
like "$(summary "$T/base.out" | sed -n 1p)" "^B is (5[0-9]|[6-9][0-9]|1[0-9][0-9])\.[0-9]% faster" \
	"  and B, work=1000, is about twice as fast as it"
"$SCALETOP" compare $NOISE --baseline "$T/c.json" "$T/h.json" >"$T/base2.out" 2>&1
is "$(summary "$T/base2.out")" "$(summary "$T/half.out")" "--baseline A B is compare A B"

# --- recorded one-run snapshots: too few trials, and the gate's fourth answer -------
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" >"$T/fx.out"
is "$?" 0 "compare of two one-run snapshots exits 0"
is "$(summary "$T/fx.out")" \
	"one trial a side: B -2.2% over N=1..4 cannot be told from rerun noise; give 3 or more (run --trials 3); B does not collapse, A does at 4" \
	"  the summary: one trial a side, the point estimate, and what to run"
like "$(cat "$T/fx.out")" "  N=1: no test, one trial a side \(3 needed\): B -19\.6% cannot be told from rerun noise" \
	"  -19.6% at N=1 with a tight within-run CI is no longer a difference"
is "$(grep -c '^  N=[124]: no test, one trial a side (3 needed)' "$T/fx.out")" 3 \
	"  nor is any N"
like "$(grep '^trials:' "$T/fx.out")" "^trials: A 1 from 1 file, boot not recorded; B 1 from 1 file" \
	"  the trials line: one each, no boot id in these old files"
like "$(grep '^peak:' "$T/fx.out")" "^peak: +B peak = 0\.88x A peak \(A at 1, B at 4\); A 310k ± [0-9.]+k, B 274k ± [0-9.]+k: no test, one trial a side" \
	"peak against peak, each with its CI, and no test"
"$SCALETOP" compare --fail-on-regression 19 "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" \
	>/dev/null 2>"$T/few.err"
is "$?" 4 "the gate with one trial a side exits 4: neither passed nor failed"
ok "  saying why in one line" one_line "$T/few.err"
like "$(cat "$T/few.err")" "too few trials a side .*run --trials 3" "  and what to run"
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" >/dev/null 2>&1
is "$?" 0 "  without the gate it exits 0"

# --- recorded 4-trial sweeps of cpu, one after the other, on a machine at a load of 8 --
A4="$FX/cpu-trials-a.json"
B4="$FX/cpu-trials-b.json"
"$SCALETOP" compare "$A4" "$B4" >"$T/tr.out"
is "$(summary "$T/tr.out")" \
	"no difference proven between A and B over N=1..4 as a whole; B differs at N=2 (below)" \
	"4 trials a side: the trials' scores prove nothing; N=2 differs"
is "$(grep -E '^  N=' "$T/tr.out")" "  N=1: no difference proven (B +18.0%, 95% CI -28.4% to +94.4%); B is noisy here (CI +-73%)
  N=2: B +32.4% (95% CI +12.0% to +56.6%); A and B are noisy here (CI up to +-75%)
  N=4: no difference proven (B +17.2%, 95% CI -3.3% to +42.0%); B is noisy here (CI +-37%)" \
	"  each N from the logs of the trials' means: N=2 +32.4%, +12.0% to +56.6%"
like "$(grep '^trials:' "$T/tr.out")" "^trials: A 4 from 1 file, in 1 boot; B 4 from 1 file, in 1 boot$" \
	"  4 trials a side, each in one boot"
like "$(cat "$T/tr.out")" "every trial ran in one boot \(34673e70\.\.\.\): what a reboot moves is not in the test" \
	"  and the same boot: a reboot's variation is not measured"
is "$(grep -c '^self-check: [AB].s trials 1-2 against 3-4: no difference proven$' "$T/tr.out")" 2 \
	"  the self-check of each side: its halves do not differ"
like "$(grep '^steadiness: A' "$T/tr.out")" "^steadiness: A: 6 of 12 runs swing .*worst N=2, trial 1, 22%" \
	"  the steadiness line counts the runs whose intervals swing"
is "$(grep -c '^load:' "$T/tr.out")" 0 "  run delays 8 points apart (75% and 83%): no load line"
"$PYTHON" - "$B4" "$T/busy.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["steps"]:
    c = s["contention"]
    if c.get("run_delay_pct") is not None:
        c["run_delay_pct"] = min(100.0, c["run_delay_pct"] + 20)
json.dump(d, open(sys.argv[2], "w"))
EOF
"$SCALETOP" compare "$A4" "$T/busy.json" >"$T/busy.out" 2>&1
like "$(grep '^load:' "$T/busy.out")" "^load: B's workers waited for a CPU 9[0-9]% of their time at N up to the CPUs, A's 83%: other jobs took CPUs from B" \
	"B's workers 12 points more runnable, not running: a load line names B"
"$SCALETOP" compare --noise 35 "$A4" "$B4" >"$T/tr35.out"
like "$(cat "$T/tr35.out")" "  N=2: within the 35% noise floor \(B \+32\.4%, 95% CI \+12\.0% to \+56\.6%\)" \
	"--noise 35: N=2 is within the noise floor"
like "$(summary "$T/tr35.out")" "^no difference proven between A and B at any N$" "  nothing proven at any N"
"$SCALETOP" compare --fail-on-regression 5 "$B4" "$A4" >/dev/null 2>&1
is "$?" 3 "the gate, the other way round: -24.5% at N=2 fails at 5%"
"$SCALETOP" compare --fail-on-regression 25 "$B4" "$A4" >/dev/null 2>&1
is "$?" 0 "  at 25% it passes"
"$SCALETOP" compare --noise 35 --fail-on-regression 5 "$B4" "$A4" >/dev/null 2>&1
is "$?" 0 "  and a difference inside the noise floor never fails it"
"$SCALETOP" compare --fail-on-regression 5 "$A4" "$B4" >/dev/null 2>&1
is "$?" 0 "  faster is no regression"

# --- a run's own noise: trials that agree to 1%, one run a side, then three -----------
# Each file is A4 cut to 3 trials whose throughput is set: 100, 101, 99% of A4's
# first trial at each N on side A, 6% more on side B.  One run a side cannot
# show what a rerun moves, so 3% of each mean is allowed for it and +6% is not
# proven; the same trials as three files a side carry it in their spread.
"$PYTHON" - "$A4" "$T" <<'EOF'
import copy, json, sys
d = json.load(open(sys.argv[1]))
base = {s["n"]: s["ops_s"] for s in d["steps"] if s["trial"] == 0}
def write(path, scale, trials):
    out = copy.deepcopy(d)
    out["steps"] = [s for s in out["steps"] if s["trial"] in trials and s["rep"] == 0]
    for s in out["steps"]:
        s["ops_s"] = base[s["n"]] * scale * (1.00, 1.01, 0.99)[s["trial"]]
        s["status"] = "ok"
        if len(trials) == 1:
            s["trial"] = 0
    out["settings"]["trials"] = len(trials)
    json.dump(out, open(path, "w"))
for side, scale in (("a", 1.0), ("b", 1.06)):
    write("%s/run-%s.json" % (sys.argv[2], side), scale, (0, 1, 2))
    for t in range(3):
        write("%s/run-%s%d.json" % (sys.argv[2], side, t + 1), scale, (t,))
EOF
"$SCALETOP" compare "$T/run-a.json" "$T/run-b.json" >"$T/run.out"
"$SCALETOP" compare --run-noise 0 "$T/run-a.json" "$T/run-b.json" >"$T/run0.out"
"$SCALETOP" compare "$T/run-a1.json" "$T/run-a2.json" "$T/run-a3.json" -- \
	"$T/run-b1.json" "$T/run-b2.json" "$T/run-b3.json" >"$T/run3.out"
like "$(grep '^run noise:' "$T/run.out")" "^run noise: A and B come from fewer than 3 runs each, whose trials cannot show what a rerun moves: 3% of each mean is allowed for it \(--run-noise; 3 files a side measure it instead\)$" \
	"one run a side: the run noise line says what is allowed for and why"
like "$(grep '^  N=1:' "$T/run.out")" "^  N=1: no difference proven \(B \+6\.0%, 95% CI -[0-9.]+% to \+[0-9.]+%\)$" \
	"  and +6% from trials that agree to 1% is not proven at N=1"
is "$(summary "$T/run.out")" "no difference proven between A and B at any N" "  nor over N"
like "$(grep '^  N=1:' "$T/run0.out")" "^  N=1: B \+6\.0% \(95% CI \+[0-9.]+% to \+[0-9.]+%\)$" \
	"--run-noise 0: the trials alone prove it"
like "$(summary "$T/run0.out")" "^B is 6\.0% faster" "  over N too"
"$SCALETOP" compare --run-noise 0 --noise 10 "$T/run-a.json" "$T/run-b.json" >"$T/run10.out"
like "$(grep '^  N=1:' "$T/run10.out")" "^  N=1: within the 10% noise floor \(B \+6\.0%, 95% CI \+[0-9.]+% to \+[0-9.]+%\)$" \
	"  --noise 10: +6% whose CI excludes 0 is within the floor, not 'no difference proven'"
like "$(summary "$T/run10.out")" "^B \+6\.0% over N=1\.\.4 is within the 10% noise floor \(95% CI \+[0-9.]+% to \+[0-9.]+%\)$" \
	"  the summary says so too"
is "$(grep -c '^run noise:' "$T/run0.out")" 0 "  and there is no run noise line"
is "$(grep -c '^run noise:' "$T/run3.out")" 0 "three files a side: no allowance"
is "$(grep -E '^  N=' "$T/run3.out")" "$(grep -E '^  N=' "$T/run0.out")" \
	"  the same trials as three runs a side are judged by their spread alone"

# --- a mix: spinlock is faster at N=1 and collapses at N=4 ---------------------------
"$SCALETOP" compare "$A4" "$FX/spinlock-trials.json" >"$T/mix.out" 2>&1
like "$(summary "$T/mix.out")" "^B is faster at N=1 and slower at N=4 \(below\); a mix: the trials' geometric mean over N=1\.\.4, 0\.06x, says neither; B collapses at 4, A does not$" \
	"a mix says where B is faster and where slower, before any average"
like "$(cat "$T/mix.out")" "  N=2: no test, A has 4 trials, B 2 \(3 needed\)" \
	"  N=2, where a trial of B failed, has too few trials"
"$SCALETOP" compare --fail-on-regression 50 "$A4" "$FX/spinlock-trials.json" >/dev/null 2>&1
is "$?" 3 "  the gate fails on N=4 though N=2 had too few"

# --- sides made of files --------------------------------------------------------------
"$SCALETOP" compare "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json" -- "$A4" >"$T/side.out"
is "$?" 0 "compare A1 A2 -- B exits 0"
like "$(sed -n 1p "$T/side.out")" "^A: .*cpu-linux\.json and 1 more, taken " "  A is two files"
like "$(summary "$T/side.out")" "^A has 2 trials, B 4: B -[0-9.]+% over N=1\.\.4 cannot be told from rerun noise" \
	"  their one trial each pool into 2: still too few"
"$SCALETOP" compare "$A4" -- "$B4" "$FX/cpu-linux.json" >"$T/side2.out"
like "$(grep '^trials:' "$T/side2.out")" "^trials: A 4 from 1 file, in 1 boot; B 5 from 2 files, in 1 boot, 1 file without a boot id$" \
	"  4 trials and 1 pool into 5, the boots counted"
like "$(grep '^self-check: B' "$T/side2.out")" "^self-check: B's trials 1-2 against 3-5" \
	"  the self-check splits the pooled side"
like "$(cat "$T/side2.out")" "  N=3: no test: A has no usable run" "  the N lists join (cpu-linux has N=3)"
"$SCALETOP" compare "$A4" -- "$B4" "$FX/mutex-linux.json" >/dev/null 2>"$T/side3.err"
is "$?" 0 "a side of two workloads is compared"
like "$(cat "$T/side3.err")" "^scaletop compare: warning: .*mutex-linux\.json: workload mutex, but .*cpu-trials-b\.json of the same side ran cpu" \
	"  with a warning naming both files and workloads"
"$SCALETOP" compare "$A4" -- "$A4" >"$T/self.out"
is "$(summary "$T/self.out")" "no difference proven between A and B at any N" "a side against itself"

# --- usage errors ------------------------------------------------------------------
usage() {
	"$SCALETOP" compare "$@" >/dev/null 2>"$T/use.err"
	is "$?" 2 "compare $* exits 2"
	ok "  with one line" one_line "$T/use.err"
}
usage --noise -1 "$T/a.json" "$T/b.json"
like "$(cat "$T/use.err")" "--noise '-1': give a percentage from 0" "  naming the value"
usage --noise 5x "$T/a.json" "$T/b.json"
usage --run-noise abc "$T/a.json" "$T/b.json"
like "$(cat "$T/use.err")" "--run-noise 'abc': give a percentage from 0 \(none\) to below 100, e\.g\. --run-noise 3" \
	"  naming the value and an example"
usage --fail-on-regression 0 "$T/a.json" "$T/b.json"
like "$(cat "$T/use.err")" "--fail-on-regression '0': give a percentage above 0" "  naming the value"
usage --fail-on-regression 100 "$T/a.json" "$T/b.json"
usage --fail-on-regression "$T/a.json" "$T/b.json"
usage --csv --markdown "$T/a.json" "$T/b.json"
usage --baseline "$T/a.json"
usage "$T/a.json" -- -- "$T/b.json"
like "$(cat "$T/use.err")" "a side without files" "  naming what is wrong"
usage --baseline "$T/a.json" "$T/a.json" -- "$T/b.json"
like "$(cat "$T/use.err")" "give --baseline or sides split by '--', not both" "  naming both"
"$SCALETOP" compare --fail-on-regression 5 "$T/a.json" "$T/missing.json" >/dev/null 2>&1
is "$?" 1 "a missing snapshot is a runtime error (1), gate or not"

done_testing

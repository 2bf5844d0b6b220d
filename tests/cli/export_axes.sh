# SPDX-License-Identifier: BSD-2-Clause
# export --gnuplot's axes and words: integer x tics, a log2 x axis when N
# doubles, a log y axis when the series' maxima differ more than tenfold
# (--log-y and --no-log-y to choose), peak labels kept inside the frame, and
# snapshots of different workloads or units overlaid with a warning, each
# curve named by its workload.  gnuplot must read every script without a
# word on stderr, where it prints its warnings.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FIX=$top_srcdir/tests/fixtures

# Two systems doubling N, peaks at the right edge, maxima 1.2x apart.
printf 'writers,ext4,xfs\n1,100,120\n2,190,230\n4,350,420\n8,600,700\n16,900,1080\n' >"$T/dbl.csv"
# N one by one, one series 170x the other.
printf 'threads,small,big\n1,10,1700\n2,19,3300\n3,27,4800\n4,33,6000\n6,40,7000\n' >"$T/lin.csv"
"$SCALETOP" import --csv "$T/dbl.csv" --unit writes --n-unit writers -o "$T/dbl.json" \
	2>/dev/null || bail_out "import of dbl.csv failed"
"$SCALETOP" import --csv "$T/lin.csv" -o "$T/lin.json" 2>/dev/null ||
	bail_out "import of lin.csv failed"
# A fileio sweep made from the mutex one: its workload, its units.
"$PYTHON" - "$FIX/snapshots/mutex-linux.json" "$T/fileio.json" <<'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
d["workload"].update(name="fileio", unit="writes", n_unit="writers", params={})
d["label"] = "ext4 on nvme"
# Its saved verdict in its own words, so that loading it warns of nothing else.
a = json.dumps(d["analysis"]).replace("processes", "writers").replace("ops/s", "writes/s")
d["analysis"] = json.loads(a)
json.dump(d, open(sys.argv[2], "w"))
EOF
	bail_out "cannot make the fileio snapshot"
cp "$FIX/snapshots/mutex-linux.json" "$T/mutex.json"

# export NAME ARG...: export --gnuplot -o $T/NAME, standard error in $T/NAME.err.
export_gp() {
	_name=$1
	shift
	"$SCALETOP" export --gnuplot -o "$T/$_name" "$@" >/dev/null 2>"$T/$_name.err"
}

# xtics BASE: the .gp's x axis in one line: "log2 1 2 4" (the tics at the
# N values) or "linear STEP" (from 0), or what is wrong with it.
xtics() {
	"$PYTHON" - "$1.gp" <<'EOF'
import re, sys
gp = open(sys.argv[1]).read()
log = re.search(r"^set logscale x 2$", gp, re.M)
tics = re.findall(r"^set xtics (.*)$", gp, re.M)
if len(tics) != 1:
    sys.exit("%d 'set xtics' lines" % len(tics))
if log:
    m = re.fullmatch(r"\((.*)\)", tics[0])
    at = [float(v) for v in re.findall(r"'[^']*' (\S+?)(?:,|$)", m.group(1))] if m else []
    print("log2", " ".join("%g" % v for v in at))
else:
    m = re.fullmatch(r"0, ?(\S+)", tics[0])
    print("linear", m.group(1) if m else "'%s'" % tics[0])
EOF
}

logy() { grep -q '^set logscale y' "$1.gp" && echo log || echo linear; }

# --- x: log2 at the N values when N doubles, else integers ------------------------------------
export_gp dbl "$T"/dbl-*.json
is "$?" 0 "export of two doubling sweeps exits 0"
is "$(xtics "$T/dbl")" "log2 1 2 4 8 16" "  N doubles: a log2 x axis with a tic at each N"
like "$(cat "$T/dbl.gp")" "^set xrange \[0\.[0-9]+:[0-9.]+\]$" "  its range starts above 0"
export_gp lin "$T"/lin-*.json
is "$(xtics "$T/lin")" "linear 1" "N one by one: a linear x axis with a tic at each integer"
"$SCALETOP" import --csv - --label wide -o "$T/wide.json" >/dev/null 2>&1 <<EOF
$(seq 1 64 | awk '{ print $1 "," 1000 * $1 }')
EOF
export_gp wide "$T/wide.json"
x=$(xtics "$T/wide")
like "$x" "^linear [0-9]+$" "N from 1 to 64 one by one: linear, with integer tics"
is "$(echo "$x" | awk '$2 * 12 >= 64 && $2 > 1 { print "spread" }')" spread \
	"  at most a dozen of them"

# --- y: log when the maxima differ more than tenfold --------------------------------------------
is "$(logy "$T/lin")" log "one series 170x the other: a log y axis"
# The lowest point is 10 (small at N=1), with no CI: the range starts above 0, below it.
bottom=$(sed -n 's/^set yrange \[\([^:]*\):.*/\1/p' "$T/lin.gp")
is "$(echo "$bottom" | awk '$1 > 0 && $1 < 10 { print "in" }')" in \
	"  its range starts above 0, below the lowest point"
is "$(logy "$T/dbl")" linear "maxima 1.2x apart: a linear y axis"
export_gp dbl-log --log-y "$T"/dbl-*.json
is "$(logy "$T/dbl-log")" log "  --log-y makes it log"
export_gp lin-nolog --no-log-y "$T"/lin-*.json
is "$(logy "$T/lin-nolog")" linear "--no-log-y keeps 170x linear"
export_gp lin-last --no-log-y --log-y "$T"/lin-*.json
is "$(logy "$T/lin-last")" log "  the last of the two given wins"
"$SCALETOP" export --folded --log-y "$T/lin-small.json" >/dev/null 2>"$T/fold.err"
is "$?" 2 "--log-y with --folded: usage error"
like "$(cat "$T/fold.err")" "--log-y" "  naming it"

# --- peak labels inside the frame ---------------------------------------------------------------
like "$(grep "^set label 'peak A'" "$T/dbl.gp")" " at 16,[^ ]+ .* right offset -" \
	"a peak at the right edge: its label ends left of the point"
like "$(grep "^set label 'peak A'" "$T/lin.gp")" " at 6,[^ ]+ .* right offset -" \
	"  on a linear axis too"
export_gp imp "$FIX/snapshots/imported.json"
like "$(grep "^set label 'peak A'" "$T/imp.gp")" " at 16,[^ ]+ .* left offset [0-9]" \
	"a peak left of the middle: its label starts right of the point"

# --- different workloads and units --------------------------------------------------------------
export_gp mix --normalise speedup "$T/fileio.json" "$T/mutex.json"
is "$?" 0 "a fileio and a mutex sweep: exported"
is "$(grep -c warning "$T/mix.err")" 1 "  with one warning line"
w=$(grep warning "$T/mix.err")
like "$w" "$T/fileio.json.*fileio.*writes/s.*writers" \
	"  naming the fileio file, its workload and units"
like "$w" "$T/mutex.json.*mutex.*ops/s.*processes" "  and the mutex file's"
like "$(cat "$T/mix.gp")" "^set xlabel 'N \(writers / processes\)'" \
	"  the x axis names both nouns, neither file's alone"
is "$(grep -c "^set title 'Speedup against writers'" "$T/mix.gp")" 0 "  so does the title"
like "$(cat "$T/mix.gp")" \
	"index 0 using 1:2:3 with yerrorlines .* title 'A: fileio[ ,(][^']*ext4 on nvme'" \
	"  the fileio curve is titled with its workload and its label"
like "$(cat "$T/mix.gp")" "index 1 using 1:2:3 with yerrorlines .* title 'B: mutex[ ,(][^']*'" \
	"  the mutex curve with its workload"
export_gp raw "$T/fileio.json" "$T/mutex.json"
like "$(cat "$T/raw.gp")" "^set ylabel '.*writes/s.*ops/s.*'" \
	"  in throughput, the y axis names both units"
export_gp same "$T"/dbl-*.json "$T/mutex.json"
like "$(cat "$T/same.err")" "warning: .*imported.*mutex" "an imported and a mutex sweep: a warning"
export_gp widemix "$T/wide.json" "$FIX/snapshots/imported.json"
like "$(cat "$T/widemix.gp")" "title 'B: imported, imported\.json, published: 64-core box" \
	"  a long title stays one the key can hold"
export_gp same2 "$T/mutex.json" "$FIX/snapshots/locks-a.json"
is "$(grep -c warning "$T/same2.err")" 0 "two mutex sweeps: no warning"
like "$(cat "$T/same2.gp")" "^set xlabel 'processes'" "  and the x axis is theirs"

# --- gnuplot reads every script without a warning ------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	for b in dbl lin wide dbl-log lin-nolog imp mix raw widemix same2; do
		out=$(cd "$T" && gnuplot "$T/$b.gp" 2>&1)
		is "$out" "" "gnuplot renders $b.gp without a word"
		is "$(od -An -c -N4 "$T/$b.png" | tr -d ' ')" '211PNG' "  into a PNG"
	done
else
	skip "gnuplot is not installed" "gnuplot renders the scripts without a word"
fi

done_testing

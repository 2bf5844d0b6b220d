# SPDX-License-Identifier: BSD-2-Clause
# export --gnuplot as overlays: each snapshot's points with their 95% CI as
# error bars, and --normalise speedup|efficiency for machines of different
# absolute speed (X(N)/X(1) and X(N)/(N X(1)), the CIs, the USL curve and the
# marks divided alike).  The .dat and .gp are parsed back against the
# snapshots' own figures; gnuplot renders the script where it is installed.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
"$SCALETOP" import --csv "$top_srcdir/tests/fixtures/import/mysql-8cores.csv" -o "$T/m.json" \
	2>/dev/null || bail_out "import of tests/fixtures/import/mysql-8cores.csv failed"
A=$T/m-Linux_6.6.json
B=$T/m-FreeBSD_14.0.json

# check MODE BASE: BASE.dat and BASE.gp against the snapshots A and B; prints what is wrong.
check() {
	"$PYTHON" - "$1" "$2" "$A" "$B" <<'EOF'
import json, re, sys
mode, base, snaps = sys.argv[1], sys.argv[2], [json.load(open(f)) for f in sys.argv[3:]]
blocks = [b for b in open(base + ".dat").read().split("\n\n\n")]
gp = open(base + ".gp").read()
bad = []
def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
if len(blocks) != len(snaps):
    bad.append("%d blocks for %d snapshots" % (len(blocks), len(snaps)))
for i, (blk, d) in enumerate(zip(blocks, snaps)):
    pts = d["analysis"]["points"]
    x1 = pts[0]["x"]
    rows = [list(map(float, l.split())) for l in blk.splitlines() if l and l[0] != "#"]
    if len(rows) != len(pts):
        bad.append("block %d: %d rows for %d points" % (i, len(rows), len(pts)))
    for r, p in zip(rows, pts):
        div = {"none": 1, "speedup": x1, "efficiency": p["n"] * x1}[mode]
        ci = p["ci"] if p["ci"] is not None else 0
        want = [p["n"], p["x"] / div, ci / div] + ([] if mode == "none" else [p["x"], ci])
        if len(r) != len(want) + 13 or not all(near(a, b) for a, b in zip(r, want)):
            bad.append("block %d: row %s, want %s" % (i, r, want))
    if ci <= 0:
        bad.append("block %d: no CI to draw" % i)
    c = chr(ord("A") + i)
    u = d["analysis"]["usl"]
    m = re.search(r"^usl%s\(x\) = x < 1 \? 1/0 : (\S+)( \* x)? / \(1 \+ (\S+) \* \(x - 1\) \+ (\S+) \* x \* \(x - 1\)\)$" % c, gp, re.M)
    if not m:
        bad.append("no usl%s line" % c)
    else:
        lam = u["lambda"] / (1 if mode == "none" else x1)
        if not (near(float(m.group(1)), lam) and near(float(m.group(3)), u["sigma"]) and near(float(m.group(4)), u["kappa"])):
            bad.append("usl%s: %s" % (c, m.group(0)))
        if (m.group(2) is None) != (mode == "efficiency"):
            bad.append("usl%s: the factor x is wrong for %s" % (c, mode))
    pk = d["analysis"]["peak"]
    m = re.search(r"^set label 'peak %s' at (\d+),(\S+) " % c, gp, re.M)
    div = {"none": 1, "speedup": x1, "efficiency": pk["n"] * x1}[mode]
    if not m or int(m.group(1)) != pk["n"] or not near(float(m.group(2)), pk["x"] / div):
        bad.append("peak %s: %s" % (c, m and m.group(0)))
    if not re.search(r"'%s\.dat' index %d using 1:2:3 with yerrorlines .* title '%s: [^']*%s'" % (re.escape(base), i, c, re.escape(d["label"])), gp):
        bad.append("no error-bar plot of %s" % c)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}

# --- throughput, with CI error bars ---------------------------------------------------------
"$SCALETOP" export --gnuplot -o "$T/raw" "$A" "$B" >/dev/null 2>&1
is "$?" 0 "export of two imported systems exits 0"
ok "the .dat holds each point and its CI; the .gp draws them as error bars, with each USL curve" \
	check none "$T/raw"

# --- --normalise speedup ---------------------------------------------------------------------
"$SCALETOP" export --gnuplot --normalise speedup -o "$T/sp" "$A" "$B" >/dev/null 2>"$T/sp.err"
is "$?" 0 "--normalise speedup exits 0"
ok "  the .dat holds X(N)/X(1) and its CI divided alike, then the throughput and its CI; the curve and marks divided too" \
	check speedup "$T/sp"
is "$(awk '!/^#/ && NF {print $1, $2; exit}' "$T/sp.dat")" "1 1" "  each snapshot's speedup at N=1 is 1"
like "$(cat "$T/sp.gp")" "set ylabel 'speedup X\(N\)/X\(1\)'" "  the axis says what it shows"
is "$(grep -c "with lines dashtype 2 lc 0 title 'ideal (linear)'" "$T/sp.gp")" 1 \
	"  one ideal line for all, not one per snapshot"
like "$(cat "$T/sp.gp")" "  x < 1 \? 1/0 : x with lines" "  the ideal speedup is N"

# --- --normalise efficiency ------------------------------------------------------------------
"$SCALETOP" export --gnuplot --normalize efficiency --svg -o "$T/ef" "$A" "$B" >/dev/null 2>&1
is "$?" 0 "--normalise efficiency (or --normalize) exits 0"
ok "  X(N)/(N X(1)), its CI, curve and marks" check efficiency "$T/ef"
like "$(cat "$T/ef.gp")" "  x < 1 \? 1/0 : 1 with lines" "  the ideal efficiency is 1"
like "$(cat "$T/ef.gp")" "set yrange \[0:1\.3\]" "  and the frame shows it"

# --- refusals --------------------------------------------------------------------------------
printf 'threads,later\n2,190\n4,350\n8,600\n' >"$T/no1.csv"
"$SCALETOP" import --csv "$T/no1.csv" -o "$T/no1.json" 2>/dev/null
"$SCALETOP" export --gnuplot --normalise speedup -o "$T/no" "$A" "$T/no1.json" >/dev/null 2>"$T/no.err"
is "$?" 1 "--normalise of a snapshot without N=1: exit 1"
is "$(cat "$T/no.err")" "scaletop export: $T/no1.json has no point at N=1 (its smallest N is 2), which --normalise divides by; leave it out, or export without --normalise" \
	"  one line naming it"
ok "  nothing written" test ! -e "$T/no.dat" -a ! -e "$T/no.gp"
"$SCALETOP" export --gnuplot -o "$T/no" "$T/no1.json" >/dev/null 2>&1
is "$?" 0 "  without --normalise it exports"
"$SCALETOP" export --gnuplot --normalise throughput -o "$T/x" "$A" >/dev/null 2>"$T/use.err"
is "$?" 2 "an unknown --normalise: usage error"
is "$(cat "$T/use.err")" "scaletop export: --normalise 'throughput': give speedup or efficiency" \
	"  saying what to give"

# --- rendered ---------------------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	is "$(od -An -c -N4 "$T/sp.png" | tr -d ' ')" '211PNG' "gnuplot rendered the speedup plot"
	like "$(head -c 400 "$T/ef.svg")" "<svg" "  and the efficiency plot as SVG"
	is "$(cat "$T/sp.err")" "scaletop export: wrote $T/sp.dat, $T/sp.gp and $T/sp.png" \
		"  and export says what it wrote"
else
	# The check run installs it (./bootstrap's CHECK_PKGS): missing, this is a
	# failure, not a skip, as for every tool a test relies on (need).
	tap_result 1 "gnuplot rendered the speedup plot"
	diag "gnuplot is missing: install gnuplot-nox (./bootstrap check does)"
fi

done_testing

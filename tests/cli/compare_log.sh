# SPDX-License-Identifier: BSD-2-Clause
# compare of a drop of about 99%: fileio with an fsync after every write
# against the page cache alone, 3 trials a side.  Every percentage compare
# prints at each N (the words, the table, the CSV) stays above -100%, and a
# drop whose interval excludes 0 is called a difference, never "no
# difference proven".  Then one trial a side of the same sweeps: a gap far
# past what a rerun moves is still a difference, labelled "one trial a
# side", and the gate fails on it.  docs/statistics.md has the rules.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

# fsync costs nothing on a tmpfs: the workers write where a real disk is.
DIR=$T/w
mkdir -p "$DIR" || bail_out "cannot make $DIR"
case "$(stat -f -c %T "$DIR" 2>/dev/null)" in
tmpfs | ramfs)
	DIR=$PWD/compare_log.$$
	mkdir -p "$DIR" || bail_out "cannot make $DIR"
	trap 'rm -rf "$TAP_TMP" "$DIR"' EXIT
	case "$(stat -f -c %T "$DIR" 2>/dev/null)" in
	tmpfs | ramfs)
		skip "no disk-backed folder (\$TMPDIR and the build folder are tmpfs)" \
			"compare of fsync against none"
		done_testing
		exit 0
		;;
	esac
	;;
esac

SWEEP="-w fileio -p dir=$DIR -p total=8M -n 1,2 -d 1 --warmup 0.2 --interval 0.1 --trials 3 -q"

# checks FILE: what is wrong with compare's text in FILE ("" when nothing):
# a % at or below -100, an N line that is not a difference, or a CI that
# excludes 0 called no difference.
checks() {
	"$PYTHON" - "$1" 2>&1 <<'EOF'
import re, sys
text = open(sys.argv[1]).read().splitlines()
bad = []
lines = [l for l in text if re.match(r"^  N=\d+: ", l)]
if len(lines) != 2:
    bad.append("%d N lines, not 2" % len(lines))
for l in lines:
    pcts = [float(x) for x in re.findall(r"([-+][0-9.]+)%", l)]
    if not pcts or min(pcts) <= -100:
        bad.append("a %% at or below -100: " + l)
    m = re.search(r"95% CI ([-+][0-9.]+)% to ([-+][0-9.]+)%", l)
    if not m:
        bad.append("no interval: " + l)
        continue
    lo, hi = float(m.group(1)), float(m.group(2))
    if (hi < 0 or lo > 0) and "no difference proven" in l:
        bad.append("0 is outside, yet no difference: " + l)
    if not re.match(r"^  N=\d+: B -[0-9.]+% \(95% CI -[0-9.]+% to -[0-9.]+%\)"
                    r"(; (A|B|A and B) (is|are) noisy here \(CI (up to )?\+-[0-9]+%\))?$", l):
        bad.append("not a proven drop: " + l)
start = next((i for i, l in enumerate(text) if l.split()[:1] == ["N"]), None)
rows = 0
for l in text[start + 1:] if start is not None else []:
    if not l.strip():
        break
    rows += 1
    f = l.split()
    try:
        nums = [float(f[4].rstrip("%"))] + [float(x) for x in f[5].split("..")]
    except (IndexError, ValueError):
        nums = [-100]
    if min(nums) <= -100:
        bad.append("a table cell at or below -100: " + l)
if rows != 2:
    bad.append("%d table rows, not 2" % rows)
print("; ".join(bad))
EOF
}

# sweeps: none against fsync after every write; the comparison in cmp.out.
sweeps() {
	"$SCALETOP" run $SWEEP -p sync=none -o "$T/none.json" --force >/dev/null 2>"$T/none.err" ||
		bail_out "the sync=none sweep failed: $(cat "$T/none.err")"
	"$SCALETOP" run $SWEEP -p sync=fsync -p fsync_every=1 -o "$T/fsync.json" --force \
		>/dev/null 2>"$T/fsync.err" || bail_out "the fsync sweep failed: $(cat "$T/fsync.err")"
	"$SCALETOP" compare "$T/none.json" "$T/fsync.json" >"$T/cmp.out" 2>&1 &&
		[ -z "$(checks "$T/cmp.out")" ]
}

# The drop is two orders of magnitude; a load may still scatter one side's
# trials so that an N proves nothing: swept again, at most 3 tries, each logged.
i=1
until sweeps; do
	diag "try $i: $(checks "$T/cmp.out"); $(grep '^  N=' "$T/cmp.out" | tr '\n' ';')"
	[ "$i" -ge 3 ] && break
	i=$((i + 1))
done
diag "$(grep -E '^(B |  N=)' "$T/cmp.out" | tr '\n' ';')"

"$SCALETOP" compare "$T/none.json" "$T/fsync.json" >"$T/cmp.out" 2>&1
is "$?" 0 "compare of fsync after every write against none exits 0"
is "$(checks "$T/cmp.out")" "" \
	"  at every N a drop, its CI above -100% and below 0, in the words and the table"
like "$(grep -E '^B ' "$T/cmp.out")" "^B is 9[0-9]\.[0-9]+% slower \(95% CI [0-9.]+-[0-9.]+%\) over N=1\.\.2" \
	"  the summary: B is more than 90% slower"
"$SCALETOP" compare --csv "$T/none.json" "$T/fsync.json" >"$T/cmp.csv" 2>/dev/null
is "$("$PYTHON" - "$T/cmp.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]).read().split("\n\n")[0].splitlines()))
bad = [r["n"] for r in rows
       if not (-100 < float(r["B-A lo95 %"]) <= float(r["B-A %"]) <= float(r["B-A hi95 %"]) < 0)
       or r["B significant"] != "1"]
print(bad or ("ok", len(rows)))
EOF
)" "('ok', 2)" "  the CSV: -100 < lo <= B-A <= hi < 0, significant, at each N"
"$SCALETOP" compare --fail-on-regression 50 "$T/none.json" "$T/fsync.json" >/dev/null 2>&1
is "$?" 3 "  the gate at 50% exits 3"

# --- one trial a side: the first trial of each sweep -------------------------------
"$PYTHON" - "$T" <<'EOF'
import json, sys
for side in ("none", "fsync"):
    d = json.load(open("%s/%s.json" % (sys.argv[1], side)))
    first = min(s["trial"] for s in d["steps"])
    d["steps"] = [s for s in d["steps"] if s["trial"] == first]
    d["settings"]["trials"] = 1
    json.dump(d, open("%s/%s1.json" % (sys.argv[1], side), "w"))
EOF
"$SCALETOP" compare "$T/none1.json" "$T/fsync1.json" >"$T/one.out" 2>&1
is "$?" 0 "one trial a side: compare exits 0"
is "$(grep -cE '^  N=[12]: B -[0-9.]+% \([0-9.e-]+x\), one trial a side: a difference, more than any rerun moves \(4x\)' "$T/one.out")" 2 \
	"  at each N the drop is a difference, labelled one trial a side"
is "$(grep -c 'cannot be told from rerun noise' "$T/one.out")" 0 "  never rerun noise"
like "$(grep -E '^B ' "$T/one.out")" "^B is 9[0-9]\.[0-9]+% slower over N=1\.\.2 \([0-9.e-]+x\), one trial a side: more than any rerun moves \(4x\)" \
	"  the summary says so too"
"$SCALETOP" compare --fail-on-regression 50 "$T/none1.json" "$T/fsync1.json" >/dev/null 2>&1
is "$?" 3 "  and the gate at 50% fails on it (3), not too few (4)"
"$SCALETOP" compare --fail-on-regression 50 "$T/fsync1.json" "$T/none1.json" >/dev/null 2>&1
is "$?" 0 "  the other way round, faster past the bound: passed (0)"

done_testing

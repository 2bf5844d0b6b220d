# SPDX-License-Identifier: BSD-2-Clause
# A step whose 95% CI is wider than a quarter of its mean is "noisy", not
# "ok" (docs/statistics.md): from an imported table whose N=4 and N=8 runs
# spread widely, show's table marks those two rows, the verdict says its
# confidence is low and names them, the snapshot holds the mark, and compare
# labels the differences at those N.  A clean table stays "ok" throughout.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP

# Five runs a row: the CI is t95(4) sd / sqrt(5), 1.2415 sd.  N=4's is 40.0% of
# its mean, N=8's 30.0%, N=16's 95.0% (the issue's case); the others 2.5%.
cat >"$T/wide.csv" <<'EOF'
threads,wide,wide_sd,runs
1,1000,20.14,5
2,1900,38.27,5
4,3600,1159.9,5
8,6000,1449.9,5
16,5000,3826.0,5
EOF
cat >"$T/clean.csv" <<'EOF'
threads,clean,clean_sd,runs
1,1000,20.14,5
2,1900,38.27,5
4,3500,70.49,5
8,5900,118.8,5
16,5100,102.7,5
EOF
"$SCALETOP" import --csv "$T/wide.csv" -o "$T/wide.json" 2>"$T/err"
is "$?" 0 "a table with wide rows imports" || diag "$(cat "$T/err")"
"$SCALETOP" import --csv "$T/clean.csv" -o "$T/clean.json" 2>"$T/err"
is "$?" 0 "a clean table imports" || diag "$(cat "$T/err")"

# status N FILE: the status word of show's row for N.
status() {
	"$SCALETOP" show "$2" 2>&1 | awk -v n="$1" '
		/^ +N / { t = 1; next }
		t && $1 == n { print $NF; exit }'
}

"$SCALETOP" show "$T/wide.json" >"$T/show" 2>&1
is "$?" 0 "show reads it"
is "$(status 1 "$T/wide.json") $(status 2 "$T/wide.json")" "ok ok" \
	"  a CI of 2.5% of the mean is ok" || diag "$(cat "$T/show")"
is "$(status 4 "$T/wide.json") $(status 8 "$T/wide.json")" "noisy noisy" \
	"  CIs of 40% and 30% of the mean are noisy"
is "$(status 16 "$T/wide.json")" "noisy" "  a CI of 95% of the mean is noisy, not ok"
like "$(grep '^verdict: ' "$T/show")" \
	'; low confidence: steps at N=4,8,16 are noisy \(CI up to \+-95%\)' \
	"  the verdict says its confidence is low, and where" || diag "$(cat "$T/show")"
is "$(json_get "$T/wide.json" '[s["n"] for s in d["steps"] if s["noisy"]]')" "[4, 8, 16]" \
	"  the snapshot marks the noisy steps"

"$SCALETOP" show "$T/clean.json" >"$T/show" 2>&1
is "$(awk '/^ +N /{t=1;next} /^[a-z]/{t=0} t{print $NF}' "$T/show" | sort -u)" "ok" \
	"a clean table's steps are all ok" || diag "$(cat "$T/show")"
like "$(grep '^verdict: ' "$T/show")" '^verdict: ' "  and it has a verdict"
is "$(grep -c 'noisy\|low confidence' "$T/show")" "0" "  which says nothing of noise"
is "$(json_get "$T/clean.json" '[s["noisy"] for s in d["steps"]]')" \
	"[False, False, False, False, False]" "  nor does its snapshot"

# An older file, without the mark, reads the same: the status comes from the CI.
"$PYTHON" - "$T/wide.json" "$T/old.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["steps"]:
    del s["noisy"]
json.dump(d, open(sys.argv[2], "w"))
EOF
is "$(status 8 "$T/old.json")" "noisy" "a file without the mark reads its noisy steps as noisy"
"$PYTHON" - "$T/wide.json" "$T/bad.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["steps"][2]["noisy"] = "yes"
json.dump(d, open(sys.argv[2], "w"))
EOF
"$SCALETOP" show "$T/bad.json" >"$T/out" 2>"$T/err"
is "$?" "1" "a mark that is not a boolean is refused"
like "$(cat "$T/err")" 'steps\[2\]\.noisy' "  naming the field"

# compare labels the differences where either side is noisy, and only those.
"$SCALETOP" compare "$T/clean.json" "$T/wide.json" >"$T/cmp" 2>&1
diag "$(grep '^  N=' "$T/cmp")"
like "$(grep '^  N=4: ' "$T/cmp")" '; B is noisy here \(CI \+-40%\)$' \
	"compare labels N=4, where B is noisy"
like "$(grep '^  N=16: ' "$T/cmp")" '; B is noisy here \(CI \+-95%\)$' "  and N=16"
is "$(grep '^  N=[12]: ' "$T/cmp" | grep -c noisy)" "0" "  not N=1 or 2, where neither is"
"$SCALETOP" compare "$T/wide.json" "$T/clean.json" >"$T/cmp" 2>&1
like "$(grep '^  N=8: ' "$T/cmp")" '; A is noisy here \(CI \+-30%\)$' \
	"  nor does it matter which side is noisy"
like "$(awk '$1 == 4' "$T/cmp")" 'noisy: A$' "  the table's row at N=4 says so too"
is "$(awk '$1 == 2' "$T/cmp" | grep -c noisy)" "0" "  and the row at N=2 does not"
"$SCALETOP" compare --markdown "$T/wide.json" "$T/clean.json" >"$T/cmp.md" 2>&1
like "$(grep '^| 8 |' "$T/cmp.md")" '^\| 8 \| 6\.00k \(noisy\) \| 5\.90k \|' \
	"  --markdown marks A's figure at N=8"
is "$(grep -c '^| [12] |.*noisy' "$T/cmp.md")" "0" "  and not at N=1 or 2"

done_testing

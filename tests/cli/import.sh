# SPDX-License-Identifier: BSD-2-Clause
# import of published tables from the command line: a multi-column table (the
# MySQL-on-8-cores shape, threads against a Linux and a FreeBSD column) into
# one snapshot per column whose USL fit matches the column imported alone;
# the same table separated by blanks; --column, --label, -o DIR/; refusals
# naming file:line:column; and no file replaced, or half a set written,
# without --force.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/import"
CSV="$FX/mysql-8cores.csv"

# fit FILE: the snapshot's USL fit as the file holds it, and as show prints it.
fit() {
	json_get "$1" '(d["analysis"]["usl"]["sigma"], d["analysis"]["usl"]["kappa"], d["analysis"]["usl"]["lambda"])'
	"$SCALETOP" show "$1" 2>&1 | grep '^USL: '
}

# column NAME OUT: one system's columns of the fixture, as the old N,throughput,stddev,runs lines.
column() {
	"$PYTHON" - "$CSV" "$1" "$2" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith("#")]
head = [h.strip() for h in rows[0]]
x, sd, runs = head.index(sys.argv[2]), head.index(sys.argv[2] + "_sd"), head.index("runs")
with open(sys.argv[3], "w") as f:
    for r in rows[1:]:
        if r[x].strip() != "-":
            f.write("%s,%s,%s,%s\n" % (r[0], r[x], r[sd], r[runs]))
EOF
}

# --- one snapshot per column ------------------------------------------------------------
"$SCALETOP" import --csv "$CSV" --desc "sysbench oltp_read_write" --unit transactions \
	-o "$T/m.json" >"$T/m.out" 2>"$T/m.err"
is "$?" 0 "a table of two systems imports"
is "$(ls "$T" | grep '^m' | tr '\n' ' ')" "m-FreeBSD_14.0.json m-Linux_6.6.json m.err m.out " \
	"  into OUT-COLUMN.json for each column of throughput"
is "$(cat "$T/m.err")" "scaletop import: wrote $T/m-Linux_6.6.json: column 'Linux 6.6', 11 points
scaletop import: wrote $T/m-FreeBSD_14.0.json: column 'FreeBSD 14.0', 10 points" \
	"  saying what it wrote"
is "$(json_get "$T/m-Linux_6.6.json" 'd["label"], d["workload"]["name"], d["workload"]["unit"]')" \
	"('Linux 6.6', 'imported', 'transactions')" "  each labelled with its column's name"
is "$(json_get "$T/m-FreeBSD_14.0.json" '[s["n"] for s in d["steps"]][-2:], d["steps"][3]["intervals"]["count"], d["steps"][3]["intervals"]["stddev"], d["steps"][3]["ops_s"]')" \
	"([48, 64], 5, 178.0, 6343.0)" "  FreeBSD's figures, its stddev and the table's runs; its '-' at 128 left out"
ok "  both are valid snapshots that show reads" "$SCALETOP" show "$T/m-FreeBSD_14.0.json"

for sys in "Linux 6.6" "FreeBSD 14.0"; do
	file=$(printf '%s' "$sys" | tr ' ' _)
	column "$sys" "$T/one-$file.csv"
	"$SCALETOP" import --csv "$T/one-$file.csv" --label "$sys" -o "$T/one-$file.json" 2>/dev/null
	is "$?" 0 "$sys alone, as N,throughput,stddev,runs lines, imports"
	fit "$T/m-$file.json" >"$T/fit-table"
	fit "$T/one-$file.json" >"$T/fit-one"
	like "$(cat "$T/fit-one")" "^\(0\.0[0-9]+, 0\.00[0-9]+, 1[34][0-9]{2}\.[0-9]+\)" \
		"  its USL fit has a contention, a coherency and a lambda"
	is "$(cat "$T/fit-table")" "$(cat "$T/fit-one")" "  and the table's column has the same fit, in the file and in show"
done
"$SCALETOP" compare "$T/m-Linux_6.6.json" "$T/m-FreeBSD_14.0.json" >"$T/cmp.out" 2>&1
is "$?" 0 "the two columns compare"
is "$(grep -c '^warning' "$T/cmp.out")" 0 "  without a warning: the same workload, from the same file"

# --- the same table separated by blanks, into a folder ---------------------------------
mkdir "$T/dir"
"$SCALETOP" import --csv "$FX/mysql-8cores.txt" -o "$T/dir" 2>/dev/null
is "$?" 0 "a table separated by blanks imports"
is "$(ls "$T/dir" | tr '\n' ' ')" "FreeBSD_14.0.json Linux_6.6.json " "  -o DIR: DIR/COLUMN.json for each"
is "$(json_get "$T/dir/Linux_6.6.json" '[(s["n"], s["ops_s"], s["intervals"]["stddev"]) for s in d["steps"]] == [(s["n"], s["ops_s"], s["intervals"]["stddev"]) for s in json.load(open(sys.argv[1].replace("dir/", "m-")))["steps"]]')" \
	"True" "  the figures and stddevs ('±' columns) of the CSV's"
fit "$T/dir/FreeBSD_14.0.json" >"$T/fit-blank"
fit "$T/m-FreeBSD_14.0.json" >"$T/fit-table"
is "$(cat "$T/fit-blank")" "$(cat "$T/fit-table")" "  and the same fits"

# --- --column and --label ----------------------------------------------------------------
"$SCALETOP" import --csv "$CSV" --column "FreeBSD 14.0" -o "$T/bsd.json" 2>/dev/null
is "$?" 0 "--column imports one column"
ok "  into -o itself" test -f "$T/bsd.json"
is "$(ls "$T" | grep -c '^bsd')" 1 "  and nothing else"
is "$(json_get "$T/bsd.json" 'd["label"], len(d["steps"])')" "('FreeBSD 14.0', 10)" "  that column"
"$SCALETOP" import --csv "$CSV" --label "8 cores" -o "$T/l/" 2>/dev/null
is "$?" 1 "-o DIR/ of a folder that does not exist fails"
mkdir "$T/l"
"$SCALETOP" import --csv - --label "8 cores" -o "$T/l/" <"$CSV" 2>/dev/null
is "$?" 0 "the table from standard input"
is "$(json_get "$T/l/Linux_6.6.json" 'd["label"], d["workload"]["params"]["source"]')" \
	"('8 cores (Linux 6.6)', '(standard input)')" "  --label with several columns: LABEL (COLUMN)"
"$SCALETOP" import --csv "$CSV" --column FreeBSD -o "$T/x.json" >/dev/null 2>"$T/col.err"
is "$?" 2 "an unknown --column: usage error"
is "$(cat "$T/col.err")" "scaletop import: --column: $CSV has no column of throughput called 'FreeBSD'; its columns are 'Linux 6.6', 'FreeBSD 14.0'" \
	"  one line listing the columns"

# --- refusals: file:line:column, and nothing written -------------------------------------
refuses() {
	printf "$1" >"$T/bad.csv"
	"$SCALETOP" import --csv "$T/bad.csv" -o "$T/bad.json" >/dev/null 2>"$T/bad.err"
	is "$?" 1 "$3: exit 1"
	is "$(cat "$T/bad.err")" "scaletop import: $T/bad.csv:$2" "  $3: one line"
	is "$(ls "$T" | grep -c '^bad.*json')" 0 "  $3: no snapshot written"
}
refuses 'threads,Linux,FreeBSD\n1,100,90\n2,190\n' \
	"3:6: the row has 2 fields where the header has 3; give each column a value, '-' for none" \
	"a ragged row"
refuses 'threads Linux FreeBSD\n1   100   90\n2   190   n/a\n' \
	"3:11: 'n/a': expected a throughput for 'FreeBSD', a number > 0, or '-' for none" \
	"a figure that is not a number"
refuses 'threads,Linux,FreeBSD\n1,100,90\n2,190,170\n2,180,160\n' \
	"4:1: '2': N 2 again (line 3 has it); give one row per N, repeated runs as their mean, stddev and runs" \
	"a duplicate N"
refuses 'threads,Linux,"FreeBSD\n' \
	"1:15: a quote not closed on its line; close it with '\"'" \
	"an unterminated quote"

# --- never over a file without --force ---------------------------------------------------
cksum "$T/m-FreeBSD_14.0.json" >"$T/sum"
rm "$T/m-Linux_6.6.json"
"$SCALETOP" import --csv "$CSV" -o "$T/m.json" >/dev/null 2>"$T/clob.err"
is "$?" 1 "import over an existing snapshot without --force fails"
is "$(cat "$T/clob.err")" "scaletop import: $T/m-FreeBSD_14.0.json exists and was not replaced; give --force to replace it, or another name" \
	"  one line naming it"
ok "  the other column is not written either: no half-new set" test ! -e "$T/m-Linux_6.6.json"
is "$(cksum "$T/m-FreeBSD_14.0.json")" "$(cat "$T/sum")" "  and the old file is untouched"
"$SCALETOP" import --csv "$CSV" --force -o "$T/m.json" 2>/dev/null
is "$?" 0 "with --force it replaces it"
ok "  and writes both" test -f "$T/m-Linux_6.6.json"
is "$(ls -a "$T" | grep -c '^\.m-')" 0 "  no temp file left"

# --- usage --------------------------------------------------------------------------------
printf 'threads,A,A_\n1,10,20\n' >"$T/clash.csv"
"$SCALETOP" import --csv "$T/clash.csv" -o "$T/dir/" >/dev/null 2>&1
is "$?" 0 "columns 'A' and 'A_' have files of their own"
printf 'threads,"A b","A_b"\n1,10,20\n' >"$T/clash.csv"
"$SCALETOP" import --csv "$T/clash.csv" -o "$T/c.json" >/dev/null 2>"$T/clash.err"
is "$?" 2 "two columns that would share a file: usage error"
is "$(cat "$T/clash.err")" "scaletop import: columns 'A b' and 'A_b' would both be written to $T/c-A_b.json; import one with --column" \
	"  naming both"
"$SCALETOP" import --csv "$CSV" --column "" -o "$T/e.json" >/dev/null 2>&1
is "$?" 2 "an empty --column: usage error"
long=$(printf 'x%.0s' $(seq 250))
"$SCALETOP" import --csv "$CSV" --label "$long" -o "$T/long.json" >/dev/null 2>"$T/long.err"
is "$?" 2 "a --label that LABEL (COLUMN) would take over 255 bytes: usage error"
like "$(cat "$T/long.err")" "^scaletop import: --label 'x{40}\.\.\.' \(Linux 6\.6\) is over 255 bytes; give a shorter label$" \
	"  naming the column"
is "$(ls "$T" | grep -c '^long.*json')" 0 "  before any file is written"

# --- the verdict of imported curves ---------------------------------------------------
# docs/architecture.md's collapse rule: judged against the best lower bound of
# any point, not the peak's mean; collapse-reference.csv's 8 is a collapse
# only under the wrong rule (the file says why).
"$SCALETOP" import --csv "$FX/collapse-reference.csv" --label ref -o "$T/ref.json" 2>/dev/null
"$SCALETOP" show "$T/ref.json" >"$T/ref.out" 2>&1
is "$(grep '^verdict: ' "$T/ref.out")" \
	"verdict: scales to 2 threads (efficiency >= 90%); peak 250 ops/s at 4; 64% of peak at 8, inside the CIs" \
	"collapse reference: a fall above 0.8 of the best lower bound is a dip inside the CIs"
# The issue's flat-then-fall curve: one headline, the collapse, and the flat start as its detail.
printf '1,100\n2,101\n4,102\n8,103\n16,50\n' >"$T/flat.csv"
"$SCALETOP" import --csv "$T/flat.csv" --label flat -o "$T/flat.json" 2>/dev/null
"$SCALETOP" show "$T/flat.json" >"$T/flat.out" 2>&1
is "$(grep '^verdict: ' "$T/flat.out")" \
	"verdict: collapse above 8: 49% of peak at 16; flat from 1 to 8 threads (speedup 1.03 at 8); peak 103 ops/s at 8" \
	"flat then a fall: the collapse heads, the flat start follows"

done_testing

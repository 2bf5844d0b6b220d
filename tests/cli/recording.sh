# SPDX-License-Identifier: BSD-2-Clause
# Recordings where snapshots go: show, compare and export read a .jsonl
# stream (told by its content, not its name) through the stream reader; a
# recording cut short loads its finished steps with a warning; show --save
# turns one into a snapshot (atomically, never over a file without --force);
# and the TUI's -o and --record are refused in one line before the screen
# opens.  On the committed recordings in tests/fixtures/streams and one real
# short run.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/streams"
SCHEMA="$top_srcdir/docs/snapshot.schema.json"
REC="$FX/cpu-1-5.jsonl" # run -w cpu -n 1,2,3,4,5: five steps, an analysis after each

# rows FILE: the N column of show's results table for FILE (not of the waits below it).
rows() {
	"$SCALETOP" show "$1" 2>/dev/null |
		awk '/^waits:/ { exit } $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'
}

# --- show, compare, export take a recording -------------------------------------
"$SCALETOP" show "$REC" >"$T/show.out" 2>"$T/show.err"
is "$?" 0 "show FILE.jsonl exits 0"
is "$(rows "$REC")" "1 2 3 4 5 " "with a row for each recorded step"
like "$(cat "$T/show.out")" '^verdict: ' "and the verdict"
is "$(cat "$T/show.err")" "" "a whole recording gives no warning"
cp "$REC" "$T/named.json"
is "$(rows "$T/named.json")" "1 2 3 4 5 " "a recording called .json is told by its content"
is "$("$SCALETOP" show - <"$REC" 2>/dev/null | awk '$1 ~ /^[0-9]+$/' | wc -l | tr -d ' ')" 5 \
	"and read from standard input"
"$SCALETOP" compare "$REC" "$FX/cpu-1-2.jsonl" >"$T/cmp.out" 2>"$T/cmp.err"
is "$?" 0 "compare takes two recordings"
like "$(cat "$T/cmp.out")" '^ +5 .* - ' "aligned on N: the second has no N=5"
"$SCALETOP" compare --csv "$REC" "$top_srcdir/tests/fixtures/snapshots/cpu-linux.json" \
	>"$T/cmp.csv" 2>/dev/null
is "$?" 0 "compare --csv takes a recording beside a snapshot"
is "$(sed -n 2p "$T/cmp.csv" | cut -d, -f1)" 1 "its first row is N=1"
"$SCALETOP" export --gnuplot --force -o "$T/plot" "$REC" >/dev/null 2>"$T/exp.err"
is "$?" 0 "export takes a recording"
is "$(grep -c '^[0-9]' "$T/plot.dat")" 5 "  and writes its five points"

# --- a recording cut short ------------------------------------------------------
# Three whole step lines, then half of the next line: killed mid-write.
"$PYTHON" - "$REC" "$T/cut.jsonl" "$T/noend.jsonl" <<'EOF'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
steps = [i for i, l in enumerate(lines) if l.startswith(b'{"type":"step"')]
cut = steps[3]  # the fourth step's line, cut in half
open(sys.argv[2], "wb").write(b"\n".join(lines[:cut]) + b"\n" + lines[cut][: len(lines[cut]) // 2])
open(sys.argv[3], "wb").write(b"\n".join(l for l in lines if not l.startswith(b'{"type":"end"')))
EOF
"$SCALETOP" show "$T/cut.jsonl" >"$T/cut.out" 2>"$T/cut.err"
is "$?" 0 "a cut-off recording still loads"
is "$(rows "$T/cut.jsonl")" "1 2 3 " "with its three finished steps"
is "$(wc -l <"$T/cut.err" | tr -d ' ')" 1 "and one warning line"
like "$(cat "$T/cut.err")" 'cut\.jsonl: truncated: last line incomplete.*loaded its 3 finished steps' \
	"naming the file, the cut and what was kept"
"$SCALETOP" show "$T/noend.jsonl" >/dev/null 2>"$T/noend.err"
like "$(cat "$T/noend.err")" 'noend\.jsonl: no end line.*loaded its 5 finished steps' \
	"a recording without its end line says so"
printf '{"type":"header"\n' >"$T/bad.jsonl"
"$SCALETOP" show "$T/bad.jsonl" >/dev/null 2>"$T/bad.err"
is "$?" 1 "a broken recording is refused"
like "$(cat "$T/bad.err")" '^scaletop show: .*bad\.jsonl: line 1: .*not JSON' \
	"in one line naming the file and the line"
"$SCALETOP" compare "$REC" "$T/bad.jsonl" >/dev/null 2>"$T/badc.err"
like "$(cat "$T/badc.err")" 'bad\.jsonl: line 1' "compare refuses it the same way"

# --- show --save: a recording becomes a snapshot ---------------------------------
"$SCALETOP" show --save "$T/snap.json" "$REC" >/dev/null 2>"$T/save.err"
is "$?" 0 "show --save exits 0"
like "$(cat "$T/save.err")" 'saved .*snap\.json \(5 steps\)' "and says what it saved"
is "$(json_get "$T/snap.json" 'd["format"], [s["n"] for s in d["steps"]]')" \
	"('scaletop-snapshot', [1, 2, 3, 4, 5])" "a snapshot with every step"
is "$(json_get "$T/snap.json" 'd["label"]')" \
	"$(head -n 1 "$REC" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["label"])')" \
	"  labelled as the recording was"
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
	ok "  that passes the snapshot schema" "$PYTHON" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' "$SCHEMA" "$T/snap.json"
else
	# The check run installs it: missing, this is a failure, not a skip.
	tap_result 1 "  that passes the snapshot schema"
	diag "$PYTHON has no jsonschema module: install python3-jsonschema"
fi
is "$("$SCALETOP" show "$T/snap.json" | tail -n +2)" "$("$SCALETOP" show "$REC" | tail -n +2)" \
	"show prints the snapshot as it printed the recording"
sum=$(cksum <"$T/snap.json")
"$SCALETOP" show --save "$T/snap.json" "$FX/cpu-1-2.jsonl" >/dev/null 2>"$T/again.err"
is "$?" 1 "an existing file is not replaced"
is "$(grep -c . "$T/again.err")" 1 "  in one line"
like "$(cat "$T/again.err")" '^scaletop show: --save .*snap\.json: the file exists; give --force' "  that says what to do"
is "$(cksum <"$T/snap.json")" "$sum" "  and the file is untouched"
"$SCALETOP" show --save "$T/snap.json" --force "$FX/cpu-1-2.jsonl" >/dev/null 2>&1
is "$(json_get "$T/snap.json" 'len(d["steps"])')" 2 "--force replaces it"
"$SCALETOP" show --save "$T/no/such/dir/x.json" "$REC" >/dev/null 2>"$T/dir.err"
is "$?" 1 "a folder that does not exist is refused"
like "$(cat "$T/dir.err")" 'x\.json: cannot create a file in .*/no/such/dir: No such file or directory; choose another folder' "  saying so"
"$SCALETOP" show --save "$T/cut.json" "$T/cut.jsonl" >/dev/null 2>&1
is "$(json_get "$T/cut.json" 'len(d["steps"])')" 3 "a cut-off recording saves its finished steps"
"$SCALETOP" show --save "$T/two.json" "$REC" "$REC" >/dev/null 2>"$T/two.err"
is "$?" 2 "--save with two files is a usage error"
like "$(cat "$T/two.err")" 'one FILE' "  that says why"
"$SCALETOP" show --force "$REC" >/dev/null 2>&1
is "$?" 2 "--force without --save is a usage error"
head -n 1 "$REC" >"$T/empty.jsonl"
"$SCALETOP" show --save "$T/empty.json" "$T/empty.jsonl" >/dev/null 2>"$T/empty.err"
is "$?" 1 "a recording without a finished step is not saved"
ok "  and nothing is written" test ! -e "$T/empty.json"

# --- a real run, recorded and shown --------------------------------------------
"$SCALETOP" run -w cpu -n 1,2 -d 0.4 --warmup 0.1 --interval 0.1 -q --record "$T/run.jsonl" \
	-o "$T/run.json" >/dev/null 2>&1
is "$(rows "$T/run.jsonl")" "1 2 " "show reads a fresh recording of a real run"
is "$(rows "$T/run.jsonl")" "$(rows "$T/run.json")" "  with the steps run -o saved of it"

# --- the TUI's -o and --record: refused before any screen ---------------------------
touch "$T/taken.jsonl" "$T/taken.json"
"$SCALETOP" tui --record - >/dev/null 2>"$T/t1.err"
is "$?" 2 "the TUI refuses --record - (its screen is standard output)"
like "$(cat "$T/t1.err")" '^scaletop tui: --record -: .*give a file name' "  in one line"
"$SCALETOP" tui --record "$T/taken.jsonl" >/dev/null 2>"$T/t2.err"
is "$?" 2 "the TUI refuses to record over a file"
like "$(cat "$T/t2.err")" 'taken\.jsonl: the file exists; give --force' "  saying what to do"
"$SCALETOP" tui -o "$T/taken.json" >/dev/null 2>"$T/t3.err"
like "$(cat "$T/t3.err")" '^scaletop tui: -o .*taken\.json: the file exists' "and -o over a file"
"$SCALETOP" tui --record "$T/no/such/x.jsonl" >/dev/null 2>"$T/t4.err"
is "$?" 2 "and --record into a folder that is not there"
like "$(cat "$T/t4.err")" 'cannot create a file in .*no/such: No such file or directory; ' "  naming the folder and the reason"
mkdir "$T/tdir"
"$SCALETOP" tui -o "$T/tdir" --force >/dev/null 2>"$T/t5.err"
is "$?" 2 "the TUI refuses -o FOLDER, with --force too"
like "$(cat "$T/t5.err")" "^scaletop tui: -o $T/tdir: $T/tdir is a folder" "  saying it is a folder"
"$SCALETOP" tui --record /proc/scaletop-x.jsonl >/dev/null 2>"$T/t6.err"
is "$?" 2 "and --record into a folder that takes no file (/proc)"
like "$(cat "$T/t6.err")" "^scaletop tui: --record /proc/scaletop-x.jsonl: cannot create a file in /proc: " "  naming it"
"$SCALETOP" tui --help >"$T/help.out"
like "$(cat "$T/help.out")" '--record FILE' "tui --help lists --record"
like "$(cat "$T/help.out")" '-o, --output FILE' "  and -o"

done_testing

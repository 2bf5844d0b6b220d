# SPDX-License-Identifier: BSD-2-Clause
# Every command that writes a file checks where before it does its work, as
# run -o does: a name in a folder that takes no new file (/proc), in a folder
# that is not there or not ours, or a folder given for a file, fails first,
# in one line naming the option, the path and the failing call's reason,
# with nothing on standard output and no file made.  (sample writes only to
# standard output.)
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
tap_tmpdir
T=$TAP_TMP
FX="$top_srcdir/tests/fixtures/snapshots"
A="$FX/cpu-linux.json"
B="$FX/cpu-linux-rerun.json"
REC="$top_srcdir/tests/fixtures/streams/cpu-1-2.jsonl"
CSV="$FX/published.csv"
# The reason a create in /proc gets here, as touch meets it.
PROC_WHY=$(touch /proc/scaletop-outpaths.x 2>&1 | sed 's/.*: //')
diag "a create in /proc: $PROC_WHY"

# refused NAME OPT PATH WHY CMD...: CMD fails (not 0) before its work: nothing on standard
# output, one line on stderr, "scaletop CMD: OPT PATH: ... WHY", and PATH not made.
refused() {
	_name=$1 _opt=$2 _path=$3 _why=$4 _was=$([ -e "$3" ] && echo 1)
	shift 4
	"$SCALETOP" "$@" >"$T/out" 2>"$T/err"
	_st=$?
	is "$_st:$(wc -c <"$T/out" | tr -d ' ')" "1:0" "$_name: exit 1, nothing on standard output"
	is "$(wc -l <"$T/err" | tr -d ' ')" 1 "  one line on stderr"
	like "$(cat "$T/err")" "^scaletop $1: $_opt $_path: .*$_why" "  naming the option, the path and why"
	[ -n "$_was" ] || ok "  and no file made" test ! -e "$_path"
}

refused "compare --csv-usl in /proc" --csv-usl /proc/u.csv \
	"cannot create a file in /proc: $PROC_WHY" compare --csv-usl /proc/u.csv "$A" "$B"
refused "compare --csv-target in a missing folder" --csv-target "$T/none/t.csv" \
	"cannot create a file in $T/none: No such file or directory" \
	compare --csv-target "$T/none/t.csv" "$A" "$B"
mkdir "$T/adir"
refused "compare --csv-waits FOLDER" --csv-waits "$T/adir" "is a folder; give a file name" \
	compare --csv-waits "$T/adir" --force "$A" "$B"
rmdir "$T/adir"
refused "show --save in /proc" --save /proc/x.json "cannot create a file in /proc: $PROC_WHY" \
	show --save /proc/x.json "$REC"
refused "import -o in /proc" -o /proc/x.json "cannot create a file in /proc: $PROC_WHY" \
	import --csv "$CSV" -o /proc/x.json
refused "export --gnuplot -o in /proc" -o /proc/base "cannot create a file in /proc: $PROC_WHY" \
	export --gnuplot -o /proc/base "$A"
# The folder is checked before the snapshot is read (this one has no stacks to fold).
refused "export --folded -o in /proc" -o /proc/x.folded "cannot create a file in /proc: $PROC_WHY" \
	export --folded -o /proc/x.folded "$FX/mutex-locks.json"

# A folder of root's, 755, as nobody: Permission denied (root writes anywhere).
mkdir "$T/ro" && chmod 755 "$T/ro" && chmod 711 "$T"
[ "$(id -u)" -ne 0 ] && chmod 555 "$T/ro"
AS=
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$AS" ]; then
	($AS "$SCALETOP" compare --csv-usl "$T/ro/u.csv" "$A" "$B") >"$T/out" 2>"$T/err"
	is "$?:$(wc -c <"$T/out" | tr -d ' ')" "1:0" "compare --csv-usl into a folder not ours: refused first"
	is "$(cat "$T/err")" "scaletop compare: --csv-usl $T/ro/u.csv: cannot create a file in $T/ro: Permission denied; choose another folder" \
		"  with the reason: Permission denied"
else
	skip "root without setpriv" "compare --csv-usl into a folder not ours"
	skip "root without setpriv" "  with the reason: Permission denied"
fi

# A good path still works, and the check leaves no file behind.
"$SCALETOP" compare --csv-usl "$T/u.csv" "$A" "$B" >"$T/out" 2>"$T/err"
is "$?" 0 "compare --csv-usl into a folder that takes it exits 0"
like "$(head -n 1 "$T/u.csv")" "," "  and writes the CSV"
is "$(ls -A "$T" | grep -c '^\.scaletop-check')" 0 "  the check's probe file is gone"

done_testing

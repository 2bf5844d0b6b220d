# SPDX-License-Identifier: BSD-2-Clause
# Usage errors and help, over every subcommand: each bad word is one line,
# exit 2, with one "scaletop CMD: " prefix and never the option's name twice
# ("scaletop run: -n: -n '0': ..." was); the interactive monitor refuses
# what its sweep would refuse before it needs a terminal.  Then every
# subcommand the top-level --help lists takes -h and --help.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
tap_tmpdir
T=$TAP_TMP
FX=$top_srcdir/tests/fixtures/snapshots

# doubled MESSAGE: whether the word before the first ':' after the prefix comes again at
# once ("-n: -n '0':", "--parse-regex: --parse-regex:").
doubled() {
	printf '%s\n' "$1" | grep -Eq "^scaletop( [a-z]+)?: ([^ :]+)(:| '[^']*':) \\2[: ']"
}

# usage CMD ARG...: scaletop CMD ARG... is a usage error in one line with one prefix.
usage() {
	_cmd=$1
	"$SCALETOP" "$@" </dev/null >"$T/u.out" 2>"$T/u.err"
	_st=$?
	_msg=$(cat "$T/u.err")
	_lines=$(wc -l <"$T/u.err" | tr -d ' ')
	if [ "$_st" -eq 2 ] && [ "$_lines" -eq 1 ] && ! doubled "$_msg" &&
		printf '%s\n' "$_msg" | grep -q "^scaletop $_cmd: [^ ]"; then
		tap_result 0 "$*: one line, exit 2, one prefix"
	else
		tap_result 1 "$*: one line, exit 2, one prefix"
		diag "exit $_st, $_lines lines: $_msg"
	fi
}

# The checker itself: it finds the doubled prefixes it was written for.
ok "the check finds '-n: -n'" doubled "scaletop run: -n: -n '0': item '0' at column 1"
ok "  and '--parse-regex: --parse-regex'" doubled "scaletop run: --parse-regex: --parse-regex: the regex is empty"
ok "  but not a prefix said once" sh -c '! "$@"' sh doubled "scaletop run: -n '0': item '0' at column 1"

usage run -n 0
usage run -n 4-1
usage run -n 1,,2
usage run -n abc
usage run -d abc
usage run --repeat 0
usage run --until-stable=150
usage run -w nosuch
usage run -p hold=5
usage run -w mutex -p nosuch=1
usage run --mode fibers
usage run --cmd "sysbench 'open" --parse sysbench
usage run --cmd x --parse-regex ''
usage run --cmd x --parse-regex '('
usage run --cmd x --parse regex
usage run --cmd x --parse nosuch
usage run --cmd x
usage run --cmd 'x {N}' --parse sysbench
usage run --cmd x --parse elapsed --ops 0
usage run --target nonsense
usage run --target cgroup:/nonexistent-scaletop
usage run --probe "a 'b"
usage run --setup "a 'b"
usage run -o ''
usage run --bogus
usage run -n
usage run extra
usage tui -n 0
usage tui -w nosuch
usage tui --cmd x --parse regex
usage tui --refresh 0
usage tui --bogus
usage sample 0
usage sample 1 abc
usage sample --cpus x 1 1
usage sample --bogus
usage sample 1 2 3
usage show
usage show --bogus
usage compare "$FX/cpu-linux.json"
usage compare --noise abc "$FX/cpu-linux.json" "$FX/cpu-linux-rerun.json"
usage compare --bogus
usage export
usage export -o
usage export --bogus
usage import
usage import --bogus
usage runs --bogus
usage runs --prune x
usage list --bogus
usage list extra
usage replay
usage view
is "$("$SCALETOP" run -n 0 2>&1)" "scaletop run: -n '0': item '0' at column 1: 0 is out of range; counts must be between 1 and 4096" \
	"run -n 0: the list's message once"
"$SCALETOP" bogus-command >/dev/null 2>"$T/top.err"
is "$?:$(cat "$T/top.err")" "2:scaletop: unknown command 'bogus-command': run 'scaletop --help' for the list" \
	"an unknown command: one line, exit 2"

# --- every subcommand takes -h and --help ---------------------------------------------
# The list is the program's own (its --help), so a new subcommand is walked too.
cmds=$("$SCALETOP" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
like "$(echo $cmds)" '^run( [a-z]+)+$' "the top-level --help lists the subcommands ($(echo $cmds))"
like "$("$SCALETOP" --help)" "'scaletop COMMAND --help' describes a command" "  and promises COMMAND --help"
for c in $cmds; do
	for h in -h --help; do
		"$SCALETOP" "$c" "$h" </dev/null >"$T/h.out" 2>"$T/h.err"
		st=$?
		if [ "$st" -eq 0 ] && [ ! -s "$T/h.err" ] && grep -q '^usage: scaletop' "$T/h.out"; then
			tap_result 0 "$c $h: its usage on stdout, exit 0"
		else
			tap_result 1 "$c $h: its usage on stdout, exit 0"
			diag "exit $st; stdout: $(head -2 "$T/h.out"); stderr: $(cat "$T/h.err")"
		fi
	done
done
like "$("$SCALETOP" list --help)" '-v, --verbose' "list --help names -v"

done_testing

# SPDX-License-Identifier: BSD-2-Clause
# The runs list says what ran: two mutex runs that differ only in hold= are
# told apart by their parameters, an external run by its command, an
# imported one by its label, in `scaletop runs` and in the TUI's R view; in
# a narrow window the parameters are shortened, never the date or the name.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
RUNS="$T/data/scaletop/runs"
FAST="-n 1 -d 0.3 -q"
mkdir -p "$RUNS"

# keep NAME AGE ARGS...: a run -o into the runs directory, its time set AGE ago (the list's order).
keep() {
	_name=$1 _age=$2
	shift 2
	"$ST" run "$@" -o "$RUNS/$_name.json" >/dev/null 2>"$T/$_name.err" ||
		diag "run $*: $(cat "$T/$_name.err")"
	[ ! -e "$RUNS/$_name.json" ] || touch -d "$_age" "$RUNS/$_name.json"
}
keep hold300 '4 minutes ago' -w mutex -p hold=300 --warmup 0.1 $FAST
keep hold1000 '3 minutes ago' -w mutex -p hold=1000 --warmup 0.1 $FAST
keep ext '2 minutes ago' --cmd "sh -c 'true {n}'" --parse elapsed $FAST
"$ST" import --csv "$top_srcdir/tests/fixtures/snapshots/published.csv" --label "paper baseline" \
	-o "$RUNS/imp.json" 2>"$T/imp.err" || diag "import: $(cat "$T/imp.err")"
is "$(ls "$RUNS" | grep -c '\.json$')" 4 "four runs kept"

# --- scaletop runs ------------------------------------------------------------------------
XDG_DATA_HOME="$T/data" "$ST" runs >"$T/runs.out" 2>&1
is "$?" 0 "scaletop runs exits 0"
diag "$(cat "$T/runs.out")"
like "$(sed -n 2p "$T/runs.out")" '^kept +workload +host +N +steps +verdict' "the header"
like "$(cat "$T/runs.out")" '^[0-9-]+ [0-9:]+  mutex hold=300 think=[0-9]+ ' "the hold=300 run with its parameters"
like "$(cat "$T/runs.out")" '^[0-9-]+ [0-9:]+  mutex hold=1000 think=[0-9]+ ' "the hold=1000 run with its parameters"
like "$(cat "$T/runs.out")" "^[0-9-]+ [0-9:]+  external: sh -c true [{]n[}] " "the external run with its command"
like "$(cat "$T/runs.out")" '"paper baseline"' "the imported run with its label"
is "$(grep -c 'hold=' "$T/runs.out")" 2 "  and no other row with hold="

# On a terminal of 72 columns, scaletop runs cuts the parameters too, not the date or the name.
tm_start 72 30 sh -c '"$0" runs; sleep 60' "$ST"
ok "scaletop runs on a 72-column terminal: the parameters cut, the date and name whole" \
	tm_wait_for '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5}  mutex [^ ]*[.]{3} ' 50
is "$(tm_screen | grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5}  (mutex|external)')" 3 \
	"  every row of the three runs with its name"

# --- the TUI's R view ---------------------------------------------------------------------
tm_start 160 40 "$ST" --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 50
tm_keys R
ok "R lists the four runs" tm_wait_for 'runs kept: 4, newest first' 50
ok "  the hold=300 run with its parameters" tm_wait_for '^ [0-9-]+ [0-9:]+  mutex hold=300 think=[0-9]+ ' 50
ok "  the hold=1000 run with its parameters" tm_wait_for '^ [0-9-]+ [0-9:]+  mutex hold=1000 think=[0-9]+ ' 50
ok "  the external run with its command" tm_wait_for '^ [0-9-]+ [0-9:]+  external: sh -c ' 50
ok "  the imported run with its label" tm_wait_for '"paper baseline"' 50
tm_resize 72 20
ok "at 72 columns the rows keep the date and the name, their parameters shortened" \
	tm_wait_for '^ [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5}  mutex [^ ]*[.]{3} ' 50
is "$(tm_screen | grep -cE '^ [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5}  (mutex|external)')" 3 \
	"  every row of the three runs with its name"
tm_keys Escape F10
ok "the TUI ends" tm_wait_exit 100

done_testing

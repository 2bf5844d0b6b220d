# SPDX-License-Identifier: BSD-2-Clause
# Nothing a user measured is lost: every sweep the TUI runs is kept in
# $XDG_DATA_HOME/scaletop/runs (at its end, and before r, q ... drop it);
# the history view (R) lists, opens, overlays and deletes them; `scaletop
# runs` lists and prunes them; autosave = off and --no-autosave keep
# nothing; and a runs directory that cannot be written is one line on the
# screen while the TUI carries on.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
FAST="-w cpu -d 0.3 --warmup 0.1 --refresh 0.2"
RUNS="$T/data/scaletop/runs"

# gone_from_screen REGEX: waits (at most 5 s) until the screen no longer matches.
gone_from_screen() {
	_i=0
	while [ "$_i" -lt 50 ]; do
		tm_screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# runs_in DIR: how many kept runs (*.json) DIR holds.
runs_in() {
	ls "$1" 2>/dev/null | grep -c '\.json$'
}

# --- the end of a sweep keeps it; r and q keep what they would drop ------------------
# Steps of 1.5 s: q must come in the second sweep's second step, and under a distcheck beside
# another suite the screen was read too seldom to see a 0.3 s one (it saw the sweep done).
tm_start 120 40 "$ST" -w cpu -d 1.5 --warmup 0.1 --refresh 0.2 -n 1,2
ok "a sweep runs" tm_wait_for 'sweep done: 2 steps' 300
ok "its end says it is kept" tm_wait_for 'kept \(R lists the runs\)' 50
is "$(runs_in "$RUNS")" 1 "the finished sweep is a file in \$XDG_DATA_HOME/scaletop/runs"
first=$(ls "$RUNS"/*.json 2>/dev/null | head -n 1)
like "$first" "/scaletop-cpu-[^/]+-[0-9]{8}-[0-9]{6}[.]json$" "named by workload, host and time, as s names them"
like "$(stat -c %a "$RUNS")" '^700$' "the runs directory is made 0700"
tm_keys r
ok "r starts a new sweep" tm_wait_for 'step 1/2' 100
if "$ST" show "$first" >"$T/show.out" 2>&1; then
	tap_result 0 "the kept run loads (scaletop show)"
else
	tap_result 1 "the kept run loads (scaletop show)"
	diag "$(cat "$T/show.out")"
fi
like "$(cat "$T/show.out")" '^ +2 ' "with its N=2 step"
ok "the new sweep finishes its first step" tm_wait_for 'step 2/2' 300
tm_keys q
ok "q ends the TUI" tm_wait_exit 100
is "$(tm_status)" 0 "q exits 0"
is "$(runs_in "$RUNS")" 2 "q kept the sweep it stopped, with its finished step"

# --- SIGTERM keeps the sweep it ends ---------------------------------------------------
TM_DATA="$T/term"
tm_start 120 40 "$ST" -w cpu -n 1,2 -d 3 --warmup 0.1 --refresh 0.2
ok "a sweep runs to its second step" tm_wait_for 'step 2/2 N=2 (warm-up|measuring)' 300
kill -TERM "$(tm_pane_pid)"
ok "SIGTERM ends the TUI" tm_wait_exit 100
is "$(tm_status)" 143 "with 128+15"
is "$(runs_in "$T/term/scaletop/runs")" 1 "and keeps the sweep, with its finished step"
like "$(XDG_DATA_HOME="$T/term" "$ST" runs | sed -n 3p)" ' 1-2 +2 +[(]stopped[)] ' "and the step it stopped"
unset TM_DATA

# --- scaletop runs: newest first, with the view's columns -------------------------------
XDG_DATA_HOME="$T/data" "$ST" runs >"$T/runs.out" 2>&1
is "$?" 0 "scaletop runs exits 0"
like "$(head -n 1 "$T/runs.out")" "^2 kept runs in $RUNS, newest first$" "it says how many and where"
like "$(sed -n 2p "$T/runs.out")" '^kept +workload +host +N +steps +verdict' "a header names the columns"
like "$(sed -n 3p "$T/runs.out")" '^[0-9-]+ [0-9:]+ +cpu work=[0-9]+.* +1-2 +2 +[(]stopped[)] ' "the stopped sweep is first: time, workload with its parameters, host, N, steps"
like "$(sed -n 5p "$T/runs.out")" '^[0-9-]+ [0-9:]+ +cpu work=[0-9]+.* +1-2 +2 +[^(]' "then the finished one"
like "$(sed -n 6p "$T/runs.out")" "^  $first\$" "each with its file"

# --- the history view: list, delete (after a yes), open, overlay, back ---------------------
tm_start 120 40 "$ST" --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 50
ok "the footer shows R runs" tm_wait_for ' 6 runs .* R runs ' 50
tm_keys R
ok "R opens the history view" tm_wait_for 'runs kept: 2, newest first' 50
ok "its rows are read" tm_wait_for 'cpu .* 1-2 .*steps|1-2 +2  ' 50
rows=$(tm_screen | grep -E '^ [0-9]{4}-[0-9]{2}-[0-9]{2} ')
like "$(printf '%s\n' "$rows" | head -n 1)" '[(]stopped[)]' "newest first: the stopped sweep on top"
tm_keys Down D
ok "D asks before deleting" tm_wait_for 'delete scaletop-cpu-.*[?] \(y/N\)' 50
tm_keys n
ok "no keeps it" tm_wait_for 'not deleted' 50
is "$(runs_in "$RUNS")" 2 "both files are still there"
tm_keys D
tm_wait_for '\(y/N\)' 50
tm_keys y
ok "yes deletes it" tm_wait_for "deleted $first" 50
is "$(runs_in "$RUNS")" 1 "one file is left"
[ -e "$first" ]
is "$?" 1 "the older run is the one gone"
ok "the list says so" tm_wait_for 'runs kept: 1, newest first' 50
tm_keys o
ok "o overlays the selected run" tm_wait_for 'overlay scaletop-cpu-[^:]*: [0-9]+ points' 50
tm_keys Enter
ok "enter opens it" tm_wait_for 'opened .*scaletop-cpu-.*[.]json' 50
ok "in the steps view, as the session on screen" \
	tm_wait_for 'sweep stopped: 1 step done, N=2 interrupted.*kept run' 50
tm_keys 6
ok "6 is the history view too" tm_wait_for 'runs kept: 1' 50
tm_keys q
ok "q in the view goes back" tm_wait_for 'sweep stopped: 1 step done' 50
is "$(tm_dead)" 0 "and does not quit"
tm_keys q
ok "q then quits" tm_wait_exit 100
is "$(runs_in "$RUNS")" 1 "an opened run is not kept again as a new file"

# --- hundreds of runs: the view opens, reads the rows it shows, and moves by pages ------
mkdir -p "$T/many/scaletop/runs"
kept=$(ls "$RUNS"/*.json | head -n 1)
i=0
while [ "$i" -lt 300 ]; do
	cp "$kept" "$T/many/scaletop/runs/scaletop-cpu-h-20250101-$(printf '%06d' "$i").json"
	i=$((i + 1))
done
printf 'not a snapshot\n' >"$T/many/scaletop/runs/scaletop-cpu-h-20240101-000000.json"
touch -d '1 year ago' "$T/many/scaletop/runs/scaletop-cpu-h-20240101-000000.json"
TM_DATA="$T/many"
tm_start 120 40 "$ST" --monitor --refresh 0.2
tm_wait_for 'refresh 0.2s' 50
tm_keys R
ok "301 kept runs list" tm_wait_for 'runs kept: 301, newest first' 50
ok "the rows on screen are read" tm_wait_for '1-2 +2  ' 50
tm_keys End
ok "End goes to the oldest, a file that is no snapshot, which says so" \
	tm_wait_for 'cannot read: .*20240101-000000[.]json' 100
tm_keys Home
ok "Home goes back to the newest" gone_from_screen '20240101-000000'
tm_keys G
ok "G goes to the oldest too" tm_wait_for 'cannot read: .*20240101-000000[.]json' 100
tm_keys PPage
sleep 0.5
like "$(tm_screen)" '20240101-000000' "PgUp moves up a page: the oldest is still on screen"
tm_keys PPage PPage PPage PPage PPage PPage PPage PPage
ok "more PgUps scroll it away" gone_from_screen '20240101-000000'
tm_keys NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage
ok "PgDn brings it back" tm_wait_for '20240101-000000' 50
tm_keys g
ok "g (Home) goes to the newest again" gone_from_screen '20240101-000000' 
is "$(tm_dead)" 0 "the TUI runs on"
tm_keys Escape
ok "Esc goes back" tm_wait_for 'idle: r runs the sweep' 50
tm_keys F10
tm_wait_exit 100
unset TM_DATA
out=$(XDG_DATA_HOME="$T/many" "$ST" runs)
like "$(printf '%s\n' "$out" | tail -n 1)" '^[0-9-]+ [0-9:]+ +cannot read it: .*20240101-000000[.]json' \
	"scaletop runs lists a file that is no snapshot last, saying why"
out=$(XDG_DATA_HOME="$T/none" "$ST" runs 2>&1)
is "$?" 0 "scaletop runs with no runs directory exits 0"
is "$out" "no kept runs in $T/none/scaletop/runs: the TUI keeps each sweep there when it ends" \
	"and says where they would be"

# --- --prune ------------------------------------------------------------------------
cp "$RUNS"/*.json "$RUNS/scaletop-cpu-old-20200101-000000.json"
touch -d '10 days ago' "$RUNS/scaletop-cpu-old-20200101-000000.json"
out=$(XDG_DATA_HOME="$T/data" "$ST" runs --prune 7 2>&1)
is "$?" 0 "runs --prune 7 exits 0"
is "$out" "removed 1 run kept more than 7 days ago from $RUNS" "it says how many it removed"
is "$(runs_in "$RUNS")" 1 "the 10-day-old one is gone, the new one stays"
out=$(XDG_DATA_HOME="$T/data" "$ST" runs --prune soon 2>&1)
is "$?" 2 "a bad DAYS is a usage error"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "in one line"
like "$out" '--prune.*soon' "naming the option and the value"
like "$("$ST" runs --help)" 'runs --prune DAYS' "runs --help"

# --- autosave off: in the config, and --no-autosave ------------------------------------
mkdir -p "$T/config/scaletop"
printf 'autosave = off\n' >"$T/config/scaletop/config"
TM_DATA="$T/off"
tm_start 120 40 "$ST" $FAST -n 1
ok "a sweep with autosave = off runs" tm_wait_for 'sweep done: 1 step' 300
tm_keys q
tm_wait_exit 100
is "$(runs_in "$T/off/scaletop/runs")" 0 "autosave = off keeps nothing"
rm -f "$T/config/scaletop/config"
tm_start 120 40 "$ST" $FAST -n 1 --no-autosave
ok "a sweep with --no-autosave runs" tm_wait_for 'sweep done: 1 step' 300
tm_keys r
tm_wait_for 'sweep done: 1 step' 300
tm_keys q
tm_wait_exit 100
is "$(runs_in "$T/off/scaletop/runs")" 0 "--no-autosave keeps nothing, through r and q"

# --- a runs directory that cannot be made: the message, and the TUI carries on ------------
mkdir -p "$T/ro"
echo 'a file where scaletop/ should be' >"$T/ro/scaletop"
TM_DATA="$T/ro"
tm_start 120 40 "$ST" $FAST -n 1
ok "the sweep runs" tm_wait_for 'sweep done: 1 step' 300
ok "the message says it cannot keep the run, where, why and what to do" \
	tm_wait_for "cannot keep this run: $T/ro/scaletop: Not a directory; press s to save elsewhere" 50
tm_keys r
ok "r does not drop the run it could not keep, but says so" \
	tm_wait_for "not kept, so not dropped: s saves it elsewhere; the same key again drops it" 50
like "$(tm_screen)" 'sweep done: 1 step' "the sweep stays on screen"
tm_keys s C-u "$T/elsewhere.json" Enter
ok "the TUI carries on: s saves elsewhere" tm_wait_for "saved $T/elsewhere.json" 50
ok "the saved run loads" "$ST" show "$T/elsewhere.json"
tm_keys r
ok "once saved, r runs a new sweep" tm_wait_for 'step 1/1' 100
ok "which finishes" tm_wait_for 'sweep done: 1 step' 300
tm_keys r
ok "it is not kept either, so r asks again" tm_wait_for 'not kept, so not dropped' 50
tm_keys r
ok "and r again drops it for a new sweep" tm_wait_for 'step 1/1' 100
tm_wait_for 'sweep done: 1 step' 300
tm_keys q
ok "q ends it" tm_wait_exit 100
is "$(tm_status)" 0 "exit 0"
ok "the last word after the screen says it was not kept" tm_wait_for '^scaletop: cannot keep this run: ' 20 ||
	diag "$(tm_screen)"
unset TM_DATA

done_testing

# SPDX-License-Identifier: BSD-2-Clause
# What the TUI says is what happened (issue 21, section 4): the header of a
# paused or stopped sweep, the summary at q, and what the panels show at
# 80x24 and other sizes.  Each check waits on the screen's content, never on
# how long something takes.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

# header_field REGEX: the first match of REGEX (grep -E -o) on the header's second line.
header_field() {
	tm_screen | sed -n 2p | grep -Eo -- "$1" | head -n 1
}

# unlike TEXT PATTERN NAME: passes when TEXT has no match for the extended regex PATTERN.
unlike() {
	if ! printf '%s\n' "$1" | grep -Eq -- "$2"; then
		tap_result 0 "$3"
		return 0
	fi
	tap_result 1 "$3"
	diag "got:  '$(printf '%s\n' "$1" | grep -E -- "$2" | head -n 3)'"
	return 1
}

# field_moves REGEX WAS [TENTHS]: waits until the header's REGEX reads other than WAS.
field_moves() {
	_i=0
	while [ "$_i" -lt "${3:-300}" ]; do
		[ "$(header_field "$1")" != "$2" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# --- space: a paused step's clock stands still --------------------------------------
tm_start 120 40 "$ST" -w cpu -n 2 -d 29.5 --warmup 0.2 --refresh 0.2
tm_wait_for 'step 1/1 N=2 measuring' 100
tm_keys ' '
ok "space pauses the sweep" tm_wait_for 'PAUSED' 20
ok "the header says the step is paused, not measuring" \
	tm_wait_for 'step 1/1 N=2 paused after measuring [0-9.]+s' 20
held=$(header_field 'N=2 [a-z -]+ [0-9.]+s')
el=$(header_field 'elapsed [0-9:]+')
# The session's clock goes on (elapsed), twice, while the step's stands still.
ok "the session's clock goes on while paused" field_moves 'elapsed [0-9:]+' "$el"
el=$(header_field 'elapsed [0-9:]+')
field_moves 'elapsed [0-9:]+' "$el"
is "$(header_field 'N=2 [a-z -]+ [0-9.]+s')" "$held" \
	"the paused step's seconds do not count on"
tm_keys ' '
ok "space resumes: the step warms up and measures again" \
	tm_wait_for 'step 1/1 N=2 (warm-up|measuring) [0-9.]+s' 50
tm_keys q
tm_wait_exit 100

# --- x mid-step: the header, the table and the event say the same ---------------------
tm_start 160 40 "$ST" -w cpu -n 2 -d 29.5 --warmup 0.2 --refresh 0.2
# a loaded machine (a sanitizer build beside other suites) can take seconds to get there
ok "the step measures before x" tm_wait_for 'step 1/1 N=2 measuring' 600
tm_keys x
ok "x: the header says the sweep was stopped and which step it cut" \
	tm_wait_for 'sweep stopped: 0 steps done, N=2 interrupted' 50
unlike "$(tm_screen)" 'sweep done' "and not that it is done"
tm_keys 4
ok "the steps view: N=2 has no throughput, and says why" \
	tm_wait_for '^ +2 +- .* interrupted: stopped by the user' 20
ok "the event says so too" \
	tm_wait_for 'N=2 not measured \(stopped by the user\): its window was cut short' 20
unlike "$(tm_screen)" 'ops/s \(interrupted\)' "it gives no throughput the table does not"
tm_keys q
tm_wait_exit 100

# --- q: the summary gives the verdict once, then the fit ------------------------------
tm_start 120 40 "$ST" -w cpu -n 1,2 -d 0.5 --warmup 0.2 --refresh 0.2
ok "a short sweep runs" tm_wait_for 'sweep done: 2 steps' 300
tm_keys q
tm_wait_exit 100
out=$(tm_screen)
like "$out" '^USL: ' "q prints the table and the fit"
is "$(printf '%s\n' "$out" | grep -c '^verdict: ')" 1 "and the verdict once"

# --- the steps table: the status is the last column to go -----------------------------
CF="$top_srcdir/tests/fixtures/streams/mutex-collapse.jsonl"
sed -e 's/"n":4,"rep":0,"status":"ok","reason":null/"n":4,"rep":0,"status":"failed","reason":"exit 1"/' \
	-e 's/"n":6,"rep":0,"status":"ok","reason":null/"n":6,"rep":0,"status":"unstable","reason":"wide CI"/' \
	"$CF" >"$T/status.jsonl"
for size in "80 24" "100 30" "60 16"; do
	tm_start ${size% *} ${size#* } "$ST" replay "$T/status.jsonl"
	tm_wait_for ' verdict: ' 50
	tm_keys G 4
	ok "${size% *}x${size#* }: the steps view has a status column" \
		tm_wait_for '^ +N +ops/s .* status *$' 50
	ok "  a failed step says so" tm_wait_for '^ +4 +- .* failed' 20
	ok "  and an unstable one" tm_wait_for '^ +6 +365k .* unstable' 20
	tm_keys q
	tm_wait_exit 50
done

# --- the throughput column in the sweep's unit -----------------------------------------
sed 's/"unit":"ops"/"unit":"transactions"/' "$CF" >"$T/tps.jsonl"
"$ST" show "$T/tps.jsonl" >"$T/tps.out" 2>&1
like "$(grep -E '^ +N ' "$T/tps.out")" '^ +N +transactions/s +±CI +speedup' \
	"show heads the throughput in the sweep's unit"
like "$(grep -E '^ +1 ' "$T/tps.out" | head -n 1)" '^ {5}1 {10}1[.]20M +30[.]7% ' \
	"and its rows line up under it"
tm_start 80 24 "$ST" replay "$T/tps.jsonl"
tm_wait_for ' verdict: ' 50
tm_keys G 4
ok "80x24: the steps view heads it so too" tm_wait_for '^ +N +transactions/s +.CI ' 50
ok "  with the status at the end" tm_wait_for '^ +6 +365k .* ok *$' 20
tm_keys 3
ok "  and the chart's title" tm_wait_for 'throughput \(transactions/s\)' 20
tm_keys q
tm_wait_exit 50

# --- contention ranges: shortened with SI units, a number never cut ---------------------
sed -e 's/"vcsw_per_kop":0.0350650807899461/"vcsw_per_kop":0.0/' \
	-e 's/"vcsw_per_kop":0.0179988840691877/"vcsw_per_kop":12345.67/' \
	"$top_srcdir/tests/fixtures/streams/cpu-1-2.jsonl" >"$T/csw.jsonl"
for size in "80 24" "90 24" "100 30" "120 40"; do
	tm_start ${size% *} ${size#* } "$ST" replay "$T/csw.jsonl"
	tm_wait_for ' verdict: ' 50
	tm_keys G
	tm_wait_for '^ vcsw/kop +12345[.]67 ' 50
	row=$(tm_screen | grep '^ vcsw/kop')
	like "$row" ' (0[.]00[.][.]12345[.]67|0[.][.]12[.]3k)( |$)' \
		"${size% *}x${size#* }: the vcsw/kop range is whole"
	[ "$size" = "80 24" ] && narrow=$row
	tm_keys q
	tm_wait_exit 50
done
like "$narrow" ' 0[.][.]12[.]3k( |$)' "at 80x24 it is shortened with SI units"
like "$row" ' 0[.]00[.][.]12345[.]67( |$)' "where it fits, with every decimal"

# --- the chart's N axis: a tick at every N an overlay reaches ------------------------------
for size in "80 24" "120 40"; do
	tm_start ${size% *} ${size#* } "$ST" replay "$top_srcdir/tests/fixtures/streams/cpu-1-2.jsonl"
	tm_wait_for ' verdict: ' 50
	tm_keys G o "$top_srcdir/tests/fixtures/snapshots/cpu-linux-rerun.json" Enter
	tm_wait_for 'overlay cpu-linux-rerun: 3 points' 50
	axis=$(tm_screen | awk 'a { print; exit } /^ +0│/ { a = 1 }')
	like "$axis" '^ +1 +2 +4 *$' "${size% *}x${size#* }: a 1-2 sweep under an overlay to 4 has a tick at 4"
	tm_keys q
	tm_wait_exit 50
done

# --- the help: a heading is followed by its lines, in its column --------------------------
tm_start 80 24 "$ST" replay "$CF"
tm_wait_for ' verdict: ' 50
tm_keys '?'
tm_wait_for 'press any key to close' 20
like "$(tm_screen | awk 'f { print; exit } /Files/ { f = 1 }')" 'save a snapshot' \
	"80x24: the help's Files heading has its first line under it"
tm_keys x q
tm_wait_exit 50

# --- w: the picker opens on the current workload, and stops at its ends -----------------
tm_start 120 40 "$ST" --monitor -w mutex --refresh 0.2
tm_wait_for 'mutex hold=' 50
tm_keys w
tm_wait_for 'workload \(up/down' 20
tm_keys Enter
ok "w opens on the workload on screen (mutex), not on cpu" \
	tm_wait_for 'mutex parameters \(enter runs\)' 20
tm_keys Escape
tm_wait_for 'verdict: ' 20
tm_keys q
tm_wait_exit 50
tm_start 120 40 "$ST" --monitor -w cpu --refresh 0.2
tm_wait_for 'cpu work=' 50
tm_keys w
tm_wait_for 'workload \(up/down' 20
tm_keys Up Enter
ok "up on the first workload stays there: the list does not wrap" \
	tm_wait_for 'cpu parameters \(enter runs\)' 20
tm_keys Escape w
tm_wait_for 'workload \(up/down' 20
# scaletop list names the built-ins in the picker's order, each at the start of a line,
# then says how external commands are run.
wls=$("$ST" list | awk '/^external/ { exit } /^[a-z]/ { print $1 }')
last=$(printf '%s\n' $wls | tail -n 1)
for w in $wls x x; do tm_keys Down; done
tm_keys Enter
ok "and down stops at the last ($last)" tm_wait_for "$last parameters \\(enter runs\\)" 20
tm_keys Escape
tm_wait_for 'verdict: ' 20
tm_keys q
tm_wait_exit 50

done_testing

# SPDX-License-Identifier: BSD-2-Clause
# Keys in the TUI, as a user presses them in tmux: help, views, pause, the N
# list, snapshots (s) and overlays (o, --compare), and q leaving nothing.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"
FAST="-w cpu -d 0.5 --warmup 0.2 --refresh 0.2"

# proc_state_is PID REGEX: waits (at most 5 s) until ps shows PID in a state matching REGEX.
proc_state_is() {
	_i=0
	while [ "$_i" -lt 50 ]; do
		ps -o stat= -p "$1" 2>/dev/null | grep -Eq "^$2" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# --- a key while a sweep runs ------------------------------------------------------
tm_start 120 40 "$ST" -w cpu -n 2 -d 29.5 --warmup 0.2 --refresh 1
tm_wait_for 'step 1/1 N=2 measuring' 100
# How soon is bench/tui-latency.sh's business: a test only asks that it is.
tm_keys '?'
ok "? opens the help while a sweep runs (refresh 1 s)" tm_wait_for 'press any key to close' 20
tm_keys x
ok "help closes on any key" tm_wait_for '1 overview' 20
tm_keys ' '
ok "space pauses the sweep" tm_wait_for 'PAUSED' 20
step_child=$(pgrep -P "$(tm_pane_pid)" | head -n 1)
ok "its workload is stopped, not only the display" proc_state_is "$step_child" T
tm_keys ' '
ok "space resumes the workload" proc_state_is "$step_child" '[RS]'
ok "and the step measures again from its warm-up" tm_wait_for 'N=2 (warm-up|measuring)' 50
tm_keys v
ok "v shows the cpus view" tm_wait_for '─ busy % per CPU over time' 20
tm_keys 3
ok "3 shows the chart view" tm_wait_for '^─ throughput' 20
tm_keys 5
ok "5 shows the waits view" tm_wait_for '^─ waits' 20
pid=$(tm_pane_pid)
tm_keys q
ok "q ends the TUI during a sweep" tm_wait_exit 100
is "$(tm_status)" 0 "q exits 0"
ok "no process is left after q" st_gone 'd 29[.]5' 
ok "the process is gone" sh -c "! kill -0 $pid 2>/dev/null"

# --- 80x24: the help, the lists and the habits of htop ----------------------------------
# tmux.sh runs the TUI under tmux-256color (ncurses-base ships it), whose
# Home and End (\E[1~, \E[4~) and X10 wheel (\E[M) are what tmux sends.
CF="$top_srcdir/tests/fixtures/streams/mutex-collapse.jsonl"
tm_start 80 24 "$ST" replay "$CF"
tm_wait_for ' verdict: ' 50
tm_keys '?'
ok "80x24: the help shows its last line" tm_wait_for 'press any key to close' 20
help=$(tm_screen)
like "$help" 'CPU bars' "and its last entry"
missing=
for k in 'space' 'r  x' '\+ -' ' w ' ' n ' 'v Tab' 'V S-Tab' '1 2 3' '4 5' '6 R' 'j k' \
	'PgUp PgDn' 'Home End' 'g G' 'wheel' 'Enter' 'Esc' ' s ' 'o  c' ' W ' '< ,' '> \.' \
	't  T' ' d ' 'Ctrl-L' '\? h F1' 'q Q F10'; do
	printf '%s\n' "$help" | grep -Eq -- "$k" || missing="$missing [$k]"
done
is "$missing" "" "the help at 80x24 lists every key"
tm_keys x
tm_wait_for '1 overview' 20
tm_keys 4 NPage
ok "PgDn in the steps view selects a step" tm_wait_for 'step 1: N=1 run 1' 20
tm_keys NPage
ok "PgDn again: a page on, the last step here" tm_wait_for 'step 5: N=6 run 1' 20
tm_keys Home
ok "Home: the first step" tm_wait_for 'step 1: N=1 run 1' 20
tm_keys End
ok "End: the last step" tm_wait_for 'step 5: N=6 run 1' 20
# The wheel up over the table (row 6): the step before.
tm_keys -l "$(printf '\033[M`+&')"
ok "the wheel up over the steps selects the one before" tm_wait_for 'step 4: N=4 run 1' 20
# Ctrl-L: text another process wrote on the terminal stays until a full repaint.
printf '\033[20;30HGARBAGE-ON-SCREEN' >"$(tm display-message -p -t t '#{pane_tty}')"
sleep 0.3
ok "text written behind the TUI's back shows" tm_wait_for 'GARBAGE-ON-SCREEN' 20
tm_keys C-l
sleep 0.5
is "$(tm_screen | grep -c 'GARBAGE-ON-SCREEN')" 0 "Ctrl-L repaints the whole screen"
tm_keys q
tm_wait_exit

# A smaller terminal pages the help; a larger one shows it whole again.
tm_start 60 16 "$ST" replay "$CF"
tm_wait_for ' verdict: ' 50
tm_keys '?'
ok "60x16: the help says there is more" tm_wait_for 'page 1/3: space for more, or resize' 20
tm_keys ' '
ok "space turns the page" tm_wait_for 'page 2/3' 20
tm_resize 80 24
ok "resized to 80x24: one page" tm_wait_for 'press any key to close' 30
tm_keys x
# 60x16 shows three events of five: the wheel over the log scrolls it back.
tm_resize 60 16
tm_keys 4
tm_wait_for '9.5s step +N=6' 20
ev=$(tm_screen | grep -n '─ events' | cut -d: -f1)
tm_keys -l "$(printf '\033[M`+%b' "\\0$(printf '%o' $((32 + ev + 1)))")"
ok "the wheel up over the event log shows older events" tm_wait_for 'events \(2 newer\)' 20
ok "down to the oldest" tm_wait_for ' 1.5s step +N=1' 20
tm_keys q
tm_wait_exit

# --- --target in the TUI: the server's figures and waits ------------------------------
sleep 600 &
SLEEPER=$!
tm_start 120 40 "$ST" -w mutex -n 1,2 -d 0.5 --warmup 0.2 --refresh 0.2 --target "pid:$SLEEPER"
ok "a sweep with --target runs in the TUI" tm_wait_for 'sweep done: 2 steps' 300
ok "the contention panel has the target's CPU" tm_wait_for 'target CPUs' 20
ok "and its run delay" tm_wait_for 'tgt rdelay %' 20
tm_keys 5
ok "the waits view shows the target's panel first" tm_wait_for "waits: the target's thread-time at each N" 20
ok "and the workload's after it" tm_wait_for "waits: the workload's thread-time at each N" 20
tm_keys q
tm_wait_exit 50
kill "$SLEEPER" 2>/dev/null
wait "$SLEEPER" 2>/dev/null

# --- the N list, then a snapshot ------------------------------------------------------
cd "$T" || bail_out "cd $T"
tm_start 120 40 "$ST" $FAST -n 1
tm_wait_for 'sweep done: 1 step' 200
tm_keys n C-u '1,2' Enter
ok "n restarts the sweep with the new list" tm_wait_for 'step [12]/2' 100
ok "and it finishes" tm_wait_for 'sweep done: 2 steps' 300
tm_keys s C-u "$T/a.json" Enter
ok "s saves and names the file" tm_wait_for "saved $T/a.json" 50
if "$ST" show "$T/a.json" >"$T/show.out" 2>&1; then
	tap_result 0 "the snapshot loads (scaletop show)"
else
	tap_result 1 "the snapshot loads (scaletop show)"
	diag "$(cat "$T/show.out")"
fi
like "$(cat "$T/show.out")" '^ +2 ' "the snapshot has the N=2 step"
before=$(cksum <"$T/a.json")
tm_keys s C-u "$T/a.json" Enter
ok "saving over a file asks first" tm_wait_for 'exists: overwrite\? \(y/N\)' 50
tm_keys n
ok "no keeps the file" tm_wait_for "not saved: $T/a.json exists" 50
is "$(cksum <"$T/a.json")" "$before" "the file is unchanged"
cp "$T/a.json" "$T/b.json"
tm_keys o "$T/b.json" Enter
ok "o loads an overlay" tm_wait_for 'overlay b: 2 points' 50
like "$(tm_screen)" '■ b( |$)' "the overlay is in the chart's legend"
tm_keys o "$T/nope.json" Enter
ok "a missing file is one line, named" tm_wait_for "nope.json" 50
tm_keys c
ok "c clears the overlays" tm_wait_for 'overlays cleared' 50
tm_keys q
tm_wait_exit
is "$(ls "$T" | grep -c '\.tmp')" 0 "no temporary file is left"

# --- preferences: t and d are kept for the next start ------------------------------------
tm_start 120 40 "$ST" --monitor --refresh 1
tm_wait_for 'refresh 1s' 50
tm_keys t
ok "t switches the theme" tm_wait_for 'theme [a-z-]+' 50
theme=$(tm_screen | grep -Eo 'theme [a-z-]+' | head -n 1 | cut -d' ' -f2)
tm_keys d
ok "d changes the refresh" tm_wait_for 'refresh every 2 s' 50
tm_keys q
tm_wait_exit
like "$(cat "$T/config/scaletop/config" 2>/dev/null)" "theme = $theme" "the theme is saved in \$XDG_CONFIG_HOME/scaletop/config"
tm_start 120 40 "$ST" --monitor
ok "the saved refresh is used at the next start" tm_wait_for 'refresh 2s' 50
tm_keys q
tm_wait_exit

# --- --compare opens with overlays --------------------------------------------------
tm_start 120 40 "$ST" --compare "$T/a.json" "$T/b.json"
ok "--compare draws both snapshots" tm_wait_for '■ a .*■ b' 50
like "$(tm_screen)" 'idle: r runs the sweep' "--compare starts no sweep"
tm_keys q
tm_wait_exit

done_testing
